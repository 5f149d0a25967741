#pragma once
// Delta simulation (spec flexflow §3.2, Algorithm 2, designed here): after one
// operator's configuration changes, update the task graph and the timeline
// incrementally, giving exactly the timeline full simulation gives on the new
// graph (same start and end of every task, same makespan).
//
// The algorithm. Full simulation processes tasks in increasing key (ready, id)
// order, and each task's values depend only on tasks with smaller keys (its
// predecessors, and the previous task on its device). Delta simulation replays
// that same order, but only from the first key a change can reach, and it does
// not re-evaluate what provably stays the same:
//  1. UPDATE_TASK_GRAPH: detach the operator's groups (its forward and backward
//     tasks, the transfers of every tensor it reads or writes, its weight sync)
//     and build the new ones with the same builder as a full build (same
//     times, same ids).
//  2. K0 = a lower bound on the new ready time of everything that changes: the
//     old ready of the removed tasks, and, for the new tasks and the tasks that
//     lost or gained a predecessor, the largest old end among their surviving
//     predecessors. Every task with an old ready below K0 keeps its values: the
//     committed order up to K0 is kept as it is.
//  3. Sweep, merging two streams by key: the old order after K0 ("stream") and
//     a heap of pending tasks (new ones, those that lost or gained a
//     predecessor, and successors of tasks whose end changed). A task with a
//     pending predecessor waits until that predecessor is placed. A stream task
//     with no pending predecessor keeps its ready time, so its key is exact: it
//     only recomputes start = max(ready, end of the last task placed on its
//     device). A heap task's ready is recomputed; if it exceeds the popped key
//     the task is pushed back with the true key, else it is placed. Placing a
//     task appends it to the new order and, if its end changed, queues its
//     successors at their recomputed ready (or lets them wait).
//  4. Cut-off: once the heap is empty and on every device the last placed task
//     is the old predecessor of the next old task, with an unchanged end, the
//     rest of the old order stands and is appended as it is.
// The result is the full simulation's timeline bit for bit: the same order and
// the same floating-point operations on the same inputs. Values overwritten by
// a proposal are logged, and the replaced part of the order is saved, so
// revert() restores the previous state exactly; commit() frees the removed tasks.
#include <cstdint>
#include <memory>

#include "core/sim/simulator.h"
#include "core/sim/task_graph.h"

namespace partita::sim {

class DeltaSimulator {
public:
    // Builds and fully simulates the strategy (throws partita::Error when invalid).
    DeltaSimulator(Network net, double batch, SoapStrategy strategy, Topology topology, SimOptions options = {});
    ~DeltaSimulator();
    DeltaSimulator(DeltaSimulator&&) noexcept;
    DeltaSimulator& operator=(DeltaSimulator&&) noexcept;

    double makespan() const;
    // Replaces operator `op`'s configuration and returns the new makespan. The
    // configuration is validated first (partita::Error, nothing changes). Only
    // one proposal may be pending: commit() or revert() it before the next.
    double propose(int op, const OpConfig& config);
    void commit();
    void revert();
    bool pending() const;

    const Network& network() const;
    const Topology& topology() const;
    const SoapStrategy& strategy() const;
    const TaskGraph& graph() const;
    std::int64_t batch() const;
    SimResult result() const;  // the current timeline in simulate()'s form

    struct Stats {
        std::uint64_t proposals = 0;
        std::uint64_t visits = 0;         // tasks evaluated by the sweep (placed or pushed back)
        std::uint64_t changed = 0;        // tasks placed with new values
        std::uint64_t rebuilt_tasks = 0;  // tasks created by graph updates
    };
    const Stats& stats() const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace partita::sim
