#pragma once
// Delta simulation (docs/methods/flexflow.md#delta-simulation, Algorithm 2, designed here): after one
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
//  5. Replay: when a change spreads (on data-parallel strategies it reaches
//     nearly every backward and sync task, so no cut-off comes), the sweep's
//     bookkeeping costs more than it saves. After a number of changed tasks it
//     hands the unplaced tasks to Algorithm 1 (pending counts and one heap),
//     which continues from the tasks placed so far: they are a prefix of the new
//     order, so this is the same schedule. When the unplaced tasks are most of
//     the graph and the proposal has no bound, Algorithm 1 runs on the whole new
//     graph instead, into a second buffer (the old timeline stays in the first for
//     revert()); with a bound, replay keeps the placed prefix and its early exit.
// The result is the full simulation's timeline bit for bit: the same order and
// the same floating-point operations on the same inputs. Values overwritten by
// a proposal are logged, and the replaced part of the order is saved, so
// revert() restores the previous state exactly; commit() frees the removed tasks.
//
// Early exit (MCMC): a chain that draws its acceptance threshold before the
// proposal knows the makespan above which it will reject. propose(op, config,
// bound) stops as soon as some resource provably ends after `bound`: its last
// placed task's end plus the work still to be placed on it is a lower bound on
// the makespan. The proposal is then abandoned; revert() restores the old state.
// The first check comes before the graph changes: a device's busy time (its alive
// tasks' durations, kept through commits) with the operator's old tasks taken out
// and its new compute put in is also a lower bound, and settles many rejections
// without building the operator's transfers and weight sync. A bounded proposal
// builds weight syncs unpriced and prices one when the schedule first reaches a
// member (counted as no work by the exit until then).
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

    // Starts over from `strategy`: the state a full build and simulation give, as the constructor's,
    // but keeping the builder's cached collective lines and the buffers. When few operators differ
    // from the current strategy it proposes and commits them one by one instead (cheaper than a
    // build at thousands of devices; the same state). Throws partita::Error when invalid, keeping the
    // previous state. No proposal may be pending. `cancel` is asked during the build and between
    // operators; after partita::Cancelled the simulator holds no strategy and may only be reset or
    // destroyed.
    void reset(SoapStrategy strategy, const CancelFn& cancel = {});
    // Remembers the current timeline (no proposal may be pending; one bookmark at a time), so that a
    // later reset() to this strategy, or to one a few operators from it, rebuilds only the operators
    // changed since and copies the remembered timeline back instead of simulating again: MCMC's
    // returns to its best (docs/methods/flexflow.md#delta-simulation).
    void bookmark();

    double makespan() const;
    // Replaces operator `op`'s configuration and returns the new makespan. The
    // configuration is validated first (partita::Error, nothing changes). Only
    // one proposal may be pending: commit() or revert() it before the next.
    double propose(int op, const OpConfig& config);
    // The same, but gives up once the new makespan is known to exceed `bound`
    // (by more than rounding can explain): it then returns +infinity and the
    // proposal is abandoned, to be reverted (commit() throws). Otherwise it
    // returns exactly what propose(op, config) returns.
    double propose(int op, const OpConfig& config, double bound);
    void commit();
    void revert();
    bool pending() const;
    bool abandoned() const;  // the pending proposal stopped early

    const Network& network() const;
    const Topology& topology() const;
    const SoapStrategy& strategy() const;
    const TaskGraph& graph() const;
    std::int64_t batch() const;
    SimResult result() const;  // the current timeline in simulate()'s form

    // When the sweep hands over to Algorithm 1 (step 5): once it has changed
    // max(replay_min, n / replay_divisor) tasks, n the old order's length after
    // K0; it then resimulates the whole graph if more than `resimulate_above` of
    // the tasks are unplaced (> 1: never), else replays the unplaced ones. The
    // timeline does not depend on these; tests vary them to cover every path.
    struct Tuning {
        size_t replay_min = 2048;
        size_t replay_divisor = 64;
        double resimulate_above = 0.5;
        // reset() proposes the differing operators one by one when they are at most this many.
        size_t move_ops = 4;
    };
    void setTuning(const Tuning& tuning);

    struct Stats {
        std::uint64_t proposals = 0;
        std::uint64_t visits = 0;         // tasks evaluated by the sweep (placed or pushed back)
        std::uint64_t changed = 0;        // tasks placed with new values
        std::uint64_t rebuilt_tasks = 0;  // tasks created by graph updates
        std::uint64_t replays = 0;        // proposals finished by Algorithm 1 on the unplaced tasks (step 5)
        std::uint64_t resimulations = 0;  // ... or on the whole graph
        std::uint64_t abandoned = 0;      // proposals stopped early at their bound
        std::uint64_t abandoned_untouched = 0;  // ... of which by their compute alone, before the graph changed
        std::uint64_t deferred_syncs = 0;  // weight syncs a bounded proposal built without pricing them
        std::uint64_t priced_syncs = 0;    // ... of which the schedule reached
        std::uint64_t full_builds = 0;    // construction and resets that built the whole graph
        std::uint64_t moves = 0;          // resets done by proposing the differing operators
        std::uint64_t restores = 0;       // resets done from the bookmark
    };
    const Stats& stats() const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace partita::sim
