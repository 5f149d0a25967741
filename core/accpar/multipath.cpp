#include "core/accpar/multipath.h"

#include <memory>

namespace partita {

namespace {

// Input-side layouts of docs/methods/accpar.md#the-conversion-rule: in(I) = rows, in(II) = cols, in(III) = full (replicated).
enum class Layout { Rows, Cols, Full };

Layout inputLayout(Split t) {
    switch (t) {
    case Split::Batch: return Layout::Rows;
    case Split::Input: return Layout::Cols;
    case Split::Output: return Layout::Full;
    }
    return Layout::Full;
}

// Share a group with ratio rho receives to turn layout `from` into `to` (docs/methods/accpar.md#the-conversion-rule).
double convert(Layout from, Layout to, double rho) {
    if (from == to || from == Layout::Full) return 0.0;
    return to == Layout::Full ? 1.0 - rho : rho * (1.0 - rho);
}

Split swapped(Split t) {
    if (t == Split::Input) return Split::Output;
    if (t == Split::Output) return Split::Input;
    return t;
}

}  // namespace

double shortcutCoefficient(Split a, Split b, double rho) {
    return convert(inputLayout(a), inputLayout(b), rho) + convert(inputLayout(b), inputLayout(a), rho);
}

double referenceBlockCoefficient(Split a, Split b) { return interCoefficient(swapped(a), swapped(b), 0.5); }

double residualCoefficient(const ResidualEdge& edge, Split a, Split t, double rho) {
    return edge.projection ? interCoefficient(a, t, rho) : shortcutCoefficient(a, t, rho);
}

double boundaryCoefficient(const WeightedLayer& layer, Split tt, Split t, double rho) {
    return layer.shares_input ? shortcutCoefficient(tt, t, rho) : interCoefficient(tt, t, rho);
}

std::vector<int> dpPredecessors(const LayerTable& layers) {
    std::vector<int> pred;
    pred.reserve(layers.size());
    for (const auto& l : layers.layers) pred.push_back(l.dp_pred);
    return pred;
}

std::vector<ResidualEdge> residualEdges(const LayerTable& layers, std::span<const LayerState> state) {
    std::vector<ResidualEdge> edges;
    for (const auto& s : layers.shortcuts) {
        const auto c = static_cast<size_t>(s.consumer);
        edges.push_back({s.source, s.consumer, amounts(layers[c], state[c], OutSize::PostPool).input, s.projection});
    }
    return edges;
}

LevelProblem commLevelProblem(const LayerTable& layers, std::span<const LayerState> state,
                              std::vector<Split> allowed, double w_intra) {
    struct Terms {
        std::vector<Amounts> a;
        std::vector<bool> shares_input;
    };
    auto terms = std::make_shared<Terms>();
    for (size_t l = 0; l < layers.size(); ++l) {
        terms->a.push_back(amounts(layers[l], state[l], OutSize::PostPool));
        terms->shares_input.push_back(layers[l].shares_input);
    }
    LevelProblem p;
    p.layers = static_cast<int>(layers.size());
    p.allowed = std::move(allowed);
    p.predecessor = dpPredecessors(layers);
    p.residuals = residualEdges(layers, state);
    p.first = [terms, w_intra](int l, Split t) {
        return StepCost{w_intra * intraAmount(terms->a[static_cast<size_t>(l)], t), 0.5};
    };
    p.step = [terms, w_intra](int l, Split tt, Split t) {
        const auto& a = terms->a[static_cast<size_t>(l)];
        const double share = terms->shares_input[static_cast<size_t>(l)] ? shortcutCoefficient(tt, t)
                                                                          : interCoefficient(tt, t);
        return StepCost{w_intra * intraAmount(a, t) + share * a.input, 0.5};
    };
    p.shortcut = [](const ResidualEdge& e, Split a, Split t) { return residualCoefficient(e, a, t) * e.elements; };
    return p;
}

double commLevelCost(const LayerTable& layers, std::span<const LayerState> state, std::span<const Cell> row,
                     double w_intra) {
    const LevelProblem p = commLevelProblem(layers, state, {Split::Batch}, w_intra);
    double total = 0;
    for (int l = 0; l < p.layers; ++l) {
        const int pred = p.predecessor[static_cast<size_t>(l)];
        const Split t = row[static_cast<size_t>(l)].split;
        total += pred < 0 ? p.first(l, t).cost : p.step(l, row[static_cast<size_t>(pred)].split, t).cost;
    }
    for (const auto& e : p.residuals)
        total += p.shortcut(e, row[static_cast<size_t>(e.source)].split, row[static_cast<size_t>(e.consumer)].split);
    return total;
}

MultiPathPlan commSearch(const LayerTable& layers, int levels, double batch, std::vector<Split> allowed,
                         double w_intra) {
    MultiPathPlan plan{Grid(levels, static_cast<int>(layers.size())), {}};
    auto state = initialState(layers, batch);
    for (int h = 0; h < levels; ++h) {
        const LevelSolution sol = solveLevel(commLevelProblem(layers, state, allowed, w_intra));
        for (size_t l = 0; l < layers.size(); ++l) plan.grid.at(h, static_cast<int>(l)).split = sol.choice[l];
        plan.level_cost.push_back(sol.cost);
        shrink(state, plan.grid.row(h));
    }
    return plan;
}

}  // namespace partita
