#include "core/sim/critical_path.h"

#include <algorithm>

namespace partita::sim {

std::vector<std::uint64_t> criticalPath(const TaskGraph& graph, const SimResult& result) {
    const size_t n = graph.slotCount();
    if (result.end.size() < n || result.order.empty()) return {};
    // The task before each one on its resource: the simulation order is each resource's FIFO order.
    std::vector<int> previous(n, -1);
    std::vector<int> last(static_cast<size_t>(graph.resourceCount()), -1);
    int tail = -1;
    for (int t : result.order) {
        int& prev_on_resource = last[static_cast<size_t>(graph.resource(t))];
        previous[static_cast<size_t>(t)] = prev_on_resource;
        prev_on_resource = t;
        const auto ut = static_cast<size_t>(t);
        if (tail < 0 || result.end[ut] > result.end[static_cast<size_t>(tail)] ||
            (result.end[ut] == result.end[static_cast<size_t>(tail)] && graph.id(t) > graph.id(tail)))
            tail = t;
    }
    std::vector<std::uint64_t> path;
    for (int t = tail; t >= 0;) {
        path.push_back(graph.id(t));
        const double start = result.start[static_cast<size_t>(t)];
        int next = -1;
        graph.forEachPredecessor(t, [&](int p) {
            if (result.end[static_cast<size_t>(p)] == start && (next < 0 || graph.id(p) < graph.id(next))) next = p;
        });
        const int prev = previous[static_cast<size_t>(t)];
        if (next < 0 && prev >= 0 && result.end[static_cast<size_t>(prev)] == start) next = prev;
        t = next;
    }
    std::reverse(path.begin(), path.end());
    return path;
}

}  // namespace partita::sim
