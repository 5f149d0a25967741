// Step 5 of delta simulation (delta.h): finish a spreading change with
// Algorithm 1 instead of the sweep, on the unplaced tasks (replay) or, when
// they are most of the graph, on all of it into a second buffer (resimulate).
#include <algorithm>
#include <stdexcept>

#include "core/sim/delta_impl.h"

namespace partita::sim {

// The tasks placed so far are a prefix of the new order (the sweep places in
// key order), so simulating the unplaced ones with Algorithm 1, from the
// devices' last placed tasks, gives exactly the full simulation's timeline.
//
// The unplaced tasks are the pending ones (queued or waiting, all touched) and
// the old order's alive, unplaced tasks from j on. They are marked first, then
// each one's unplaced predecessors are counted. Tasks the sweep never touched
// stay out of `touched`: replay cleans their flags when it places them.
void DeltaSimulator::Impl::handOver(size_t j) {
    const double unplaced = static_cast<double>(graph.taskCount() - order.size());
    // With a bound, replay: it keeps what is placed, and the early exit usually comes soon after.
    if (limit == kNotQueued && unplaced > tuning.resimulate_above * static_cast<double>(graph.taskCount()))
        resimulate();
    else replay(j);
}

void DeltaSimulator::Impl::replay(size_t j) {
    ++stats.replays;
    if (replay_state.size() < slots.size()) replay_state.resize(slots.size());
    rest.clear();
    for (size_t k = 0, n = touched.size(); k < n; ++k) {
        const int t = touched[k];
        if (isPending(t)) {
            at(t).flags |= kReplay;
            rest.push_back(t);
        }
    }
    for (size_t k = j; k < replaced.size(); ++k) {
        const int t = replaced[k];
        Slot& s = at(t);
        if (!graph.alive(t) || (s.flags & (kDone | kReplay))) continue;
        s.flags |= kReplay;
        rest.push_back(t);
    }
    // Ready so far from the placed predecessors, and the count of the others.
    ready_heap.clear();
    auto count = [&](int t) {
        int unplaced = 0;
        double r = 0;
        graph.forEachPredecessor(t, [&](int p) {
            const Slot& ps = slots[static_cast<size_t>(p)];
            if (ps.flags & kReplay) ++unplaced;
            else r = std::max(r, ps.end);
        });
        replay_state[static_cast<size_t>(t)] = {r, unplaced};
        if (unplaced == 0) ready_heap.append({r, graph.id(t), t, graph.resource(t)});
    };
    for (int t : rest) count(t);
    ready_heap.heapify();
    last_end.resize(last.size());
    for (size_t d = 0; d < last.size(); ++d) last_end[d] = last[d] >= 0 ? at(last[d]).end : 0.0;

    size_t placed = 0;
    while (!ready_heap.empty()) {
        const TaskHeap::Entry top = ready_heap.pop();
        const int t = top.task;
        priceIfDeferred(t);
        Slot& st = at(t);
        const auto d = static_cast<size_t>(top.resource);
        const double s = std::max(top.ready, last_end[d]);
        const double exe = graph.exe(t);
        const double e = s + exe;
        const bool fresh = st.flags & kNew;
        if (!fresh && (top.ready != st.ready || s != st.start || e != st.end))
            log.push_back({t, st.ready, st.start, st.end});
        if (fresh || e != st.end) ++changed_now;
        st.ready = top.ready;
        st.start = s;
        st.end = e;
        st.flags &= kTouched;  // finish() cleans touched tasks (and their `queued`)
        ++placed;
        order.push_back(t);
        last[d] = t;
        last_end[d] = e;
        graph.forEachSuccessor(t, [&](int n) {
            ReplayState& ns = replay_state[static_cast<size_t>(n)];
            ns.ready = std::max(ns.ready, e);
            if (--ns.unplaced == 0) ready_heap.push({ns.ready, graph.id(n), n, graph.resource(n)});
        });
        if (limit != kNotQueued) {
            work_left[d] -= exe;
            if (overBound(static_cast<int>(d), e)) {
                abandoned = true;
                break;
            }
        }
    }
    if (abandoned) {  // clean the flags of the tasks left unplaced
        for (int t : rest)
            if (at(t).flags & kReplay) at(t).flags &= kTouched;
    } else if (placed != rest.size()) {
        throw std::logic_error("delta replay: tasks left unplaced");
    }
}

// Algorithm 1 on the whole new graph, exactly as full simulation, into the
// spare buffer: cheaper per task than replay (no old values to compare or log,
// no marking pass), and revert() only swaps the buffers back. The sweep's
// changes so far are undone first, so the current buffer keeps the old timeline.
void DeltaSimulator::Impl::resimulate() {
    ++stats.resimulations;  // unbounded only: no sync was deferred (finish() checks)
    for (int t : touched) {
        at(t).flags = 0;
        queued[static_cast<size_t>(t)] = kNotQueued;
    }
    touched.clear();
    heap.clear();
    undoLog();
    restoreOrder();
    const size_t n = graph.slotCount();
    spare_slots.reserve(slots.capacity());  // the buffers swap: keep the same headroom
    spare_slots.resize(std::max(spare_slots.size(), n));
    spare_order.clear();
    spare_order.reserve(std::max(order.capacity(), graph.taskCount()));
    const auto resources = static_cast<size_t>(graph.resourceCount());
    last_end.assign(resources, 0.0);
    const bool bounded = limit != kNotQueued;
    if (bounded) work_left.assign(resources, 0.0);
    ready_heap.clear();
    if (replay_state.size() < n) replay_state.resize(n);
    for (size_t t = 0; t < n; ++t) {
        const int ti = static_cast<int>(t);
        if (!graph.alive(ti)) {
            spare_slots[t] = Slot{};
            continue;
        }
        const int d = graph.resource(ti);
        replay_state[t] = {0.0, graph.inDegree(ti)};
        if (bounded) work_left[static_cast<size_t>(d)] += graph.exe(ti);
        if (graph.inDegree(ti) == 0) ready_heap.append({0.0, graph.id(ti), ti, d});
    }
    ready_heap.heapify();
    while (!ready_heap.empty()) {
        const TaskHeap::Entry top = ready_heap.pop();
        const auto d = static_cast<size_t>(top.resource);
        const double exe = graph.exe(top.task);
        const double s = std::max(top.ready, last_end[d]);
        const double e = s + exe;
        spare_slots[static_cast<size_t>(top.task)] = Slot{top.ready, s, e, 0};
        last_end[d] = e;
        spare_order.push_back(top.task);
        graph.forEachSuccessor(top.task, [&](int m) {
            ReplayState& ms = replay_state[static_cast<size_t>(m)];
            ms.ready = std::max(ms.ready, e);
            if (--ms.unplaced == 0) ready_heap.push({ms.ready, graph.id(m), m, graph.resource(m)});
        });
        if (bounded) {
            work_left[d] -= exe;
            if (overBound(static_cast<int>(d), e)) {
                abandoned = true;
                return;  // the current buffer still holds the old timeline
            }
        }
    }
    if (spare_order.size() != graph.taskCount()) throw std::logic_error("delta resimulation: tasks left unplaced");
    changed_now += spare_order.size();
    std::swap(slots, spare_slots);
    std::swap(order, spare_order);
    swapped = true;
    resimulated_makespan = 0;
    for (double e : last_end) resimulated_makespan = std::max(resimulated_makespan, e);
}

}  // namespace partita::sim
