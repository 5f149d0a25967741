#pragma once
// Copying editor nodes: the copies keep their parameters, their inputs and a position (the shown one
// when they have no hint), so that a paste lands beside the originals.
#include <set>
#include <vector>

#include "core/edit/document.h"

namespace partita {

// The nodes `ids` (the network input left out), with `positions` for those without a hint.
std::vector<edit::Node> copyNodes(const edit::Document& doc, const std::set<edit::NodeId>& ids,
                                  const std::map<edit::NodeId, edit::Point>& positions);
// Pasting is edit::paste (fresh ids, unique names, inside edges kept).

}  // namespace partita
