#pragma once
// Layer-wise dynamic programming over a chain of layers (HyPar Algorithm 1,
// docs/methods/accpar.md#the-search-of-one-split): the cheapest assignment of one split per layer, where a layer's
// cost depends on its own choice and its predecessor's. Ties go to the lowest
// split index (dp / Type-I first), both for back-pointers and the final pick.
#include <array>
#include <span>
#include <vector>

#include "core/partition/grid.h"

namespace partita {

struct ChainSolution {
    std::vector<Split> choice;
    double cost = 0;
};

// first(t): cost of layer 0 with split t. step(l, tt, t): cost of layer l with
// split t after layer l-1 used tt. `better(a, b)` decides "a strictly cheaper".
template <class First, class Step, class Better>
ChainSolution solveChain(size_t layers, std::span<const Split> allowed, First first, Step step, Better better) {
    ChainSolution out;
    if (layers == 0) return out;
    std::array<double, kSplitCount> cost{}, next{};
    std::vector<std::array<Split, kSplitCount>> back(layers);
    for (Split t : allowed) cost[static_cast<size_t>(index(t))] = first(t);
    for (size_t l = 1; l < layers; ++l) {
        for (Split t : allowed) {
            bool have = false;
            double best = 0;
            Split arg = allowed.front();
            for (Split tt : allowed) {
                const double c = cost[static_cast<size_t>(index(tt))] + step(l, tt, t);
                if (!have || better(c, best)) { best = c; arg = tt; have = true; }
            }
            next[static_cast<size_t>(index(t))] = best;
            back[l][static_cast<size_t>(index(t))] = arg;
        }
        cost = next;
    }
    Split last = allowed.front();
    for (Split t : allowed)
        if (better(cost[static_cast<size_t>(index(t))], cost[static_cast<size_t>(index(last))])) last = t;
    out.cost = cost[static_cast<size_t>(index(last))];
    out.choice.assign(layers, last);
    for (size_t l = layers - 1; l >= 1; --l) out.choice[l - 1] = back[l][static_cast<size_t>(index(out.choice[l]))];
    return out;
}

inline bool strictlyLess(double a, double b) { return a < b; }

}  // namespace partita
