// The sweep of delta simulation (steps 3 and 4 of the algorithm in delta.h).
#include <algorithm>

#include "core/sim/delta_impl.h"

namespace partita::sim {

void DeltaSimulator::Impl::push(int t, double key) {
    double& q = queued[static_cast<size_t>(t)];
    if (!(key < q)) return;  // already queued at least as early
    touch(t);
    Slot& s = at(t);
    s.flags = static_cast<std::uint8_t>((s.flags & ~kWaiting) | kQueued);
    q = key;
    heap.push_back({key, graph.id(t), t});
    std::push_heap(heap.begin(), heap.end(), Later{});
}

void DeltaSimulator::Impl::schedule(int t) {
    bool pend = false;
    double r = 0;
    graph.forEachPredecessor(t, [&](int p) {
        pend = pend || isPending(p);
        r = std::max(r, slots[static_cast<size_t>(p)].end);
    });
    if (pend) wait(t);
    else push(t, r);
}

// A device is clean when the rest of its old order would start as before:
// nothing is left on it, or its last placed task is the old predecessor of the
// next old task and kept its end, and no removed task lies ahead (its
// successor on the device would start earlier).
void DeltaSimulator::Impl::updateClean(int d) {
    const auto ds = static_cast<size_t>(d);
    const int l = last[ds];
    const bool c = remaining[ds] == 0 ||
                   (dead_ahead[ds] == 0 && l == old_last[ds] && (l < 0 || !(at(l).flags & kChanged)));
    if (c != static_cast<bool>(clean[ds])) {
        dirty += c ? -1 : 1;
        clean[ds] = c;
    }
}

// The stream moves past old task u.
void DeltaSimulator::Impl::pass(int u) {
    const auto d = static_cast<size_t>(graph.resource(u));
    old_last[d] = u;
    if (graph.alive(u)) --remaining[d];
    else --dead_ahead[d];
    updateClean(static_cast<int>(d));
}

bool DeltaSimulator::Impl::place(int t, double r) {
    priceIfDeferred(t);
    Slot& st = at(t);
    const int d = graph.resource(t);
    const int prev = last[static_cast<size_t>(d)];
    const double s = std::max(r, prev >= 0 ? at(prev).end : 0.0);
    const double e = s + graph.exe(t);
    const bool fresh = st.flags & kNew;
    if (!fresh && (r != st.ready || s != st.start || e != st.end)) log.push_back({t, st.ready, st.start, st.end});
    const bool changed = fresh || e != st.end;
    st.ready = r;
    st.start = s;
    st.end = e;
    touch(t);
    st.flags = static_cast<std::uint8_t>((st.flags & ~kWaiting) | kDone | (changed ? kChanged : 0));
    order.push_back(t);
    last[static_cast<size_t>(d)] = t;
    updateClean(d);
    if (changed) ++changed_now;
    graph.forEachSuccessor(t, [&](int n) {
        if (!changed && !(at(n).flags & kWaiting)) return;
        if (graph.inDegree(n) == 1) push(n, e);  // t is its only predecessor: the key is e
        else schedule(n);
    });
    if (limit == kNotQueued) return true;
    work_left[static_cast<size_t>(d)] -= graph.exe(t);
    if (!overBound(d, e)) return true;
    abandoned = true;
    return false;
}

void DeltaSimulator::Impl::sweep() {
    size_t j = 0;
    while (true) {
        // Stream entries that are gone, already placed or pending are skipped.
        while (j < replaced.size()) {
            const int u = replaced[j];
            if (graph.alive(u) && !(at(u).flags & kDone) && !isPending(u)) break;
            pass(u);
            ++j;
        }
        while (!heap.empty() && heap.front().ready != queued[static_cast<size_t>(heap.front().task)]) {
            std::pop_heap(heap.begin(), heap.end(), Later{});  // superseded by an earlier entry
            heap.pop_back();
        }
        const bool stream = j < replaced.size();
        if (heap.empty() && (!stream || dirty == 0)) break;
        if (changed_now > replay_at) return handOver(j);
        ++stats.visits;
        const int u = stream ? replaced[j] : -1;
        if (stream && (heap.empty() || keyLess(at(u).ready, graph.id(u), heap.front().ready, heap.front().id))) {
            // No predecessor changed (it would have queued u), so u's ready and key stand.
            pass(u);
            ++j;
            bool pend = false;
            graph.forEachPredecessor(u, [&](int p) { pend = pend || isPending(p); });
            if (pend) wait(u);
            else if (!place(u, at(u).ready)) return;
            continue;
        }
        std::pop_heap(heap.begin(), heap.end(), Later{});
        const Entry top = heap.back();
        heap.pop_back();
        queued[static_cast<size_t>(top.task)] = kNotQueued;
        at(top.task).flags &= static_cast<std::uint8_t>(~kQueued);
        bool pend = false;
        double r = 0;
        graph.forEachPredecessor(top.task, [&](int p) {
            pend = pend || isPending(p);
            r = std::max(r, at(p).end);
        });
        if (pend) wait(top.task);                   // queued again once that predecessor is placed
        else if (r > top.ready) push(top.task, r);  // its true key is later
        else if (!place(top.task, r)) return;
    }
    // Cut-off: the rest of the old order keeps its values.
    for (; j < replaced.size(); ++j) {
        const int u = replaced[j];
        if (!graph.alive(u) || (at(u).flags & kDone)) continue;
        order.push_back(u);
        last[static_cast<size_t>(graph.resource(u))] = u;
    }
}

}  // namespace partita::sim
