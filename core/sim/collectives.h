#pragma once
// Collectives as algorithms over a topology (docs/methods/flexflow.md#collectives-as-algorithms):
// an all-reduce, reduce-scatter, all-gather, all-to-all or broadcast expands into phases of rounds, not
// into per-hop messages. A round's transfers run together and share links max-min fairly
// (core/sim/flow_network.h); a round costs its slowest route's latency (α) plus the time its
// transfers take (β, with contention). Ring, double binary tree, halving-doubling, direct and
// hierarchical (intra-node reduce-scatter → inter-node all-reduce → intra-node all-gather).
#include <memory>
#include <string>
#include <vector>

#include "core/topology/topology.h"

namespace partita::sim {

enum class CollectiveOp { AllReduce, ReduceScatter, AllGather, AllToAll, Broadcast };
enum class CollectiveAlgorithm { Ring, DoubleBinaryTree, HalvingDoubling, Direct, Hierarchical };
inline constexpr CollectiveAlgorithm kCollectiveAlgorithms[] = {
    CollectiveAlgorithm::Ring, CollectiveAlgorithm::DoubleBinaryTree, CollectiveAlgorithm::HalvingDoubling,
    CollectiveAlgorithm::Direct, CollectiveAlgorithm::Hierarchical};

const char* collectiveOpName(CollectiveOp op);                 // "all-reduce", ...
const char* collectiveAlgorithmName(CollectiveAlgorithm a);    // "ring", "tree", "halving-doubling", ...
CollectiveOp parseCollectiveOp(const std::string& s);          // throws std::invalid_argument listing names
CollectiveAlgorithm parseCollectiveAlgorithm(const std::string& s);

struct Transfer {
    int from = 0, to = 0;  // compute device ids
    double bytes = 0;
};

struct CollectivePhase {
    std::string name;             // "reduce-scatter", "inter-node all-reduce", ...
    int steps = 1;                // identical rounds in sequence
    int latency_rounds = 1;       // α charged: `steps`, or a pipelined tree's depth
    std::vector<Transfer> round;  // the transfers of one round, concurrent
};

// Larger expansions are refused: direct and the ring's all-to-all are p(p-1) transfers.
inline constexpr size_t kMaxCollectiveTransfers = size_t{1} << 16;

// The phases of `op` over `group` (distinct device ids, in ring order) on `bytes`: the buffer of an
// all-reduce or a broadcast (from group[0]), an all-gather's output, a reduce-scatter's input, an
// all-to-all's send buffer per device. Throws std::invalid_argument when the algorithm does not
// apply, naming why (halving-doubling needs a power-of-two group; hierarchical needs at least two
// nodes with as many group members each).
std::vector<CollectivePhase> collectivePhases(const Topology& topology, CollectiveOp op, CollectiveAlgorithm algorithm,
                                              const std::vector<int>& group, double bytes);

struct PhaseTime {
    std::string name;
    int steps = 1;
    double latency_s = 0, transfer_s = 0;  // α and β parts of the whole phase
    double total_s() const { return latency_s + transfer_s; }
};

struct CollectiveTime {
    CollectiveAlgorithm algorithm = CollectiveAlgorithm::Ring;
    std::vector<PhaseTime> phases;
    double total_s = 0;
};

CollectiveTime collectiveTime(const Topology& topology, CollectiveOp op, CollectiveAlgorithm algorithm,
                              const std::vector<int>& group, double bytes);
// The fastest algorithm that applies (NCCL picks per size and tier; here each is evaluated).
CollectiveTime fastestCollective(const Topology& topology, CollectiveOp op, const std::vector<int>& group, double bytes);

// A collective's time is a line in its size, T(S) = latency_s + S * seconds_per_byte: every transfer
// of a round scales with S, and so do max-min fair finishing times. The simulator prices each weight's
// synchronisation from these lines, cached per group (docs/methods/flexflow.md#collectives-in-the-simulator).
struct CollectiveLine {
    CollectiveAlgorithm algorithm = CollectiveAlgorithm::Ring;
    double latency_s = 0, seconds_per_byte = 0;
    // What each directed pair carries per byte of S over the whole collective (pairs merged, steps
    // counted), shared by every task graph that uses the line.
    std::shared_ptr<const std::vector<Transfer>> traffic_per_byte;
    std::shared_ptr<const std::vector<double>> sent_per_byte;  // by member (group order)
    double largest_transfer_per_byte = 0;  // the largest single transfer of a round, per byte of S
    double time(double bytes) const { return latency_s + bytes * seconds_per_byte; }
};
// The line of every algorithm that applies to `group` (at least ring), in kCollectiveAlgorithms order.
std::vector<CollectiveLine> collectiveLines(const Topology& topology, CollectiveOp op, const std::vector<int>& group);
// The fastest of `lines` for `bytes` (the first on a tie); `lines` must not be empty.
const CollectiveLine& fastestLine(const std::vector<CollectiveLine>& lines, double bytes);

}  // namespace partita::sim
