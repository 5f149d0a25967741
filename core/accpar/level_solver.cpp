// Exact per-level DP over a "frontier" state: after each layer, the types of the layers a later layer
// still needs (its DP predecessor, or the source of a residual edge not yet closed). On a chain the
// frontier is the last layer alone, so this is solveChain; inside a ResNet block it is {block source,
// current layer} (3x3 states), and it shrinks back to one layer at the consumer (accpar §6).
#include "core/accpar/level_solver.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace partita {

namespace {

constexpr size_t kMaxStates = size_t{1} << 20;

bool better(double a, double b, double tol) { return a < b - tol * std::max(std::abs(a), std::abs(b)); }

template <class V>
decltype(auto) at(V& v, int i) {
    return v[static_cast<size_t>(i)];
}

void fail(const std::string& what) { throw std::invalid_argument("solveLevel: " + what); }

std::vector<int> predecessorsOf(const LevelProblem& p) {
    const int n = p.layers;
    std::vector<int> pred = p.predecessor;
    if (pred.empty())
        for (int l = 0; l < n; ++l) pred.push_back(l - 1);
    if (static_cast<int>(pred.size()) != n)
        fail("predecessor has " + std::to_string(pred.size()) + " entries for " + std::to_string(n) + " layers");
    if (pred[0] != -1) fail("layer 0 must have no predecessor");
    for (int l = 1; l < n; ++l)
        if (at(pred, l) < 0 || at(pred, l) >= n || at(pred, l) == l)
            fail("layer " + std::to_string(l) + " has no valid predecessor");
    for (const auto& e : p.residuals)
        if (e.source < 0 || e.source >= n || e.consumer < 0 || e.consumer >= n || e.source == e.consumer)
            fail("residual edge " + std::to_string(e.source) + " -> " + std::to_string(e.consumer) +
                 " is out of range");
    return pred;
}

// Stable topological order: the lowest-index layer whose inputs (predecessor, edge sources) are done.
std::vector<int> solveOrder(const LevelProblem& p, const std::vector<int>& pred) {
    const auto n = static_cast<size_t>(p.layers);
    std::vector<std::vector<int>> needs(n);
    for (size_t l = 1; l < n; ++l) needs[l].push_back(pred[l]);
    for (const auto& e : p.residuals) needs[static_cast<size_t>(e.consumer)].push_back(e.source);
    std::vector<bool> done(n, false);
    std::vector<int> order;
    while (order.size() < n) {
        size_t pick = n;
        for (size_t l = 0; l < n && pick == n; ++l)
            if (!done[l] && std::all_of(needs[l].begin(), needs[l].end(), [&](int j) { return at(done, j); })) pick = l;
        if (pick == n) fail("the predecessors and residual edges form a cycle");
        done[pick] = true;
        order.push_back(static_cast<int>(pick));
    }
    if (order[0] != 0) fail("layer 0 must come first");
    return order;
}

}  // namespace

LevelSolution solveLevel(const LevelProblem& p) {
    LevelSolution out;
    if (p.layers <= 0) return out;
    if (p.allowed.empty()) fail("no partition types allowed");
    if (!p.first || !p.step || (!p.residuals.empty() && !p.shortcut)) fail("a cost callback is missing");
    const auto pred = predecessorsOf(p);
    const auto order = solveOrder(p, pred);
    const auto n = static_cast<size_t>(p.layers);
    const size_t k = p.allowed.size();
    std::vector<int> pos(n), last_use(n, -1);
    for (size_t i = 0; i < n; ++i) pos[static_cast<size_t>(order[i])] = static_cast<int>(i);
    auto use = [&](int j, int user) { at(last_use, j) = std::max(at(last_use, j), at(pos, user)); };
    for (size_t l = 1; l < n; ++l) use(pred[l], static_cast<int>(l));
    for (const auto& e : p.residuals) use(e.source, e.consumer);
    at(last_use, order.back()) = static_cast<int>(n);  // kept for the final pick

    // Per layer: the k x k step costs (k for layer 0), and per edge the k x k shortcut costs.
    std::vector<std::vector<StepCost>> steps(n);
    for (size_t l = 0; l < n; ++l)
        for (size_t a = 0; a < (l == 0 ? 1 : k); ++a)
            for (size_t t = 0; t < k; ++t)
                steps[l].push_back(l == 0 ? p.first(p.allowed[t])
                                          : p.step(static_cast<int>(l), p.allowed[a], p.allowed[t]));
    std::vector<std::vector<double>> shortcut(p.residuals.size());
    for (size_t e = 0; e < p.residuals.size(); ++e)
        for (size_t a = 0; a < k; ++a)
            for (size_t t = 0; t < k; ++t)
                shortcut[e].push_back(p.shortcut(p.residuals[e], p.allowed[a], p.allowed[t]));

    struct Back {
        size_t prev;
        size_t type;
    };
    std::vector<std::vector<Back>> back(n);
    std::vector<int> frontier;  // layers in the state, oldest (by solve position) first = most significant digit
    std::vector<double> cost{0.0};
    std::vector<bool> have{true};
    for (size_t i = 0; i < n; ++i) {
        const auto l = static_cast<size_t>(order[i]);
        std::vector<int> next;
        for (int j : frontier)
            if (at(last_use, j) > static_cast<int>(i)) next.push_back(j);
        if (last_use[l] > static_cast<int>(i)) next.push_back(static_cast<int>(l));
        size_t states = 1;
        for (size_t m = 0; m < next.size(); ++m)
            if ((states *= k) > kMaxStates) fail("too many parallel branches are open at layer " + std::to_string(l));
        // Digit of layer j in a state of `frontier` (j is always present when asked for).
        auto digit = [&](size_t state, int j) {
            const auto at = static_cast<size_t>(std::find(frontier.begin(), frontier.end(), j) - frontier.begin());
            for (size_t m = at + 1; m < frontier.size(); ++m) state /= k;
            return state % k;
        };
        std::vector<double> next_cost(states, 0.0);
        std::vector<bool> next_have(states, false);
        back[l].assign(states, {0, 0});
        for (size_t s = 0; s < cost.size(); ++s) {
            if (!have[s]) continue;
            const size_t tt = i == 0 ? 0 : digit(s, pred[l]);
            for (size_t t = 0; t < k; ++t) {
                double c = cost[s] + steps[l][tt * k + t].cost;
                for (size_t e = 0; e < p.residuals.size(); ++e)
                    if (p.residuals[e].consumer == static_cast<int>(l))
                        c += shortcut[e][digit(s, p.residuals[e].source) * k + t];
                size_t ns = 0;
                for (int j : next) ns = ns * k + (j == static_cast<int>(l) ? t : digit(s, j));
                if (!next_have[ns] || better(c, next_cost[ns], p.tolerance)) {
                    next_cost[ns] = c;
                    next_have[ns] = true;
                    back[l][ns] = {s, t};
                }
            }
        }
        frontier = std::move(next);
        cost = std::move(next_cost);
        have = std::move(next_have);
    }
    size_t best = 0;
    for (size_t s = 1; s < cost.size(); ++s)
        if (better(cost[s], cost[best], p.tolerance)) best = s;
    out.cost = cost[best];
    out.choice.assign(n, p.allowed[0]);
    out.ratio.assign(n, 0.5);
    std::vector<size_t> digit_of(n, 0);
    for (size_t i = n, s = best; i-- > 0;) {
        const auto l = static_cast<size_t>(order[i]);
        digit_of[l] = back[l][s].type;
        out.choice[l] = p.allowed[digit_of[l]];
        s = back[l][s].prev;
    }
    for (size_t l = 0; l < n; ++l)
        out.ratio[l] = steps[l][(l == 0 ? 0 : at(digit_of, pred[l])) * k + digit_of[l]].ratio;
    return out;
}

}  // namespace partita
