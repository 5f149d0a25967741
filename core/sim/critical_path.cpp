#include "core/sim/critical_path.h"

#include <algorithm>
#include <limits>
#include <utility>

#include <boost/graph/compressed_sparse_row_graph.hpp>
#include <boost/graph/relax.hpp>
#include <boost/range/iterator_range.hpp>

namespace partita::sim {

namespace {

// An edge of the schedule: a data edge, or from the task before on the same resource.
enum Kind : int { kNone = 0, kResource = 1, kData = 2 };

struct Arc {
    double exe;            // of the edge's target
    Kind kind;
    std::uint64_t source;  // the source's task id, for the tie rule
};

// The best way found into a task: its start (the predecessor's end), its end, and which edge.
struct Label {
    double start, end;
    Kind kind;
    std::uint64_t source;
};

struct Combine {
    Label operator()(const Label& from, const Arc& arc) const { return {from.end, from.end + arc.exe, arc.kind, arc.source}; }
};

// A later start is better; at the same start, a data edge, the smaller source id first, then the resource.
struct Better {
    bool operator()(const Label& a, const Label& b) const {
        if (a.start != b.start) return a.start > b.start;
        if (a.kind != b.kind) return a.kind > b.kind;
        return a.source < b.source;
    }
};

using Schedule = boost::compressed_sparse_row_graph<boost::directedS, boost::no_property, Arc>;

}  // namespace

// The longest path in the schedule (data edges and each resource's FIFO order, weighted by the
// targets' durations), relaxed with boost::relax_target in the simulation order, which is a
// topological order of the schedule. Only tight edges (the source ends when the target starts) can
// be on it, so only those are built. A label compares starts, not ends (start + exe can round two
// starts together); the tie rule then picks the edge, and the ends equal the simulation's bit for bit.
std::vector<std::uint64_t> criticalPath(const TaskGraph& graph, const SimResult& result) {
    const size_t n = graph.slotCount();
    if (result.end.size() < n || result.order.empty()) return {};
    std::vector<std::pair<int, int>> ends;
    std::vector<Arc> arcs;
    ends.reserve(graph.edgeCount() + result.order.size());
    arcs.reserve(ends.capacity());
    std::vector<int> last(static_cast<size_t>(graph.resourceCount()), -1);
    int tail = -1;
    for (int t : result.order) {
        const double exe = graph.exe(t), start = result.start[static_cast<size_t>(t)];
        graph.forEachPredecessor(t, [&](int p) {
            if (result.end[static_cast<size_t>(p)] != start) return;
            ends.emplace_back(p, t);
            arcs.push_back({exe, kData, graph.id(p)});
        });
        int& previous = last[static_cast<size_t>(graph.resource(t))];
        if (previous >= 0 && result.end[static_cast<size_t>(previous)] == start) {
            ends.emplace_back(previous, t);
            arcs.push_back({exe, kResource, graph.id(previous)});
        }
        previous = t;
        const auto ut = static_cast<size_t>(t);
        if (tail < 0 || result.end[ut] > result.end[static_cast<size_t>(tail)] ||
            (result.end[ut] == result.end[static_cast<size_t>(tail)] && graph.id(t) > graph.id(tail)))
            tail = t;
    }
    const Schedule schedule(boost::edges_are_unsorted_multi_pass, ends.begin(), ends.end(), arcs.begin(), n);
    // Every task may start at 0 (no edge: kNone); that is where a path begins.
    std::vector<Label> label(n);
    std::vector<size_t> pred(n);
    for (int t : result.order) {
        const auto ut = static_cast<size_t>(t);
        label[ut] = {0.0, graph.exe(t), kNone, 0};
        pred[ut] = ut;
    }
    const auto index = boost::get(boost::vertex_index, schedule);
    auto labels = boost::make_iterator_property_map(label.begin(), index);
    auto preds = boost::make_iterator_property_map(pred.begin(), index);
    const auto weight = boost::get(boost::edge_bundle, schedule);
    for (int t : result.order)
        for (const auto e : boost::make_iterator_range(boost::out_edges(static_cast<size_t>(t), schedule)))
            boost::relax_target(e, schedule, weight, preds, labels, Combine(), Better());
    std::vector<std::uint64_t> path;
    for (auto t = static_cast<size_t>(tail);; t = pred[t]) {
        path.push_back(graph.id(static_cast<int>(t)));
        if (pred[t] == t) break;
    }
    std::reverse(path.begin(), path.end());
    return path;
}

}  // namespace partita::sim
