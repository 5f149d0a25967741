#pragma once
// Builds the task graph group by group, so that a full build and the delta
// simulator's partial rebuild produce identical tasks, times and ids.
//
// Groups per operator i: FC(i) forward compute, BC(i) backward compute, S(i)
// weight sync, and for a reduce-split operator (OpConfig::reduce > 1) RX(i)
// partial-sum transfers of a reduce-scatter (task r of a piece sums its slice r),
// RC(i) the additions, BG(i) the point where a slice's output gradient is
// complete, BB(i) its all-gather to the piece's other tasks (empty groups otherwise); per
// tensor edge e (producer -> consumer input slot): FX(e) activation transfers,
// BX(e) gradient transfers. Task ids are (group position << 32 | index in
// group) with group positions in a topological order: forward [FX(inputs of
// j), FC(j), RX(j), RC(j)] for j ascending, then backward [BX(consumers'
// gradients into j), BG(j), BB(j), BC(j), S(j)] for j descending.
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/sim/compute_cost.h"
#include "core/sim/rect.h"
#include "core/sim/task_graph.h"

namespace partita::sim {

class GraphBuilder {
public:
    GraphBuilder(const Network& net, std::int64_t batch, const Topology& topology, const SimOptions& options);

    // Larger graphs are refused before anything is allocated (about 145 bytes per task).
    static constexpr size_t kMaxTasks = size_t{1} << 24;

    std::int64_t batch() const { return batch_; }
    // `cancel` is asked between operators and tensors (partita::Cancelled when it says stop).
    void buildAll(TaskGraph& graph, const SoapStrategy& strategy, const CancelFn& cancel = {}) const;
    // Roughly how many tasks and edges buildAll will make (to reserve memory
    // once instead of growing it): exact for compute and sync, close for transfers.
    std::pair<size_t, size_t> estimate(const SoapStrategy& strategy) const;
    // The groups that depend on operator `op`'s configuration, in build order.
    const std::vector<int>& groupsOf(int op) const { return op_groups_[static_cast<size_t>(op)]; }
    // A weight sync's all-reduce built without its time: a proposal prices it (priceSync) only once
    // the schedule reaches it, as most proposals are abandoned before (docs/methods/flexflow.md#delta-simulation).
    struct DeferredSync {
        int group = -1;
        size_t collective = 0;     // its index among the group's collectives
        std::vector<int> devs;     // the members' devices, by id
        std::vector<int> members;  // their tasks, in the same order, lasting 0 until priced
        double bytes = 0;
    };
    // Builds those groups (which must be empty) from `strategy`; with `deferred`, weight syncs as
    // collectives are left unpriced and listed there.
    void rebuildOp(TaskGraph& graph, const SoapStrategy& strategy, int op,
                   std::vector<DeferredSync>* deferred = nullptr) const;
    // Gives a deferred all-reduce's members their time and bytes, and its group its traffic, as
    // buildCollectiveSync would have.
    void priceSync(TaskGraph& graph, const DeferredSync& sync) const;
    // Adds to load[d] the seconds of forward (and, training, backward) compute operator `op` would
    // have on each device d under `config`, exactly as its compute tasks would last, and lists each
    // device the first time it gets some (load[d] was 0). Builds nothing: delta simulation's first
    // bound (docs/methods/flexflow.md#delta-simulation).
    void addComputeLoad(int op, const OpConfig& config, std::vector<double>& load, std::vector<int>& devices) const;
    // The slot of the task with stable id `id` in `graph` (built by this builder), or -1 when no
    // such task is there: an id is its group's position and its place in the group.
    int slotOf(const TaskGraph& graph, std::uint64_t id) const {
        const std::uint64_t position = id >> 32, place = id & 0xffffffffu;
        if (position >= group_at_.size()) return -1;
        const auto& tasks = graph.group(group_at_[position]).tasks;
        return place < tasks.size() ? tasks[place] : -1;
    }

private:
    struct TensorEdge {
        int producer, consumer, slot;
    };
    enum Kind { FC = 0, BC, S, RX, RC, BG, BB, kKinds };
    int opGroup(int op, Kind kind) const { return kKinds * op + kind; }
    int edgeGroup(int e, bool backward) const { return kKinds * n_ops_ + 2 * e + (backward ? 1 : 0); }
    // The tasks holding piece k of `op`'s finished output (forward) and
    // receiving its gradient (backward): the reduction's when the op is reduce-split.
    int outputTask(const TaskGraph& graph, int op, int k, bool backward) const;
    std::uint64_t nextId(const TaskGraph& graph, int group) const;

    void buildGroup(TaskGraph& graph, const SoapStrategy& strategy, int group) const;
    void buildCompute(TaskGraph& graph, const SoapStrategy& strategy, int op, bool backward) const;
    void buildTransfers(TaskGraph& graph, const SoapStrategy& strategy, int e, bool backward) const;
    // One piece of a tensor moving from a producer task to a consumer task (reversed backward).
    struct PieceMessage {
        int src, dst, from, to, part;
        double bytes;
    };
    // Builds `pieces` (`cross` of them between devices) as one collective, if they are many to many.
    bool buildRedistribution(TaskGraph& graph, int group, const std::vector<PieceMessage>& pieces, size_t cross,
                             int op) const;
    void buildSync(TaskGraph& graph, const SoapStrategy& strategy, int op) const;
    void buildReduction(TaskGraph& graph, const SoapStrategy& strategy, int op, Kind kind) const;
    // A message from compute device `from` to `to`: one task per hop along the
    // route, chained, after every task in `deps`. Returns {first, last} hop.
    std::pair<int, int> message(TaskGraph& graph, int group, const int* deps, size_t ndeps, int from, int to,
                                double bytes, TaskInfo info) const;
    double computeTime(const Operator& op, const OpConfig& config, const Box& out, int device, bool backward) const;
    double vectorTime(const Work& work, const ComputeDevice& device) const;  // a sum or an unpool
    // Whether ring syncs are collectives on per-device streams (which then exist as resources).
    bool collectiveStreams() const {
        return options_.training && options_.sync == SyncMode::Ring && options_.collectives == CollectiveModel::Algorithm;
    }
    // The all-reduce lines of every algorithm over `group`, computed once per group and shared.
    std::shared_ptr<const std::vector<CollectiveLine>> allReduceLines(const std::vector<int>& group) const;
    void buildCollectiveSync(TaskGraph& graph, int group, const std::vector<int>& devs,
                             const std::vector<std::vector<int>>& local, double bytes, TaskInfo info) const;
    // The line a sync of `bytes` over `devs` uses: the chosen algorithm where it applies, else the fastest.
    const CollectiveLine& syncLine(const std::vector<CollectiveLine>& lines, double bytes) const;
    // A collective's tasks (docs/methods/flexflow.md#collectives-in-the-simulator), shared by weight syncs and
    // redistributions: a zero-time join on the first member's stream (its in-edges are the caller's),
    // then one task per member on its own stream lasting `time`, after the join, sending sent[r] × scale.
    int collectiveJoin(TaskGraph& graph, int group, const std::vector<int>& devs, TaskInfo info) const;
    void collectiveMembers(TaskGraph& graph, int group, int join, const std::vector<int>& devs, double time,
                           const std::vector<double>& sent, double scale, TaskInfo info, std::vector<int>& members) const;

    const Network& net_;
    std::int64_t batch_;
    const Topology& topo_;
    SimOptions options_;
    int n_ops_ = 0;
    std::vector<TensorEdge> edges_;
    std::vector<std::uint32_t> position_;      // group -> topological position
    std::vector<int> group_at_;                // position -> group
    std::vector<std::vector<int>> op_groups_;  // op -> groups to rebuild
    struct LineCache {
        std::mutex mutex;
        std::map<std::vector<int>, std::shared_ptr<const std::vector<CollectiveLine>>> lines;
    };
    std::shared_ptr<LineCache> line_cache_ = std::make_shared<LineCache>();
    // Set during rebuildOp(…, deferred) only: where buildCollectiveSync lists the syncs it leaves unpriced.
    mutable std::vector<DeferredSync>* deferred_ = nullptr;
};

}  // namespace partita::sim
