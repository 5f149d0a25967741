#pragma once
// DeltaSimulator's state (private to delta.cpp and delta_sweep.cpp).
#include <limits>
#include <vector>

#include "core/sim/delta.h"
#include "core/sim/graph_builder.h"

namespace partita::sim {

struct DeltaSimulator::Impl {
    static constexpr double kNotQueued = std::numeric_limits<double>::infinity();
    enum : std::uint8_t { kTouched = 1, kNew = 2, kDone = 4, kChanged = 8, kWaiting = 16 };

    // One task's timeline and sweep state, together for locality.
    struct Slot {
        double ready = 0, start = 0, end = 0;
        double queued = kNotQueued;  // key of its live heap entry
        std::uint8_t flags = 0;      // clean between proposals
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

    Network net;
    Topology topo;
    SimOptions options;
    std::int64_t batch;
    SoapStrategy strategy;
    GraphBuilder builder;
    TaskGraph graph;

    std::vector<Slot> slots;  // by task slot
    std::vector<int> order;   // live tasks in (ready, id) order
    // Sweep state.
    std::vector<int> touched, seeds, last, old_last, remaining;
    std::vector<std::uint8_t> clean;
    int dirty = 0;
    std::vector<Entry> heap;
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

    Slot& at(int t) { return slots[static_cast<size_t>(t)]; }
    void grow() {
        if (slots.size() < graph.slotCount()) slots.resize(graph.slotCount());
    }
    void touch(int t) {
        Slot& s = at(t);
        if (!(s.flags & kTouched)) {
            s.flags |= kTouched;
            touched.push_back(t);
        }
    }
    // Pending: queued, or waiting for a pending predecessor to be placed.
    bool isPending(int t) const {
        const Slot& s = slots[static_cast<size_t>(t)];
        return s.queued != kNotQueued || (s.flags & kWaiting);
    }
    void wait(int t) {
        touch(t);
        at(t).flags |= kWaiting;
    }
    void push(int t, double key);
    // Queues t at its exact key, or lets it wait for a pending predecessor.
    void schedule(int t);
    void updateClean(int d);
    void pass(int u);
    void place(int t, double r);
    void sweep();
    double propose(int o, const OpConfig& config);
    void finish();
    void revert();
};

}  // namespace partita::sim
