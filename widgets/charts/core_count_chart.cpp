#include "widgets/charts/core_count_chart.h"

#include <algorithm>
#include <stdexcept>

#include <qcustomplot.h>

#include "core/util/format.h"
#include "widgets/common/plot_frame.h"
#include "widgets/geometry/palette.h"

namespace partita {

namespace {
QColor seriesColour(size_t i) {
    static const int order[] = {5, 6, 3, 7, 1};  // blue, vermillion, bluish green, purple, orange
    const view::Rgb c = view::okabeIto(order[i % 5]);
    return {c.r, c.g, c.b};
}
}  // namespace

CoreCountChart::CoreCountChart(QWidget* parent) : QWidget(parent), plot_(makeTitledPlot(this)) {
    plot_->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignLeft);
    plot_->xAxis->setScaleType(QCPAxis::stLogarithmic);
    auto ticker = QSharedPointer<QCPAxisTickerLog>::create();
    ticker->setLogBase(2);
    plot_->xAxis->setTicker(ticker);
}

void CoreCountChart::setData(CoreCountChartData data) {
    for (double x : data.x)
        if (!(x > 0)) throw std::invalid_argument("CoreCountChart: x must be positive");
    for (const auto& s : data.series)
        if (s.y.size() != data.x.size()) throw std::invalid_argument("CoreCountChart: series '" + s.name + "' has the wrong length");
    data_ = std::move(data);
    plot_->clearGraphs();
    setPlotTitle(plot_, QString::fromStdString(data_.title));
    double top = 0;
    for (size_t i = 0; i < data_.series.size(); ++i) {
        QCPGraph* g = plot_->addGraph();
        g->setName(QString::fromStdString(data_.series[i].name));
        g->setPen(QPen(seriesColour(i), 2));
        g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, seriesColour(i), Qt::white, 7));
        g->setData(QVector<double>(data_.x.begin(), data_.x.end()),
                   QVector<double>(data_.series[i].y.begin(), data_.series[i].y.end()));
        for (double y : data_.series[i].y) top = std::max(top, y);
    }
    plot_->xAxis->setLabel(QString::fromStdString(data_.x_label));
    plot_->yAxis->setLabel(QString::fromStdString(data_.y_label));
    if (!data_.x.empty()) plot_->xAxis->setRange(data_.x.front() / 1.4, data_.x.back() * 1.4);
    plot_->yAxis->setRange(0, top > 0 ? top * 1.3 : 1);  // headroom for the legend
    plot_->replot();
}

CsvTable CoreCountChart::csv() const {
    CsvTable t;
    t.header.push_back(data_.x_label);
    for (const auto& s : data_.series) t.header.push_back(s.name + " (" + data_.y_label + ")");
    for (size_t k = 0; k < data_.x.size(); ++k) {
        std::vector<std::string> row{formatNumber(data_.x[k])};
        for (const auto& s : data_.series) row.push_back(formatNumber(s.y[k]));
        t.rows.push_back(std::move(row));
    }
    return t;
}

void CoreCountChart::paintFigure(QPainter& painter, const QRect& area) const { paintPlotFigure(plot_, painter, area); }

}  // namespace partita
