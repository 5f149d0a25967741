#include "widgets/llm/llm_figure.h"

#include <QHelpEvent>
#include <QPainter>
#include <QToolTip>

namespace partita {

LlmFigure::LlmFigure(const QString& name, QWidget* parent) : QWidget(parent) {
    setMouseTracking(true);
    setObjectName(name);
}

void LlmFigure::setShown(const LlmShown& shown) {
    shown_ = shown;
    stale_ = false;
    update();
}

void LlmFigure::setStale(bool stale) {
    stale_ = stale;
    update();
}

void LlmFigure::paintEvent(QPaintEvent*) {
    QPainter p(this);
    paintFigure(p, rect());
}

bool LlmFigure::beginFigure(QPainter& p, const QRect& area, const QString& empty) const {
    p.fillRect(area, Qt::white);
    p.setRenderHint(QPainter::Antialiasing);
    if (shown_) return true;
    p.setPen(Qt::darkGray);
    p.drawText(area, Qt::AlignCenter, empty);
    return false;
}

bool LlmFigure::event(QEvent* ev) {
    if (ev->type() != QEvent::ToolTip) return QWidget::event(ev);
    auto* help = static_cast<QHelpEvent*>(ev);
    const QString text = toolTipAt(help->pos());
    if (text.isEmpty()) QToolTip::hideText();
    else QToolTip::showText(help->globalPos(), text, this);
    return true;
}

}  // namespace partita
