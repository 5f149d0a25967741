#pragma once
// One split of AccPar's hierarchy as a LevelProblem (docs/methods/accpar.md#the-search-of-one-split): the step
// costs of every (previous type, type) pair under an objective, solved exactly.
// HyPar's Algorithm 1 is this with types {I, II} and the element objective.
#include <span>
#include <vector>

#include "core/accpar/cost.h"
#include "core/accpar/level_solver.h"

namespace partita {

// Time: the balanced (or fixed-ratio) layer time of docs/methods/accpar.md#balancing-the-groups-ratio-models, seconds.
// Elements: communication only at ratio 1/2 (HyPar, the authors' code), elements.
enum class Objective { Time, Elements };

// How a split's ratios are set for the Time objective.
enum class RatioPolicy {
    Balanced,  // the ratio model's balance point (AccPar; baselines with --balanced-baselines)
    Half,      // 1/2 whatever the groups (baselines by default, docs/methods/accpar.md#baselines-under-accpars-model)
    FromGrid,  // the ratio stored in a given grid's cell
};

struct SplitOptions {
    std::vector<Split> allowed{Split::Batch, Split::Input, Split::Output};
    Objective objective = Objective::Time;
    RatioPolicy ratios = RatioPolicy::Balanced;
    RatioModel ratio_model = RatioModel::E;
    double bytes_per_element = 2;  // e of docs/methods/accpar.md#time-of-one-layer (bf16)
};

// Everything one split's cost depends on besides the groups: the layer terms of
// the current sub-problem, each layer's DP predecessor (-1 for layer 0) and the
// residual edges with A_S in the current sub-problem (docs/methods/accpar.md#multi-path-networks).
struct SplitInputs {
    std::vector<LayerTerms> terms;
    std::vector<int> predecessor;
    std::vector<ResidualEdge> residuals;
};
SplitInputs splitInputs(const LayerTable& layers, std::span<const LayerState> state, const CommModel& model);

// The cost and ratio of one layer with type t after tt (nullopt for layer 0).
// `given_ratio` is used by RatioPolicy::FromGrid.
StepCost splitStep(const LayerTerms& terms, Prev tt, Split t, const GroupPair& pair, const SplitOptions& options,
                   double given_ratio = 0.5);

// A residual edge's share of A_S received by group i (ratio rho) and j (1 - rho).
struct EdgeElements {
    double i = 0, j = 0;
};
EdgeElements edgeElements(const ResidualEdge& edge, Split a, Split t, double rho);
// The edge's cost: elements at 1/2, or the slower group's time at ratio rho.
double edgeCost(const ResidualEdge& edge, Split a, Split t, const GroupPair& pair, const SplitOptions& options,
                double rho);

// The problem for one pair of groups; `inputs` must outlive it. Shortcuts are
// priced in the search at rho = c_i / (c_i + c_j) under balanced ratios (the
// solver's shortcut callback does not see the consumer's ratio), at 1/2 otherwise.
LevelProblem makeLevelProblem(const SplitInputs& inputs, const GroupPair& pair, const SplitOptions& options);

// Exact solution (solveLevel); ties to the lowest type index (relative tolerance 1e-12).
LevelSolution solveSplit(const LevelProblem& problem);

// A fixed row of types priced with its own ratios (shortcuts at the consumer's
// ratio); `given` supplies the ratios for RatioPolicy::FromGrid (else empty).
LevelSolution evaluateRow(const SplitInputs& inputs, std::span<const Split> types, const GroupPair& pair,
                          const SplitOptions& options, std::span<const double> given = {});

}  // namespace partita
