#pragma once
// Builds one Patch against a document: fresh ids, names unique in the document and in the patch, and
// changes to existing nodes starting from their current state. The edit functions, paste, templates
// and repeat are written with it; nothing is applied to the document.
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/edit/document.h"

namespace partita::edit {

class PatchBuilder {
public:
    explicit PatchBuilder(const Document& doc) : doc_(doc), next_(doc.nextId()) {}

    // A new node with the next free id; a taken or empty name becomes uniqueName(name or the type's name).
    NodeId add(Operator op, std::vector<NodeId> inputs, std::optional<Point> at = {});
    // The node as the patch leaves it (added, changed or the document's); nullptr if absent or removed.
    const Node* node(NodeId id) const;
    // The node's state in the patch, starting from its current one; std::invalid_argument if absent.
    Node& change(NodeId id);
    void remove(NodeId id);  // std::invalid_argument if absent
    // `stem` ("op" if empty) if free in the document and the patch, else stem_2, stem_3...
    std::string uniqueName(const std::string& stem);
    const Document& document() const { return doc_; }
    Patch& patch() { return patch_; }
    Patch take() { return std::move(patch_); }

private:
    const Document& doc_;
    Patch patch_;
    NodeId next_;
    std::set<std::string> claimed_;
    std::map<std::string, std::int64_t> suffix_;  // the last suffix tried per stem (repeat makes many copies)
};

}  // namespace partita::edit
