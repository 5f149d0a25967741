// Properties of the AccPar engine: restricted AccPar == HyPar on the ten
// built-in networks; the transformer MLP's Megatron split; the split DP ==
// brute force; homogeneous arrays give ratio 1/2; heterogeneous bisection invariants.
#include <gtest/gtest.h>

#include <filesystem>

#include "core/accpar/accpar.h"
#include "core/accpar/multipath.h"
#include "core/io/array_io.h"
#include "core/search/methods.h"
#include "test_util.h"

namespace partita {
namespace {

using test::I;
using test::II;
using test::III;

class TenNetworks : public testing::TestWithParam<const char*> {};

// HyPar = AccPar restricted to {I, II}, ratio 1/2, communication only (docs/contributing/architecture.md#one-partition-vocabulary):
// the same grid and the same per-level communication, exactly, in both HyPar modes.
TEST_P(TenNetworks, RestrictedAccParReproducesHyPar) {
    const auto t = test::builtin(GetParam());
    for (const double w : {2.0, 1.0})
        for (const OutSize out : {OutSize::PostPool, OutSize::PrePool}) {
            CostParams hp;
            hp.comm = {w, out};
            const Array array = defaultArray(4);
            const Grid hypar = hyparSearch(t, 4, hp);
            const Evaluation ev = evaluate(t, array, hypar, hp);
            AccParParams ap;
            ap.batch = hp.batch;
            ap.comm = hp.comm;
            ap.objective = Objective::Elements;
            ap.allowed = {I, II};
            for (const Scheme scheme : {Scheme::AccPar, Scheme::HyPar}) {
                const PlanTree tree = planHierarchy(t, array, ap, scheme);
                EXPECT_EQ(tree.grid, hypar) << GetParam() << " w=" << w << " " << schemeName(scheme);
                EXPECT_TRUE(tree.uniform);
                EXPECT_EQ(tree.nodes.size(), 5u);  // one shared node per level and one leaf
                for (int h = 0; h < 4; ++h)
                    EXPECT_EQ(tree.nodes[static_cast<size_t>(tree.grid_nodes[static_cast<size_t>(h)])].objective,
                              ev.level_comm[static_cast<size_t>(h)])
                        << GetParam() << " H" << h + 1 << " w=" << w;
            }
        }
}

INSTANTIATE_TEST_SUITE_P(Builtin, TenNetworks, testing::ValuesIn(test::kTenNetworks), [](const auto& info) {
    std::string n = info.param;
    for (auto& c : n)
        if (c == '-') c = '_';
    return n;
});

// d -> 4d -> d, d = 1024, 2,048 tokens as the batch, on two equal accelerators:
// Megatron-LM's column-then-row split.
TEST(AccParTransformer, MlpBlockIsColumnThenRow) {
    const auto t = test::builtin("transformer-mlp");
    Array two;
    two.name = "2 TPU-v3";
    two.groups = {tpuV3(2)};
    deriveFromGroups(two);
    AccParParams p;
    p.batch = 2048;
    for (const Objective objective : {Objective::Time, Objective::Elements}) {
        p.objective = objective;
        const PlanTree tree = planHierarchy(t, two, p, Scheme::AccPar);
        EXPECT_EQ(tree.grid.toStrings(), std::vector<std::string>{"21"});
        EXPECT_EQ(tree.root().row[0].ratio, 0.5);
        EXPECT_EQ(tree.root().row[1].ratio, 0.5);
    }
    // Why: III's intra is A(E_1) = B d and II's is A(F_3) = B d with a free III -> II
    // transition, against 4 d^2 for each Type-I weight all-reduce.
    const auto in = splitInputs(t, initialState(t, 2048), p.comm);
    const double B = 2048, d = 1024;
    EXPECT_EQ(in.terms[0].intra[index(III)], B * d);
    EXPECT_EQ(in.terms[1].intra[index(II)], B * d);
    EXPECT_EQ(in.terms[0].intra[index(I)], 4 * d * d);
    EXPECT_EQ(interCoefficient(III, II), 0.0);
    p.objective = Objective::Elements;
    EXPECT_EQ(planHierarchy(t, two, p, Scheme::AccPar).root().objective, 2 * B * d);
}

// The split DP over three types equals brute force over all 3^L rows (time objective, mixed pair).
TEST(AccParSplit, DpEqualsBruteForce) {
    for (const char* name : {"sfc", "lenet-c", "cifar-c", "alexnet"}) {
        const auto t = test::builtin(name);
        const GroupPair pair{64 * 123e12, 64 * 3.3203125e11, 64 * 45e12, 64 * 2.48e11};
        for (const RatioModel model : {RatioModel::E, RatioModel::P}) {
            AccParParams p;
            p.ratio_model = model;
            const auto o = splitOptions(p, Scheme::AccPar);
            const auto in = splitInputs(t, initialState(t, 512), p.comm);
            const LevelSolution dp = solveSplit(makeLevelProblem(in, pair, o));
            const size_t L = t.size();
            std::vector<Split> row(L);
            double best = -1;
            size_t combos = 1;
            for (size_t l = 0; l < L; ++l) combos *= 3;
            for (size_t code = 0; code < combos; ++code) {
                size_t c = code;
                for (size_t l = L; l-- > 0; c /= 3) row[l] = static_cast<Split>(c % 3);
                const double cost = evaluateRow(in, row, pair, o).cost;
                if (best < 0 || cost < best) best = cost;
            }
            EXPECT_NEAR(dp.cost, best, 1e-12 * best) << name;
            EXPECT_NEAR(evaluateRow(in, dp.choice, pair, o).cost, dp.cost, 1e-12 * best) << name;
        }
    }
}

std::vector<std::string> studyNetworks() {
    std::vector<std::string> names;
    for (const char* n : {"alexnet", "vgg-11", "vgg-13", "vgg-16", "vgg-19", "resnet-18", "resnet-34", "resnet-50"})
        if (std::filesystem::exists(test::example(std::string("networks/") + n + ".json"))) names.push_back(n);
    return names;
}

// Communication only on identical accelerators, the tree engine prices residual edges exactly as
// the multi-path level problem does (docs/methods/accpar.md#multi-path-networks, principled shortcuts).
TEST(AccParHierarchy, CommOnlyMatchesMultiPathSearch) {
    const Array v3 = loadArray(test::example("arrays/tpu-v3-128.json"));
    AccParParams p;
    p.objective = Objective::Elements;
    for (const auto& name : studyNetworks()) {
        const auto t = test::builtin(name);
        const MultiPathPlan expected = commSearch(t, 7, 512, p.allowed);
        const PlanTree tree = planHierarchy(t, v3, p, Scheme::AccPar);
        EXPECT_EQ(tree.grid.toStrings(), expected.grid.toStrings()) << name;
        for (int h = 0; h < 7; ++h)
            EXPECT_EQ(tree.nodes[static_cast<size_t>(tree.grid_nodes[static_cast<size_t>(h)])].objective,
                      expected.level_cost[static_cast<size_t>(h)])
                << name << " H" << h + 1;
    }
}

TEST(AccParHierarchy, HomogeneousArraysGiveHalf) {
    const Array v3 = loadArray(test::example("arrays/tpu-v3-128.json"));
    ASSERT_EQ(v3.levels, 7);
    for (const auto& name : studyNetworks())
        for (const RatioModel model : {RatioModel::E, RatioModel::P}) {
            AccParParams p;
            p.ratio_model = model;
            const PlanTree tree = planHierarchy(test::builtin(name), v3, p, Scheme::AccPar);
            EXPECT_TRUE(tree.uniform) << name;
            EXPECT_EQ(tree.nodes.size(), 8u) << name;  // identical siblings share one result
            for (const auto& n : tree.nodes)
                for (const Cell& c : n.row) EXPECT_EQ(c.ratio, 0.5) << name << " depth " << n.depth;
        }
}

TEST(AccParHierarchy, MixedArrayInvariants) {
    const Array mixed = loadArray(test::example("arrays/tpu-mixed-128.json"));
    ASSERT_EQ(mixed.levels, 7);
    ASSERT_EQ(mixed.count(), 128);
    for (const auto& name : studyNetworks()) {
        const auto t = test::builtin(name);
        const AccParResult r = runAccPar(t, mixed, AccParParams{});
        const PlanTree& tree = r.accpar;
        const PlanNode& root = tree.root();
        EXPECT_EQ(root.label, "64 x tpu-v3 + 64 x tpu-v2");
        EXPECT_EQ(tree.nodes[static_cast<size_t>(root.child_i)].label, "64 x tpu-v3");  // the faster kind is i
        EXPECT_EQ(tree.nodes[static_cast<size_t>(root.child_j)].label, "64 x tpu-v2");
        EXPECT_EQ(tree.grid_nodes[0], 0);
        EXPECT_EQ(tree.grid_nodes[1], root.child_i);
        for (const auto& n : tree.nodes) {
            if (n.leaf) continue;
            const auto& ci = tree.nodes[static_cast<size_t>(n.child_i)];
            const auto& cj = tree.nodes[static_cast<size_t>(n.child_j)];
            EXPECT_EQ(memberCount(ci.members) + memberCount(cj.members), memberCount(n.members));
            for (size_t l = 0; l < t.size(); ++l) {
                EXPECT_GT(n.row[l].ratio, 0.0) << name;
                EXPECT_LT(n.row[l].ratio, 1.0) << name;
                EXPECT_EQ(n.layer_time_s[l], n.comm_s[l] + std::max(ci.layer_time_s[l], cj.layer_time_s[l]));
            }
        }
        double total = 0;
        for (double v : tree.layer_time_s) total += v;
        EXPECT_DOUBLE_EQ(tree.step_time_s, total);
        // The acceptance: AccPar is at least as fast as HyPar and OWT on every network.
        EXPECT_GE(r.speedupVsHypar(), 1.0) << name;
        EXPECT_GE(r.speedupVsOwt(), 1.0) << name;
        EXPECT_GE(r.speedupVsDp(), 1.0) << name;
    }
}

TEST(AccParHierarchy, UnevenTree) {
    // Three identical accelerators: 2 | 1, then 1 | 1 under the first child (docs/methods/accpar.md#bisection).
    Array three;
    three.name = "3 TPU-v3";
    three.groups = {tpuV3(3)};
    deriveFromGroups(three);
    const auto t = test::builtin("alexnet");
    const PlanTree tree = planHierarchy(t, three, AccParParams{}, Scheme::AccPar);
    ASSERT_EQ(tree.levels(), 2);
    const PlanNode& root = tree.root();
    EXPECT_TRUE(tree.nodes[static_cast<size_t>(root.child_j)].leaf);
    EXPECT_EQ(tree.grid_nodes[1], root.child_i);
    EXPECT_EQ(root.pair.c_i, 2 * root.pair.c_j);
    for (const Cell& c : root.row) EXPECT_GT(c.ratio, 0.5);  // the pair gets more than half
}

TEST(AccParHierarchy, GivenGridReproducesSearch) {
    const Array mixed = loadArray(test::example("arrays/tpu-mixed-128.json"));
    const auto t = test::builtin("alexnet");
    const PlanTree accpar = planHierarchy(t, mixed, AccParParams{}, Scheme::AccPar);
    // The root's given row, re-balanced by the ratio model, is the search's own row.
    const PlanTree given = planHierarchy(t, mixed, AccParParams{}, Scheme::Given, &accpar.grid);
    EXPECT_EQ(given.root().row, accpar.root().row);
    EXPECT_THROW(planHierarchy(t, mixed, AccParParams{}, Scheme::Given, nullptr), std::invalid_argument);
    const Grid wrong(3, static_cast<int>(t.size()));
    EXPECT_THROW(planHierarchy(t, mixed, AccParParams{}, Scheme::Given, &wrong), std::invalid_argument);
}

}  // namespace
}  // namespace partita
