#include "core/accpar/cost.h"

#include <algorithm>
#include <cmath>
#include <span>
#include <stdexcept>

#include "core/accpar/multipath.h"

namespace partita {

const char* ratioModelName(RatioModel m) { return m == RatioModel::E ? "E" : "P"; }

RatioModel parseRatioModel(const std::string& s) {
    if (s == "E" || s == "e") return RatioModel::E;
    if (s == "P" || s == "p") return RatioModel::P;
    throw std::invalid_argument("unknown ratio model '" + s + "' (use E or P)");
}

double layerMacs(const WeightedLayer& layer, const LayerState& s) {
    return layer.kernel_area * s.b * s.d_in * s.d_out * layer.conv_hw;
}

std::vector<LayerTerms> layerTerms(const LayerTable& layers, std::span<const LayerState> state,
                                   const CommModel& model) {
    std::vector<LayerTerms> terms(layers.size());
    for (size_t l = 0; l < layers.size(); ++l) {
        const Amounts a = amounts(layers[l], state[l], model.out_size);
        for (Split t : {Split::Batch, Split::Input, Split::Output})
            terms[l].intra[static_cast<size_t>(index(t))] = model.w_intra * intraAmount(a, t);
        terms[l].boundary = a.input;
        terms[l].flop = 3.0 * 2.0 * layerMacs(layers[l], state[l]);  // three GEMMs, 2 FLOP per MAC
        terms[l].shares_input = layers[l].shares_input;
    }
    return terms;
}

double interShare(const LayerTerms& terms, Prev tt, Split t, double rho) {
    if (!tt) return 0.0;
    return terms.shares_input ? shortcutCoefficient(*tt, t, rho) : interCoefficient(*tt, t, rho);
}

Transition transition(const LayerTerms& terms, Prev tt, Split t) {
    if (interShare(terms, tt, t, 0.5) == 0) return Transition::Zero;
    // Two-sided shares 2 rho (1-rho) are symmetric in rho; one-sided 1-rho are not.
    return interShare(terms, tt, t, 0.25) == interShare(terms, tt, t, 0.75) ? Transition::TwoSided
                                                                            : Transition::OneSided;
}

GroupTimes groupTimes(const LayerTerms& terms, Prev tt, Split t, const GroupPair& pair, double alpha, double e) {
    const double beta = 1.0 - alpha;
    const double intra = terms.intra[static_cast<size_t>(index(t))];
    GroupTimes g;
    g.elements_i = intra + interShare(terms, tt, t, alpha) * terms.boundary;
    g.elements_j = intra + interShare(terms, tt, t, beta) * terms.boundary;
    g.compute_i = alpha * terms.flop / pair.c_i;
    g.compute_j = beta * terms.flop / pair.c_j;
    g.comm_i = e * g.elements_i / pair.b_i;
    g.comm_j = e * g.elements_j / pair.b_j;
    return g;
}

namespace {

double imbalance(const LayerTerms& terms, Prev tt, Split t, const GroupPair& pair, double e, double alpha) {
    const GroupTimes g = groupTimes(terms, tt, t, pair, alpha, e);
    return g.i() - g.j();
}

// Model E: roots of f(a) = T_i(a) - T_j(1-a) = a2 a^2 + a1 a + a0 in [0, 1].
double exactRatio(const LayerTerms& terms, Prev tt, Split t, const GroupPair& pair, double e) {
    const double P_i = terms.flop / pair.c_i, P_j = terms.flop / pair.c_j;
    const double intra = terms.intra[static_cast<size_t>(index(t))];
    const double K_i = e * intra / pair.b_i, K_j = e * intra / pair.b_j;
    const double X_i = e * terms.boundary / pair.b_i, X_j = e * terms.boundary / pair.b_j;
    // Differences first so that equal groups give exactly 1/2.
    double a2 = 0, a1 = P_i + P_j, a0 = (K_i - K_j) - P_j;
    switch (transition(terms, tt, t)) {
    case Transition::Zero: break;
    case Transition::OneSided:
        a1 = (P_i - X_i) + (P_j - X_j);
        a0 = (K_i - K_j) + (X_i - P_j);
        break;
    case Transition::TwoSided: {
        const double D = X_i - X_j;  // D = 0 leaves the zero-transition formula
        a2 = -2.0 * D;
        a1 = P_i + P_j + 2.0 * D;
        break;
    }
    }
    const double target = pair.c_i / (pair.c_i + pair.c_j);
    double roots[2];  // on the stack: this runs for every layer and type pair of every split
    size_t count = 0;
    if (a2 == 0) {
        if (a1 != 0) roots[count++] = -a0 / a1;
        else if (a0 == 0) roots[count++] = target;  // balanced for every ratio
    } else {
        const double disc = a1 * a1 - 4.0 * a2 * a0;
        if (disc >= 0) {
            const double q = -0.5 * (a1 + std::copysign(std::sqrt(disc), a1));  // no cancellation
            roots[count++] = q / a2;
            if (q != 0) roots[count++] = a0 / q;
        }
    }
    constexpr double kSlack = 1e-12;  // a root a rounding error outside [0, 1] still counts
    bool found = false;
    double best = 0;
    for (double r : std::span<double>(roots, count)) {
        if (!(r >= -kSlack && r <= 1.0 + kSlack)) continue;
        r = std::clamp(r, 0.0, 1.0);
        if (!found || std::abs(r - target) < std::abs(best - target)) best = r;
        found = true;
    }
    if (found) return best;
    // No balance point: the endpoint where the two groups differ least.
    const double f0 = std::abs(imbalance(terms, tt, t, pair, e, 0.0));
    const double f1 = std::abs(imbalance(terms, tt, t, pair, e, 1.0));
    if (f0 != f1) return f0 < f1 ? 0.0 : 1.0;
    return target < 0.5 ? 0.0 : 1.0;
}

}  // namespace

StepCost ratioStep(const LayerTerms& terms, Prev tt, Split t, const GroupPair& pair, double e, double alpha) {
    const GroupTimes g = groupTimes(terms, tt, t, pair, alpha, e);
    return {std::max(g.i(), g.j()), alpha};
}

StepCost halfStep(const LayerTerms& terms, Prev tt, Split t, const GroupPair& pair, double e) {
    return ratioStep(terms, tt, t, pair, e, 0.5);
}

StepCost balancedStep(const LayerTerms& terms, Prev tt, Split t, const GroupPair& pair, double e, RatioModel model) {
    if (model == RatioModel::E) return ratioStep(terms, tt, t, pair, e, exactRatio(terms, tt, t, pair, e));
    // Model P: whole-layer costs with the transition priced at 1/2.
    const double q = terms.intra[static_cast<size_t>(index(t))] + interShare(terms, tt, t, 0.5) * terms.boundary;
    const double Y_i = terms.flop / pair.c_i + e * q / pair.b_i;
    const double Y_j = terms.flop / pair.c_j + e * q / pair.b_j;
    if (!(Y_i + Y_j > 0)) return {0.0, pair.c_i / (pair.c_i + pair.c_j)};
    const double alpha = Y_j / (Y_i + Y_j);
    return {alpha * Y_i, alpha};
}

StepCost elementStep(const LayerTerms& terms, Prev tt, Split t) {
    return {terms.intra[static_cast<size_t>(index(t))] + interShare(terms, tt, t, 0.5) * terms.boundary, 0.5};
}

}  // namespace partita
