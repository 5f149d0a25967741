// MPT grid, network, cost and scenario properties (docs/methods/mpt.md).
#include <gtest/gtest.h>

#include <cmath>

#include "core/mpt/scenario.h"
#include "tests/core/test_util.h"

namespace partita::mpt {
namespace {

TEST(MptHybrid, BandwidthsDerivedFromTopologies) {
    const NetworkParams n;
    const sim::Topology fb = flattenedButterfly(4, 4, 10e9, 5e-9);
    EXPECT_EQ(fb.links.size(), 16u * 6u);
    EXPECT_EQ(allToAllBandwidthDor(fb, 4, 4), 37.5e9);
    EXPECT_EQ(clusterBandwidth(16, n), 37.5e9);
    EXPECT_EQ(clusterBandwidth(4, n), 30e9);
    EXPECT_EQ(clusterBandwidth(1, n), 0);
    EXPECT_EQ(ringBandwidth(16, false, n), 60e9);
    EXPECT_EQ(ringBandwidth(1, true, n), 120e9);
    EXPECT_EQ(hostLinks(4, 64).size(), 4u);
    EXPECT_EQ(hostLinks(1, 256)[0], std::make_pair(0, 15));
    EXPECT_TRUE(hostLinks(16, 16).empty());
    NetworkParams bad;
    bad.narrow_link_Bps = 0;
    EXPECT_THROW(clusterBandwidth(16, bad), std::invalid_argument);
}

TEST(MptGrid, ChecksAndElementAssignment) {
    EXPECT_TRUE(checkGrid({16, 16}, 256, 16, 256).valid());
    EXPECT_FALSE(checkGrid({16, 8}, 256, 16, 256).valid());
    EXPECT_FALSE(checkGrid({32, 8}, 256, 16, 256).valid());
    EXPECT_EQ(checkGrid({4, 64}, 256, 16, 96).warnings.size(), 1u);
    EXPECT_EQ(elementGroups(4, 4)[1], (std::vector<int>{4, 5, 6, 7}));
    EXPECT_EQ(elementGroups(4, 16)[5], (std::vector<int>{5}));
    EXPECT_EQ(maxElementsPerGroup(6, 16), 3);  // F(2,5): 36 positions on 16 groups
    EXPECT_TRUE(checkGrid({16, 16}, 256, 36, 256).warnings.size() == 1);
    EXPECT_TRUE(linePredictable(4, 4));
    EXPECT_TRUE(linePredictable(4, 2));
    EXPECT_FALSE(linePredictable(4, 16));
    EXPECT_FALSE(linePredictable(4, 8));
    EXPECT_EQ(paperConfigs(256), (std::vector<GridConfig>{{1, 256}, {4, 64}, {16, 16}}));
    EXPECT_EQ(divisorConfigs(256).size(), 9u);
    EXPECT_THROW(elementGroups(4, 17), std::invalid_argument);
}

// The first model's (a9) Late-2 example (docs/methods/mpt.md#model-options-and-presets) holds under the model that defines it: the vector unit (64 FLOP/cycle), one pass.
TEST(MptCost, Late2ExampleOfA9) {
    MptParams p;
    p.collective_passes = 1;
    p.worker.transform_unit = TransformUnit::Vector;
    const MptLayer late2 = layerStudy()[4];
    const LayerCost c = mptCost(late2, {16, 16}, {2, 3}, false, p);
    EXPECT_EQ(c.macs / 3, 104857600);
    const double hop = p.network.serdes_s + p.network.router_s + p.network.chunk_B / p.network.full_link_Bps;
    EXPECT_DOUBLE_EQ(c.weight_comm_s, 384000 * 4 / 60e9 + 15 * hop);
    EXPECT_DOUBLE_EQ(c.tile_comm_s, 4 * (153600 * 4 / 37.5e9 + 2 * (p.network.serdes_s + p.network.router_s)));
    EXPECT_DOUBLE_EQ(c.compute_s, 3 * 25.6e-6);  // GEMM-bound: the transforms overlap on the vector unit
    p.worker.transforms_concurrent = false;
    EXPECT_GT(mptCost(late2, {16, 16}, {2, 3}, false, p).compute_s, 3 * 25.6e-6);
    EXPECT_GT(c.energy.total(), 0);
}

TEST(MptCost, SingleGroupEqualsDataParallel) {
    MptParams p;
    for (const MptLayer& l : layerStudy()) {
        const LayerCost mpt = mptCost(l, {1, 256}, {4, 3}, false, p);
        const LayerCost dp = dataParallelCost(l, true, {4, 3}, p);
        EXPECT_EQ(mpt.volume.total(), dp.volume.total()) << l.name;
        EXPECT_EQ(mpt.volume.tiles(), 0);
        EXPECT_EQ(mpt.compute_s, dp.compute_s) << l.name;
        EXPECT_EQ(mpt.weight_comm_s, dp.weight_comm_s) << l.name;
        EXPECT_EQ(mpt.total_s, dp.total_s) << l.name;
    }
}

TEST(MptScenario, ClusteringNeverWorseThanAnyFixedConfig) {
    for (Objective o : {Objective::CommVolume, Objective::CommTime, Objective::TotalTime})
        for (ConfigSet set : {ConfigSet::Paper, ConfigSet::Extended})
            for (Scenario s : {Scenario::WMpStar, Scenario::WMpPlusStar}) {
                ScenarioParams sp;
                sp.objective = o;
                sp.configs = set;
                for (const LayerResult& r : evaluate(layerStudy(), s, sp).layers)
                    for (const LayerCost& c : r.options)
                        EXPECT_LE(objectiveValue(r.cost, o, 4), objectiveValue(c, o, 4)) << r.name;
            }
}

TEST(MptScenario, OverridesAndSpeedups) {
    ScenarioParams sp;
    const auto layers = layerStudy();
    const Evaluation e = evaluate(layers, Scenario::WMpPlusStar, sp);
    std::vector<std::optional<GridConfig>> ov(layers.size());
    ov[4] = GridConfig{1, 256};
    const Evaluation o = evaluate(layers, Scenario::WMpPlusStar, sp, ov);
    EXPECT_TRUE(o.layers[4].overridden);
    EXPECT_EQ(o.layers[4].cost.grid, (GridConfig{1, 256}));
    EXPECT_EQ(o.layers[0].cost.total_s, e.layers[0].cost.total_s);
    EXPECT_GE(o.totals.total_s, e.totals.total_s);  // comm_time optimum replaced
    ov[4] = GridConfig{8, 32};  // not in the paper set, still buildable on request
    EXPECT_FALSE(evaluate(layers, Scenario::WMp, sp, ov).layers[4].cost.buildable);
    ov[4] = GridConfig{32, 8};
    EXPECT_THROW(evaluate(layers, Scenario::WMp, sp, ov), std::invalid_argument);
    EXPECT_THROW(evaluate(layers, Scenario::WDp, sp, {GridConfig{1, 256}}), std::invalid_argument);
    const Evaluation dp = evaluate(layers, Scenario::WDp, sp);
    EXPECT_EQ(dp.speedupVsWdp(), 1);
    EXPECT_GT(e.speedupVsWdp(), 1);
    EXPECT_GT(dp.speedupVsOne(), 1);
    EXPECT_LT(dp.speedupVsOne(), 256);
    // Early goes data parallel; Late-2 uses the 16-group grid.
    EXPECT_EQ(evaluate(layers, Scenario::WMpStar, sp).layers[0].cost.grid.n_g, 1);
    EXPECT_EQ(e.layers[4].cost.grid.n_g, 16);
}

TEST(MptScenario, NetworksAndNames) {
    const Network net = loadNetwork(test::example("networks/resnet-34.json"));
    const auto layers = layersFromNetwork(net);
    int eligible = 0;
    for (const MptLayer& l : layers) eligible += l.winograd;
    EXPECT_EQ(eligible, 29);  // 32 3x3 convs less 3 stride-2 ones; conv1, projections and fc are direct
    ScenarioParams sp;
    const Evaluation e = evaluate(layers, Scenario::WMpPlusStar, sp);
    EXPECT_GT(e.speedupVsWdp(), 1);
    for (Scenario s : allScenarios()) EXPECT_EQ(parseScenario(scenarioName(s)), s);
    EXPECT_THROW(parseScenario("w_mp**"), std::invalid_argument);
    EXPECT_EQ(parseObjective("total_time"), Objective::TotalTime);
    EXPECT_THROW(parseObjective("speed"), std::invalid_argument);
    for (const char* n : {"wrn-40-10", "fractalnet-4x4"}) {
        const Network x = loadNetwork(test::example(std::string("networks/") + n + ".json"));
        EXPECT_GT(layersFromNetwork(x).size(), 10u) << n;
    }
}

TEST(MptScenario, WinogradDomainJoinRemovesTransfers) {
    const auto layers = layersFromNetwork(loadNetwork(test::example("networks/fractalnet-4x4.json")));
    int joins = 0;
    for (const MptLayer& l : layers) joins += l.join_input;
    EXPECT_EQ(joins, 4 * 11);  // per block: 4 innermost joins of two convs, 3 outer joins of one conv
    ScenarioParams sp;
    const Evaluation plain = evaluate(layers, Scenario::WMp, sp);
    sp.model.winograd_domain_join = true;
    const Evaluation joined = evaluate(layers, Scenario::WMp, sp);
    for (size_t k = 0; k < layers.size(); ++k) {
        const Volumes& a = plain.layers[k].cost.volume;
        const Volumes& b = joined.layers[k].cost.volume;
        if (layers[k].join_input && plain.layers[k].mpt) {
            EXPECT_EQ(b.gather_y, 0);
            EXPECT_EQ(b.scatter_dy, 0);
            EXPECT_EQ(b.scatter_x, a.scatter_x);
        } else {
            EXPECT_EQ(b.total(), a.total());
        }
    }
    EXPECT_LT(joined.totals.tile_comm_s, plain.totals.tile_comm_s);
}

TEST(MptScenario, SweepAndBadInputs) {
    ScenarioParams sp;
    const auto rows = sweep(layerStudy(), sp, true);
    ASSERT_EQ(rows.size(), 5u);
    EXPECT_EQ(rows[0].w_dp_bytes, 0);
    EXPECT_DOUBLE_EQ(rows[0].w_dp_speedup, 1);
    EXPECT_EQ(rows[4].fixed, (GridConfig{16, 16}));
    EXPECT_LT(rows[4].dynamic_bytes, rows[4].w_dp_bytes);
    for (const SweepRow& r : rows) EXPECT_LE(r.dynamic_bytes, r.w_dp_bytes * 1.0000001 + 1) << r.p;
    ScenarioParams bad = sp;
    bad.model.batch = 0;
    EXPECT_THROW(evaluate(layerStudy(), Scenario::WMp, bad), std::invalid_argument);
    bad = sp;
    bad.model.factors.gather_2d = 1.5;
    EXPECT_THROW(evaluate(layerStudy(), Scenario::WMpPlus, bad), std::invalid_argument);
    MptLayer zero = layerStudy()[0];
    zero.in_ch = 0;
    EXPECT_THROW(evaluate({zero}, Scenario::WDp, sp), std::invalid_argument);
    EXPECT_THROW(evaluate({}, Scenario::WDp, sp), std::invalid_argument);
    EXPECT_THROW(layerStudy(7), std::invalid_argument);
    EXPECT_EQ(paperNumbers().front().value, 2.74);
}

TEST(MptPrediction, QuantiserRegionsAndFunctionalMode) {
    Quantiser q;
    q.delta = 1;
    q.levels = 16;  // 8 per sign, 4 regions of 2 steps: 1,1,2,2,4,4,8,8 -> range 30
    q.regions = 4;
    EXPECT_EQ(quantise(q, 2.5).value, 2);
    EXPECT_EQ(quantise(q, 2.5).err_hi, 2);
    EXPECT_EQ(quantise(q, 13).value, 10);
    EXPECT_EQ(quantise(q, 13).err_hi, 4);
    EXPECT_EQ(quantise(q, -2.5).value, -4);  // floor toward -inf in the 2-step region
    EXPECT_TRUE(quantise(q, 31).overflow);
    q.rounding = Quantiser::Rounding::SignMagnitude;
    EXPECT_EQ(quantise(q, -2.5).value, -2);
    EXPECT_EQ(quantise(q, -2.5).err_lo, -2);
    q.levels = 15;
    EXPECT_THROW(quantise(q, 1), std::invalid_argument);
    const DMatrix AT = {{1, 1, 1, 0}, {0, 1, -1, -1}};
    Quantiser six;
    six.delta = 0.05;
    six.levels = 64;
    six.regions = 4;
    const FunctionalResult r = functionalPrediction(AT, six, -0.3, 1.0, 2000);
    EXPECT_EQ(r.false_negatives, 0);
    EXPECT_LE(r.skipped_2d, r.truly_inactive);
    EXPECT_LE(r.skipped_1d, r.truly_inactive);
    EXPECT_GE(r.skipped_1d, r.skipped_2d);  // 1D predict is tighter
    EXPECT_GT(r.skipped_1d, 0);
    const Quantiser q6 = sigmaQuantiser(6, 4, 1.0);
    EXPECT_EQ(q6.levels, 64);
    EXPECT_DOUBLE_EQ(q6.delta, 4.0 / (8 * 15));
    EXPECT_FALSE(quantise(q6, 3.99).overflow);
    EXPECT_TRUE(quantise(q6, 4.0).overflow);
    const ReductionFactors f = functionalFactors(ReductionFactors{}, -0.5, 1.0, 500);
    EXPECT_FALSE(f.paper_reported);
    EXPECT_EQ(f.scatter_2d, 0.393);
    EXPECT_GT(f.gather_2d, 0);  // 1D at 5 bits is not always tighter than 2D at 6 bits
    EXPECT_GT(f.gather_1d, 0);
}

}  // namespace
}  // namespace partita::mpt
