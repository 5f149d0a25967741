#include "widgets/common/graph_canvas.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include <QApplication>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <QWheelEvent>

#include "widgets/common/qt_text.h"

namespace partita {

namespace {
constexpr double kMaxScale = 4, kReadableScale = 0.75;
const QColor kFrame(0, 114, 178);  // Okabe-Ito blue, as the selection
}  // namespace

GraphCanvas::GraphCanvas(QWidget* parent) : QWidget(parent) {
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
}

QRectF GraphCanvas::graphArea() const {
    const QRectF r = rect();
    return r.adjusted(0, headerHeight(r.width()), 0, 0);
}

QRectF GraphCanvas::toWidget(const QRectF& s) const {
    return {offset_ + s.topLeft() * scale_, s.size() * scale_};
}

double GraphCanvas::fitScale() const {
    const QRectF s = sceneRect();
    if (s.isEmpty()) return 1;
    const QRectF a = graphArea().adjusted(12, 12, -12, -12);
    return std::min({a.width() / std::max(s.width(), 1.0), a.height() / std::max(s.height(), 1.0), kMaxScale});
}

void GraphCanvas::fit() {
    const QRectF s = sceneRect();
    if (s.isEmpty()) return;
    scale_ = std::clamp(fitScale(), 0.01, 1.0);
    offset_ = graphArea().center() - s.center() * scale_;
    follow_ = Follow::Fit;
    update();
}

void GraphCanvas::relayoutView() {
    follow_ = Follow::Initial;
    initialView();
}

void GraphCanvas::resizeEvent(QResizeEvent*) {
    if (sceneRect().isEmpty()) return;
    if (follow_ == Follow::Initial) return initialView();
    if (follow_ == Follow::Fit) return fit();
    clampOffset();
}

void GraphCanvas::initialView() {
    const QRectF s = sceneRect();
    if (s.isEmpty()) return update();
    if (fitScale() >= kReadableScale) {
        fit();
        follow_ = Follow::Initial;
        return;
    }
    const QRectF a = graphArea();
    scale_ = std::min(1.0, std::max(kReadableScale, (a.width() - 24) / std::max(s.width(), 1.0)));
    const double x_centre = s.width() * scale_ <= a.width() - 24 ? s.center().x() : anchorX();
    offset_ = QPointF(a.center().x() - x_centre * scale_, a.top() + 12 - s.top() * scale_);
    // Moved left, clear of the overview, as far as the widget's left edge allows.
    if (const QRectF o = overviewRect(); !o.isEmpty()) {
        const double over = offset_.x() + s.right() * scale_ - (o.left() - 10);
        const double room = offset_.x() + s.left() * scale_ - (a.left() + 8);
        if (over > 0 && room > 0) offset_.setX(offset_.x() - std::min(over, room));
    }
    clampOffset();
    update();
}

void GraphCanvas::clampOffset() {
    const QRectF s = sceneRect();
    if (s.isEmpty()) return;
    // Some of the drawing always stays in view.
    const QRectF a = graphArea();
    const QRectF d = toWidget(s);
    const double keep = 60;
    offset_.setX(offset_.x() + std::clamp(d.left(), a.left() + keep - d.width(), a.right() - keep) - d.left());
    offset_.setY(offset_.y() + std::clamp(d.top(), a.top() + keep - d.height(), a.bottom() - keep) - d.top());
}

void GraphCanvas::zoomBy(double factor, QPointF anchor) {
    if (sceneRect().isEmpty()) return;
    const double next = std::clamp(scale_ * factor, std::min(fitScale(), 0.05), kMaxScale);
    const QPointF scene = toScene(anchor);
    scale_ = next;
    offset_ = anchor - scene * scale_;
    follow_ = Follow::None;
    clampOffset();
    update();
}

void GraphCanvas::zoomIn() { zoomBy(1.25, graphArea().center()); }
void GraphCanvas::zoomOut() { zoomBy(0.8, graphArea().center()); }

void GraphCanvas::centreOn(QPointF scene) {
    offset_ = graphArea().center() - scene * scale_;
    follow_ = Follow::None;
    clampOffset();
    update();
}

void GraphCanvas::panBy(QPointF delta) {
    offset_ += delta;
    follow_ = Follow::None;
    clampOffset();
    update();
}

void GraphCanvas::ensureVisible(const QRectF& scene) {
    const QRectF r = toWidget(scene);
    const QRectF a = graphArea().adjusted(20, 20, -20, -20);
    if (r.isEmpty() || a.contains(r)) return;
    offset_ += a.center() - r.center();
    // Centred, but with no empty band beyond one end of the drawing while the other end is cut off.
    const QRectF fill = graphArea().adjusted(12, 12, -12, -12), s = toWidget(sceneRect());
    if (s.height() > fill.height()) offset_.setY(std::clamp(offset_.y(), offset_.y() + fill.bottom() - s.bottom(), offset_.y() + fill.top() - s.top()));
    if (s.width() > fill.width()) offset_.setX(std::clamp(offset_.x(), offset_.x() + fill.right() - s.right(), offset_.x() + fill.left() - s.left()));
    clampOffset();
}

// ---- the overview ----------------------------------------------------------------------------------

double GraphCanvas::overviewScale() const {
    // At most 170 px wide, a quarter of the width and half the height: it never hides much of the graph.
    const QRectF a = graphArea(), s = sceneRect();
    const double w = std::min(170.0, a.width() / 4), h = a.height() / 2;
    return std::min({w / std::max(s.width(), 1.0), h / std::max(s.height(), 1.0), 0.5});
}

QRectF GraphCanvas::overviewRect() const {
    const QRectF s = sceneRect();
    if (s.isEmpty()) return {};
    const QRectF a = graphArea();
    if (a.adjusted(-1, -1, 1, 1).contains(toWidget(s)) || a.width() < 360 || a.height() < 120) return {};
    const double m = overviewScale();
    const QSizeF size(s.width() * m + 8, s.height() * m + 8);
    return {QPointF(a.right() - 10 - size.width(), a.top() + 10), size};
}

void GraphCanvas::paintOverview(QPainter& p) const {
    const QRectF box = overviewRect();
    if (box.isEmpty()) return;
    const double m = overviewScale();
    const QRectF s = sceneRect();
    p.save();
    p.setRenderHint(QPainter::Antialiasing, true);
    p.setPen(QPen(QColor(190, 190, 190), 1));
    p.setBrush(QColor(255, 255, 255, 235));
    p.drawRect(box);
    p.setClipRect(box);
    p.translate(box.topLeft() + QPointF(4, 4));
    p.scale(m, m);
    p.translate(-s.topLeft());
    paintOverviewScene(p);
    // The part of the drawing in view.
    const QRectF a = graphArea();
    QPen frame(kFrame, 1.5);
    frame.setCosmetic(true);
    p.setPen(frame);
    p.setBrush(QColor(0, 114, 178, 30));
    p.drawRect(QRectF(toScene(a.topLeft()), a.size() / scale_));
    p.restore();
}

// ---- input ---------------------------------------------------------------------------------------

bool GraphCanvas::startsPan(const QMouseEvent& event) const { return event.button() == Qt::LeftButton; }

void GraphCanvas::wheelEvent(QWheelEvent* event) {
    const double steps = event->angleDelta().y() / 120.0;
    if (steps != 0) zoomBy(std::pow(1.15, steps), event->position());
    event->accept();
}

void GraphCanvas::mousePressEvent(QMouseEvent* event) {
    const QRectF overview = overviewRect();
    if (event->button() == Qt::LeftButton && overview.contains(event->position())) {
        pressed_ = in_overview_ = true;
        centreOn((event->position() - overview.topLeft() - QPointF(4, 4)) / overviewScale() + sceneRect().topLeft());
        return;
    }
    if (!startsPan(*event)) return QWidget::mousePressEvent(event);
    pressed_ = true;
    panning_ = false;
    press_pos_ = event->position().toPoint();
    press_offset_ = offset_;
    rest_cursor_ = cursor();
    setFocus(Qt::MouseFocusReason);
}

void GraphCanvas::mouseMoveEvent(QMouseEvent* event) {
    if (!pressed_) return QWidget::mouseMoveEvent(event);
    if (in_overview_) {
        const QRectF overview = overviewRect();
        if (!overview.isEmpty())
            centreOn((event->position() - overview.topLeft() - QPointF(4, 4)) / overviewScale() + sceneRect().topLeft());
        return;
    }
    const QPoint delta = event->position().toPoint() - press_pos_;
    if (!panning_ && delta.manhattanLength() < QApplication::startDragDistance()) return;
    if (!panning_) setCursor(Qt::ClosedHandCursor);
    panning_ = true;
    offset_ = press_offset_ + delta;
    follow_ = Follow::None;
    clampOffset();
    update();
}

void GraphCanvas::mouseReleaseEvent(QMouseEvent* event) {
    if (!pressed_) return QWidget::mouseReleaseEvent(event);
    pressed_ = false;
    if (std::exchange(in_overview_, false)) return;
    setCursor(rest_cursor_);
    if (!std::exchange(panning_, false)) clicked(event);
}

void GraphCanvas::keyPressEvent(QKeyEvent* event) {
    switch (event->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal: return zoomIn();
    case Qt::Key_Minus: return zoomOut();
    case Qt::Key_0:
    case Qt::Key_F: return fit();
    case Qt::Key_Left: return panBy({60, 0});
    case Qt::Key_Right: return panBy({-60, 0});
    case Qt::Key_Up: return panBy({0, 60});
    case Qt::Key_Down: return panBy({0, -60});
    default: QWidget::keyPressEvent(event);
    }
}

bool GraphCanvas::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        QRect area;
        const QString tip = toolTipAt(help->pos(), &area);
        if (tip.isEmpty()) {
            QToolTip::hideText();
            event->ignore();
            return true;
        }
        QToolTip::showText(help->globalPos(), tip, this, area);
        return true;
    }
    return QWidget::event(event);
}

}  // namespace partita
