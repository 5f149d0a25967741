#pragma once
// AccPar's per-layer cost of one split between two groups i and j
// (docs/methods/accpar.md#time-of-one-layer): the intra amounts per type, the nine transitions with ratios, the
// FLOPs of the three GEMMs over group throughput, communication over group
// bandwidth, and the two ratio models that balance the groups.
#include <array>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/accpar/level_solver.h"
#include "core/cost/comm_model.h"
#include "core/model/layers.h"

namespace partita {

// E: solve T_i(a) = T_j(1-a) exactly (default). P: the paper-literal linear rule.
enum class RatioModel { E, P };
const char* ratioModelName(RatioModel m);          // "E", "P"
RatioModel parseRatioModel(const std::string& s);  // "E"/"e"/"P"/"p"; throws std::invalid_argument

// Aggregates of the two child groups of a split (docs/methods/accpar.md#group-aggregates).
struct GroupPair {
    double c_i = 0, b_i = 0;  // FLOP/s, bytes/s
    double c_j = 0, b_j = 0;
};

// One layer of the current sub-problem, everything the split's cost needs.
struct LayerTerms {
    double flop = 0;                          // 3 * 2 * M_l: forward, backward and gradient GEMMs
    std::array<double, kSplitCount> intra{};  // A_intra(t), elements (w_intra applied)
    double boundary = 0;                      // A_bnd = A(F_l) = A(E_l), elements
    bool shares_input = false;  // a projection conv: its boundary is a shortcut conversion (docs/methods/accpar.md#multi-path-networks)
};

// MACs of one GEMM of the layer's sub-problem, M_l of docs/methods/accpar.md#layers-as-matrices.
double layerMacs(const WeightedLayer& layer, const LayerState& s);
std::vector<LayerTerms> layerTerms(const LayerTable& layers, std::span<const LayerState> state,
                                   const CommModel& model);

// The previous layer's type; nullopt for the first layer (no inter term, docs/methods/accpar.md#time-of-one-layer).
using Prev = std::optional<Split>;

// Share s_x(rho) of A_bnd a group with ratio rho receives: 0, 1-rho or 2 rho (1-rho),
// from the table of docs/methods/accpar.md#the-nine-transitions (or, for a projection conv, the
// shortcut conversion of docs/methods/accpar.md#multi-path-networks).
double interShare(const LayerTerms& terms, Prev tt, Split t, double rho);

// Zero: I->I, II->III, III->II (and the first layer); one-sided: I->III,
// III->III, II->I, II->II; two-sided: I->II, III->I (docs/methods/accpar.md#the-nine-transitions).
enum class Transition { Zero, OneSided, TwoSided };
Transition transition(const LayerTerms& terms, Prev tt, Split t);

// Both groups' times for ratio alpha (i gets alpha, j gets 1 - alpha), docs/methods/accpar.md#time-of-one-layer:
// T_x = rho FLOP / c_x + e (A_intra + s_x A_bnd) / b_x.
struct GroupTimes {
    double compute_i = 0, comm_i = 0, compute_j = 0, comm_j = 0;
    double elements_i = 0, elements_j = 0;  // A_intra + s_x A_bnd
    double i() const { return compute_i + comm_i; }
    double j() const { return compute_j + comm_j; }
};
GroupTimes groupTimes(const LayerTerms& terms, Prev tt, Split t, const GroupPair& pair, double alpha, double e);

// The balanced ratio and layer time tau under a ratio model (docs/methods/accpar.md#balancing-the-groups-ratio-models):
// E: tau = max(T_i, T_j) at the root of T_i(a) = T_j(1-a) in [0, 1] (nearest
// c_i/(c_i+c_j) if two; else the endpoint with the smaller |T_i - T_j|);
// P: a = Y_j / (Y_i + Y_j), tau = a Y_i, with Y_x = FLOP/c_x + e Q/b_x.
StepCost balancedStep(const LayerTerms& terms, Prev tt, Split t, const GroupPair& pair, double e, RatioModel model);
// Alpha = 1/2 (baselines), tau = max(T_i, T_j).
StepCost halfStep(const LayerTerms& terms, Prev tt, Split t, const GroupPair& pair, double e);
// A given ratio, tau = max(T_i, T_j).
StepCost ratioStep(const LayerTerms& terms, Prev tt, Split t, const GroupPair& pair, double e, double alpha);
// Communication only at alpha = 1/2, in elements (HyPar and the reference code):
// A_intra(t) + s(1/2) A_bnd.
StepCost elementStep(const LayerTerms& terms, Prev tt, Split t);

}  // namespace partita
