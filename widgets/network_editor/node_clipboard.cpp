#include "widgets/network_editor/node_clipboard.h"


namespace partita {

std::vector<edit::Node> copyNodes(const edit::Document& doc, const std::set<edit::NodeId>& ids,
                                  const std::map<edit::NodeId, edit::Point>& positions) {
    std::vector<edit::Node> out;
    for (edit::NodeId id : ids) {
        const edit::Node* n = doc.node(id);
        if (!n) continue;
        edit::Node copy = *n;
        if (!copy.position)
            if (const auto it = positions.find(id); it != positions.end()) copy.position = it->second;
        out.push_back(std::move(copy));
    }
    return out;
}

}  // namespace partita
