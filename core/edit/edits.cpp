// The editor's commands as patches (document.h), and the builder they share (builder.h).
#include <algorithm>
#include <stdexcept>

#include "core/edit/builder.h"

namespace partita::edit {

namespace {

std::invalid_argument noNode(NodeId id) { return std::invalid_argument("no operator has the id " + std::to_string(id)); }

Point shifted(Point p, Point offset) { return {p.x + offset.x, p.y + offset.y}; }

}  // namespace

NodeId PatchBuilder::add(Operator op, std::vector<NodeId> inputs, std::optional<Point> at) {
    const NodeId id = next_++;
    op.name = uniqueName(op.name.empty() ? opTypeName(op.type) : op.name);
    patch_.nodes[id] = Node{id, std::move(op), std::move(inputs), at};
    return id;
}

const Node* PatchBuilder::node(NodeId id) const {
    const auto it = patch_.nodes.find(id);
    if (it == patch_.nodes.end()) return doc_.node(id);
    return it->second ? &*it->second : nullptr;
}

Node& PatchBuilder::change(NodeId id) {
    const Node* current = node(id);
    if (!current) throw noNode(id);
    auto& entry = patch_.nodes[id];
    if (!entry) entry = *current;
    return *entry;
}

void PatchBuilder::remove(NodeId id) {
    if (!node(id)) throw noNode(id);
    patch_.nodes[id] = std::nullopt;
}

std::string PatchBuilder::uniqueName(const std::string& stem) {
    auto free = [&](const std::string& n) { return n != "input" && !doc_.findByName(n) && !claimed_.count(n); };
    const std::string base = stem.empty() ? "op" : stem;
    std::string name = base;
    if (!free(name)) {
        std::int64_t& k = suffix_.try_emplace(base, 1).first->second;
        do name = base + "_" + std::to_string(++k);
        while (!free(name));
    }
    claimed_.insert(name);
    return name;
}

Patch addNode(const Document& doc, Operator op, std::vector<NodeId> inputs, std::optional<Point> at) {
    PatchBuilder b(doc);
    b.add(std::move(op), std::move(inputs), at);
    return b.take();
}

Patch removeNodes(const Document& doc, const std::vector<NodeId>& ids) {
    PatchBuilder b(doc);
    const std::set<NodeId> gone(ids.begin(), ids.end());
    for (NodeId id : gone) b.remove(id);
    for (NodeId id : gone)
        for (NodeId c : doc.consumers(id)) {
            if (gone.count(c)) continue;
            auto& inputs = b.change(c).inputs;
            inputs.erase(std::remove_if(inputs.begin(), inputs.end(), [&](NodeId in) { return gone.count(in) > 0; }),
                         inputs.end());
        }
    return b.take();
}

Patch connect(const Document& doc, NodeId from, NodeId to, int slot) {
    if (from != kNetworkInput && !doc.node(from)) throw noNode(from);
    PatchBuilder b(doc);
    auto& inputs = b.change(to).inputs;
    if (slot == -1 || slot == static_cast<int>(inputs.size())) inputs.push_back(from);
    else if (slot >= 0 && slot < static_cast<int>(inputs.size())) inputs[static_cast<size_t>(slot)] = from;
    else throw std::invalid_argument("operator '" + doc.node(to)->op.name + "' has no input slot " + std::to_string(slot));
    return b.take();
}

Patch disconnect(const Document& doc, NodeId from, NodeId to) {
    const Node* n = doc.node(to);
    if (!n) throw noNode(to);
    if (std::find(n->inputs.begin(), n->inputs.end(), from) == n->inputs.end()) return {};
    PatchBuilder b(doc);
    auto& inputs = b.change(to).inputs;
    inputs.erase(std::remove(inputs.begin(), inputs.end(), from), inputs.end());
    return b.take();
}

Patch setOperator(const Document& doc, NodeId id, const Operator& op) {
    PatchBuilder b(doc);
    b.change(id).op = op;
    return b.take();
}

Patch rename(const Document& doc, NodeId id, const std::string& name) {
    PatchBuilder b(doc);
    b.change(id).op.name = name;
    return b.take();
}

Patch moveNodes(const Document& doc, const std::map<NodeId, Point>& to) {
    PatchBuilder b(doc);
    for (const auto& [id, p] : to) b.change(id).position = p;
    return b.take();
}

Patch setHeader(const Document&, const Header& header) {
    Patch p;
    p.header = header;
    return p;
}

Patch paste(const Document& doc, const std::vector<Node>& nodes, bool keep_outside_inputs, Point offset) {
    PatchBuilder b(doc);
    std::map<NodeId, NodeId> copy_of;
    for (const Node& n : nodes) {
        if (copy_of.count(n.id)) throw std::invalid_argument("two pasted operators have the id " + std::to_string(n.id));
        const NodeId id = b.add(n.op, {}, n.position ? std::optional<Point>(shifted(*n.position, offset)) : std::nullopt);
        copy_of.emplace(n.id, id);
    }
    for (const Node& n : nodes) {
        auto& inputs = b.change(copy_of.at(n.id)).inputs;
        for (NodeId in : n.inputs) {
            if (const auto it = copy_of.find(in); it != copy_of.end()) inputs.push_back(it->second);
            else if (keep_outside_inputs && (in == kNetworkInput || doc.node(in))) inputs.push_back(in);
            else inputs.push_back(kNetworkInput);
        }
    }
    return b.take();
}

Patch duplicate(const Document& doc, const std::vector<NodeId>& ids, bool keep_outside_inputs, Point offset) {
    std::vector<Node> nodes;
    for (NodeId id : std::set<NodeId>(ids.begin(), ids.end())) {
        const Node* n = doc.node(id);
        if (!n) throw noNode(id);
        nodes.push_back(*n);
    }
    return paste(doc, nodes, keep_outside_inputs, offset);
}

}  // namespace partita::edit
