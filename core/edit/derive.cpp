// Re-derivation after a patch: the nodes it touched and everything downstream of them get their
// shape or problem again, in topological order; what cannot be ordered is on a cycle or below one.
// Each node's outcome depends only on its inputs' outcomes, so the order within the affected set does
// not matter and re-deriving a part gives what re-deriving everything gives.
#include <algorithm>
#include <stdexcept>

#include "core/edit/document.h"
#include "core/util/graph.h"

namespace partita::edit {

namespace {

constexpr size_t kNamesShown = 10;  // of a long cycle, so that a message stays short

std::set<NodeId> distinctInputs(const Node& n) { return std::set<NodeId>(n.inputs.begin(), n.inputs.end()); }

// The inputs of `ids` (ascending) among them, distinct, as positions in `ids`.
std::vector<std::vector<int>> inputsAmong(const std::vector<NodeId>& ids, const std::map<NodeId, Node>& all) {
    std::vector<std::vector<int>> inputs(ids.size());
    for (size_t k = 0; k < ids.size(); ++k)
        for (NodeId p : distinctInputs(all.at(ids[k])))
            if (const auto it = std::lower_bound(ids.begin(), ids.end(), p); it != ids.end() && *it == p)
                inputs[k].push_back(static_cast<int>(it - ids.begin()));
    return inputs;
}

// The strongly connected components of `nodes` over the edges between them, each ascending (BGL's
// depth-first search keeps its own stack, so a long cycle cannot exhaust the call stack).
std::vector<std::vector<NodeId>> components(const std::set<NodeId>& nodes, const std::map<NodeId, Node>& all) {
    const std::vector<NodeId> ids(nodes.begin(), nodes.end());
    const std::vector<int> component = graph::strongComponents(graph::fromInputs(inputsAmong(ids, all)));
    std::vector<std::vector<NodeId>> out;
    for (size_t k = 0; k < ids.size(); ++k) {
        const auto c = static_cast<size_t>(component[k]);
        if (c == out.size()) out.emplace_back();
        out[c].push_back(ids[k]);
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

std::vector<NodeId> Document::topologicalIds(const std::vector<NodeId>& ids) const {
    std::vector<NodeId> order;
    order.reserve(ids.size());
    for (int k : graph::smallestFirstOrder(inputsAmong(ids, nodes_))) order.push_back(ids[static_cast<size_t>(k)]);
    return order;
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
    // In topological order over the affected nodes (inputs outside them are settled already); what
    // cannot be ordered is on a cycle or below one.
    const std::vector<NodeId> order = topologicalIds(std::vector<NodeId>(affected.begin(), affected.end()));
    for (NodeId v : order) {
        derive(nodes_.at(v));
        affected.erase(v);
    }
    if (!affected.empty()) settle(affected);
    problems_.clear();
    for (const auto& [id, reason] : reasons_) problems_.push_back({id, reason});
}

}  // namespace partita::edit
