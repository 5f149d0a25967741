// NetworkGraphView: the nodes, the layout (here or in a worker), zoom, pan and selection.
// Painting is in network_graph_paint.cpp, text (labels, tooltips, CSV, DOT) in network_graph_text.cpp.
#include "widgets/network/network_graph.h"

#include <algorithm>
#include <utility>

#include <QApplication>
#include <QElapsedTimer>
#include <QMouseEvent>
#include <QPointer>
#include <QThreadPool>

namespace partita {

NetworkGraphView::NetworkGraphView(QWidget* parent) : GraphCanvas(parent) {
    setObjectName("network-graph");
    setCursor(Qt::OpenHandCursor);
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
    const graphpaint::Fonts f = fonts();
    for (size_t i = 0; i < nodes_.size(); ++i) {
        const Node& n = nodes_[i];
        std::string id = n.op < 0 ? std::string("input") : inputs_->network.ops[static_cast<size_t>(n.op)].name;
        if (n.run >= 0) id = "repeat:" + id;  // not an operator's name
        // Graphs too large to draw have no labels built; their DOT text names the operators.
        const QStringList lines = n.lines.isEmpty() ? QStringList{QString::fromStdString(id)} : n.lines;
        std::vector<std::string> label;
        for (const QString& line : lines) label.push_back(line.toStdString());
        // A collapsed run adds its stacked cards and its strip of member colours.
        const double stack = n.run >= 0 ? 2 * kStack : 0;
        const double strip = n.run >= 0 ? kStrip + 3 : 0;
        const QSizeF size = graphpaint::nodeSize(lines, f);
        spec.nodes.push_back({id, std::move(label), size.width() + stack, std::ceil(size.height() + stack + strip), {}});
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
    relayoutView();
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
    for (const view::EdgeRoute& e : layout_.edges) paths_.push_back(graphpaint::splinePath(e.points));
}

// ---- view ------------------------------------------------------------------------------------------

QRectF NetworkGraphView::sceneRect() const {
    if (layout_.empty() || pending_ != 0) return {};
    return {0, 0, layout_.width, layout_.height};
}

double NetworkGraphView::anchorX() const { return layout_.nodes[0].x + layout_.nodes[0].w / 2; }

void NetworkGraphView::initialView() {
    GraphCanvas::initialView();
    if (selected_ >= 0 && follow_ == Follow::Initial && fitScale() < 0.75) ensureVisible(selected_);  // chosen while hidden
}

QRectF NetworkGraphView::nodeRect(int node) const {
    if (node < 0 || static_cast<size_t>(node) >= layout_.nodes.size()) return {};
    const view::Box& b = layout_.nodes[static_cast<size_t>(node)];
    return toWidget({b.x, b.y, b.w, b.h});
}

void NetworkGraphView::ensureVisible(int node) {
    if (node < 0 || static_cast<size_t>(node) >= layout_.nodes.size()) return;
    const view::Box& b = layout_.nodes[static_cast<size_t>(node)];
    GraphCanvas::ensureVisible({b.x, b.y, b.w, b.h});
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

void NetworkGraphView::clicked(QMouseEvent* event) {
    if (const int node = nodeAt(event->position()); node >= 0) select(node, true);
}

QString NetworkGraphView::toolTipAt(QPointF pos, QRect* area) const {
    const int node = nodeAt(pos);
    if (node < 0) return {};
    *area = nodeRect(node).toAlignedRect();
    return nodeToolTip(node);
}

}  // namespace partita
