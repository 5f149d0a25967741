#pragma once
// Builds the task graph group by group, so that a full build and the delta
// simulator's partial rebuild produce identical tasks, times and ids.
//
// Groups per operator i: FC(i) forward compute, BC(i) backward compute, S(i)
// weight sync; per tensor edge e (producer -> consumer input slot): FX(e)
// activation transfers, BX(e) gradient transfers. Task ids are (group
// position << 32 | index in group) with group positions in a topological
// order: forward [FX(inputs of j), FC(j)] for j ascending, then backward
// [BX(consumers' gradients into j), BC(j), S(j)] for j descending.
#include <cstdint>
#include <string>
#include <vector>

#include "core/sim/rect.h"
#include "core/sim/task_graph.h"

namespace partita::sim {

class GraphBuilder {
public:
    GraphBuilder(const Network& net, std::int64_t batch, const Topology& topology, const SimOptions& options);

    std::int64_t batch() const { return batch_; }
    void buildAll(TaskGraph& graph, const SoapStrategy& strategy) const;
    // Roughly how many tasks and edges buildAll will make (to reserve memory
    // once instead of growing it): exact for compute and sync, close for transfers.
    std::pair<size_t, size_t> estimate(const SoapStrategy& strategy) const;
    // The groups that depend on operator `op`'s configuration, in build order.
    const std::vector<int>& groupsOf(int op) const { return op_groups_[static_cast<size_t>(op)]; }
    // Builds those groups (which must be empty) from `strategy`.
    void rebuildOp(TaskGraph& graph, const SoapStrategy& strategy, int op) const;

private:
    struct TensorEdge {
        int producer, consumer, slot;
    };
    enum Kind { FC = 0, BC = 1, S = 2 };
    int opGroup(int op, Kind kind) const { return 3 * op + kind; }
    int edgeGroup(int e, bool backward) const { return 3 * n_ops_ + 2 * e + (backward ? 1 : 0); }
    std::uint64_t nextId(const TaskGraph& graph, int group) const;

    void buildGroup(TaskGraph& graph, const SoapStrategy& strategy, int group) const;
    void buildCompute(TaskGraph& graph, const SoapStrategy& strategy, int op, bool backward) const;
    void buildTransfers(TaskGraph& graph, const SoapStrategy& strategy, int e, bool backward) const;
    void buildSync(TaskGraph& graph, const SoapStrategy& strategy, int op) const;
    // A message from compute device `from` to `to`: one task per hop along the
    // route, chained, after every task in `deps`. Returns {first, last} hop.
    std::pair<int, int> message(TaskGraph& graph, int group, const int* deps, size_t ndeps, int from, int to,
                                double bytes, TaskInfo info) const;
    double computeTime(const Operator& op, const Degrees& degrees, const Box& out, int device, bool backward) const;

    const Network& net_;
    std::int64_t batch_;
    const Topology& topo_;
    SimOptions options_;
    int n_ops_ = 0;
    std::vector<TensorEdge> edges_;
    std::vector<std::uint32_t> position_;      // group -> topological position
    std::vector<std::vector<int>> op_groups_;  // op -> groups to rebuild
};

}  // namespace partita::sim
