#pragma once
// DeltaSimulator's state (private to delta.cpp, delta_sweep.cpp and delta_replay.cpp).
#include <limits>
#include <vector>

#include "core/sim/delta.h"
#include "core/sim/graph_builder.h"

namespace partita::sim {

struct DeltaSimulator::Impl {
    static constexpr double kNotQueued = std::numeric_limits<double>::infinity();
    enum : std::uint8_t {
        kTouched = 1, kNew = 2, kDone = 4, kChanged = 8, kWaiting = 16, kReplay = 32, kQueued = 64,
        kUnpriced = 128  // a member of a deferred weight sync, lasting 0 until priced
    };

    // One task's timeline and sweep state, together for locality: 32 bytes, so
    // that a slot never straddles two cache lines.
    struct alignas(32) Slot {
        double ready = 0, start = 0, end = 0;
        std::uint8_t flags = 0;  // clean between proposals
    };
    struct Entry {
        double ready;
        std::uint64_t id;
        int task;
    };
    struct Later {  // min-heap on (ready, id)
        bool operator()(const Entry& a, const Entry& b) const { return keyLess(b.ready, b.id, a.ready, a.id); }
    };
    struct Saved {
        int task;
        double ready, start, end;
    };

    Impl(Network n, double b, SoapStrategy s, Topology t, SimOptions o);
    void start(const CancelFn& cancel = {});
    // Moves to `target` by proposals when few operators differ (delta.cpp); false: build it instead.
    bool moveTo(const SoapStrategy& target, const CancelFn& cancel);
    // Moves to `target` from the bookmark when that takes fewer proposals (delta.cpp); false: it does not.
    bool restoreBookmark(const SoapStrategy& target, const CancelFn& cancel);
    // The operators whose configurations differ between a and b (strategies of this network).
    static std::vector<int> differingOps(const SoapStrategy& a, const SoapStrategy& b);
    // Rebuilds operator o's groups for `config`, outside any proposal (the timeline is left stale).
    void replaceOp(int o, const OpConfig& config);
    // Proposes and commits each of `ops` at target's configuration, asking `cancel` before each.
    void proposeEach(const std::vector<int>& ops, const SoapStrategy& target, const CancelFn& cancel);
    void stopIfCancelled(const CancelFn& cancel);  // between the steps of a reset
    void commitPending();

    Network net;
    Topology topo;
    SimOptions options;
    std::int64_t batch;
    SoapStrategy strategy;
    GraphBuilder builder;
    TaskGraph graph;

    std::vector<Slot> slots;     // by task slot
    std::vector<double> queued;  // by task slot: the key of its live heap entry (kQueued)
    std::vector<int> order;   // live tasks in (ready, id) order
    // Sweep state.
    std::vector<int> touched, seeds, last, old_last, remaining, dead_ahead;
    std::vector<std::uint8_t> clean;
    int dirty = 0;
    std::vector<Entry> heap;
    // Replay (step 5): the tasks left to place; per task, its ready so far and
    // its count of unplaced predecessors (dense, apart from the slots, because
    // updating successors is most of replay's memory traffic); the queue; the
    // end of the last task placed on each resource.
    struct ReplayState {
        double ready;
        int unplaced;
    };
    std::vector<int> rest;
    std::vector<ReplayState> replay_state;
    TaskHeap ready_heap;
    std::vector<double> last_end;
    // Resimulation's buffer (the previous timeline while `swapped`).
    std::vector<Slot> spare_slots;
    std::vector<int> spare_order;
    bool swapped = false;
    double resimulated_makespan = 0;
    size_t changed_now = 0;       // tasks placed with new values by this proposal
    size_t replay_at = 0;         // ... after which the sweep hands over to replay
    Tuning tuning;
    bool built = false;  // the graph and timeline hold `strategy` (not after a cancelled build)
    // Early exit: work not yet placed per resource, and the makespan beyond which to stop.
    std::vector<double> work_left;
    double limit = kNotQueued;
    bool abandoned = false;
    // The first bound (checkCompute): seconds of work per resource of the alive tasks, kept through
    // commits; per device, an operator's old and new compute while a proposal is checked.
    std::vector<double> busy, old_load, new_load;
    std::vector<int> load_devices;
    bool untouched = false;  // the pending proposal was abandoned before the graph changed
    // A bounded proposal's weight syncs, priced when the schedule first reaches one of their members.
    std::vector<GraphBuilder::DeferredSync> deferred;
    std::vector<int> deferred_of;  // by task slot: its entry in `deferred` (read only under kUnpriced)
    size_t unpriced = 0;
    void priceIfDeferred(int t) {
        if (at(t).flags & kUnpriced) price(deferred_of[static_cast<size_t>(t)]);
    }
    void price(int k);
    // The pending proposal and what it replaced.
    bool pending = false;
    int op = -1;
    OpConfig old_config;
    double old_makespan = 0, makespan = 0;
    std::vector<TaskGroup> stash, spare;  // spare keeps group capacity across proposals
    std::vector<Saved> log;
    size_t kept = 0;            // length of the order prefix the proposal kept
    std::vector<int> replaced;  // the old order after that prefix
    Stats stats;
    // bookmark(): a committed timeline by stable task id, in order.
    struct Mark {
        std::uint64_t id;
        double ready, start, end;
    };
    bool marked = false;
    SoapStrategy mark_strategy;
    double mark_makespan = 0;
    std::vector<Mark> mark_timeline;

    Slot& at(int t) { return slots[static_cast<size_t>(t)]; }
    // Each by-slot array on its own: after a full build of a smaller graph, a resimulation swaps
    // in a timeline buffer longer than the others.
    void grow() {
        const size_t n = graph.slotCount();
        if (slots.size() < n) slots.resize(n);
        if (queued.size() < n) queued.resize(n, kNotQueued);
        if (deferred_of.size() < n) deferred_of.resize(n, -1);
    }
    void touch(int t) {
        Slot& s = at(t);
        if (!(s.flags & kTouched)) {
            s.flags |= kTouched;
            touched.push_back(t);
        }
    }
    // Pending: queued, or waiting for a pending predecessor to be placed.
    bool isPending(int t) const { return slots[static_cast<size_t>(t)].flags & (kQueued | kWaiting); }
    void wait(int t) {
        touch(t);
        at(t).flags |= kWaiting;
    }
    void push(int t, double key);
    // Queues t at its exact key, or lets it wait for a pending predecessor.
    void schedule(int t);
    void updateClean(int d);
    void pass(int u);
    // Places t at ready r; false when the proposal is abandoned at its bound.
    bool place(int t, double r);
    bool overBound(int d, double end) const { return end + work_left[static_cast<size_t>(d)] > limit; }

    void sweep();
    void handOver(size_t j);  // to replay() or resimulate()
    void replay(size_t j);
    void resimulate();
    void undoLog();       // restores the values the log saved, and empties it
    void restoreOrder();  // the old order: the kept prefix, then `replaced`
    double propose(int o, const OpConfig& config, double bound);
    // Whether operator o's compute under `config` alone puts some device past `limit` (delta.h).
    bool computeExceeds(int o, const OpConfig& config);
    void addBusy(const std::vector<int>& tasks, double sign);
    void finish();
    void revert();
};

}  // namespace partita::sim
