// Learn-to-Scale oracles L2S-1 and L2S-2 (docs/methods/l2s.md#tests-that-pin-the-model), checked exactly. L2S-1's cycle
// counts are defined under the old models (docs/methods/l2s.md#model-options), so it runs with ComputeModel::ChannelOnly and
// CommModel::Ideal; L2S-2 counts traffic only and holds under every model option. The new
// defaults have their own hand counts in l2s_models_test.cpp.
#include <gtest/gtest.h>

#include "core/io/network_io.h"
#include "core/l2s/evaluate.h"
#include "core/l2s/masks.h"

namespace partita::l2s {
namespace {

LayerTable net(const std::string& text) { return weightedLayers(readNetworkJson(text, "<oracle>")); }

// Layer L: 8 channels of 4x4; layer L+1: 3x3 conv 8 -> 8, same padding.
LayerTable oracle1Layers() {
    return net(R"({"format": "partita-network/1", "name": "L2S-1", "input": {"channels": 8, "height": 4, "width": 4},
      "operators": [{"name": "convL", "type": "conv", "out_channels": 8, "kernel": 3, "padding": 1},
                    {"name": "convL1", "type": "conv", "out_channels": 8, "kernel": 3, "padding": 1}]})");
}

// The old models (docs/methods/l2s.md#model-options), the ones L2S-1 is counted under.
MeshParams idealMesh(int cores) {
    MeshParams p;
    p.cores = cores;
    p.comm = CommModel::Ideal;
    return p;
}

Evaluator oracle1(CoreParams core = {}) {
    core.compute = ComputeModel::ChannelOnly;
    return Evaluator(oracle1Layers(), Mesh(idealMesh(4)), core);
}

BoundaryRow sparse(const Evaluator& ev, Mask nz) { return ev.evaluateLayer(1, {Scheme::Sparse, std::move(nz)}); }

TEST(L2sOracle1, MeshAndDistances) {
    const Evaluator ev = oracle1();
    EXPECT_EQ(ev.mesh().width(), 2);
    EXPECT_EQ(ev.mesh().height(), 2);
    EXPECT_EQ(ev.mesh().distanceMatrix(), (Matrix{{0, 1, 1, 2}, {1, 0, 2, 1}, {1, 2, 0, 1}, {2, 1, 1, 0}}));
    EXPECT_EQ(ev.mesh().topology().links.size(), 8u);
    // XY routes of the two-hop flows: X first.
    const Mesh& m = ev.mesh();
    EXPECT_EQ(m.xyRoute(0, 3), (std::vector<int>{m.linkId(0, 1), m.linkId(1, 3)}));
    EXPECT_EQ(m.xyRoute(1, 2), (std::vector<int>{m.linkId(1, 0), m.linkId(0, 2)}));
    EXPECT_EQ(m.xyRoute(2, 1), (std::vector<int>{m.linkId(2, 3), m.linkId(3, 1)}));
    EXPECT_EQ(m.xyRoute(3, 0), (std::vector<int>{m.linkId(3, 2), m.linkId(2, 0)}));
}

TEST(L2sOracle1, TraditionalAllGather) {
    const Evaluator ev = oracle1();
    const BoundaryRow r = ev.evaluateLayer(1, {});
    EXPECT_EQ(r.volume_B, 768);
    EXPECT_EQ(r.traditional_B, 768);
    EXPECT_EQ(r.byte_hops, 1024);
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) {
            EXPECT_EQ(r.traffic[i][j], i == j ? 0 : 64);
            EXPECT_EQ(r.link_load[i][j], ev.mesh().distance(i, j) == 1 ? 128 : 0) << i << "->" << j;
        }
    EXPECT_EQ(r.max_link_B, 128);
    EXPECT_EQ(r.max_link_flits, 2);
    EXPECT_EQ(r.flits, 12);
    EXPECT_EQ(r.packets, 12);
    EXPECT_EQ(r.longest_hops, 2);
    EXPECT_EQ(r.comm_cycles, 1 + 2 * (3 + 1));  // ceil(2 flits / 2 channels) + 2 hops x 4 cycles
    EXPECT_EQ(r.macs, 9216);
    for (const CoreLoad& c : r.cores) {
        EXPECT_EQ(c.macs, 2304);
        EXPECT_EQ(c.compute_cycles, 16 * 9 * 1 * 1);  // 4x4 x 3x3 x ceil(2/16) x ceil(8/16)
        EXPECT_TRUE(c.weights_fit && c.data_fit);
    }
    // 8 one-hop flows of one flit and 4 two-hop flows, E_link 10 pJ, E_router 20 pJ.
    EXPECT_DOUBLE_EQ(r.energy_J, 8 * (10e-12 + 2 * 20e-12) + 4 * (2 * 10e-12 + 3 * 20e-12));
}

TEST(L2sOracle1, PortsOption) {
    // Each core injects and ejects 3 one-flit flows; with ports counted they bound the time.
    MeshParams p = idealMesh(4);
    p.count_ports = true;
    const BoundaryRow r = Evaluator(oracle1Layers(), Mesh(p)).evaluateLayer(1, {});
    EXPECT_EQ(r.max_port_flits, 3);
    EXPECT_EQ(r.comm_cycles, 2 + 2 * (3 + 1));  // ceil(3 / 2) + 2 hops x 4 cycles
    EXPECT_EQ(oracle1().evaluateLayer(1, {}).max_port_flits, 3);  // reported, not counted, by default
}

TEST(L2sOracle1, Grouped) {
    const BoundaryRow r = oracle1().evaluateLayer(1, {Scheme::Grouped, {}});
    EXPECT_EQ(r.volume_B, 0);
    EXPECT_EQ(r.byte_hops, 0);
    EXPECT_EQ(r.max_link_B, 0);
    EXPECT_EQ(r.comm_cycles, 0);
    EXPECT_EQ(r.macs, 2304);
    EXPECT_EQ(r.weights, 144);
    for (const CoreLoad& c : r.cores) EXPECT_EQ(c.macs, 576);
}

TEST(L2sOracle1, SsMaskLike) {
    const Evaluator ev = oracle1();
    const Mask nz = {{1, 1, 0, 0}, {0, 1, 0, 1}, {1, 0, 1, 0}, {0, 0, 1, 1}};
    const BoundaryRow r = sparse(ev, nz);
    EXPECT_EQ(r.volume_B, 256);
    EXPECT_DOUBLE_EQ(r.volume_B / r.traditional_B, 1.0 / 3);
    EXPECT_EQ(r.byte_hops, 256);
    EXPECT_EQ(r.max_link_B, 64);
    const Matrix loads = {{0, 64, 0, 0}, {0, 0, 0, 64}, {64, 0, 0, 0}, {0, 0, 64, 0}};
    EXPECT_EQ(r.link_load, loads);
    EXPECT_EQ(r.macs, 9216);  // no zero-block skipping by default
    CoreParams skip;
    skip.skip_zero_blocks = true;
    EXPECT_EQ(sparse(oracle1(skip), nz).macs, 4608);
}

TEST(L2sOracle1, SsLikeHidesDistance) {
    const Evaluator ev = oracle1();
    const BoundaryRow r = sparse(ev, {{1, 0, 0, 1}, {0, 1, 1, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}});
    EXPECT_EQ(r.volume_B, 128);
    EXPECT_DOUBLE_EQ(r.volume_B / r.traditional_B, 1.0 / 6);
    EXPECT_EQ(r.byte_hops, 256);
    const Matrix loads = {{0, 64, 64, 0}, {64, 0, 0, 64}, {0, 0, 0, 0}, {0, 0, 0, 0}};
    EXPECT_EQ(r.link_load, loads);
    EXPECT_EQ(r.max_link_B, 64);
}

// Oracle L2S-2: 4 cores in a row, FC 8 -> 4, core i produces inputs 2i, 2i+1, core j owns output j.
MeshParams row4() {
    MeshParams p;
    p.cores = 4;
    p.width = 4;
    p.height = 1;
    return p;
}

std::vector<double> oracle2Weights() {
    // Group (i -> j) = {W[j][2i], W[j][2i+1]}; rows are outputs j, columns inputs.
    const double g[4][4][2] = {// [j][i]
                               {{0.6, 0.8}, {0.3, 0.4}, {0, 0}, {0.05, 0.12}},
                               {{0, 0}, {1.2, 0.5}, {0.6, 0.8}, {0.09, 0.12}},
                               {{0.08, 0.06}, {0, 0}, {0.8, 0.6}, {0.3, 0.4}},
                               {{0, 0}, {0.15, 0.2}, {0.4, 0.3}, {0.5, 1.2}}};
    std::vector<double> w;
    for (int j = 0; j < 4; ++j)
        for (int i = 0; i < 4; ++i) w.insert(w.end(), {g[j][i][0], g[j][i][1]});
    return w;
}

TEST(L2sOracle2, NormsAndPenalties) {
    const Mesh mesh(row4());
    const Matrix d = mesh.distanceMatrix();
    EXPECT_EQ(d, (Matrix{{0, 1, 2, 3}, {1, 0, 1, 2}, {2, 1, 0, 1}, {3, 2, 1, 0}}));
    const Matrix gn = groupNorms(oracle2Weights(), {1, 1, 1, 1}, {2, 2, 2, 2}, 1);
    const Matrix expected = {{1.0, 0, 0.1, 0}, {0.5, 1.3, 0, 0.25}, {0, 1.0, 1.0, 0.5}, {0.13, 0.15, 0.5, 1.3}};
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) EXPECT_DOUBLE_EQ(gn[i][j], expected[i][j]) << i << "->" << j;
    const double ss = groupLassoPenalty(gn, strengthMatrix(d, false));
    const double ss_mask = groupLassoPenalty(gn, strengthMatrix(d, true, 0));
    EXPECT_NEAR(ss, 7.73, 1e-12);
    EXPECT_NEAR(ss_mask, 3.89, 1e-12);
    EXPECT_NEAR(0.01 * ss, 0.0773, 1e-14);
    EXPECT_NEAR(0.01 * ss_mask, 0.0389, 1e-14);
    // eps raises every strength, the diagonal included.
    EXPECT_NEAR(groupLassoPenalty(gn, strengthMatrix(d, true, 0.5)), 3.89 + 0.5 * 7.73, 1e-12);
}

TEST(L2sOracle2, ThresholdedTraffic) {
    const Mesh mesh(row4());
    const Mask nz = thresholdMask(groupNorms(oracle2Weights(), {1, 1, 1, 1}, {2, 2, 2, 2}, 1), 0.2);
    EXPECT_EQ(nz, (Mask{{1, 0, 0, 0}, {1, 1, 0, 1}, {0, 1, 1, 1}, {0, 0, 1, 1}}));
    const LayerTable layers = net(R"({"format": "partita-network/1", "name": "L2S-2",
      "input": {"channels": 8, "height": 1, "width": 1},
      "operators": [{"name": "fc0", "type": "fc", "out_features": 8}, {"name": "fc1", "type": "fc", "out_features": 4}]})");
    const Evaluator ev(layers, mesh);
    const BoundaryRow dense = ev.evaluateLayer(1, {});
    EXPECT_EQ(dense.volume_B, 48);
    EXPECT_EQ(dense.byte_hops, 80);
    const BoundaryRow r = ev.evaluateLayer(1, {Scheme::Sparse, nz});
    EXPECT_EQ(r.volume_B, 20);
    EXPECT_EQ(r.byte_hops, 24);
    EXPECT_DOUBLE_EQ(r.volume_B / dense.volume_B, 20.0 / 48);
    EXPECT_DOUBLE_EQ(r.byte_hops / dense.byte_hops, 0.3);
}

TEST(L2sOracle2, SixteenCoreDistanceRow) {
    const Mesh mesh;  // 16 cores, 4x4
    const Matrix d = mesh.distanceMatrix();
    const std::vector<double> row5 = {2, 1, 2, 3, 1, 0, 1, 2, 2, 1, 2, 3, 3, 2, 3, 4};
    EXPECT_EQ(d[5], row5);
    double sum = 0;
    for (double v : d[5]) sum += v;
    EXPECT_EQ(sum, 32);
}

}  // namespace
}  // namespace partita::l2s
