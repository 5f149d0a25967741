#include "widgets/timeline/gantt_canvas.h"

#include <algorithm>
#include <cmath>

#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollBar>
#include <QToolTip>
#include <QWheelEvent>

namespace partita {

namespace {
constexpr double kClickSlackPx = 3;   // a press that moves less than this is a click
constexpr double kHitSlackPx = 3;     // how far beside a thin bar a click still hits it
constexpr double kWheelStep = 1.25;   // zoom per notch (120 units of angle delta)
}  // namespace

GanttCanvas::GanttCanvas(QWidget* parent) : QAbstractScrollArea(parent) {
    setFocusPolicy(Qt::StrongFocus);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    viewport()->setMouseTracking(true);
    viewport()->setCursor(Qt::OpenHandCursor);
    setMinimumSize(320, 200);
}

void GanttCanvas::setInput(std::shared_ptr<const view::GanttInput> input) {
    input_ = std::move(input);
    state_.selected_op = -1;
    rebuild();
    fitAll();
}

void GanttCanvas::rebuild() {
    std::vector<std::string> collapsed;
    for (const auto& g : layout_.groups())
        if (g.collapsed) collapsed.push_back(g.name);
    model_ = view::GanttModel(input_, hide_idle_);
    model_.setColouring(colouring_);
    frame_ = frame(viewport()->rect());
    auto groups = model_.groups();
    for (auto& g : groups) g.collapsed = std::find(collapsed.begin(), collapsed.end(), g.name) != collapsed.end();
    layout_ = view::LaneLayout(std::move(groups), frame_.row_height, frame_.header_height);
    relayout();
}

void GanttCanvas::relayout() {
    frame_ = frame(viewport()->rect());
    fitAxisToFrame(state_.axis, frame_);
    QScrollBar* bar = verticalScrollBar();
    bar->setRange(0, std::max(0, static_cast<int>(std::ceil(layout_.height())) - frame_.lanes.height()));
    bar->setPageStep(std::max(1, frame_.lanes.height()));
    bar->setSingleStep(static_cast<int>(frame_.row_height));
    state_.scroll = bar->value();
    viewport()->update();
}

void GanttCanvas::changed() {
    viewport()->update();
    emit viewChanged();
}

void GanttCanvas::setColouring(view::GanttColouring colouring) {
    colouring_ = colouring;
    model_.setColouring(colouring);
    changed();
}

void GanttCanvas::setCriticalPathShown(bool shown) {
    state_.show_critical = shown;
    changed();
}

void GanttCanvas::setIdleLinksHidden(bool hidden) {
    if (hidden == hide_idle_) return;
    hide_idle_ = hidden;
    rebuild();
    changed();
}

void GanttCanvas::setSelectedOperator(int op) {
    state_.selected_op = op;
    changed();
}

void GanttCanvas::setSelectedResource(int resource) {
    state_.selected_resource = resource;
    for (size_t l = 0; l < model_.lanes().size(); ++l) {
        if (model_.lanes()[l].resource != resource) continue;
        const int lane = static_cast<int>(l);
        for (size_t g = 0; g < layout_.groups().size(); ++g) {
            const auto& group = layout_.groups()[g];
            if (group.collapsed && lane >= group.first_lane && lane < group.first_lane + group.lane_count)
                setGroupCollapsed(static_cast<int>(g), false);
        }
        if (const auto top = layout_.laneTop(lane)) {
            QScrollBar* bar = verticalScrollBar();
            if (*top < bar->value() || *top + frame_.row_height > bar->value() + frame_.lanes.height())
                bar->setValue(static_cast<int>(*top - frame_.lanes.height() / 3.0));
        }
    }
    changed();
}

void GanttCanvas::fitAll() {
    state_.axis.fit(0, std::max(model_.makespan(), 1e-9), 0.01);
    fitAxisToFrame(state_.axis, frame_);
    changed();
}

void GanttCanvas::zoom(double factor, double anchor_x) {
    // Limits: a picosecond across the view (tasks are not shorter), or 100 runs wide.
    const double span = (state_.axis.t1 - state_.axis.t0) / factor;
    if (span < 1e-12 || span > 100 * std::max(model_.makespan(), 1e-9)) return;
    state_.axis.zoom(factor, anchor_x);
    changed();
}

void GanttCanvas::setGroupCollapsed(int group, bool collapsed) {
    if (group < 0 || group >= static_cast<int>(layout_.groups().size())) return;
    layout_.setCollapsed(group, collapsed);
    relayout();
    changed();
}

std::optional<QRectF> GanttCanvas::barRect(int lane, int index) const {
    const auto top = layout_.laneTop(lane);
    if (!top || index < 0 || index >= static_cast<int>(model_.bars(lane).size())) return std::nullopt;
    const auto& b = model_.bars(lane)[static_cast<size_t>(index)];
    const double x0 = state_.axis.toPixel(b.start), x1 = std::max(state_.axis.toPixel(b.end), x0 + 1);
    const double y = frame_.lanes.top() + *top - state_.scroll;
    return QRectF(QPointF(x0, y + 3), QPointF(x1, y + frame_.row_height - 3));
}

std::optional<QRectF> GanttCanvas::headerRect(int group) const {
    if (group < 0 || group >= static_cast<int>(layout_.groups().size())) return std::nullopt;
    const double y = frame_.lanes.top() + layout_.groupTop(group) - state_.scroll;
    return QRectF(frame_.labels.left(), y, frame_.labels.width() + frame_.lanes.width(), frame_.header_height);
}

std::optional<std::pair<int, int>> GanttCanvas::barAt(const QPointF& pos) const {
    if (!frame_.lanes.contains(pos.toPoint())) return std::nullopt;
    const auto hit = layout_.rowAt(pos.y() - frame_.lanes.top() + state_.scroll);
    if (!hit || hit->lane < 0) return std::nullopt;
    const double t = state_.axis.toTime(pos.x());
    const auto bar = model_.barAt(hit->lane, t, kHitSlackPx / state_.axis.pixelsPerSecond());
    if (!bar) return std::nullopt;
    return std::pair{hit->lane, *bar};
}

QString GanttCanvas::toolTipAt(const QPointF& pos) const {
    const auto bar = barAt(pos);
    return bar ? QString::fromStdString(model_.toolTip(bar->first, bar->second)) : QString();
}

void GanttCanvas::paintInto(QPainter& painter, const QRect& area) const {
    const GanttFrame f = frame(area);
    GanttPaintState s = state_;
    // The same time range, mapped onto the export's width; lanes from the top.
    fitAxisToFrame(s.axis, f);
    s.scroll = 0;
    s.whole_rows = true;
    paintGantt(painter, model_, layout_, f, s, font());
}

void GanttCanvas::paintEvent(QPaintEvent*) {
    QPainter p(viewport());
    paintGantt(p, model_, layout_, frame_, state_, font());
}

void GanttCanvas::resizeEvent(QResizeEvent* event) {
    QAbstractScrollArea::resizeEvent(event);
    relayout();
}

void GanttCanvas::scrollContentsBy(int, int) {
    state_.scroll = verticalScrollBar()->value();
    viewport()->update();
}

void GanttCanvas::wheelEvent(QWheelEvent* event) {
    if (event->modifiers() & Qt::ShiftModifier) {
        QAbstractScrollArea::wheelEvent(event);
        return;
    }
    const double notches = event->angleDelta().y() / 120.0;
    if (notches == 0) return;
    const double x = std::clamp(event->position().x(), state_.axis.x0, state_.axis.x1);
    zoom(std::pow(kWheelStep, notches), x);
    event->accept();
}

void GanttCanvas::mousePressEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton) return;
    pressed_ = true;
    dragging_ = false;
    press_pos_ = last_pos_ = event->position();
    viewport()->setCursor(Qt::ClosedHandCursor);
}

void GanttCanvas::mouseMoveEvent(QMouseEvent* event) {
    if (!pressed_) return;
    const QPointF pos = event->position();
    if (!dragging_ && (pos - press_pos_).manhattanLength() < kClickSlackPx) return;
    dragging_ = true;
    const QPointF d = pos - last_pos_;
    last_pos_ = pos;
    state_.axis.pan(d.x());
    verticalScrollBar()->setValue(verticalScrollBar()->value() - static_cast<int>(std::lround(d.y())));
    changed();
}

void GanttCanvas::mouseReleaseEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton || !pressed_) return;
    pressed_ = false;
    viewport()->setCursor(Qt::OpenHandCursor);
    if (dragging_) return;
    const QPointF pos = event->position();
    if (pos.y() >= frame_.labels.top() && pos.y() < frame_.labels.bottom()) {
        const auto row = layout_.rowAt(pos.y() - frame_.lanes.top() + state_.scroll);
        if (row && row->lane < 0) {
            setGroupCollapsed(row->group, !layout_.groups()[static_cast<size_t>(row->group)].collapsed);
            return;
        }
        if (row && pos.x() < frame_.labels.right()) {
            const int resource = model_.lanes()[static_cast<size_t>(row->lane)].resource;
            setSelectedResource(resource);
            emit resourceClicked(resource);
            return;
        }
    }
    if (const auto bar = barAt(pos)) {
        const int op = model_.record(bar->first, bar->second).op;
        setSelectedOperator(op);
        emit operatorClicked(op);
    } else if (frame_.lanes.contains(pos.toPoint())) {
        setSelectedOperator(-1);
    }
}

void GanttCanvas::keyPressEvent(QKeyEvent* event) {
    const double mid = (state_.axis.x0 + state_.axis.x1) / 2;
    switch (event->key()) {
    case Qt::Key_F:
    case Qt::Key_Home: fitAll(); break;
    case Qt::Key_Plus:
    case Qt::Key_Equal: zoom(kWheelStep * kWheelStep, mid); break;
    case Qt::Key_Minus: zoom(1 / (kWheelStep * kWheelStep), mid); break;
    case Qt::Key_Left: state_.axis.pan(frame_.lanes.width() / 8.0); changed(); break;
    case Qt::Key_Right: state_.axis.pan(-frame_.lanes.width() / 8.0); changed(); break;
    case Qt::Key_Escape: setSelectedOperator(-1); break;
    default: QAbstractScrollArea::keyPressEvent(event);
    }
}

bool GanttCanvas::viewportEvent(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        const auto* help = static_cast<QHelpEvent*>(event);
        if (const QString text = toolTipAt(help->pos()); !text.isEmpty()) {
            QToolTip::showText(help->globalPos(), text, viewport());
        } else {
            QToolTip::hideText();
            event->ignore();
        }
        return true;
    }
    return QAbstractScrollArea::viewportEvent(event);
}

}  // namespace partita
