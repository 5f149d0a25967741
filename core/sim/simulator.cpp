#include "core/sim/simulator.h"

#include <algorithm>
#include <stdexcept>

#include "core/util/error.h"

namespace partita::sim {

namespace {

struct Entry {
    double ready;
    std::uint64_t id;
    int task;
};
// Min-heap on (ready, id); a functor so that the heap algorithms inline it.
struct Later {
    bool operator()(const Entry& a, const Entry& b) const { return keyLess(b.ready, b.id, a.ready, a.id); }
};

}  // namespace

SimResult simulate(const TaskGraph& graph) {
    SimResult r;
    simulate(graph, r);
    return r;
}

void simulate(const TaskGraph& graph, SimResult& r, const CancelFn& cancel) {
    const size_t n = graph.slotCount();
    r.makespan = 0;
    r.ready.assign(n, 0.0);
    r.start.assign(n, 0.0);
    r.end.assign(n, 0.0);
    r.order.clear();
    r.order.reserve(graph.taskCount());
    // A task's count of unfinished predecessors lives in its `start` until it
    // is popped: the two are never needed at the same time (saves an array).
    std::vector<double>& pending = r.start;
    std::vector<double> last_end(static_cast<size_t>(graph.resourceCount()), 0.0);
    std::vector<Entry> heap;
    heap.reserve(1024);
    for (size_t t = 0; t < n; ++t) {
        const int ti = static_cast<int>(t);
        if (!graph.alive(ti)) continue;
        pending[t] = graph.inDegree(ti);
        if (pending[t] == 0) heap.push_back({0.0, graph.id(ti), ti});
    }
    std::make_heap(heap.begin(), heap.end(), Later{});
    while (!heap.empty()) {
        std::pop_heap(heap.begin(), heap.end(), Later{});
        const Entry top = heap.back();
        heap.pop_back();
        const auto t = static_cast<size_t>(top.task);
        double& device_end = last_end[static_cast<size_t>(graph.resource(top.task))];
        const double start = std::max(top.ready, device_end);
        const double end = start + graph.exe(top.task);
        r.start[t] = start;
        r.end[t] = end;
        device_end = end;
        r.order.push_back(top.task);
        if (cancel && (r.order.size() & 0x3fff) == 0 && cancel()) throw Cancelled();
        graph.forEachSuccessor(top.task, [&](int s) {
            const auto su = static_cast<size_t>(s);
            r.ready[su] = std::max(r.ready[su], end);
            if (--pending[su] == 0) {
                heap.push_back({r.ready[su], graph.id(s), s});
                std::push_heap(heap.begin(), heap.end(), Later{});
            }
        });
    }
    if (r.order.size() != graph.taskCount()) throw std::logic_error("the task graph has a cycle");
    for (double e : last_end) r.makespan = std::max(r.makespan, e);
}

}  // namespace partita::sim
