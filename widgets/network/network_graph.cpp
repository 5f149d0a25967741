// NetworkGraphView: the nodes, the layout (here or in a worker), zoom, pan and selection.
// Painting is in network_graph_paint.cpp, text (labels, tooltips, CSV, DOT) in network_graph_text.cpp.
#include "widgets/network/network_graph.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include <QApplication>
#include <QElapsedTimer>
#include <QFontMetricsF>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPointer>
#include <QThreadPool>
#include <QToolTip>
#include <QWheelEvent>

namespace partita {

namespace {
constexpr double kMaxScale = 4, kReadableScale = 0.75;
constexpr double kPadX = 8, kPadY = 5, kMinNodeW = 84;
}  // namespace

NetworkGraphView::NetworkGraphView(QWidget* parent) : QWidget(parent) {
    setObjectName("network-graph");
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setCursor(Qt::OpenHandCursor);
}

NetworkGraphView::Fonts NetworkGraphView::fonts() const {
    // Pixel sizes: the layout measured here holds on every export device.
    auto sized = [this](int px, bool bold) {
        QFont f = font();
        f.setPixelSize(px);
        f.setBold(bold);
        return f;
    };
    return {sized(12, true), sized(11, false), sized(13, true), sized(12, false)};
}

void NetworkGraphView::setInputs(const InputsPtr& inputs) {
    const bool same_network = inputs_ && inputs && inputs_->network.name == inputs->network.name &&
                              inputs_->network.ops.size() == inputs->network.ops.size();
    if (!same_network) selected_op_ = kNoOp;
    inputs_ = inputs;
    findRuns();
    buildNodes();
    selected_ = selected_op_ != kNoOp ? nodeOfOperator(selected_op_) : -1;
    startLayout();  // returns at once when the drawing is unchanged
    if (level_ >= levels()) level_ = 0;
    recolour();
    emit runChanged();
}

void NetworkGraphView::setRun(const RunPtr& run) {
    run_ = run;
    if (level_ >= levels()) level_ = 0;
    recolour();
    emit runChanged();
}

bool NetworkGraphView::runMatches() const {
    if (!run_ || !run_->inputs || !inputs_) return false;
    const RunInputs& r = *run_->inputs;
    return r.network.name == inputs_->network.name && r.layers.size() == inputs_->layers.size() &&
           run_->grid.layers() == static_cast<int>(inputs_->layers.size());
}

int NetworkGraphView::levels() const { return runMatches() ? run_->grid.levels() : 0; }

bool NetworkGraphView::colourModeAvailable(ColourMode mode) const {
    switch (mode) {
    case ColourMode::Partition: return levels() > 0;
    case ColourMode::Communication: {
        if (levels() == 0) return false;
        const Evaluation& ev = run_->shown();
        const size_t cells = static_cast<size_t>(ev.levels) * static_cast<size_t>(ev.layers);
        return ev.layers == run_->grid.layers() && ev.levels > 0 && ev.layer_intra.size() == cells &&
               ev.layer_inter.size() == cells;
    }
    case ColourMode::Macs:
    case ColourMode::Weights: return true;
    }
    return false;
}

void NetworkGraphView::setColourMode(ColourMode mode) {
    mode_ = preferred_ = mode;
    recolour();
}

void NetworkGraphView::setLevel(int level) {
    level_ = std::clamp(level, 0, std::max(levels() - 1, 0));
    recolour();
}

view::GraphSpec NetworkGraphView::layoutSpec() const {
    view::GraphSpec spec;
    const Fonts f = fonts();
    const QFontMetricsF name(f.name), detail(f.detail);
    for (size_t i = 0; i < nodes_.size(); ++i) {
        const Node& n = nodes_[i];
        std::string id = n.op < 0 ? std::string("input") : inputs_->network.ops[static_cast<size_t>(n.op)].name;
        if (n.run >= 0) id = "repeat:" + id;  // not an operator's name
        // Graphs too large to draw have no labels built; their DOT text names the operators.
        const QStringList lines = n.lines.isEmpty() ? QStringList{QString::fromStdString(id)} : n.lines;
        const double stack = n.run >= 0 ? 2 * kStack : 0;  // a collapsed run's cards and strip
        const double strip = n.run >= 0 ? kStrip + 3 : 0;
        double w = 0;
        std::vector<std::string> label;
        for (int k = 0; k < lines.size(); ++k) {
            w = std::max(w, (k == 0 ? name : detail).horizontalAdvance(lines[k]));
            label.push_back(lines[k].toStdString());
        }
        const double h = name.height() + static_cast<double>(lines.size() - 1) * (detail.height() + kLineGap) + 2 * kPadY;
        spec.nodes.push_back({id, std::move(label), std::max(kMinNodeW, std::ceil(w + 2 * kPadX)) + stack,
                              std::ceil(h + stack + strip), {}});
    }
    spec.edges = edges_;
    return spec;
}

void NetworkGraphView::startLayout() {
    if (nodes_.size() > view::kMaxLayoutNodes) {
        ++generation_;
        pending_ = 0;
        spec_ = {};
        layout_ = {};
        paths_.clear();
        problem_ = tr("%1 nodes: too many to draw (at most %2). The table lists every operator.")
                       .arg(nodes_.size())
                       .arg(view::kMaxLayoutNodes);
        if (!runs_.empty() && !allCollapsed()) problem_ += tr(" Collapse repeats to draw fewer nodes.");
        update();
        return;
    }
    view::GraphSpec spec = layoutSpec();
    if (spec == spec_ && (!layout_.empty() || pending_ != 0 || !problem_.isEmpty())) return;
    spec_ = spec;
    const std::uint64_t generation = ++generation_;
    if (spec.nodes.empty()) return applyLayout(generation, {}, {});
    const auto run = [](const view::GraphSpec& s, QString* problem) {
        try {
            return view::layoutGraph(s);
        } catch (const std::exception& e) {
            *problem = tr("Graphviz could not lay out this network: %1").arg(QString::fromStdString(e.what()));
            return view::GraphLayout{};
        }
    };
    if (static_cast<int>(spec.nodes.size()) <= kSyncLayoutNodes) {
        QString problem;
        view::GraphLayout layout = run(spec, &problem);
        return applyLayout(generation, std::move(layout), problem);
    }
    pending_ = generation;
    layout_ = {};
    paths_.clear();
    problem_.clear();
    update();
    // The result comes back through the application object, so a view deleted meanwhile is never touched.
    QPointer<NetworkGraphView> self(this);
    QThreadPool::globalInstance()->start([self, generation, spec = std::move(spec), run] {
        QString problem;
        view::GraphLayout layout = run(spec, &problem);
        QMetaObject::invokeMethod(
            qApp,
            [self, generation, layout = std::move(layout), problem]() mutable {
                if (self) self->applyLayout(generation, std::move(layout), problem);
            },
            Qt::QueuedConnection);
    });
}

void NetworkGraphView::applyLayout(std::uint64_t generation, view::GraphLayout layout, QString problem) {
    if (generation != generation_) return;  // a newer request supersedes this one
    pending_ = 0;
    layout_ = std::move(layout);
    problem_ = problem;
    buildPaths();
    follow_ = Follow::Initial;
    initialView();
    update();
    emit layoutFinished();
}

bool NetworkGraphView::waitForLayout(int timeout_ms) {
    QElapsedTimer timer;
    timer.start();
    while (pending_ != 0 && timer.elapsed() < timeout_ms) QApplication::processEvents(QEventLoop::AllEvents, 20);
    return pending_ == 0;
}

void NetworkGraphView::buildPaths() {
    paths_.clear();
    for (const view::EdgeRoute& e : layout_.edges) {
        QPainterPath path(QPointF(e.points[0].x, e.points[0].y));
        for (size_t k = 1; k + 2 < e.points.size(); k += 3)
            path.cubicTo(e.points[k].x, e.points[k].y, e.points[k + 1].x, e.points[k + 1].y, e.points[k + 2].x,
                         e.points[k + 2].y);
        paths_.push_back(path);
    }
}

// ---- view transform -----------------------------------------------------------------------------

QRectF NetworkGraphView::graphArea() const {
    const QRectF r = rect();
    return r.adjusted(0, headerHeight(r.width()), 0, 0);
}

double NetworkGraphView::fitScale() const {
    if (layout_.empty()) return 1;
    const QRectF a = graphArea().adjusted(12, 12, -12, -12);
    return std::min({a.width() / std::max(layout_.width, 1.0), a.height() / std::max(layout_.height, 1.0), kMaxScale});
}

void NetworkGraphView::fit() {
    if (layout_.empty()) return;
    const QRectF a = graphArea();
    scale_ = std::clamp(fitScale(), 0.01, 1.0);
    offset_ = a.center() - QPointF(layout_.width, layout_.height) * scale_ / 2;
    follow_ = Follow::Fit;
    update();
}

void NetworkGraphView::resizeEvent(QResizeEvent*) {
    if (layout_.empty()) return;
    if (follow_ == Follow::Initial) return initialView();
    if (follow_ == Follow::Fit) return fit();
    clampOffset();
}

void NetworkGraphView::initialView() {
    if (layout_.empty()) return update();
    // A graph that reads when fitted is fitted; a taller one starts readable at its top.
    if (fitScale() >= kReadableScale) {
        fit();
        follow_ = Follow::Initial;
        return;
    }
    const QRectF a = graphArea();
    scale_ = std::min(1.0, std::max(kReadableScale, (a.width() - 24) / std::max(layout_.width, 1.0)));
    const double x_centre = layout_.width * scale_ <= a.width() - 24 ? layout_.width / 2
                                                                      : layout_.nodes[0].x + layout_.nodes[0].w / 2;
    offset_ = QPointF(a.center().x() - x_centre * scale_, a.top() + 12);
    clampOffset();
    if (selected_ >= 0) ensureVisible(selected_);  // chosen (from the grid) while the tab was hidden
    update();
}

void NetworkGraphView::clampOffset() {
    if (layout_.empty()) return;
    // Some of the graph always stays in view.
    const QRectF a = graphArea();
    const double w = layout_.width * scale_, h = layout_.height * scale_, keep = 60;
    offset_.setX(std::clamp(offset_.x(), a.left() + keep - w, a.right() - keep));
    offset_.setY(std::clamp(offset_.y(), a.top() + keep - h, a.bottom() - keep));
}

void NetworkGraphView::zoomBy(double factor, QPointF anchor) {
    if (layout_.empty()) return;
    const double next = std::clamp(scale_ * factor, std::min(fitScale(), 0.05), kMaxScale);
    const QPointF scene = (anchor - offset_) / scale_;
    scale_ = next;
    offset_ = anchor - scene * scale_;
    follow_ = Follow::None;
    clampOffset();
    update();
}

void NetworkGraphView::zoomIn() { zoomBy(1.25, graphArea().center()); }
void NetworkGraphView::zoomOut() { zoomBy(0.8, graphArea().center()); }

void NetworkGraphView::centreOn(QPointF scene) {
    offset_ = graphArea().center() - scene * scale_;
    follow_ = Follow::None;
    clampOffset();
    update();
}

double NetworkGraphView::overviewScale() const {
    const QRectF a = graphArea();
    return std::min({170 / std::max(layout_.width, 1.0), (a.height() - 24) / std::max(layout_.height, 1.0), 0.5});
}

QRectF NetworkGraphView::overviewRect() const {
    if (layout_.empty() || pending_ != 0) return {};
    const QRectF a = graphArea();
    const QRectF drawn(offset_, QSizeF(layout_.width, layout_.height) * scale_);
    if (a.adjusted(-1, -1, 1, 1).contains(drawn) || a.width() < 360 || a.height() < 120) return {};
    const double m = overviewScale();
    const QSizeF size(layout_.width * m + 8, layout_.height * m + 8);
    return {QPointF(a.right() - 10 - size.width(), a.top() + 10), size};
}

void NetworkGraphView::panBy(QPointF delta) {
    offset_ += delta;
    follow_ = Follow::None;
    clampOffset();
    update();
}

QRectF NetworkGraphView::nodeRect(int node) const {
    if (node < 0 || static_cast<size_t>(node) >= layout_.nodes.size()) return {};
    const view::Box& b = layout_.nodes[static_cast<size_t>(node)];
    return {offset_.x() + b.x * scale_, offset_.y() + b.y * scale_, b.w * scale_, b.h * scale_};
}

void NetworkGraphView::ensureVisible(int node) {
    const QRectF r = nodeRect(node);
    const QRectF a = graphArea().adjusted(20, 20, -20, -20);
    if (r.isEmpty() || a.contains(r)) return;
    offset_ += a.center() - r.center();
    // Centred, but with no empty band beyond one end of the graph while the other end is cut off.
    const QRectF fill = graphArea().adjusted(12, 12, -12, -12);
    const double w = layout_.width * scale_, h = layout_.height * scale_;
    if (h > fill.height()) offset_.setY(std::clamp(offset_.y(), fill.bottom() - h, fill.top()));
    if (w > fill.width()) offset_.setX(std::clamp(offset_.x(), fill.right() - w, fill.left()));
    clampOffset();
}

// ---- selection and input -------------------------------------------------------------------------

int NetworkGraphView::nodeOfLayer(int layer) const {
    if (!inputs_ || layer < 0 || static_cast<size_t>(layer) >= inputs_->layers.size()) return -1;
    const int op = inputs_->layers[static_cast<size_t>(layer)].op_id;
    return op >= 0 ? nodeOfOperator(op) : -1;
}

int NetworkGraphView::layerOfNode(int node) const {
    return node >= 0 && node < nodeCount() ? nodes_[static_cast<size_t>(node)].layer : -1;
}

int NetworkGraphView::nodeAt(QPointF pos) const {
    if (pos.y() < graphArea().top()) return -1;
    for (size_t i = 0; i < layout_.nodes.size(); ++i)
        if (nodeRect(static_cast<int>(i)).contains(pos)) return static_cast<int>(i);
    return -1;
}

void NetworkGraphView::select(int node, bool notify) {
    selected_ = node >= 0 && node < nodeCount() ? node : -1;
    // A collapsed run's node keeps the member operator it was chosen by (the grid's layer).
    if (selected_ < 0 || nodeOfOperator(selected_op_) != selected_) selected_op_ = selected_ < 0 ? kNoOp : operatorOfNode(selected_);
    if (selected_ >= 0) ensureVisible(selected_);
    update();
    if (!notify || selected_ < 0) return;
    emit operatorSelected(selected_op_);
    // A collapsed run chosen by its node stands for its first weighted layer in the grid.
    int layer = layerOfOperator(selected_op_);
    if (const int run = runOfNode(selected_); run >= 0)
        for (int op = runs_[static_cast<size_t>(run)].first_op; layer < 0 && op <= runs_[static_cast<size_t>(run)].lastOp(); ++op)
            layer = layerOfOperator(op);
    if (layer >= 0) emit layerSelected(layer);
}

void NetworkGraphView::selectLayer(int layer) {
    if (nodeOfLayer(layer) < 0) return;
    selected_op_ = inputs_->layers[static_cast<size_t>(layer)].op_id;
    if (nodeOfLayer(layer) != selected_) select(nodeOfLayer(layer), false);
}

void NetworkGraphView::selectOperator(int op) {
    selected_op_ = op < -1 ? kNoOp : op;
    select(op < -1 ? -1 : nodeOfOperator(op), false);
}

void NetworkGraphView::wheelEvent(QWheelEvent* event) {
    const double steps = event->angleDelta().y() / 120.0;
    if (steps != 0) zoomBy(std::pow(1.15, steps), event->position());
    event->accept();
}

void NetworkGraphView::mousePressEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton) return QWidget::mousePressEvent(event);
    pressed_ = true;
    dragging_ = false;
    press_pos_ = event->position().toPoint();
    press_offset_ = offset_;
    setFocus(Qt::MouseFocusReason);
    const QRectF overview = overviewRect();
    in_overview_ = overview.contains(event->position());
    if (in_overview_) centreOn((event->position() - overview.topLeft() - QPointF(4, 4)) / overviewScale());
}

void NetworkGraphView::mouseMoveEvent(QMouseEvent* event) {
    if (!pressed_) return;
    if (in_overview_) {
        const QRectF overview = overviewRect();
        if (!overview.isEmpty()) centreOn((event->position() - overview.topLeft() - QPointF(4, 4)) / overviewScale());
        return;
    }
    const QPoint delta = event->position().toPoint() - press_pos_;
    if (!dragging_ && delta.manhattanLength() < QApplication::startDragDistance()) return;
    if (!dragging_) setCursor(Qt::ClosedHandCursor);
    dragging_ = true;
    offset_ = press_offset_ + delta;
    follow_ = Follow::None;
    clampOffset();
    update();
}

void NetworkGraphView::mouseReleaseEvent(QMouseEvent* event) {
    if (!pressed_ || event->button() != Qt::LeftButton) return QWidget::mouseReleaseEvent(event);
    pressed_ = false;
    setCursor(Qt::OpenHandCursor);
    if (std::exchange(in_overview_, false)) return;
    if (!dragging_)
        if (const int node = nodeAt(event->position()); node >= 0) select(node, true);
    dragging_ = false;
}

void NetworkGraphView::keyPressEvent(QKeyEvent* event) {
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

bool NetworkGraphView::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const int node = nodeAt(help->pos());
        if (node < 0) {
            QToolTip::hideText();
            event->ignore();
            return true;
        }
        QToolTip::showText(help->globalPos(), nodeToolTip(node), this, nodeRect(node).toAlignedRect());
        return true;
    }
    return QWidget::event(event);
}

}  // namespace partita
