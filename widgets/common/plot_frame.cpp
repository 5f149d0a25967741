#include "widgets/common/plot_frame.h"

#include <QPicture>
#include <QVBoxLayout>
#include <qcustomplot.h>

namespace partita {

QCustomPlot* makeTitledPlot(QWidget* owner) {
    auto* plot = new QCustomPlot(owner);
    auto* layout = new QVBoxLayout(owner);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(plot);
    plot->setMinimumHeight(200);
    plot->plotLayout()->insertRow(0);
    plot->plotLayout()->addElement(0, 0, new QCPTextElement(plot, QString(), QFont(owner->font().family(), 11, QFont::Bold)));
    plot->legend->setVisible(true);
    plot->legend->setFont(QFont(owner->font().family(), 9));
    return plot;
}

void setPlotTitle(QCustomPlot* plot, const QString& title) {
    static_cast<QCPTextElement*>(plot->plotLayout()->element(0, 0))->setText(title);
}

void paintPlotFigure(QCustomPlot* plot, QPainter& painter, const QRect& area) {
    QPicture picture;
    {
        QCPPainter recorder(&picture);
        plot->toPainter(&recorder, area.width(), area.height());
    }
    painter.drawPicture(area.topLeft(), picture);
    plot->replot();  // toPainter re-laid the plot out at the figure's size
}

}  // namespace partita
