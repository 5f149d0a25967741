#pragma once
// Repeated blocks of a network (a ResNet stage's identical residual blocks, transformer layers,
// conv-bn-relu runs), found so that a drawing can collapse each run of them into one node.
//
// A cut is a place in the operators' topological order where the only tensor crossing it is the
// output of the operator just before it (or the network input); an operator nothing reads (a
// network output) crosses no cut. The operators between two neighbouring cuts form a segment:
// single entry (the tensor at the cut before it), single exit (its last operator). A block is k
// consecutive segments; a run is r >= 2 consecutive blocks with the same structure: for every
// operator in order, the same kind (type and imported op name), parameters (channels, window, pool,
// groups, output padding, layout shape), inputs (the block's entry, or the operator at the same
// position inside the block) and shapes (the entry's, and each operator's input and output). With
// shapes in the structure the members of a run are the same computation, with the same MACs and
// weights each; a stage's first, downsampling block is not a member of its stage's run.
//
// Runs are taken by the segments they cover: of every stretch of segments that repeats with a
// period of k segments (the block), the one covering the most goes first, ties to the shorter block
// (A A A A is 4 x A, not 2 x AA), then to the earlier; later ones keep what is left to them, so runs
// never overlap. When a run's blocks could start a few segments later with as many members, they
// start at the first of those segments that begins with a weighted operator (conv, bn, relu rather
// than bn, relu, conv).
#include <vector>

#include "core/model/network.h"

namespace partita {

// The most segments per block looked for; the search compares each segment with the
// kMaxRepeatPeriod after it.
inline constexpr int kMaxRepeatPeriod = 64;
// Networks with more operators are not searched (the structures compared take memory per operator).
inline constexpr int kMaxRepeatOperators = 100000;

struct RepeatedRun {
    int first_op = 0;   // the first operator of the first member
    int block_ops = 0;  // operators per member
    int members = 0;    // >= 2
    int lastOp() const { return first_op + block_ops * members - 1; }
    // Which member `op` is in, or -1 when it is not in the run.
    int memberOf(int op) const { return op < first_op || op > lastOp() ? -1 : (op - first_op) / block_ops; }
    bool operator==(const RepeatedRun&) const = default;
};

// The cuts of a propagated network: -1 (before the first operator) and every operator after which
// only its own output crosses (the last operator always).
std::vector<int> segmentCuts(const Network& net);

// Maximal runs of repeated blocks in operator order; empty for a network without any or with more
// than kMaxRepeatOperators operators.
std::vector<RepeatedRun> repeatedRuns(const Network& net);

// True when each member ends with an add of the member's entry and another of its operators (an
// identity residual block).
bool isResidual(const Network& net, const RepeatedRun& run);

}  // namespace partita
