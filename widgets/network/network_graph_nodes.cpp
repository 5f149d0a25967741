// NetworkGraphView's nodes and edges: one per operator, or one per collapsed run of repeated
// blocks; collapsing and expanding runs (double-click, context menu, all at once).
#include <set>
#include <utility>

#include <QContextMenuEvent>
#include <QMenu>
#include <QMouseEvent>

#include "widgets/network/network_graph.h"

namespace partita {

void NetworkGraphView::findRuns() {
    const size_t ops = inputs_ ? inputs_->network.ops.size() : 0;
    std::vector<RepeatedRun> runs = inputs_ ? repeatedRuns(inputs_->network) : std::vector<RepeatedRun>{};
    if (runs != runs_ || collapsed_.size() != runs.size()) {
        runs_ = std::move(runs);
        collapsed_.assign(runs_.size(), collapse_all_);
    }
    run_of_op_.assign(ops, -1);
    for (size_t r = 0; r < runs_.size(); ++r)
        for (int op = runs_[r].first_op; op <= runs_[r].lastOp(); ++op) run_of_op_[static_cast<size_t>(op)] = static_cast<int>(r);
}

void NetworkGraphView::buildNodes() {
    nodes_.clear();
    edges_.clear();
    node_of_op_.clear();
    layer_of_op_.clear();
    if (!inputs_) return;
    const Network& net = inputs_->network;
    const int n = static_cast<int>(net.ops.size());
    layer_of_op_.assign(static_cast<size_t>(n), -1);
    for (size_t l = 0; l < inputs_->layers.size(); ++l)
        if (const int op = inputs_->layers[l].op_id; op >= 0 && op < n) layer_of_op_[static_cast<size_t>(op)] = static_cast<int>(l);
    node_of_op_.assign(static_cast<size_t>(n) + 1, 0);
    nodes_.push_back({-1, -1, -1, {}});
    for (int i = 0; i < n; ++i) {
        const int run = run_of_op_[static_cast<size_t>(i)];
        if (run < 0 || !collapsed_[static_cast<size_t>(run)])
            nodes_.push_back({i, layer_of_op_[static_cast<size_t>(i)], -1, {}});
        else if (i == runs_[static_cast<size_t>(run)].first_op)
            nodes_.push_back({i, -1, run, {}});
        node_of_op_[static_cast<size_t>(i) + 1] = nodeCount() - 1;  // runs are contiguous in operator order
    }
    // Edges inside a collapsed run vanish; a run meets a neighbour once (a block's entry feeds it twice).
    std::set<std::pair<int, int>> joined;
    for (int i = 0; i < n; ++i)
        for (int from : net.ops[static_cast<size_t>(i)].input_ids) {
            const int a = node_of_op_[static_cast<size_t>(from + 1)], b = node_of_op_[static_cast<size_t>(i + 1)];
            if (a == b) continue;
            if ((nodes_[static_cast<size_t>(a)].run >= 0 || nodes_[static_cast<size_t>(b)].run >= 0) && !joined.insert({a, b}).second)
                continue;
            edges_.push_back({a, b});
        }
    // Labels are built only for drawable graphs (a million operators would take seconds to measure).
    if (nodes_.size() > view::kMaxLayoutNodes) return;
    for (Node& node : nodes_) node.lines = nodeLinesFor(node);
}

void NetworkGraphView::rebuild() {
    buildNodes();
    selected_ = selected_op_ != kNoOp ? nodeOfOperator(selected_op_) : -1;
    startLayout();
    recolour();
    emit collapsedChanged();
}

int NetworkGraphView::nodeOfOperator(int op) const {
    const size_t i = static_cast<size_t>(op + 1);
    return op >= -1 && i < node_of_op_.size() ? node_of_op_[i] : -1;
}

int NetworkGraphView::layerOfOperator(int op) const {
    return op >= 0 && static_cast<size_t>(op) < layer_of_op_.size() ? layer_of_op_[static_cast<size_t>(op)] : -1;
}

int NetworkGraphView::operatorOfNode(int node) const {
    return node >= 0 && node < nodeCount() ? nodes_[static_cast<size_t>(node)].op : -1;
}

std::vector<QColor> NetworkGraphView::nodeStripes(int node) const {
    return node >= 0 && static_cast<size_t>(node) < stripes_.size() ? stripes_[static_cast<size_t>(node)] : std::vector<QColor>{};
}

int NetworkGraphView::runOfNode(int node) const {
    return node >= 0 && node < nodeCount() ? nodes_[static_cast<size_t>(node)].run : -1;
}

int NetworkGraphView::runOfOperator(int op) const {
    return op >= 0 && static_cast<size_t>(op) < run_of_op_.size() ? run_of_op_[static_cast<size_t>(op)] : -1;
}

bool NetworkGraphView::collapsed(int run) const {
    return run >= 0 && static_cast<size_t>(run) < collapsed_.size() && collapsed_[static_cast<size_t>(run)];
}

bool NetworkGraphView::allCollapsed() const {
    if (collapsed_.empty()) return false;
    for (bool c : collapsed_)
        if (!c) return false;
    return true;
}

void NetworkGraphView::setCollapsed(int run, bool collapse) {
    if (run < 0 || static_cast<size_t>(run) >= collapsed_.size() || collapsed_[static_cast<size_t>(run)] == collapse) return;
    collapsed_[static_cast<size_t>(run)] = collapse;
    rebuild();
}

void NetworkGraphView::setCollapseRepeats(bool collapse) {
    collapse_all_ = collapse;
    bool changed = false;
    for (size_t r = 0; r < collapsed_.size(); ++r) {
        changed = changed || collapsed_[r] != collapse;
        collapsed_[r] = collapse;
    }
    if (changed) rebuild();
}

double NetworkGraphView::runWeights(int run) const {
    double sum = 0;
    const RepeatedRun& r = runs_[static_cast<size_t>(run)];
    for (int op = r.first_op; op <= r.lastOp(); ++op)
        if (const int l = layerOfOperator(op); l >= 0) sum += inputs_->layers[static_cast<size_t>(l)].weights();
    return sum;
}

double NetworkGraphView::runMacs(int run) const {
    double sum = 0;
    const RepeatedRun& r = runs_[static_cast<size_t>(run)];
    for (int op = r.first_op; op <= r.lastOp(); ++op) sum += nodeMacs(op, layerOfOperator(op));
    return sum;
}

QMenu* NetworkGraphView::contextMenuFor(int node) {
    auto* menu = new QMenu(this);
    const auto add = [&](const char* name, const QString& text, bool enabled, auto slot) {
        QAction* a = menu->addAction(text, this, slot);
        a->setObjectName(name);
        a->setEnabled(enabled);
    };
    if (const int run = runOfNode(node); run >= 0)
        add("expand-run", tr("Expand %1").arg(runName(run)), true, [this, run] { setCollapsed(run, false); });
    else if (const int member = runOfOperator(operatorOfNode(node)); member >= 0)
        add("collapse-run", tr("Collapse %1").arg(runName(member)), true, [this, member] { setCollapsed(member, true); });
    if (!runs_.empty()) {
        if (!menu->isEmpty()) menu->addSeparator();
        bool any = false;
        for (bool c : collapsed_) any = any || c;
        add("collapse-all", tr("Collapse every repeat"), !allCollapsed(), [this] { setCollapseRepeats(true); });
        add("expand-all", tr("Expand every repeat"), any, [this] { setCollapseRepeats(false); });
        menu->addSeparator();
    }
    add("fit", tr("Fit"), !layout_.empty(), [this] { fit(); });
    return menu;
}

void NetworkGraphView::contextMenuEvent(QContextMenuEvent* event) {
    QMenu* menu = contextMenuFor(nodeAt(event->pos()));
    menu->exec(event->globalPos());
    delete menu;
}

void NetworkGraphView::mouseDoubleClickEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton) return QWidget::mouseDoubleClickEvent(event);
    const int node = nodeAt(event->position());
    if (const int run = runOfNode(node); run >= 0) setCollapsed(run, false);
    else if (const int member = runOfOperator(operatorOfNode(node)); member >= 0) setCollapsed(member, true);
}

}  // namespace partita
