#include "core/accpar/level.h"

#include <algorithm>

#include "core/accpar/multipath.h"

namespace partita {

SplitInputs splitInputs(const LayerTable& layers, std::span<const LayerState> state, const CommModel& model) {
    return {layerTerms(layers, state, model), dpPredecessors(layers), residualEdges(layers, state)};
}

StepCost splitStep(const LayerTerms& terms, Prev tt, Split t, const GroupPair& pair, const SplitOptions& o,
                   double given_ratio) {
    if (o.objective == Objective::Elements) return elementStep(terms, tt, t);
    switch (o.ratios) {
    case RatioPolicy::Balanced: return balancedStep(terms, tt, t, pair, o.bytes_per_element, o.ratio_model);
    case RatioPolicy::Half: return halfStep(terms, tt, t, pair, o.bytes_per_element);
    case RatioPolicy::FromGrid: return ratioStep(terms, tt, t, pair, o.bytes_per_element, given_ratio);
    }
    return {};
}

EdgeElements edgeElements(const ResidualEdge& edge, Split a, Split t, double rho) {
    return {residualCoefficient(edge, a, t, rho) * edge.elements,
            residualCoefficient(edge, a, t, 1.0 - rho) * edge.elements};
}

double edgeCost(const ResidualEdge& edge, Split a, Split t, const GroupPair& pair, const SplitOptions& o, double rho) {
    if (o.objective == Objective::Elements) return edgeElements(edge, a, t, 0.5).i;
    const EdgeElements q = edgeElements(edge, a, t, rho);
    return o.bytes_per_element * std::max(q.i / pair.b_i, q.j / pair.b_j);
}

LevelProblem makeLevelProblem(const SplitInputs& inputs, const GroupPair& pair, const SplitOptions& options) {
    LevelProblem p;
    p.layers = static_cast<int>(inputs.terms.size());
    p.allowed = options.allowed;
    p.predecessor = inputs.predecessor;
    p.residuals = inputs.residuals;
    const std::span<const LayerTerms> terms(inputs.terms);
    p.first = [terms, pair, options](int l, Split t) {
        return splitStep(terms[static_cast<size_t>(l)], std::nullopt, t, pair, options);
    };
    p.step = [terms, pair, options](int l, Split tt, Split t) {
        return splitStep(terms[static_cast<size_t>(l)], tt, t, pair, options);
    };
    const bool balanced = options.objective == Objective::Time && options.ratios == RatioPolicy::Balanced;
    const double rho = balanced ? pair.c_i / (pair.c_i + pair.c_j) : 0.5;
    p.shortcut = [pair, options, rho](const ResidualEdge& e, Split a, Split t) {
        return edgeCost(e, a, t, pair, options, rho);
    };
    return p;
}

LevelSolution solveSplit(const LevelProblem& problem) { return solveLevel(problem); }

LevelSolution evaluateRow(const SplitInputs& inputs, std::span<const Split> types, const GroupPair& pair,
                          const SplitOptions& options, std::span<const double> given) {
    LevelSolution out;
    out.choice.assign(types.begin(), types.end());
    const auto& terms = inputs.terms;
    for (size_t l = 0; l < terms.size(); ++l) {
        const int pred = l < inputs.predecessor.size() ? inputs.predecessor[l] : static_cast<int>(l) - 1;
        const Prev tt = pred < 0 ? Prev{} : Prev{types[static_cast<size_t>(pred)]};
        const StepCost s = splitStep(terms[l], tt, types[l], pair, options, given.empty() ? 0.5 : given[l]);
        out.cost += s.cost;
        out.ratio.push_back(s.ratio);
    }
    for (const auto& e : inputs.residuals) {
        const auto a = types[static_cast<size_t>(e.source)], t = types[static_cast<size_t>(e.consumer)];
        out.cost += edgeCost(e, a, t, pair, options, out.ratio[static_cast<size_t>(e.consumer)]);
    }
    return out;
}

}  // namespace partita
