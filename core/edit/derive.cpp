// Re-derivation after a patch: the nodes it touched and everything downstream of them get their
// shape or problem again, in topological order; what cannot be ordered is on a cycle or below one.
// Each node's outcome depends only on its inputs' outcomes, so the order within the affected set does
// not matter and re-deriving a part gives what re-deriving everything gives.
#include <algorithm>
#include <stdexcept>
#include <unordered_map>
#include <unordered_set>

#include "core/edit/document.h"

namespace partita::edit {

namespace {

constexpr size_t kNamesShown = 10;  // of a long cycle, so that a message stays short

std::set<NodeId> distinctInputs(const Node& n) { return std::set<NodeId>(n.inputs.begin(), n.inputs.end()); }

// The strongly connected components of `nodes` over edges between them (iterative Tarjan, so a long
// cycle cannot exhaust the stack). Edges are followed against data flow, which finds the same components.
std::vector<std::vector<NodeId>> components(const std::set<NodeId>& nodes, const std::map<NodeId, Node>& all) {
    std::unordered_map<NodeId, int> index, low;
    std::unordered_set<NodeId> on_stack;
    std::vector<NodeId> stack;
    std::vector<std::vector<NodeId>> out;
    struct Frame {
        NodeId v;
        size_t next;
    };
    std::vector<Frame> call;
    int counter = 0;
    auto open = [&](NodeId v) {
        index[v] = low[v] = counter++;
        stack.push_back(v);
        on_stack.insert(v);
        call.push_back({v, 0});
    };
    for (NodeId root : nodes) {
        if (index.count(root)) continue;
        open(root);
        while (!call.empty()) {
            const NodeId v = call.back().v;
            const auto& inputs = all.at(v).inputs;
            if (call.back().next < inputs.size()) {
                const NodeId w = inputs[call.back().next++];
                if (!nodes.count(w)) continue;
                if (!index.count(w)) open(w);
                else if (on_stack.count(w)) low[v] = std::min(low[v], index[w]);
                continue;
            }
            call.pop_back();
            if (!call.empty()) low[call.back().v] = std::min(low[call.back().v], low[v]);
            if (low[v] != index[v]) continue;
            std::vector<NodeId> component;
            NodeId w = 0;
            do {
                w = stack.back();
                stack.pop_back();
                on_stack.erase(w);
                component.push_back(w);
            } while (w != v);
            std::sort(component.begin(), component.end());
            out.push_back(std::move(component));
        }
    }
    return out;
}

// One message for every node of a cyclic component: the cycle in data-flow order when the component is
// one simple cycle (the usual case), else its members.
std::string cycleReason(const std::vector<NodeId>& component, const std::map<NodeId, Node>& all) {
    const std::set<NodeId> members(component.begin(), component.end());
    auto inside = [&](NodeId v) {
        std::vector<NodeId> in;
        for (NodeId p : distinctInputs(all.at(v)))
            if (members.count(p)) in.push_back(p);
        return in;
    };
    const bool simple = std::all_of(component.begin(), component.end(), [&](NodeId v) { return inside(v).size() == 1; });
    auto name = [&](NodeId v) { return all.at(v).op.name; };
    if (!simple) {
        std::string text = "the operator is on a cycle among ";
        for (size_t i = 0; i < component.size() && i < kNamesShown; ++i) text += (i ? ", " : "") + name(component[i]);
        if (component.size() > kNamesShown) text += " and " + std::to_string(component.size() - kNamesShown) + " more";
        return text;
    }
    // Walk against data flow from the smallest id, then print the walk backwards: producer -> consumer.
    std::vector<NodeId> walk{component.front()};
    for (NodeId v = inside(component.front()).front(); v != component.front(); v = inside(v).front()) walk.push_back(v);
    std::string text = "the operators form a cycle: " + name(walk.front());
    const size_t shown = std::min(walk.size() - 1, kNamesShown);
    for (size_t k = 0; k < shown; ++k) text += " -> " + name(walk[walk.size() - 1 - k]);
    if (shown < walk.size() - 1) text += " -> ... (" + std::to_string(walk.size()) + " operators)";
    return text + " -> " + name(walk.front());
}

// Missing or absent inputs, a wrong arity, then an input with a problem (`stuck` ones will have one).
std::optional<std::string> blocked(const Node& n, const std::map<NodeId, Node>& nodes,
                                   const std::map<NodeId, std::string>& reasons,
                                   const std::optional<std::string>& input_problem, const std::set<NodeId>& stuck) {
    for (size_t k = 0; k < n.inputs.size(); ++k)
        if (n.inputs[k] != kNetworkInput && !nodes.count(n.inputs[k]))
            return "input " + std::to_string(k + 1) + " is an operator that does not exist (node " +
                   std::to_string(n.inputs[k]) + ")";
    try {
        checkArity(n.op.type, n.inputs.size());
    } catch (const std::invalid_argument& e) {
        return std::string(e.what());
    }
    for (NodeId in : n.inputs) {
        if (in == kNetworkInput) {
            if (input_problem) return "the network input has a problem: " + *input_problem;
        } else if (stuck.count(in) || reasons.count(in)) {
            return "input '" + nodes.at(in).op.name + "' has a problem";
        }
    }
    return std::nullopt;
}

std::string dimsText(const Shape& s) { return std::to_string(s.c) + "x" + std::to_string(s.h) + "x" + std::to_string(s.w); }

}  // namespace

std::optional<std::string> editorShapeProblem(const Operator& op) {
    // A transpose moves elements and keeps their count: one whose input changed under it (the
    // template's head split after its projection was resized) is a problem, never a silent reshape.
    // Core's propagate does not apply it: an imported sequence-first model's transposes move the batch axis.
    const Shape& in = op.in_shape;
    const Shape& out = op.out_shape;
    if (op.type != OpType::Layout || op.source_op != "Transpose" || in.elements() == out.elements()) return std::nullopt;
    return "a transpose keeps its elements: its input " + dimsText(in) + " has " + std::to_string(in.elements()) +
           ", its output shape " + dimsText(out) + " has " + std::to_string(out.elements());
}

void Document::setProblem(Node& node, std::string reason) {
    shapes_.erase(node.id);
    reasons_[node.id] = std::move(reason);
    node.op.in_shape = node.op.pre_pool_shape = node.op.out_shape = Shape{};
}

void Document::derive(Node& node) {
    if (auto reason = blocked(node, nodes_, reasons_, input_problem_, {})) return setProblem(node, std::move(*reason));
    std::vector<Shape> shapes;
    shapes.reserve(node.inputs.size());
    for (NodeId in : node.inputs) shapes.push_back(in == kNetworkInput ? header_.input : shapes_.at(in));
    try {
        deriveShapes(node.op, shapes);
    } catch (const std::invalid_argument& e) {
        return setProblem(node, e.what());
    } catch (const std::overflow_error& e) {
        return setProblem(node, e.what());
    }
    if (auto reason = editorShapeProblem(node.op)) return setProblem(node, std::move(*reason));
    reasons_.erase(node.id);
    shapes_[node.id] = node.op.out_shape;
}

// Nodes left over by the topological pass: on a cycle, or reading (transitively) from one.
void Document::settle(const std::set<NodeId>& stuck) {
    std::set<NodeId> cyclic;
    for (const auto& component : components(stuck, nodes_)) {
        const NodeId first = component.front();
        const auto& inputs = nodes_.at(first).inputs;
        const bool loop = component.size() > 1 || std::find(inputs.begin(), inputs.end(), first) != inputs.end();
        if (!loop) continue;
        const std::string reason = cycleReason(component, nodes_);
        for (NodeId v : component) {
            setProblem(nodes_.at(v), reason);
            cyclic.insert(v);
        }
    }
    for (NodeId v : stuck) {
        if (cyclic.count(v)) continue;
        Node& n = nodes_.at(v);
        auto reason = blocked(n, nodes_, reasons_, input_problem_, stuck);
        setProblem(n, reason ? std::move(*reason) : "an input is on a cycle");
    }
}

void Document::rederive(const std::vector<NodeId>& seeds) {
    std::set<NodeId> affected;
    std::vector<NodeId> todo;
    auto consumersOf = [&](NodeId id) {
        if (const auto it = consumers_.find(id); it != consumers_.end()) todo.insert(todo.end(), it->second.begin(), it->second.end());
    };
    for (NodeId s : seeds) {
        if (nodes_.count(s)) todo.push_back(s);
        else consumersOf(s);
    }
    while (!todo.empty()) {
        const NodeId v = todo.back();
        todo.pop_back();
        if (affected.insert(v).second) consumersOf(v);
    }
    // Kahn's pass over the affected nodes; inputs outside them are settled already.
    std::unordered_map<NodeId, size_t> pending;
    std::vector<NodeId> ready;
    for (NodeId v : affected) {
        size_t count = 0;
        for (NodeId in : distinctInputs(nodes_.at(v))) count += affected.count(in);
        pending[v] = count;
        if (count == 0) ready.push_back(v);
    }
    while (!ready.empty()) {
        const NodeId v = ready.back();
        ready.pop_back();
        pending.erase(v);
        derive(nodes_.at(v));
        if (const auto it = consumers_.find(v); it != consumers_.end())
            for (NodeId c : it->second)
                if (const auto p = pending.find(c); p != pending.end() && --p->second == 0) ready.push_back(c);
    }
    if (!pending.empty()) {
        std::set<NodeId> stuck;
        for (const auto& entry : pending) stuck.insert(entry.first);
        settle(stuck);
    }
    problems_.clear();
    for (const auto& [id, reason] : reasons_) problems_.push_back({id, reason});
}

}  // namespace partita::edit
