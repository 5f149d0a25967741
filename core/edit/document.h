#pragma once
// An editable network: the Network editor's document (issue 16). Nodes have stable ids that survive
// every edit, so an edit is a Patch: the new state of each node it touches (absent = deleted) plus,
// optionally, the network's own fields. apply() returns the inverse patch, which is what undo
// applies; every editor command (add, connect, delete, set parameters, rename, move, paste, template,
// repeat) is built as one Patch, so undo restores exactly the previous document.
//
// Shapes are re-derived after each patch for the touched nodes and everything downstream of them
// (the rest keep theirs), with the same per-operator rule as propagate(). A node whose shape cannot
// be derived (shape mismatch, missing input, wrong arity, a cycle, an upstream problem) carries the
// reason; toNetwork() is only defined for a document without problems.
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/edit/point.h"
#include "core/model/network.h"

namespace partita::edit {

using NodeId = std::int64_t;
inline constexpr NodeId kNetworkInput = 0;  // the network input, an implicit node; real nodes are >= 1

struct Node {
    NodeId id = 0;
    Operator op;                     // name, type and parameters; op.inputs / shapes are ignored here
                                     // (in the document, op's shapes are the derived ones, zero on a
                                     // problem, so countOperator(node->op) works)
    std::vector<NodeId> inputs;      // input slots in order; kNetworkInput for the network input
    std::optional<Point> position;   // a layout hint the user dragged to (saved in the JSON)
    bool operator==(const Node& other) const;  // compares id, inputs, position and every op parameter
};

struct Header {  // the network's own fields
    std::string name, description;
    Shape input{3, 224, 224};
    bool operator==(const Header&) const = default;
};

struct Patch {
    std::map<NodeId, std::optional<Node>> nodes;  // new state per node; nullopt deletes it
    std::optional<Header> header;
    bool empty() const { return nodes.empty() && !header; }
};

struct Problem {
    NodeId node = 0;
    std::string reason;
};

class Document {
public:
    Document() = default;
    // From a propagated network; positions are optional layout hints keyed by operator name.
    static Document fromNetwork(const Network& net, const std::map<std::string, Point>& positions = {});

    // Applies a patch and returns its inverse. Throws std::invalid_argument (document unchanged) for a
    // patch that names kNetworkInput, gives a node a different id than its key, reuses a name, or
    // would exceed limits::kOperators; also for an id outside [1, 2^53), a name that is empty or
    // "input", and more than limits::kOperatorInputs inputs.
    Patch apply(const Patch& patch);

    const Header& header() const { return header_; }
    const Node* node(NodeId id) const;                 // nullptr if absent
    std::vector<NodeId> ids() const;                   // ascending
    NodeId nextId() const { return next_id_; }          // an id no node has (or had) in this document
    std::optional<NodeId> findByName(const std::string& name) const;
    std::string uniqueName(const std::string& stem) const;  // stem, stem_2, stem_3...
    std::vector<NodeId> consumers(NodeId id) const;     // nodes reading id, ascending
    std::optional<Shape> outputShape(NodeId id) const;  // nullopt for a node with a problem
                                                        // (kNetworkInput: the header's input shape)
    const std::vector<Problem>& problems() const { return problems_; }  // ordered by node id
    bool valid() const { return problems_.empty() && !nodes_.empty(); }

    // The operators in a deterministic topological order (ties by id), inputs by name, shapes
    // propagated; throws std::logic_error if !valid().
    Network toNetwork() const;
    std::map<std::string, Point> positions() const;     // by operator name

    std::optional<std::string> problem(NodeId id) const;  // the node's reason, if it has one (also
                                                          // for kNetworkInput: an invalid input shape)

private:
    void check(const Patch& patch) const;
    void link(NodeId id, bool add);
    void rederive(const std::vector<NodeId>& seeds);
    // `ids` (ascending) in topological order over the edges between them, the smallest ready id first;
    // those on a cycle or below one are left out.
    std::vector<NodeId> topologicalIds(const std::vector<NodeId>& ids) const;
    void derive(Node& node);
    void settle(const std::set<NodeId>& stuck);
    void setProblem(Node& node, std::string reason);

    Header header_;
    std::map<NodeId, Node> nodes_;
    std::map<NodeId, Shape> shapes_;                  // nodes without a problem
    std::map<NodeId, std::string> reasons_;           // nodes with one
    std::vector<Problem> problems_;                   // reasons_ in order, rebuilt per patch
    std::optional<std::string> input_problem_;        // the header's input shape, if invalid
    std::map<NodeId, std::set<NodeId>> consumers_;    // by producer id, absent producers included
    std::unordered_map<std::string, NodeId> by_name_;
    NodeId next_id_ = 1;
};

// Edits as patches against the current document (none is applied here). Unknown ids and slots
// throw std::invalid_argument.
// A taken or empty name becomes uniqueName(name, or the type's name); the node gets doc.nextId().
// The editor's own check beyond core's shape rules, on an operator whose shapes were derived: a
// transpose whose output shape no longer holds its input's elements. nullopt when none.
std::optional<std::string> editorShapeProblem(const Operator& op);

Patch addNode(const Document& doc, Operator op, std::vector<NodeId> inputs, std::optional<Point> at = {});
Patch removeNodes(const Document& doc, const std::vector<NodeId>& ids);  // also drops edges to them
// `slot` in [0, inputs) replaces that input (an input port takes one edge); -1 or == inputs appends.
Patch connect(const Document& doc, NodeId from, NodeId to, int slot = -1);
Patch disconnect(const Document& doc, NodeId from, NodeId to);  // every slot of `to` reading `from`
Patch rename(const Document& doc, NodeId id, const std::string& name);
Patch setOperator(const Document& doc, NodeId id, const Operator& op);  // parameters and name
Patch moveNodes(const Document& doc, const std::map<NodeId, Point>& to);
Patch setHeader(const Document& doc, const Header& header);
// Copies of `ids` with fresh ids and unique names; edges among them are kept, edges from outside
// are kept when `keep_outside_inputs`, else the copies read the network input.
Patch duplicate(const Document& doc, const std::vector<NodeId>& ids, bool keep_outside_inputs, Point offset);
// The same for nodes from anywhere (a clipboard): outside inputs are kept only if the node exists here.
Patch paste(const Document& doc, const std::vector<Node>& nodes, bool keep_outside_inputs, Point offset);

}  // namespace partita::edit
