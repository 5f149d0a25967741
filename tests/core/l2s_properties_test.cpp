// Learn-to-Scale invariants (docs/methods/l2s.md): all-gather volumes, distance-
// blind masks keep the mean hop distance, grouping divides MACs by n, XY routes.
#include <gtest/gtest.h>

#include "core/l2s/evaluate.h"
#include "core/l2s/presets.h"
#include "core/l2s/study.h"

namespace partita::l2s {
namespace {

LayerTable presetTable(const std::string& key) { return presetLayers(preset(key), PARTITA_EXAMPLES_DIR); }

Evaluator evaluator(const std::string& key, int cores) {
    MeshParams p;
    p.cores = cores;
    return Evaluator(presetTable(key), Mesh(p));
}

TEST(L2sMesh, DefaultShapesAndXyRoutes) {
    EXPECT_EQ(defaultMeshShape(4), std::make_pair(2, 2));
    EXPECT_EQ(defaultMeshShape(8), std::make_pair(4, 2));
    EXPECT_EQ(defaultMeshShape(16), std::make_pair(4, 4));
    EXPECT_EQ(defaultMeshShape(32), std::make_pair(8, 4));
    EXPECT_EQ(parseMeshShape("8x4"), std::make_pair(8, 4));
    const Mesh m;
    EXPECT_EQ(m.topology().links.size(), 48u);  // 2 x (2 x 4 x 4 - 4 - 4)
    EXPECT_EQ(m.topology().links[0].bandwidth_Bps, 128e9);
    const std::vector<int> route = {m.linkId(0, 1), m.linkId(1, 2), m.linkId(2, 3),
                                    m.linkId(3, 7), m.linkId(7, 11), m.linkId(11, 15)};
    EXPECT_EQ(m.xyRoute(0, 15), route);
    for (int a = 0; a < 16; ++a)
        for (int b = 0; b < 16; ++b) EXPECT_EQ(static_cast<int>(m.xyRoute(a, b).size()), m.distance(a, b));
}

TEST(L2sPartition, BalancedBlocksAndCycles) {
    EXPECT_EQ(balancedBlocks(10, 16), (std::vector<int>{1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0}));
    const std::vector<int> lenet = balancedBlocks(20, 16);
    EXPECT_EQ(lenet[3], 2);
    EXPECT_EQ(lenet[4], 1);
    const Evaluator mlp = evaluator("mlp", 16);
    const BoundaryRow fc1 = mlp.evaluateLayer(0, {});
    EXPECT_EQ(fc1.cores[0].channels, 32);
    EXPECT_EQ(fc1.cores[0].compute_cycles, 2 * 49);  // ceil(32/16) x ceil(784/16)
    EXPECT_EQ(fc1.macs, 784 * 512);
    const BoundaryRow caffe_fc1 = evaluator("caffenet", 16).evaluateLayer(5, {});
    EXPECT_FALSE(caffe_fc1.cores[0].weights_fit);  // 9216 x 256 x 2 B > 128 KB
}

TEST(L2sProperties, TraditionalIsTheAllGatherFormula) {
    for (const char* key : {"mlp", "lenet", "convnet", "caffenet"})
        for (int n : {4, 8, 16, 32}) {
            const Evaluator ev = evaluator(key, n);
            const Evaluation e = ev.evaluate(traditionalStrategy(ev.layers()));
            for (size_t l = 1; l < ev.layers().size(); ++l) {
                const WeightedLayer& prev = ev.layers()[l - 1];
                EXPECT_EQ(e.rows[l].volume_B, prev.c_out * prev.out_hw * 2 * (n - 1)) << key << " " << n << " " << l;
            }
            EXPECT_EQ(e.volume_B, e.traditional_B);
            // An all-ones NZ mask is the traditional scheme, byte-hops included.
            Strategy ones = traditionalStrategy(ev.layers());
            for (size_t l = 1; l < ones.size(); ++l) ones[l] = {Scheme::Sparse, fullMask(n)};
            const Evaluation s = ev.evaluate(ones);
            EXPECT_EQ(s.byte_hops, e.byte_hops);
            EXPECT_EQ(s.total_cycles, e.total_cycles);
            EXPECT_EQ(s.energy_J, e.energy_J);
        }
}

TEST(L2sProperties, UniformKeepScalesVolumeAndByteHopsAlike) {
    const Evaluator ev = evaluator("convnet", 16);
    const BoundaryRow dense = ev.evaluateLayer(1, {});
    const Matrix d = ev.mesh().distanceMatrix();
    // By expectation: E[volume] = p volume and E[byte-hops] = p byte-hops exactly.
    const Matrix keep = keepMatrix(d, ssKeep(0.25));
    double ev_volume = 0, ev_hops = 0;
    for (size_t i = 0; i < 16; ++i)
        for (size_t j = 0; j < 16; ++j) {
            ev_volume += keep[i][j] * dense.traffic[i][j];
            ev_hops += keep[i][j] * dense.traffic[i][j] * d[i][j];
        }
    EXPECT_EQ(ev_volume, 0.25 * dense.volume_B);
    EXPECT_EQ(ev_hops, 0.25 * dense.byte_hops);
    // Over seeds: the mean hop distance of what is sent stays the dense one.
    double volume = 0, hops = 0;
    for (std::uint64_t seed = 1; seed <= 400; ++seed) {
        const BoundaryRow r = ev.evaluateLayer(1, {Scheme::Sparse, whatIfMask(d, ssKeep(0.25), seed)});
        volume += r.volume_B;
        hops += r.byte_hops;
    }
    EXPECT_NEAR(volume / (400 * dense.volume_B), 0.25, 0.01);
    EXPECT_NEAR(hops / volume, dense.byte_hops / dense.volume_B, 0.02);
    EXPECT_EQ(dense.byte_hops / dense.volume_B, 8.0 / 3);  // 4x4 mesh: 640 hops over 240 pairs
}

TEST(L2sProperties, SsMaskKeepsOnlyNeighbours) {
    const Evaluator ev = evaluator("lenet", 16);
    StrategySpec spec;
    spec.scheme = Scheme::Sparse;
    spec.keep = ssMaskKeep();
    const Evaluation e = ev.evaluate(buildStrategy(ev.layers(), ev.mesh(), spec));
    EXPECT_EQ(e.byte_hops, e.volume_B);
    for (const BoundaryRow& r : e.rows) EXPECT_LE(r.longest_hops, 1);
    const Versus v = versus(ev.evaluate(traditionalStrategy(ev.layers())), e);
    EXPECT_GT(v.speedup, 1);
    EXPECT_LT(v.traffic_rate, 0.25);  // 48 neighbour pairs of 240
    EXPECT_GT(v.energy_reduction, 0.75);
}

TEST(L2sProperties, GroupingDividesMacsByN) {
    const Evaluator ev = evaluator("convnet", 16);
    const BoundaryRow dense = ev.evaluateLayer(1, {}), grouped = ev.evaluateLayer(1, {Scheme::Grouped, {}});
    EXPECT_EQ(grouped.macs, dense.macs / 16);
    EXPECT_EQ(grouped.weights, dense.weights / 16);
    EXPECT_EQ(grouped.volume_B, 0);
    EXPECT_EQ(grouped.traditional_B, dense.volume_B);
}

TEST(L2sProperties, UpdateEqualsFullEvaluation) {
    const Evaluator ev = evaluator("convnet", 16);
    Strategy s = traditionalStrategy(ev.layers());
    const Evaluation base = ev.evaluate(s);
    const LayerChoice g{Scheme::Grouped, {}};
    const Evaluation partial = ev.update(base, 2, g);
    s[2] = g;
    const Evaluation full = ev.evaluate(s);
    EXPECT_EQ(partial.total_cycles, full.total_cycles);
    EXPECT_EQ(partial.volume_B, full.volume_B);
    EXPECT_EQ(partial.energy_J, full.energy_J);
}

TEST(L2sProperties, WhatIfMasksAreSeeded) {
    const Matrix d = Mesh().distanceMatrix();
    EXPECT_EQ(whatIfMask(d, {1, 0.5, 0}, 7), whatIfMask(d, {1, 0.5, 0}, 7));
    EXPECT_NE(whatIfMask(d, {1, 0.5, 0}, 7), whatIfMask(d, {1, 0.5, 0}, 8));
    const Mask m = whatIfMask(d, {1, 0.5, 0}, 7);
    for (int i = 0; i < 16; ++i)
        for (int j = 0; j < 16; ++j) {
            if (d[i][j] == 0) {
                EXPECT_EQ(m[i][j], 1);
            }
            if (d[i][j] >= 2) {
                EXPECT_EQ(m[i][j], 0);
            }
        }
    EXPECT_EQ(parseKeep("d0=1,d1=0.5,d2=0"), (std::vector<double>{1, 0.5, 0}));
    EXPECT_EQ(keepText({1, 0.5, 0}), "d0=1,d1=0.5,d2=0");
}

TEST(L2sAdvisor, RanksByTraditionalTraffic) {
    const Evaluator ev = evaluator("convnet", 16);
    const std::vector<GroupingAdvice> a = groupingAdvice(ev);
    ASSERT_EQ(a.size(), 4u);
    EXPECT_EQ(a[0].name, "conv2");
    EXPECT_EQ(a[0].traditional_B, 16 * 16 * 32 * 2 * 15);
    EXPECT_EQ(a[1].name, "conv3");
    EXPECT_EQ(a[1].traditional_B, 8 * 8 * 32 * 2 * 15);
    EXPECT_EQ(topGroupable(ev, 2), (std::vector<std::string>{"conv2", "conv3"}));
    EXPECT_TRUE(topGroupable(evaluator("lenet", 16), 2).empty());  // 20 and 50 channels
}

TEST(L2sSweep, FourCoreCounts) {
    StrategySpec spec;
    spec.scheme = Scheme::Sparse;
    const auto points = coreSweep(presetTable("lenet"), {4, 8, 16, 32}, spec);
    ASSERT_EQ(points.size(), 4u);
    EXPECT_EQ(points[3].mesh, "8x4");
    for (const SweepPoint& p : points) {
        EXPECT_EQ(p.baseline.cores, p.cores);
        EXPECT_LE(p.vs.traffic_rate, 1);
    }
}

TEST(L2sCommMatrix, HeatmapData) {
    const Evaluator ev = evaluator("convnet", 16);
    const BoundaryRow r = ev.evaluateLayer(1, {});
    const CommMatrix t = trafficCommMatrix(r);
    EXPECT_EQ(t.rows, 16);
    EXPECT_EQ(t.total(), r.volume_B);
    EXPECT_EQ(t.row_names[5], "c5");
    const CommMatrix links = linkLoadCommMatrix(r);
    for (int i = 0; i < 16; ++i)
        for (int j = 0; j < 16; ++j)
            if (ev.mesh().distance(i, j) != 1) {
                EXPECT_EQ(links.at(i, j), 0);
            }
}

TEST(L2sReference, PaperNumbersAreLabelled) {
    const PaperRow* r = paperRow("MLP", "SS_Mask");
    ASSERT_NE(r, nullptr);
    EXPECT_EQ(r->speedup, 1.59);
    EXPECT_EQ(r->traffic, 0.11);
    EXPECT_EQ(paperRow("CaffeNet", "SS_Mask")->speedup, 1.10);
    EXPECT_EQ(paperRow("LeNet", "SS_Mask", 32)->traffic, 0.18);
    EXPECT_FALSE(r->baseline.empty());
    for (const Preset& p : presets()) EXPECT_GT(presetTable(p.key).size(), 0u) << p.key;
}

}  // namespace
}  // namespace partita::l2s
