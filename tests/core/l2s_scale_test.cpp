// Learn-to-Scale at its size limits (issue 13): meshes up to kMaxCores with O(cores) routing
// tables, no int overflow in mesh shapes, link loads that equal walking every XY route, and
// layer sizes that overflowed upstream refused instead of printing negative MACs.
#include <gtest/gtest.h>

#include <climits>
#include <random>

#include "core/l2s/evaluate.h"
#include "core/l2s/masks.h"
#include "core/l2s/presets.h"
#include "core/util/error.h"
#include "test_util.h"

namespace partita::l2s {
namespace {

using test::anyErrorOf;

TEST(L2sScale, MeshSizesAreCheckedWithoutOverflow) {
    EXPECT_EQ(kMaxCores, 512);
    MeshParams p;
    p.cores = 513;
    EXPECT_EQ(anyErrorOf([&] { Mesh m(p); }),
              "mesh: 513 cores is more than the 512 supported (every layer boundary keeps cores x cores traffic and "
              "link-load matrices)");
    // 65,536 x 65,537 would wrap around in int; the sides alone are refused.
    EXPECT_EQ(anyErrorOf([] { parseMeshShape("65536x65537"); }),
              "mesh shape '65536x65537': a side above 512 cores, more than the largest supported mesh holds");
    p.cores = 512;
    p.width = 65536;
    p.height = 65537;
    EXPECT_EQ(anyErrorOf([&] { Mesh m(p); }), "mesh: 65536x65537 does not hold 512 cores");
    EXPECT_EQ(anyErrorOf([] { defaultMeshShape(INT_MAX); }),
              "mesh: 2147483647 cores is more than the 512 supported (every layer boundary keeps cores x cores "
              "traffic and link-load matrices)");
    p = MeshParams{};
    p.cores = 512;
    const Mesh big(p);
    EXPECT_EQ(big.width(), 32);
    EXPECT_EQ(big.height(), 16);
    EXPECT_EQ(big.topology().links.size(), 2u * (31 * 16 + 15 * 32));
    EXPECT_EQ(big.xyRoute(0, 511).size(), 31u + 15u);
    EXPECT_EQ(big.linkId(31, 32), -1);  // the end of one row is not next to the start of the next
    EXPECT_EQ(big.linkId(32, 31), -1);
    EXPECT_EQ(big.linkId(0, 2), -1);
    EXPECT_EQ(big.topology().links[static_cast<size_t>(big.linkId(40, 8))].name, "c40->c8");
}

// Every pair's bytes and flits added along its XY route, link by link.
std::vector<double> walkedLoads(const Mesh& mesh, const BoundaryRow& row) {
    std::vector<double> load(mesh.topology().links.size(), 0.0);
    for (int i = 0; i < mesh.cores(); ++i)
        for (int j = 0; j < mesh.cores(); ++j)
            for (int link : mesh.xyRoute(i, j))
                load[static_cast<size_t>(link)] += row.traffic[static_cast<size_t>(i)][static_cast<size_t>(j)];
    return load;
}

TEST(L2sScale, LinkLoadsEqualWalkingEveryRoute) {
    for (auto [w, h] : {std::pair{8, 4}, std::pair{1, 6}, std::pair{7, 1}, std::pair{5, 5}}) {
        MeshParams p;
        p.cores = w * h;
        p.width = w;
        p.height = h;
        const Evaluator ev(presetLayers(preset("caffenet"), PARTITA_EXAMPLES_DIR), Mesh(p));
        std::mt19937 rng(7);
        LayerChoice sparse{Scheme::Sparse, Mask(static_cast<size_t>(p.cores), std::vector<int>(static_cast<size_t>(p.cores)))};
        for (auto& r : sparse.nz)
            for (int& v : r) v = static_cast<int>(rng() % 3 == 0);
        for (const LayerChoice& choice : {LayerChoice{}, sparse}) {
            const BoundaryRow row = ev.evaluateLayer(2, choice);
            const auto expected = walkedLoads(ev.mesh(), row);
            double busiest = 0;
            for (size_t k = 0; k < expected.size(); ++k) {
                const sim::Link& link = ev.mesh().topology().links[k];
                EXPECT_EQ(row.link_load[static_cast<size_t>(link.from)][static_cast<size_t>(link.to)], expected[k])
                    << w << "x" << h << " " << link.name;
                busiest = std::max(busiest, expected[k]);
            }
            EXPECT_EQ(row.max_link_B, busiest) << w << "x" << h;
            EXPECT_GT(busiest, 0) << w << "x" << h;
        }
    }
}

LayerTable twoFc(double c_in, double c_out) {
    LayerTable t;
    t.network = "wide";
    for (int l = 0; l < 2; ++l) {
        WeightedLayer w;
        w.name = "fc" + std::to_string(l + 1);
        w.is_fc = true;
        w.c_in = l == 0 ? 16 : c_in;
        w.c_out = l == 0 ? 16 : c_out;
        w.dp_pred = l - 1;
        if (l > 0) w.preds = {0};
        t.layers.push_back(w);
    }
    return t;
}

TEST(L2sScale, OverflowedLayerSizesAreRefused) {
    // 64 channels of 2^63 - 1 values flatten to -64 in 64-bit arithmetic: the MACs came out as -448.
    EXPECT_EQ(anyErrorOf([] { Evaluator ev(twoFc(-64, 7), Mesh()); }),
              "network wide: layer fc2 has C_in = -64; sizes must be positive (the network's sizes overflow)");
    EXPECT_EQ(anyErrorOf([] { Evaluator ev(twoFc(16, 4294967300.0), Mesh()); }),
              "network wide: layer fc2 has 4,294,967,300 output channels, more than the 2,147,483,647 "
              "Learn-to-Scale partitions");
    const Evaluator ok(twoFc(16, 2147483647.0), Mesh());
    EXPECT_EQ(ok.evaluate(traditionalStrategy(ok.layers())).macs, 16.0 * 16 + 16.0 * 2147483647);
}

}  // namespace
}  // namespace partita::l2s
