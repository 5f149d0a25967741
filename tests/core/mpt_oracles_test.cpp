// Oracles MPT-1 (volumes and dynamic clustering) and MPT-2 (activation prediction), docs/methods/mpt.md#tests-that-pin-the-model.
// MPT-2 is the quantiser and the interval model alone: it holds under every time model.
#include <gtest/gtest.h>

#include "core/mpt/prediction.h"
#include "core/mpt/scenario.h"

namespace partita::mpt {
namespace {

// The options that define MPT-1: the paper-formula preset (F(2,3) everywhere, one collective
// pass, comm-volume objective, 4 B). Volumes and a volume objective do not depend on the time
// model, so the oracle holds under the docs/methods/mpt.md#model-options-and-presets defaults (dedicated unit, max) used here and under
// the a9 model alike (MptOracle1.ChoicesHoldUnderEveryTimeModel).
ScenarioParams oracleParams() {
    ScenarioParams sp;
    sp.model.collective_passes = 1;
    sp.objective = Objective::CommVolume;
    sp.transform = TransformRule::PaperFormula;
    return sp;
}

MptLayer layer(const std::string& name) {
    for (const MptLayer& l : layerStudy()) if (l.name == name) return l;
    throw std::logic_error(name);
}

LayerCost at(const LayerResult& r, int n_g) {
    for (const LayerCost& c : r.options) if (c.grid.n_g == n_g) return c;
    throw std::logic_error("no option");
}

TEST(MptOracle1, Late2VolumesAndChoice) {
    const ScenarioParams sp = oracleParams();
    const Evaluation e = evaluate({layer("Late-2")}, Scenario::WMpStar, sp);
    const LayerResult& r = e.layers[0];
    ASSERT_EQ(r.options.size(), 3u);
    EXPECT_EQ(at(r, 16).volume.weight, 384000);
    EXPECT_EQ(at(r, 16).volume.scatter_x, 153600);
    EXPECT_EQ(at(r, 16).volume.tiles(), 614400);
    EXPECT_EQ(at(r, 16).volume.total(), 998400);
    EXPECT_EQ(at(r, 4).volume.weight, 1612800);
    EXPECT_EQ(at(r, 4).volume.tiles(), 491520);
    EXPECT_EQ(at(r, 4).volume.total(), 2104320);
    EXPECT_EQ(at(r, 1).volume.total(), 3672000);  // spatial domain (default)
    EXPECT_EQ(r.cost.grid, (GridConfig{16, 16}));
    EXPECT_EQ(r.cost.commBytes(4), 3993600);
    ScenarioParams win = sp;
    win.model.single_group_weight_domain = WeightDomain::Winograd;
    const Evaluation w = evaluate({layer("Late-2")}, Scenario::WMpStar, win);
    EXPECT_EQ(at(w.layers[0], 1).volume.total(), 6528000);
    EXPECT_EQ(w.layers[0].cost.grid, (GridConfig{16, 16}));
    // A5.2 item 4: w_dp spatial weight traffic over MPT weight traffic.
    const Evaluation dp = evaluate({layer("Late-2")}, Scenario::WDp, sp);
    EXPECT_EQ(dp.layers[0].cost.volume.weight / at(r, 16).volume.weight, 9.5625);
}

TEST(MptOracle1, EarlyChoosesDataParallel) {
    for (WeightDomain d : {WeightDomain::Spatial, WeightDomain::Winograd}) {
        ScenarioParams sp = oracleParams();
        sp.model.single_group_weight_domain = d;
        const LayerResult r = evaluate({layer("Early")}, Scenario::WMpStar, sp).layers[0];
        EXPECT_EQ(at(r, 16).volume.weight, 15360);
        EXPECT_EQ(at(r, 16).volume.total(), 6036480);
        EXPECT_EQ(at(r, 4).volume.weight, 64512);
        EXPECT_EQ(at(r, 4).volume.total(), 4881408);
        EXPECT_EQ(at(r, 1).volume.total(), d == WeightDomain::Spatial ? 146880 : 261120);
        EXPECT_EQ(r.cost.grid, (GridConfig{1, 256}));
    }
}

TEST(MptOracle1, Mid1PredictionFlipsTheChoice) {
    ScenarioParams sp = oracleParams();
    sp.model.single_group_weight_domain = WeightDomain::Winograd;
    const LayerResult plain = evaluate({layer("Mid-1")}, Scenario::WMpStar, sp).layers[0];
    EXPECT_EQ(at(plain, 16).volume.total(), 814080);
    EXPECT_EQ(at(plain, 4).volume.total(), 860160);
    EXPECT_EQ(at(plain, 1).volume.total(), 1044480);
    EXPECT_EQ(plain.cost.grid, (GridConfig{16, 16}));
    const LayerResult pred = evaluate({layer("Mid-1")}, Scenario::WMpPlusStar, sp).layers[0];
    EXPECT_FALSE(at(pred, 16).line_predictable);
    EXPECT_TRUE(at(pred, 4).line_predictable);
    EXPECT_DOUBLE_EQ(at(pred, 16).volume.total(), 538237.44);  // 0.607 / 0.660 are not dyadic: to 4 ulps
    EXPECT_DOUBLE_EQ(at(pred, 4).volume.total(), 430252.032);
    EXPECT_EQ(at(pred, 1).volume.total(), 1044480);
    EXPECT_EQ(pred.cost.grid, (GridConfig{4, 64}));
}

DMatrix eighths(const std::vector<std::vector<int>>& v) {
    DMatrix out;
    for (const auto& row : v) {
        out.emplace_back();
        for (int x : row) out.back().push_back(x / 8.0);
    }
    return out;
}

const DMatrix kAT = {{1, 1, 1, 0}, {0, 1, -1, -1}};
const DMatrix kY = eighths({{1, -9, 1, -3}, {1, -11, -1, -3}, {9, 1, 1, -3}, {1, -1, -3, -1}});

TEST(MptOracle1, ChoicesHoldUnderEveryTimeModel) {
    for (const bool a9 : {false, true}) {
        ScenarioParams sp = oracleParams();
        if (a9) {
            sp.model.worker.transform_unit = TransformUnit::Vector;
            sp.model.worker.overlap = Overlap::Sum;
        }
        const Evaluation e = evaluate(layerStudy(), Scenario::WMpStar, sp);
        EXPECT_EQ(e.layers[4].cost.grid, (GridConfig{16, 16})) << a9;  // Late-2
        EXPECT_EQ(e.layers[4].cost.volume.total(), 998400) << a9;
        EXPECT_EQ(e.layers[0].cost.grid, (GridConfig{1, 256})) << a9;  // Early
        EXPECT_EQ(evaluate(layerStudy(), Scenario::WMpPlusStar, sp).layers[1].cost.grid, (GridConfig{4, 64})) << a9;
    }
}

TEST(MptOracle2, TwoDPredictKeepsTheTile) {
    const TilePrediction p = predict2D(kAT, kY, Quantiser{});
    EXPECT_EQ(p.estimate, eighths({{-16, -8}, {-16, -14}}));
    EXPECT_EQ(p.max_pos_error, eighths({{18, 6}, {6, 10}}));
    EXPECT_FALSE(p.skip);
    ASSERT_EQ(p.uncertain.size(), 1u);
    EXPECT_EQ(p.uncertain[0], std::make_pair(0, 0));
}

TEST(MptOracle2, OneDPredictSkipsTheTile) {
    const TilePrediction p = predict1D(kAT, kY, Quantiser{});
    EXPECT_EQ(p.estimate, eighths({{-10, -14}, {-18, -12}}));
    EXPECT_EQ(p.max_pos_error, eighths({{6, 6}, {2, 2}}));
    EXPECT_TRUE(p.skip);
    EXPECT_TRUE(p.uncertain.empty());
}

}  // namespace
}  // namespace partita::mpt
