// solveLevel (docs/methods/accpar.md#the-search-of-one-split): equals brute force over every type assignment on small random
// multi-path problems, and equals solveChain (including its tie rule) on chains.
#include <gtest/gtest.h>

#include <random>

#include "core/accpar/level_solver.h"
#include "core/search/chain_dp.h"

namespace partita {
namespace {

constexpr Split kThree[] = {Split::Batch, Split::Input, Split::Output};
constexpr Split kTwo[] = {Split::Batch, Split::Input};

// A problem whose costs are lookup tables: step[l][tt][t], first[t], edge[e][a][t].
struct Random {
    LevelProblem p;
    std::vector<std::array<std::array<double, 3>, 3>> step;
    std::vector<std::array<std::array<double, 3>, 3>> edge;
};

Random makeRandom(std::mt19937& rng, int layers, bool chain, bool integers, std::span<const Split> allowed) {
    Random r;
    auto value = [&] {
        return integers ? static_cast<double>(std::uniform_int_distribution<int>(0, 3)(rng))
                        : std::uniform_real_distribution<double>(0, 100)(rng);
    };
    auto table = [&] {
        std::array<std::array<double, 3>, 3> t{};
        for (auto& row : t)
            for (auto& x : row) x = value();
        return t;
    };
    r.p.layers = layers;
    r.p.allowed.assign(allowed.begin(), allowed.end());
    for (int l = 0; l < layers; ++l) r.step.push_back(table());
    if (!chain) {
        // Mostly a recent layer; sometimes none (a layer reading the network input, like a
        // Transformer's K and V projections beside Q).
        r.p.predecessor.push_back(-1);
        for (int l = 1; l < layers; ++l)
            r.p.predecessor.push_back(std::uniform_int_distribution<int>(0, 5)(rng) == 0
                                          ? -1
                                          : std::uniform_int_distribution<int>(std::max(0, l - 3), l - 1)(rng));
        const int edges = std::uniform_int_distribution<int>(0, 3)(rng);
        for (int e = 0; e < edges; ++e) {
            const int s = std::uniform_int_distribution<int>(0, layers - 2)(rng);
            const int c = std::uniform_int_distribution<int>(s + 1, layers - 1)(rng);
            r.p.residuals.push_back({s, c, static_cast<double>(e), false});
            r.edge.push_back(table());
        }
    }
    return r;
}

// Binds the callbacks to the tables (after the Random object has its final address).
void bind(Random& r) {
    auto* step = &r.step;
    auto* edge = &r.edge;
    r.p.first = [step](int l, Split t) {
        return StepCost{(*step)[static_cast<size_t>(l)][0][static_cast<size_t>(index(t))], 0.25 + index(t)};
    };
    r.p.step = [step](int l, Split tt, Split t) {
        const auto& table = (*step)[static_cast<size_t>(l)];
        const double cost = table[static_cast<size_t>(index(tt))][static_cast<size_t>(index(t))];
        return StepCost{cost, 0.1 * index(tt) + index(t)};
    };
    r.p.shortcut = [edge](const ResidualEdge& e, Split a, Split t) {
        return (*edge)[static_cast<size_t>(e.elements)][static_cast<size_t>(index(a))][static_cast<size_t>(index(t))];
    };
}

double evaluate(const LevelProblem& p, const std::vector<Split>& x) {
    double c = 0;
    for (int l = 0; l < p.layers; ++l) {
        const int pred = p.predecessor.empty() ? l - 1 : p.predecessor[static_cast<size_t>(l)];
        c += pred < 0 ? p.first(l, x[static_cast<size_t>(l)]).cost
                      : p.step(l, x[static_cast<size_t>(pred)], x[static_cast<size_t>(l)]).cost;
    }
    for (const auto& e : p.residuals)
        c += p.shortcut(e, x[static_cast<size_t>(e.source)], x[static_cast<size_t>(e.consumer)]);
    return c;
}

std::pair<double, std::vector<Split>> bruteForce(const LevelProblem& p) {
    const size_t k = p.allowed.size(), n = static_cast<size_t>(p.layers);
    size_t total = 1;
    for (size_t l = 0; l < n; ++l) total *= k;
    std::vector<Split> x(n), best;
    double least = 0;
    for (size_t code = 0; code < total; ++code) {
        for (size_t l = 0, c = code; l < n; ++l, c /= k) x[l] = p.allowed[c % k];
        const double c = evaluate(p, x);
        if (best.empty() || c < least) {
            least = c;
            best = x;
        }
    }
    return {least, best};
}

TEST(SolveLevel, EqualsBruteForceOnRandomMultiPathProblems) {
    std::mt19937 rng(20200222);
    for (int trial = 0; trial < 400; ++trial) {
        const bool integers = trial % 2 == 1;
        const auto allowed = trial % 4 < 2 ? std::span<const Split>(kThree) : std::span<const Split>(kTwo);
        Random r = makeRandom(rng, 2 + trial % 7, false, integers, allowed);
        bind(r);
        const auto sol = solveLevel(r.p);
        const auto [least, best] = bruteForce(r.p);
        ASSERT_EQ(sol.choice.size(), static_cast<size_t>(r.p.layers));
        EXPECT_NEAR(sol.cost, least, 1e-9 * (1 + least)) << "trial " << trial;
        EXPECT_NEAR(evaluate(r.p, sol.choice), sol.cost, 1e-9 * (1 + least)) << "trial " << trial;
        if (!integers) {
            EXPECT_EQ(sol.choice, best) << "trial " << trial;  // unique optimum
        }
        // The ratio is the chosen step's.
        for (int l = 0; l < r.p.layers; ++l) {
            const int pred = r.p.predecessor[static_cast<size_t>(l)];
            const auto at = static_cast<size_t>(l);
            EXPECT_EQ(sol.ratio[at], pred < 0 ? r.p.first(l, sol.choice[at]).ratio
                                              : r.p.step(l, sol.choice[static_cast<size_t>(pred)], sol.choice[at]).ratio);
        }
    }
}

TEST(SolveLevel, LabelsNeedNotFollowTheSolveOrder) {
    // Layer 2 is solved before layer 1: 0 -> 2 -> 1, with an edge 0 -> 1.
    std::mt19937 rng(7);
    for (int trial = 0; trial < 50; ++trial) {
        Random r = makeRandom(rng, 3, false, false, kThree);
        r.p.predecessor = {-1, 2, 0};
        r.p.residuals = {{0, 1, 0, false}};
        if (r.edge.empty()) r.edge.push_back({});
        bind(r);
        const auto [least, best] = bruteForce(r.p);
        const auto sol = solveLevel(r.p);
        EXPECT_NEAR(sol.cost, least, 1e-9 * (1 + least));
        EXPECT_EQ(sol.choice, best);
    }
}

TEST(SolveLevel, EqualsSolveChainIncludingTies) {
    std::mt19937 rng(42);
    const auto better = [](double a, double b) { return a < b - 1e-12 * std::max(std::abs(a), std::abs(b)); };
    for (int trial = 0; trial < 400; ++trial) {
        const auto allowed = trial % 2 ? std::span<const Split>(kThree) : std::span<const Split>(kTwo);
        Random r = makeRandom(rng, 1 + trial % 12, true, trial % 3 != 0, allowed);
        bind(r);
        const auto sol = solveLevel(r.p);
        const auto first = [&](Split t) { return r.p.first(0, t).cost; };
        const auto step = [&](size_t l, Split tt, Split t) { return r.p.step(static_cast<int>(l), tt, t).cost; };
        const auto chain = solveChain(static_cast<size_t>(r.p.layers), allowed, first, step, better);
        EXPECT_EQ(sol.choice, chain.choice) << "trial " << trial;
        EXPECT_EQ(sol.cost, chain.cost) << "trial " << trial;
    }
}

TEST(SolveLevel, ManyLayersWithoutAPredecessor) {
    // Three roots (0, 1, 3) and a root listed after its user: 2 <- 3, 4 <- 2.
    std::mt19937 rng(26);
    for (int trial = 0; trial < 50; ++trial) {
        Random r = makeRandom(rng, 5, false, trial % 2 == 1, kThree);
        r.p.predecessor = {-1, -1, 3, -1, 2};
        r.p.residuals = {{0, 4, 0, false}};
        if (r.edge.empty()) r.edge.push_back({});
        bind(r);
        const auto [least, best] = bruteForce(r.p);
        const auto sol = solveLevel(r.p);
        EXPECT_NEAR(sol.cost, least, 1e-9 * (1 + least));
        EXPECT_NEAR(evaluate(r.p, sol.choice), sol.cost, 1e-9 * (1 + least));
    }
}

// A fork into `branches` chains of two layers a_i -> b_i, listed breadth-first (every a, then every
// b): in index order all the a's are open at once (3^14 states), so the solver takes them branch by
// branch. The optimum is the tree DP's: the fork's type, then each branch on its own.
TEST(SolveLevel, WideForkListedBreadthFirst) {
    const int branches = 14, n = 1 + 2 * branches;
    std::mt19937 rng(14);
    Random r = makeRandom(rng, n, false, false, kThree);
    r.p.predecessor.assign(static_cast<size_t>(n), 0);
    r.p.predecessor[0] = -1;
    for (int i = 0; i < branches; ++i) r.p.predecessor[static_cast<size_t>(1 + branches + i)] = 1 + i;
    r.p.residuals.clear();
    bind(r);
    const auto cost = [&](int l, Split tt, Split t) { return r.p.step(l, tt, t).cost; };
    double least = 0;
    for (size_t root = 0; root < 3; ++root) {
        double c = r.p.first(0, kThree[root]).cost;
        for (int i = 0; i < branches; ++i) {
            double branch = 0;
            bool any = false;
            for (Split ta : kThree)
                for (Split tb : kThree) {
                    const double x = cost(1 + i, kThree[root], ta) + cost(1 + branches + i, ta, tb);
                    if (!any || x < branch) branch = x;
                    any = true;
                }
            c += branch;
        }
        if (root == 0 || c < least) least = c;
    }
    const auto sol = solveLevel(r.p);
    EXPECT_NEAR(sol.cost, least, 1e-9 * least);
    EXPECT_NEAR(evaluate(r.p, sol.choice), sol.cost, 1e-9 * least);
}

TEST(SolveLevel, TooManyOpenBranchesSaysWhere) {
    // 14 roots all needed by one residual consumer each, after all of them: no order closes any early.
    const int roots = 14, n = 2 * roots;
    std::mt19937 rng(3);
    Random r = makeRandom(rng, n, false, true, kThree);
    r.p.predecessor.assign(static_cast<size_t>(n), -1);
    r.p.residuals.clear();
    r.edge.clear();
    for (int i = 0; i < roots; ++i) {
        r.p.predecessor[static_cast<size_t>(roots + i)] = roots + i - 1 >= roots ? roots + i - 1 : -1;
        r.p.residuals.push_back({i, n - 1, static_cast<double>(i), false});
        r.edge.push_back({});
    }
    bind(r);
    try {
        solveLevel(r.p);
        FAIL() << "solved with 3^14 states";
    } catch (const TooManyBranches& e) {
        EXPECT_GE(e.open, 13);
        EXPECT_GE(e.layer, 0);
        EXPECT_LT(e.layer, n);
    }
}

TEST(SolveLevel, RejectsMalformedProblems) {
    std::mt19937 rng(1);
    Random r = makeRandom(rng, 3, true, true, kThree);
    bind(r);
    auto p = r.p;
    p.predecessor = {-1, 2, 1};  // cycle 1 <-> 2
    EXPECT_THROW(solveLevel(p), std::invalid_argument);
    p.predecessor = {0, 0, 1};  // layer 0 its own predecessor
    EXPECT_THROW(solveLevel(p), std::invalid_argument);
    p.predecessor = {-1, -2, 1};
    EXPECT_THROW(solveLevel(p), std::invalid_argument);
    p = r.p;
    p.residuals = {{0, 3, 1, false}};
    EXPECT_THROW(solveLevel(p), std::invalid_argument);
    p = r.p;
    p.allowed.clear();
    EXPECT_THROW(solveLevel(p), std::invalid_argument);
    p = r.p;
    p.layers = 0;
    EXPECT_TRUE(solveLevel(p).choice.empty());
}

}  // namespace
}  // namespace partita
