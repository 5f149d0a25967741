// The study plots' data (core/study/plots.h): Fig. 11's shape and values,
// Fig. 12's per-network ratios (docs/methods/hypar.md#scalability), per-layer bytes.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "core/accpar/accpar.h"
#include "core/run/run.h"
#include "core/study/plots.h"
#include "core/study/studies.h"
#include "core/util/error.h"
#include "test_util.h"

namespace partita {
namespace {

AccParParams accparFor(const CostParams& p) {
    AccParParams a;
    a.batch = p.batch;
    return a;
}

TEST(StudyPlots, ScaleStudyEqualsScaleSweepAndHasFig11Shape) {
    const LayerTable vgg = test::builtin("vgg-a");
    const CostParams params;
    const Array array = defaultArray(4);
    std::vector<double> fractions;
    const ScaleStudy s = scaleStudy(vgg, array, params, accparFor(params), 6,
                                    [&](double f) { fractions.push_back(f); });
    const auto sweep = scaleSweep(vgg, array, params, 6);
    ASSERT_EQ(s.rows.size(), 7u);
    for (size_t i = 0; i < sweep.size(); ++i) {
        EXPECT_EQ(s.rows[i].accelerators, 1 << i);
        EXPECT_EQ(s.rows[i].dp_gain, sweep[i].dp_gain);
        EXPECT_EQ(s.rows[i].hypar_gain, sweep[i].hypar_gain);
        EXPECT_EQ(s.rows[i].dp_total_gb, sweep[i].dp_total_gb);
        EXPECT_EQ(s.rows[i].hypar_total_gb, sweep[i].hypar_total_gb);
    }
    // docs/methods/hypar.md#scalability [M] table, fat tree, 420 GOPS.
    const double dp[] = {1.00, 1.45, 1.86, 2.18, 2.38, 2.49, 2.55};
    const double hy[] = {1.00, 1.92, 3.60, 6.39, 10.62, 16.21, 24.03};
    for (size_t i = 0; i < 7; ++i) {
        EXPECT_NEAR(s.rows[i].dp_gain, dp[i], 0.005) << i;
        EXPECT_NEAR(s.rows[i].hypar_gain, hy[i], 0.005) << i;
    }
    EXPECT_NEAR(s.rows[6].hypar_total_gb, 4.627, 5e-4);
    // [P]: HyPar above DP with less communication at every N > 1; HyPar keeps rising to 32.
    for (size_t i = 1; i < 7; ++i) {
        EXPECT_GT(s.rows[i].hypar_gain, s.rows[i].dp_gain);
        EXPECT_LT(s.rows[i].hypar_total_gb, s.rows[i].dp_total_gb);
    }
    for (size_t i = 1; i <= 5; ++i) EXPECT_GT(s.rows[i].hypar_gain, s.rows[i - 1].hypar_gain);
    EXPECT_EQ(s.rows[0].accpar_gain, 1.0);
    EXPECT_EQ(s.rows[0].accpar_total_gb, 0.0);
    for (size_t i = 1; i < 7; ++i) EXPECT_GT(s.rows[i].accpar_gain, 1.0) << i;
    ASSERT_FALSE(fractions.empty());
    EXPECT_DOUBLE_EQ(fractions.back(), 1.0);
}

// DP's turning point of the paper ("falls above 8") appears with the equal-bandwidth tree (docs/methods/hypar.md#scalability, factor 1).
TEST(StudyPlots, EqualBandwidthTreeDpFallsAboveEight) {
    const LayerTable vgg = test::builtin("vgg-a");
    const CostParams params;
    Array array = defaultArray(4);
    array.level_bw_factor = 1;
    const ScaleStudy s = scaleStudy(vgg, array, params, accparFor(params), 6);
    const double dp[] = {1, 1.45, 1.58, 1.43, 1.21, 1.01, 0.86};
    const double hy[] = {1, 1.92, 3.47, 5.55, 7.48, 8.54, 8.91};
    for (size_t i = 0; i < 7; ++i) {
        EXPECT_NEAR(s.rows[i].dp_gain, dp[i], 0.005) << i;
        EXPECT_NEAR(s.rows[i].hypar_gain, hy[i], 0.005) << i;
    }
    for (size_t i = 4; i < 7; ++i) EXPECT_LT(s.rows[i].dp_gain, s.rows[i - 1].dp_gain);  // falls past 8
    for (size_t i = 1; i <= 5; ++i) EXPECT_GT(s.rows[i].hypar_gain, s.rows[i - 1].hypar_gain);  // rises to 32
}

TEST(StudyPlots, AccParOneAcceleratorTimeMatchesItsLeaves) {
    // The AccPar gain's baseline: DP under AccPar's model at H = 1 halves the compute.
    const LayerTable vgg = test::builtin("vgg-a");
    AccParParams ap;
    ap.batch = 256;
    Array a = defaultArray(1);
    const PlanTree dp = planHierarchy(vgg, a, ap, Scheme::DataParallel);
    double leaf = 0;
    for (double t : dp.nodes[static_cast<size_t>(dp.root().child_i)].layer_time_s) leaf += t;
    Array one = a;
    one.levels = 0;
    CostParams p;
    p.batch = 256;
    EXPECT_NEAR(2 * leaf, computeTime(vgg, one, p), 1e-12 * leaf);
}

TEST(StudyPlots, ScaleStudyCancels) {
    const LayerTable vgg = test::builtin("vgg-a");
    const CostParams params;
    EXPECT_THROW(scaleStudy(vgg, defaultArray(4), params, accparFor(params), 6, {}, [] { return true; }), Cancelled);
}

TEST(StudyPlots, TopologyStudyMatchesSpecFig12) {
    std::vector<LayerTable> nets;
    for (const char* n : test::kTenNetworks) nets.push_back(test::builtin(n));
    const CostParams params;
    const TopologyStudy s = topologyStudy(nets, defaultArray(4), params);
    ASSERT_EQ(s.rows.size(), 10u);
    // docs/methods/hypar.md#h-tree-against-torus [M]: torus / DP on the H-tree per network, and both geomeans.
    const double torus[] = {16.36, 0.81, 2.34, 1.02, 5.49, 3.99, 3.31, 3.19, 2.64, 2.26};
    for (size_t i = 0; i < 10; ++i) {
        EXPECT_NEAR(s.rows[i].hypar_torus, torus[i], 0.005) << s.rows[i].network;
        EXPECT_GE(s.rows[i].hypar_htree, s.rows[i].hypar_torus) << s.rows[i].network;  // the H-tree wins
        const Comparison c = compareMethods(nets[i], defaultArray(4), params);
        EXPECT_DOUBLE_EQ(s.rows[i].hypar_htree, c.perfVsDp(Method::HyPar));
        EXPECT_DOUBLE_EQ(s.rows[i].hypar_torus, c.torusPerfVsDp());
    }
    EXPECT_GT(s.rows[0].hypar_torus, 10);  // SFC above 10x on both
    EXPECT_GT(s.rows[0].hypar_htree, 10);
    EXPECT_NEAR(s.geomean.hypar_torus, 2.907, 5e-4);
    EXPECT_NEAR(s.geomean.hypar_htree, 3.452, 5e-4);
}

TEST(StudyPlots, LayerCommSumsToTotalBytes) {
    const partita::Run run = planRun(makeInputs(loadNetwork(test::example("networks/vgg-a.json")), defaultArray(4), {}),
                            Method::HyPar);
    const LayerComm c = layerComm(run);
    ASSERT_EQ(c.levels, 4);
    ASSERT_EQ(c.layers.size(), run.inputs->layers.size());
    EXPECT_EQ(c.layers.front(), run.inputs->layers.layers.front().name);
    double sum = 0;
    for (size_t l = 0; l < c.layers.size(); ++l) sum += c.layerTotal(static_cast<int>(l));
    EXPECT_NEAR(sum, run.shown().total_bytes, 1e-9 * run.shown().total_bytes);
    EXPECT_THROW(layerComm(run.shown(), {"one"}), std::invalid_argument);
}

}  // namespace
}  // namespace partita
