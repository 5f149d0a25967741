// repeat(): copies of a single-entry, single-exit block chained after it (templates.h).
#include <algorithm>
#include <stdexcept>

#include "core/edit/builder.h"
#include "core/edit/templates.h"
#include "core/util/limits.h"

namespace partita::edit {

namespace {
constexpr double kGap = 90;  // between a block's lowest hint and its copy's highest
}

Patch repeat(const Document& doc, const std::vector<NodeId>& ids, int n) {
    const std::set<NodeId> block(ids.begin(), ids.end());
    if (block.empty()) throw std::invalid_argument("select the block to repeat");
    if (n < 0) throw std::invalid_argument("the number of copies must not be negative, got " + std::to_string(n));
    auto name = [&](NodeId id) { return "'" + doc.node(id)->op.name + "'"; };
    std::set<NodeId> outside_inputs, exits;
    for (NodeId v : block) {
        const Node* node = doc.node(v);
        if (!node) throw std::invalid_argument("no operator has the id " + std::to_string(v));
        for (NodeId in : node->inputs)
            if (!block.count(in)) outside_inputs.insert(in);
    }
    for (NodeId v : block) {
        const auto readers = doc.consumers(v);
        if (std::none_of(readers.begin(), readers.end(), [&](NodeId c) { return block.count(c) > 0; })) exits.insert(v);
    }
    if (outside_inputs.size() != 1)
        throw std::invalid_argument("a repeated block reads exactly one operator outside it; this one reads " +
                                    std::to_string(outside_inputs.size()));
    if (exits.size() != 1)
        throw std::invalid_argument("a repeated block has one output (an operator nothing in the block reads); this one has " +
                                    std::to_string(exits.size()));
    const NodeId exit = *exits.begin();
    for (NodeId v : block)
        for (NodeId c : doc.consumers(v))
            if (v != exit && !block.count(c))
                throw std::invalid_argument("only the block's output may be read outside it, but " + name(c) + " reads " +
                                            name(v));
    if (static_cast<std::int64_t>(n) * static_cast<std::int64_t>(block.size()) + static_cast<std::int64_t>(doc.ids().size()) >
        limits::kOperators)
        throw std::invalid_argument("the copies would exceed the limit of " + std::to_string(limits::kOperators) + " operators");

    double top = 0, bottom = 0;
    bool hinted = false;
    for (NodeId v : block)
        if (const auto& p = doc.node(v)->position) {
            top = hinted ? std::min(top, p->y) : p->y;
            bottom = hinted ? std::max(bottom, p->y) : p->y;
            hinted = true;
        }
    const double step = bottom - top + kGap;

    PatchBuilder b(doc);
    NodeId previous = exit;
    for (int k = 1; k <= n; ++k) {
        std::map<NodeId, NodeId> copy_of;
        for (NodeId v : block) {
            const Node& original = *doc.node(v);
            std::optional<Point> at;
            if (original.position) at = Point{original.position->x, original.position->y + k * step};
            copy_of[v] = b.add(original.op, {}, at);
        }
        for (NodeId v : block) {
            auto& inputs = b.change(copy_of[v]).inputs;
            for (NodeId in : doc.node(v)->inputs) inputs.push_back(block.count(in) ? copy_of[in] : previous);
        }
        previous = copy_of[exit];
    }
    if (n > 0)
        for (NodeId c : doc.consumers(exit))
            if (!block.count(c))
                for (NodeId& in : b.change(c).inputs)
                    if (in == exit) in = previous;
    return b.take();
}

}  // namespace partita::edit
