// The document's state and patches; re-derivation of shapes and problems is in derive.cpp.
#include "core/edit/document.h"

#include <algorithm>
#include <stdexcept>

#include "core/util/limits.h"

namespace partita::edit {

namespace {

constexpr NodeId kIdEnd = NodeId{1} << 53;  // ids stay exact in a double (the GUI keeps them in QVariants)

bool sameWindow(const Window& a, const Window& b) {
    return a.kernel_h == b.kernel_h && a.kernel_w == b.kernel_w && a.stride_h == b.stride_h &&
           a.stride_w == b.stride_w && a.pad_h == b.pad_h && a.pad_w == b.pad_w && a.rounding == b.rounding &&
           a.pad_h_end == b.pad_h_end && a.pad_w_end == b.pad_w_end && a.dilation_h == b.dilation_h &&
           a.dilation_w == b.dilation_w;
}

// Every field a user sets; inputs and derived shapes are not parameters.
bool sameParameters(const Operator& a, const Operator& b) {
    return a.name == b.name && a.type == b.type && a.out_channels == b.out_channels && sameWindow(a.window, b.window) &&
           a.pool.has_value() == b.pool.has_value() && (!a.pool || sameWindow(*a.pool, *b.pool)) &&
           a.average_pool == b.average_pool && a.group == b.group && a.output_pad_h == b.output_pad_h &&
           a.output_pad_w == b.output_pad_w && a.layout_shape == b.layout_shape && a.source_op == b.source_op &&
           a.attention == b.attention;
}

}  // namespace

bool Node::operator==(const Node& other) const {
    return id == other.id && inputs == other.inputs && position == other.position && sameParameters(op, other.op);
}

Document Document::fromNetwork(const Network& net, const std::map<std::string, Point>& positions) {
    Network resolved = net;
    const bool propagated = std::all_of(net.ops.begin(), net.ops.end(), [](const Operator& op) { return !op.input_ids.empty(); });
    if (!propagated) propagate(resolved, net.name.empty() ? "network" : net.name);
    Patch patch;
    patch.header = Header{resolved.name, resolved.description, resolved.input};
    for (size_t i = 0; i < resolved.ops.size(); ++i) {
        Node n;
        n.id = static_cast<NodeId>(i) + 1;
        n.op = resolved.ops[i];
        for (int p : n.op.input_ids) n.inputs.push_back(p < 0 ? kNetworkInput : NodeId{p} + 1);
        if (auto it = positions.find(n.op.name); it != positions.end()) n.position = it->second;
        patch.nodes.emplace(n.id, std::move(n));
    }
    Document doc;
    doc.apply(patch);
    return doc;
}

void Document::check(const Patch& patch) const {
    auto count = static_cast<std::int64_t>(nodes_.size());
    std::set<std::string> claimed;
    for (const auto& [id, state] : patch.nodes) {
        const std::string key = "node " + std::to_string(id);
        if (id == kNetworkInput) throw std::invalid_argument("a patch cannot change the network input (node 0)");
        if (id < 1 || id >= kIdEnd) throw std::invalid_argument(key + ": ids are from 1 to 2^53 - 1");
        const bool exists = nodes_.count(id) > 0;
        if (!state) {
            count -= exists;
            continue;
        }
        count += !exists;
        if (state->id != id) throw std::invalid_argument(key + " carries the id " + std::to_string(state->id));
        const std::string& name = state->op.name;
        if (name.empty()) throw std::invalid_argument(key + " has no name");
        if (name == "input") throw std::invalid_argument("the name 'input' is reserved for the network input");
        if (state->inputs.size() > static_cast<size_t>(limits::kOperatorInputs))
            throw std::invalid_argument("operator '" + name + "': " + std::to_string(state->inputs.size()) +
                                        " inputs exceed the limit of " + std::to_string(limits::kOperatorInputs));
        if (!claimed.insert(name).second) throw std::invalid_argument("two operators would be named '" + name + "'");
        const auto holder = by_name_.find(name);
        if (holder != by_name_.end() && holder->second != id && !patch.nodes.count(holder->second))
            throw std::invalid_argument("another operator is named '" + name + "'");
    }
    if (count > limits::kOperators)
        throw std::invalid_argument(std::to_string(count) + " operators would exceed the limit of " +
                                    std::to_string(limits::kOperators));
}

void Document::link(NodeId id, bool add) {
    for (NodeId in : nodes_.at(id).inputs) {
        if (add) {
            consumers_[in].insert(id);
        } else if (auto it = consumers_.find(in); it != consumers_.end()) {
            it->second.erase(id);
            if (it->second.empty()) consumers_.erase(it);
        }
    }
}

Patch Document::apply(const Patch& patch) {
    check(patch);
    Patch inverse;
    if (patch.header) inverse.header = header_;
    for (const auto& [id, state] : patch.nodes) {
        const auto it = nodes_.find(id);
        inverse.nodes.emplace(id, it == nodes_.end() ? std::nullopt : std::optional<Node>(it->second));
    }
    // Every old state goes first, so that a name or an edge can move between two nodes of one patch.
    for (const auto& entry : patch.nodes) {
        const NodeId id = entry.first;
        const auto it = nodes_.find(id);
        if (it == nodes_.end()) continue;
        link(id, false);
        by_name_.erase(it->second.op.name);
        nodes_.erase(it);
        shapes_.erase(id);
        reasons_.erase(id);
    }
    std::vector<NodeId> seeds;  // a deleted node seeds its consumers
    for (const auto& [id, state] : patch.nodes) {
        seeds.push_back(id);
        if (!state) continue;
        Node& n = nodes_.emplace(id, *state).first->second;
        n.op.inputs.clear();
        n.op.input_ids.clear();
        by_name_.emplace(n.op.name, id);
        link(id, true);
        next_id_ = std::max(next_id_, id + 1);
    }
    if (patch.header) {
        const bool input_changed = !(patch.header->input == header_.input);
        header_ = *patch.header;
        if (input_changed) {
            input_problem_.reset();
            try {
                checkInputShape(header_.input);
            } catch (const std::exception& e) {
                input_problem_ = e.what();
            }
            seeds.push_back(kNetworkInput);
        }
    }
    rederive(seeds);
    return inverse;
}

const Node* Document::node(NodeId id) const {
    const auto it = nodes_.find(id);
    return it == nodes_.end() ? nullptr : &it->second;
}

std::vector<NodeId> Document::ids() const {
    std::vector<NodeId> out;
    out.reserve(nodes_.size());
    for (const auto& entry : nodes_) out.push_back(entry.first);
    return out;
}

std::optional<NodeId> Document::findByName(const std::string& name) const {
    const auto it = by_name_.find(name);
    return it == by_name_.end() ? std::nullopt : std::optional<NodeId>(it->second);
}

std::string Document::uniqueName(const std::string& stem) const {
    const std::string base = stem.empty() ? "op" : stem;
    if (base != "input" && !by_name_.count(base)) return base;
    for (std::int64_t k = 2;; ++k)
        if (const std::string name = base + "_" + std::to_string(k); !by_name_.count(name)) return name;
}

std::vector<NodeId> Document::consumers(NodeId id) const {
    const auto it = consumers_.find(id);
    return it == consumers_.end() ? std::vector<NodeId>{} : std::vector<NodeId>(it->second.begin(), it->second.end());
}

std::optional<Shape> Document::outputShape(NodeId id) const {
    if (id == kNetworkInput) return input_problem_ ? std::nullopt : std::optional<Shape>(header_.input);
    const auto it = shapes_.find(id);
    return it == shapes_.end() ? std::nullopt : std::optional<Shape>(it->second);
}

std::optional<std::string> Document::problem(NodeId id) const {
    if (id == kNetworkInput) return input_problem_;
    const auto it = reasons_.find(id);
    return it == reasons_.end() ? std::nullopt : std::optional<std::string>(it->second);
}

Network Document::toNetwork() const {
    if (nodes_.empty()) throw std::logic_error("the network has no operators");
    if (!problems_.empty())
        throw std::logic_error("operator '" + nodes_.at(problems_.front().node).op.name + "': " + problems_.front().reason);
    // The smallest ready id first, so the same graph gives the same file.
    const std::vector<NodeId> order = topologicalIds(ids());
    Network net;
    net.name = header_.name;
    net.description = header_.description;
    net.input = header_.input;
    for (NodeId id : order) {
        const Node& n = nodes_.at(id);
        Operator op = n.op;
        op.inputs.clear();
        for (NodeId in : n.inputs) op.inputs.push_back(in == kNetworkInput ? "input" : nodes_.at(in).op.name);
        net.ops.push_back(std::move(op));
    }
    propagate(net, header_.name.empty() ? "network" : header_.name);
    return net;
}

std::map<std::string, Point> Document::positions() const {
    std::map<std::string, Point> out;
    for (const auto& [id, n] : nodes_)
        if (n.position) out.emplace(n.op.name, *n.position);
    return out;
}

}  // namespace partita::edit
