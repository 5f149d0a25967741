#pragma once
// Multi-path networks for the per-level solver (docs/methods/accpar.md#multi-path-networks, "recommended tool behaviour"): residual
// edges of the weighted-layer view, the principled shortcut cost, and a communication-only level
// problem (elements, alpha = 1/2) that prices them exactly.
//
// Projection shortcuts (1x1 convs on the shortcut branch) are weighted layers of their own. For a
// block with first layer S, projection P and consumer C (the layer after the add):
//   - P's DP predecessor is S (WeightedLayer::dp_pred, shares_input): P reads the block input X, which
//     the principled model holds in S's input layout in(t_S). P's boundary term is therefore the
//     shortcut conversion in(t_S) -> in(t_P) on A(X) (shortcutCoefficient), not the inter table.
//   - P's output joins C like any producer: the edge (P -> C, projection) costs
//     interCoefficient(t_P, t_C) * A_S, while the main branch pays its usual inter term into C.
//   - The solver's state holds {S, main-branch layer} until P is solved and {main-branch layer, P}
//     until C, so the optimum stays exact (at most 3x3 states per layer).
// An identity block has the edge (S -> C) costing shortcutCoefficient(t_S, t_C) * A_S.
#include <span>
#include <vector>

#include "core/accpar/level_solver.h"
#include "core/cost/comm_model.h"
#include "core/model/layers.h"
#include "core/partition/grid.h"

namespace partita {

// Principled shortcut share for a group with ratio rho: forward conv(in(a) -> in(b)) plus backward
// conv(in(b) -> in(a)) with the layout rules of docs/methods/accpar.md#the-conversion-rule. 0 when a == b, 2 rho (1-rho) between I and II,
// 1 - rho when one side is III (replicated input). At rho = 1/2: 0 or 1/2.
double shortcutCoefficient(Split a, Split b, double rho = 0.5);

// The authors' block table (reference mode): Inter(swap(a), swap(b)) with II and III swapped, rho = 1/2.
double referenceBlockCoefficient(Split a, Split b);

// Share an edge costs when its source used `a` and its consumer `t`.
double residualCoefficient(const ResidualEdge& edge, Split a, Split t, double rho = 0.5);

// Share of layer l's input boundary it receives after its DP predecessor used tt: the inter table,
// or the shortcut conversion for a projection conv (shares_input).
double boundaryCoefficient(const WeightedLayer& layer, Split tt, Split t, double rho = 0.5);

// LevelProblem::predecessor for the table (dp_pred of each layer).
std::vector<int> dpPredecessors(const LayerTable& layers);

// The table's shortcuts, with A_S = the consumer's input tensor in the current sub-problem.
std::vector<ResidualEdge> residualEdges(const LayerTable& layers, std::span<const LayerState> state);

// Communication-only level problem in elements at alpha = 1/2: w_intra * intra + boundary share * A_in
// + edge share * A_S. The problem owns copies of everything it needs.
LevelProblem commLevelProblem(const LayerTable& layers, std::span<const LayerState> state,
                              std::vector<Split> allowed, double w_intra = 1.0);

// The same model's cost of a fixed row (baselines, edited plans).
double commLevelCost(const LayerTable& layers, std::span<const LayerState> state, std::span<const Cell> row,
                     double w_intra = 1.0);

struct MultiPathPlan {
    Grid grid;                       // level 0 = H1
    std::vector<double> level_cost;  // elements per level
};

// Homogeneous hierarchical search (docs/methods/accpar.md#the-hierarchy-over-an-array): solve a level exactly, halve each layer's chosen
// dimension, repeat.
MultiPathPlan commSearch(const LayerTable& layers, int levels, double batch, std::vector<Split> allowed,
                         double w_intra = 1.0);

}  // namespace partita
