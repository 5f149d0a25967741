// Multi-path networks (docs/methods/accpar.md#multi-path-networks): the built-in VGG and ResNet files, the residual edges of the
// weighted-layer view, solveLevel == brute force / solveChain, and Oracle F.
#include <gtest/gtest.h>

#include <random>

#include "core/accpar/multipath.h"
#include "core/search/chain_dp.h"
#include "core/search/methods.h"
#include "test_util.h"

namespace partita {
namespace {

using test::I;
using test::II;
using test::III;

double weights(const LayerTable& t) {
    double w = 0;
    for (const auto& l : t.layers) w += l.weights();
    return w;
}

int layerIndex(const LayerTable& t, const std::string& name) {
    for (size_t l = 0; l < t.size(); ++l)
        if (t[l].name == name) return static_cast<int>(l);
    return -1;
}

TEST(Networks, VggFilesAreHyParsConfigurations) {
    // vgg-a/b/d/e are configurations A/B/D/E: the same operators as VGG-11/13/16/19.
    const std::pair<const char*, const char*> same[] = {
        {"vgg-11", "vgg-a"}, {"vgg-13", "vgg-b"}, {"vgg-16", "vgg-d"}, {"vgg-19", "vgg-e"}};
    const size_t counts[] = {11, 13, 16, 19};
    for (size_t i = 0; i < 4; ++i) {
        const auto a = test::builtin(same[i].first), b = test::builtin(same[i].second);
        ASSERT_EQ(a.size(), counts[i]);
        ASSERT_EQ(a.size(), b.size());
        for (size_t l = 0; l < a.size(); ++l) {
            EXPECT_EQ(a[l].weights(), b[l].weights()) << same[i].first << " " << a[l].name;
            EXPECT_EQ(a[l].in_hw, b[l].in_hw);
            EXPECT_EQ(a[l].out_hw, b[l].out_hw);
        }
        EXPECT_TRUE(a.isChain());
        EXPECT_TRUE(a.shortcuts.empty());
    }
}

TEST(Networks, ResNetWeightsExactAndNearPublished) {
    // Conv and fc weights from the shapes (no biases, no batch norm).
    const struct {
        const char* name;
        size_t layers;
        double exact, published;
    } nets[] = {{"resnet-18", 21, 11678912, 11.7e6}, {"resnet-34", 37, 21779648, 21.8e6},
                {"resnet-50", 54, 25502912, 25.6e6}};
    for (const auto& n : nets) {
        const auto t = test::builtin(n.name);
        EXPECT_EQ(t.size(), n.layers) << n.name;
        EXPECT_EQ(weights(t), n.exact) << n.name;
        EXPECT_NEAR(weights(t) / n.published, 1.0, 0.01) << n.name;
    }
}

TEST(Networks, ResNetStageOutputs) {
    const struct {
        const char* name;
        const char* adds[4];
        std::int64_t widen;
    } nets[] = {{"resnet-18", {"res2b", "res3b", "res4b", "res5b"}, 1},
                {"resnet-34", {"res2c", "res3d", "res4f", "res5c"}, 1},
                {"resnet-50", {"res2c", "res3d", "res4f", "res5c"}, 4}};
    for (const auto& n : nets) {
        const Network net = loadNetwork(test::example(std::string("networks/") + n.name + ".json"));
        for (int s = 0; s < 4; ++s) {
            const int id = net.find(n.adds[s]);
            ASSERT_GE(id, 0) << n.adds[s];
            EXPECT_EQ(net.ops[static_cast<size_t>(id)].out_shape, (Shape{(64 << s) * n.widen, 56 >> s, 56 >> s}))
                << n.name << " " << n.adds[s];
        }
        const auto t = weightedLayers(net);
        EXPECT_EQ(t.layers.back().c_in, 512 * n.widen);  // after the global average pool
        // Round trip through the writer keeps the weighted-layer view and its residual edges.
        const auto again = weightedLayers(readNetworkJson(writeNetworkJson(net), "again"));
        EXPECT_EQ(again.shortcuts, t.shortcuts);
        EXPECT_EQ(weights(again), weights(t));
    }
}

TEST(MultiPathView, ResNet18Edges) {
    const auto t = test::builtin("resnet-18");
    ASSERT_EQ(t.shortcuts.size(), 8u);
    int projections = 0;
    for (const auto& s : t.shortcuts) {
        projections += s.projection;
        EXPECT_LT(s.source, s.consumer);
        EXPECT_EQ(t[static_cast<size_t>(s.source)].shares_input, s.projection);
    }
    EXPECT_EQ(projections, 3);
    // Identity block res2a: source res2a_branch2a (reads conv1's pooled output), consumer res2b_branch2a.
    EXPECT_EQ(t.shortcuts[0], (Shortcut{layerIndex(t, "res2a_branch2a"), layerIndex(t, "res2b_branch2a"), false}));
    // Projection block res3a: the edge leaves res3a_branch1, whose DP predecessor is the block's first layer.
    const int proj = layerIndex(t, "res3a_branch1");
    EXPECT_EQ(t.shortcuts[2], (Shortcut{proj, layerIndex(t, "res3b_branch2a"), true}));
    EXPECT_EQ(t[static_cast<size_t>(proj)].dp_pred, layerIndex(t, "res3a_branch2a"));
    // After an add, the DP predecessor is the last main-branch layer; the last edge enters fc1000.
    EXPECT_EQ(t[static_cast<size_t>(layerIndex(t, "res3b_branch2a"))].dp_pred, layerIndex(t, "res3a_branch2b"));
    EXPECT_EQ(t.shortcuts.back().consumer, layerIndex(t, "fc1000"));
    const auto edges = residualEdges(t, initialState(t, 2));
    EXPECT_EQ(edges.back().elements, 2 * 512);
    EXPECT_EQ(edges.front().elements, 2 * 64 * 56 * 56);
}

TEST(MultiPathView, ChainsAreUnchanged) {
    for (const char* name : test::kTenNetworks) {
        const auto t = test::builtin(name);
        EXPECT_TRUE(t.shortcuts.empty()) << name;
        for (size_t l = 0; l < t.size(); ++l) EXPECT_EQ(t[l].dp_pred, static_cast<int>(l) - 1) << name;
    }
}

TEST(MultiPathView, ShortcutFromAWeightedOutput) {
    // sum = a + b(a): the shortcut carries a's output, i.e. b's input; c consumes the sum.
    const auto t = weightedLayers(readNetworkJson(R"({"format": "partita-network/1", "name": "t",
        "input": {"channels": 1, "height": 8, "width": 8}, "operators": [
        {"name": "a", "type": "conv", "out_channels": 4, "kernel": 3, "padding": 1},
        {"name": "b", "type": "conv", "out_channels": 4, "kernel": 3, "padding": 1},
        {"name": "sum", "type": "add", "inputs": ["a", "b"]},
        {"name": "c", "type": "fc", "out_features": 2}]})", "t"));
    ASSERT_EQ(t.shortcuts.size(), 1u);
    EXPECT_EQ(t.shortcuts[0], (Shortcut{1, 2, false}));
    EXPECT_EQ(t[2].dp_pred, 1);
}

TEST(MultiPathView, ProjectionListedFirstGivesTheSamePlan) {
    // One projection block; the file order of the projection conv must not change the exact optimum.
    auto block = [](bool projection_first) {
        const std::string proj = R"({"name": "p", "type": "conv", "out_channels": 8, "kernel": 1, "stride": 2,
                                     "rounding": "floor", "inputs": ["c0"]},)";
        return weightedLayers(readNetworkJson(R"({"format": "partita-network/1", "name": "t",
            "input": {"channels": 3, "height": 8, "width": 8}, "operators": [
            {"name": "c0", "type": "conv", "out_channels": 4, "kernel": 3, "padding": 1},)" +
            (projection_first ? proj : "") + R"(
            {"name": "a", "type": "conv", "out_channels": 8, "kernel": 3, "padding": 1, "stride": 2,
             "rounding": "floor", "inputs": ["c0"]},
            {"name": "b", "type": "conv", "out_channels": 8, "kernel": 3, "padding": 1},)" +
            (projection_first ? "" : proj) + R"(
            {"name": "sum", "type": "add", "inputs": ["b", "p"]},
            {"name": "fc", "type": "fc", "out_features": 10}]})", "t"));
    };
    const auto after = block(false), before = block(true);
    ASSERT_EQ(after.shortcuts, (std::vector<Shortcut>{{3, 4, true}}));
    ASSERT_EQ(before.shortcuts, (std::vector<Shortcut>{{1, 4, true}}));
    EXPECT_EQ(before[1].dp_pred, 2);  // the block's first layer comes later in the table
    for (double batch : {4.0, 64.0, 1024.0}) {
        const auto x = solveLevel(commLevelProblem(after, initialState(after, batch), {I, II, III}));
        const auto y = solveLevel(commLevelProblem(before, initialState(before, batch), {I, II, III}));
        EXPECT_EQ(x.cost, y.cost);
        for (const char* name : {"c0", "a", "b", "p", "fc"})
            EXPECT_EQ(x.choice[static_cast<size_t>(layerIndex(after, name))],
                      y.choice[static_cast<size_t>(layerIndex(before, name))]) << name << " batch " << batch;
    }
}

// Oracle F (docs/methods/accpar.md#tests-that-pin-the-model): fc-a (B = 100, 1000 -> 1000), fc-b, fc-c (-> 10); the input of fc-a is added to
// the input of fc-c.
LayerTable oracleF() {
    return weightedLayers(readNetworkJson(R"({"format": "partita-network/1", "name": "F",
        "input": {"channels": 1000}, "operators": [
        {"name": "fc-a", "type": "fc", "out_features": 1000},
        {"name": "fc-b", "type": "fc", "out_features": 1000},
        {"name": "sum", "type": "add", "inputs": ["fc-b", "input"]},
        {"name": "fc-c", "type": "fc", "out_features": 10}]})", "F"));
}

std::vector<Cell> cells(std::vector<Split> s) {
    std::vector<Cell> row;
    for (Split x : s) row.push_back({x, 0.5});
    return row;
}

TEST(OracleF, PrincipledShortcut) {
    const auto t = oracleF();
    ASSERT_EQ(t.shortcuts, (std::vector<Shortcut>{{0, 2, false}}));
    const auto state = initialState(t, 100);
    EXPECT_EQ(residualEdges(t, state)[0].elements, 100000);
    const auto sol = solveLevel(commLevelProblem(t, state, {I, II, III}));
    EXPECT_EQ(sol.cost, 201000);
    EXPECT_EQ(sol.choice, (std::vector<Split>{II, III, II}));
    EXPECT_EQ(commLevelCost(t, state, cells({II, III, II})), 201000);
    EXPECT_EQ(commLevelCost(t, state, cells({III, II, III})), 300000);
}

TEST(OracleF, SwappedTableOfTheCode) {
    const auto t = oracleF();
    const auto state = initialState(t, 100);
    LevelProblem p = commLevelProblem(t, state, {I, II, III});
    p.shortcut = [](const ResidualEdge& e, Split a, Split b) { return referenceBlockCoefficient(a, b) * e.elements; };
    const auto sol = solveLevel(p);
    EXPECT_EQ(sol.cost, 251000);
    // Three-way tie [II,III,II], [III,II,II], [III,III,II]; the block source's lowest type wins.
    EXPECT_EQ(sol.choice, (std::vector<Split>{II, III, II}));
}

TEST(Shortcut, Coefficients) {
    for (Split a : {I, II, III})
        for (Split b : {I, II, III}) {
            EXPECT_EQ(shortcutCoefficient(a, b), a == b ? 0.0 : 0.5);
            // The code's table has the same zeros as the inter table, at other places than a == b.
            EXPECT_EQ(referenceBlockCoefficient(a, b), interCoefficient(a, b));
        }
    EXPECT_DOUBLE_EQ(shortcutCoefficient(I, II, 0.75), 2 * 0.75 * 0.25);
    EXPECT_DOUBLE_EQ(shortcutCoefficient(II, I, 0.75), 2 * 0.75 * 0.25);
    EXPECT_DOUBLE_EQ(shortcutCoefficient(I, III, 0.75), 0.25);
    EXPECT_DOUBLE_EQ(shortcutCoefficient(III, II, 0.75), 0.25);
}

TEST(CommSearch, RestrictedToHyParTypesReproducesHyPar) {
    CostParams params;
    for (const char* name : test::kTenNetworks) {
        const auto t = test::builtin(name);
        const auto plan = commSearch(t, 4, params.batch, {I, II}, params.comm.w_intra);
        EXPECT_EQ(plan.grid, hyparSearch(t, 4, params)) << name;
    }
}

TEST(CommSearch, ResNetLevelCostsMatchTheRows) {
    for (const char* name : {"resnet-18", "resnet-50"}) {
        const auto t = test::builtin(name);
        const auto plan = commSearch(t, 3, 512, {I, II, III});
        auto state = initialState(t, 512);
        for (int h = 0; h < 3; ++h) {
            EXPECT_DOUBLE_EQ(commLevelCost(t, state, plan.grid.row(h)), plan.level_cost[static_cast<size_t>(h)]);
            // Exact: never worse than data parallelism, or any row of the same level with one layer flipped.
            auto row = std::vector<Cell>(plan.grid.row(h).begin(), plan.grid.row(h).end());
            const double all_batch = commLevelCost(t, state, cells(std::vector<Split>(t.size(), I)));
            EXPECT_LE(plan.level_cost[static_cast<size_t>(h)], all_batch);
            for (size_t l = 0; l < t.size(); ++l) {
                auto flipped = row;
                flipped[l].split = static_cast<Split>((index(row[l].split) + 1) % 3);
                EXPECT_LE(plan.level_cost[static_cast<size_t>(h)], commLevelCost(t, state, flipped));
            }
            shrink(state, plan.grid.row(h));
        }
    }
}

}  // namespace
}  // namespace partita
