#pragma once
// The per-split choice problem every AccPar-style search solves (docs/methods/accpar.md#the-search-of-one-split,
// docs/methods/accpar.md#multi-path-networks): pick one partition type per weighted layer (and a ratio with it) so the
// summed per-layer cost is least. The costs come from callbacks, so the same
// solver serves the communication-only HyPar/reference objective and AccPar's
// time objective, homogeneous or not.
#include <functional>
#include <span>
#include <stdexcept>
#include <vector>

#include "core/partition/grid.h"

namespace partita {

// A residual (shortcut) edge: the tensor entering weighted layer `source`
// (the first layer of the block) is added to the input of weighted layer
// `consumer` (the layer after the add). `elements` = A_S, the shortcut tensor.
// With `projection`, `source` is instead a 1x1 projection conv on the shortcut
// branch and the edge carries that conv's output (see core/accpar/multipath.h).
struct ResidualEdge {
    int source = 0;
    int consumer = 0;
    double elements = 0;
    bool projection = false;
};

// Cost and chosen ratio of one layer for one (previous type, type) pair.
struct StepCost {
    double cost = 0;
    double ratio = 0.5;
};

struct LevelProblem {
    int layers = 0;
    std::vector<Split> allowed;  // e.g. {I, II} for HyPar, {I, II, III} for AccPar
    // A layer with no predecessor (layer 0 of a chain; in a DAG any layer reading the network
    // input, e.g. a Transformer's Q, K and V projections): no inter term.
    std::function<StepCost(int l, Split t)> first;
    // Layer l after its predecessor (l-1, or the layer the DAG order gives) used tt.
    std::function<StepCost(int l, Split tt, Split t)> step;
    // Weighted-layer predecessor of each layer in the DP order, -1 for none (layer 0 and any
    // other layer that reads no weighted layer); empty = a chain (l-1). Any acyclic choice is
    // accepted (a predecessor may have a higher index); layers are solved in a stable
    // topological order.
    std::vector<int> predecessor;
    std::vector<ResidualEdge> residuals;
    // Extra cost of a residual edge when its source layer used `a` and its consumer `t`.
    std::function<double(const ResidualEdge& edge, Split a, Split t)> shortcut;
    double tolerance = 1e-12;  // relative; ties go to the lowest type index
};

struct LevelSolution {
    std::vector<Split> choice;
    std::vector<double> ratio;
    double cost = 0;
};

// The exact search would hold more than 2^20 states: at layer `layer`, the choices of `open`
// layers solved so far are still needed by later ones (parallel branches that join later), in
// the narrowest solve order the solver found. Callers that know the layers' names rephrase it.
// `limit` is the most layers that may be open with the problem's number of types.
struct TooManyBranches : std::invalid_argument {
    TooManyBranches(int layer, int open, int limit);
    int layer = 0, open = 0, limit = 0;
};

// Exact: a chain DP when there are no residual edges, otherwise the DP with
// the open block's source type added to the state (docs/methods/accpar.md#multi-path-networks, "principled").
// Ties: the chain rule of solveChain (lowest type of the last layer, then the
// lowest predecessor type); with open blocks, previous states are compared
// oldest layer first, so the block source's lowest type wins before its
// successors'. The solve order is the stable topological one; when that would hold too many
// states, the order that keeps the fewest layers open at each step (greedy, ties to the lowest
// index) instead. Throws TooManyBranches when both are too wide, std::invalid_argument on
// malformed problems.
LevelSolution solveLevel(const LevelProblem& problem);

}  // namespace partita
