// Learn-to-Scale model options of docs/methods/l2s.md#model-options, checked against hand counts: lane-filling
// compute (L1), burst-congestion communication (L2), exact per-hop SS_Mask keep (L3), and the
// acceptance figures of issue 19 on the paper's presets.
#include <gtest/gtest.h>

#include <cmath>

#include "core/io/network_io.h"
#include "core/l2s/evaluate.h"
#include "core/l2s/paper_gap.h"
#include "core/l2s/presets.h"
#include "core/l2s/study.h"
#include "test_util.h"

namespace partita::l2s {
namespace {

LayerTable lenet() { return presetLayers(preset("lenet"), PARTITA_EXAMPLES_DIR); }

TEST(L2sModels, LeNetConv1UnderLaneFilling) {
    // conv1: 20 kernels 5x5 over 1 channel, 24x24 outputs. On 16 cores the first 4 hold 2 kernels:
    // 576 x 25 x 1 x 2 = 28,800 MACs -> ceil(28,800 / 256) = 113 cycles; the others 14,400 -> 57.
    const Evaluator ev(lenet(), Mesh{});
    const BoundaryRow r = ev.evaluateLayer(0, {});
    EXPECT_EQ(r.cores[0].macs, 28800);
    EXPECT_EQ(r.cores[0].compute_cycles, 113);
    EXPECT_EQ(r.cores[4].compute_cycles, 57);
    EXPECT_EQ(r.compute_cycles, 113);
    // channel-only: 576 x 25 x ceil(2/16) x ceil(1/16) = 14,400, 1/127 of the lanes busy.
    CoreParams old;
    old.compute = ComputeModel::ChannelOnly;
    EXPECT_EQ(Evaluator(lenet(), Mesh{}, old).evaluateLayer(0, {}).compute_cycles, 14400);
}

TEST(L2sModels, BurstBoundaryOnTwoByTwo) {
    // L2S-1's boundary: 4 cores each send 64 B (1 flit) to the 3 others. Busiest port 3 flits,
    // busiest link 2; burst: ceil(3 / 0.4) = 8 cycles + 2 hops x (3 + 1) = 16.
    const LayerTable layers = weightedLayers(readNetworkJson(
        R"({"format": "partita-network/1", "name": "L2S-1", "input": {"channels": 8, "height": 4, "width": 4},
      "operators": [{"name": "convL", "type": "conv", "out_channels": 8, "kernel": 3, "padding": 1},
                    {"name": "convL1", "type": "conv", "out_channels": 8, "kernel": 3, "padding": 1}]})",
        "<oracle>"));
    MeshParams p;
    p.cores = 4;
    const BoundaryRow r = Evaluator(layers, Mesh(p)).evaluateLayer(1, {});
    EXPECT_EQ(r.max_port_flits, 3);
    EXPECT_EQ(r.max_link_flits, 2);
    EXPECT_EQ(r.comm_cycles, 8 + 2 * (3 + 1));
    EXPECT_EQ(r.compute_cycles, 9);  // lane-filling: 2,304 MACs / 256
    p.burst_rate = 0.5;
    EXPECT_EQ(Evaluator(layers, Mesh(p)).evaluateLayer(1, {}).comm_cycles, 6 + 8);
    p.comm = CommModel::Ideal;
    EXPECT_EQ(Evaluator(layers, Mesh(p)).evaluateLayer(1, {}).comm_cycles, 1 + 8);  // ceil(2 / 2 channels)
    p.burst_rate = 0;
    EXPECT_THROW(Mesh{p}, std::invalid_argument);
}

TEST(L2sModels, ExactMaskKeepsRoundedCountsPerHop) {
    // The 4x4 mesh has 48 one-hop, 68 two-hop and 64 three-hop ordered pairs (40/16/4 farther).
    const Matrix d = Mesh{}.distanceMatrix();
    auto kept = [&](const std::vector<double>& hop, std::uint64_t seed) {
        const Mask m = exactMask(d, ssMaskKeep(hop), seed);
        std::vector<int> by_hop(7, 0);
        for (size_t i = 0; i < 16; ++i)
            for (size_t j = 0; j < 16; ++j) by_hop[static_cast<size_t>(d[i][j])] += m[i][j];
        return by_hop;
    };
    EXPECT_EQ(kept({0.55, 0, 0}, 1), (std::vector<int>{16, 26, 0, 0, 0, 0, 0}));  // round(26.4)
    EXPECT_EQ(kept({0.55, 0, 0}, 7), (std::vector<int>{16, 26, 0, 0, 0, 0, 0}));  // any seed
    EXPECT_EQ(kept({1, 0.106, 0}, 1), (std::vector<int>{16, 48, 7, 0, 0, 0, 0}));  // round(7.208)
    EXPECT_EQ(kept({1, 0.53, 0}, 1), (std::vector<int>{16, 48, 36, 0, 0, 0, 0}));
    EXPECT_EQ(kept({1, 1, 0.33}, 1), (std::vector<int>{16, 48, 68, 21, 0, 0, 0}));
    EXPECT_NE(exactMask(d, ssMaskKeep({0.55, 0, 0}), 1), exactMask(d, ssMaskKeep({0.55, 0, 0}), 2));
    // 0/1 probabilities give the old neighbours-only mask, the same as the Bernoulli draw.
    EXPECT_EQ(exactMask(d, ssMaskKeep(), 3), whatIfMask(d, {1, 1, 0}, 5));
}

TEST(L2sModels, HopKeepText) {
    EXPECT_EQ(parseHopKeep("1,0.106,0"), (std::vector<double>{1, 0.106, 0}));
    EXPECT_EQ(hopKeepText({1, 0.106, 0}), "1,0.106,0");
    for (const char* bad : {"1,0", "1,0,0,0", "1,x,0", "1,1.5,0", ""}) EXPECT_THROW(parseHopKeep(bad), std::invalid_argument);
    EXPECT_THROW(ssMaskKeep({1, 0}), std::invalid_argument);
    EXPECT_EQ(parseComputeModel("channel-only"), ComputeModel::ChannelOnly);
    EXPECT_EQ(parseCommModel("ideal"), CommModel::Ideal);
    EXPECT_THROW(parseCommModel("booksim"), std::invalid_argument);
}

struct Measured {
    double speedup, traffic, baseline_comm_share;
};

Measured ssMask(const std::string& key) {
    const Preset& p = preset(key);
    const LayerTable layers = presetLayers(p, PARTITA_EXAMPLES_DIR);
    const Evaluator ev(layers, Mesh{});  // 16 cores, the default models
    StrategySpec spec;
    spec.scheme = Scheme::Sparse;
    spec.keep = ssMaskKeep(p.hop_keep);
    spec.exact = true;
    const Evaluation base = ev.evaluate(traditionalStrategy(layers));
    const Versus v = versus(base, ev.evaluate(buildStrategy(layers, ev.mesh(), spec)));
    return {v.speedup, v.traffic_rate, base.comm_cycles / base.total_cycles};
}

TEST(L2sModels, IssueNineteenAcceptanceOnSixteenCores) {
    // Issue 19: MLP and LeNet SS_Mask speedups within 10 % of 1.59 / 1.51, traffic within 2
    // points of 11 / 23 / 35 / 57 %. The engine's exact figures pin the models down.
    const Measured mlp = ssMask("mlp"), lenet = ssMask("lenet"), convnet = ssMask("convnet"),
                   caffenet = ssMask("caffenet");
    EXPECT_NEAR(mlp.speedup / 1.59, 1, 0.10);
    EXPECT_NEAR(lenet.speedup / 1.51, 1, 0.10);
    EXPECT_DOUBLE_EQ(mlp.traffic, 26.0 / 240);  // equal 32- and 19-neuron blocks: 26 of 240 pairs
    EXPECT_DOUBLE_EQ(convnet.traffic, 84.0 / 240);
    EXPECT_DOUBLE_EQ(caffenet.traffic, 137.0 / 240);
    EXPECT_NEAR(lenet.traffic, 0.23, 0.02);  // unequal blocks (20 and 50 kernels on 16 cores)
    EXPECT_NEAR(mlp.traffic, 0.11, 0.02);
    EXPECT_NEAR(convnet.traffic, 0.35, 0.02);
    EXPECT_NEAR(caffenet.traffic, 0.57, 0.02);
    EXPECT_DOUBLE_EQ(mlp.speedup, 266.0 / 166);
    EXPECT_DOUBLE_EQ(lenet.baseline_comm_share, 552.0 / 1267);
    // Below the paper where the baseline communicates less than the paper implies (docs/methods/l2s.md#the-paper-against-the-engine).
    EXPECT_LT(convnet.speedup, 1.32 * 0.9);
    EXPECT_LT(caffenet.speedup, 1.10);
    EXPECT_NEAR(paperImpliedCommShare("LeNet"), 0.4386, 1e-4);
    EXPECT_NEAR(paperImpliedCommShare("CaffeNet"), 0.2114, 1e-4);
    EXPECT_TRUE(std::isnan(paperImpliedCommShare("VGG19")));
}

TEST(L2sModels, PaperGapsForLeNet) {
    // The rows the CLI's --compare and the L2S tab show: Table IV's SS_Mask beside the engine.
    const LayerTable layers = lenet();
    const Evaluator ev(layers, Mesh{});
    StrategySpec spec;
    spec.scheme = Scheme::Sparse;
    spec.keep = ssMaskKeep(preset("lenet").hop_keep);
    spec.exact = true;
    const Evaluation base = ev.evaluate(traditionalStrategy(layers));
    const Evaluation ss_mask = ev.evaluate(buildStrategy(layers, ev.mesh(), spec));
    const std::vector<PaperGap> gaps = paperGaps("LeNet", 16, base, ss_mask, true);
    ASSERT_EQ(gaps.size(), 3u);
    EXPECT_EQ(gaps[0].paper, 1.51);
    EXPECT_EQ(gaps[0].engine, 1267.0 / ss_mask.total_cycles);
    EXPECT_EQ(gaps[0].ratio, gaps[0].engine / 1.51);
    EXPECT_EQ(gaps[0].reason, gapReason("LeNet", "SS_Mask"));
    EXPECT_EQ(gaps[1].paper, 0.23);
    EXPECT_TRUE(gaps[1].percent);
    EXPECT_EQ(gaps[2].paper, paperImpliedCommShare("LeNet"));
    EXPECT_EQ(gaps[2].engine, 552.0 / 1267);
    EXPECT_EQ(gaps[2].reason, "within 1 %");
    EXPECT_EQ(paperGaps("LeNet", 16, base, ss_mask, false)[2].reason, "");
    EXPECT_TRUE(paperGaps("VGG19", 16, base, ss_mask, true).empty());  // no SS_Mask row in Table IV
    // The defaults the reasons were measured with.
    EXPECT_TRUE(defaultModels(ComputeModel::LaneFilling, MeshParams{}, {1, 0.106, 0}, preset("lenet").hop_keep));
    MeshParams slow;
    slow.burst_rate = 0.3;
    EXPECT_FALSE(defaultModels(ComputeModel::LaneFilling, slow, {1, 0.106, 0}, preset("lenet").hop_keep));
    EXPECT_FALSE(defaultModels(ComputeModel::LaneFilling, MeshParams{}, {1, 0, 0}, preset("lenet").hop_keep));
}

}  // namespace
}  // namespace partita::l2s
