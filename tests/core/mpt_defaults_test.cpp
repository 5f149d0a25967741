// MPT under the default model options (docs/methods/mpt.md#model-options-and-presets): hand-counted layer times with the dedicated transform unit
// and max overlap, the presets, the three averages (M5), and the calibration check that w_dp
// over one worker lands within 10 % of the paper's 71x on the three networks.
#include <gtest/gtest.h>

#include <cmath>

#include "core/mpt/options.h"
#include "core/run/mpt_paper.h"
#include "core/run/mpt_settings.h"

namespace partita::mpt {
namespace {

// 96x96 array, 2 B on the wire, dedicated unit, max overlap, 2 passes: the network study's defaults.
MptParams networkDefaults() {
    ScenarioParams sp;
    applyOptions(ModelOptions{}, false, sp);
    return sp.model;
}

const NetworkParams kNet;
const double kHop = kNet.serdes_s + kNet.router_s + kNet.chunk_B / kNet.full_link_Bps;  // 14.533 ns per ring hop
const double kClusterLatency = 2 * (kNet.serdes_s + kNet.router_s);                     // 2 FBFLY hops, 12 ns

TEST(MptDefaults, Late2At16x16ByHand) {
    // Late-2 (640 -> 640, 8x8) at (16,16), F(2x2,3x3), B = 256:
    //   MACs per phase per worker = (256/16) * 16 tiles * 1 position * 640 * 640 = 104,857,600
    //     on 96 x 96 = 9,216 MAC/cycle at 1 GHz: 11.378 us; the transforms add nothing (M1).
    //   one tile tensor = 153,600 elements * 2 B = 307,200 B at 37.5 GB/s = 8.192 us + 12 ns;
    //     fprop (scatter X, gather Y) = 16.408 us > 11.378 us, so the phase is 16.408 us (M3: max);
    //     bprop the same.
    //   weights = 384,000 elements * 2 B = 768,000 B at 60 GB/s = 12.8 us + 15 hops * 14.533 ns
    //     = 13.018 us per pass, two passes 26.036 us > 11.378 us: updateGrad 26.036 us.
    //   layer = 16.408 + 16.408 + 26.036 = 58.852 us.
    const LayerCost c = mptCost(layerStudy()[4], {16, 16}, {2, 3}, false, networkDefaults());
    const double gemm = 104857600.0 / (96 * 96) / 1e9;
    const double tile = 307200 / 37.5e9 + kClusterLatency;
    const double weights = 2 * (768000 / 60e9 + 15 * kHop);
    EXPECT_DOUBLE_EQ(c.compute_s, 3 * gemm);
    EXPECT_DOUBLE_EQ(c.weight_comm_s, weights);
    EXPECT_DOUBLE_EQ(c.tile_comm_s, 4 * tile);
    EXPECT_DOUBLE_EQ(c.total_s, 2 * (2 * tile) + weights);
    EXPECT_NEAR(c.total_s, 58.852e-6, 1e-12);
}

TEST(MptDefaults, Late2DataParallelByHand) {
    // w_dp on Late-2: F(4x4,3x3), t = (8/4)^2 = 4 tiles, T^2 = 36, one image per worker:
    //   MACs per phase = 4 * 36 * 640 * 640 = 58,982,400 / 9,216 = 6,400 cycles = 6.4 us.
    //   spatial weights 640 * 640 * 9 = 3,686,400 * 255/256 = 3,672,000 * 2 B = 7,344,000 B at
    //     120 GB/s (4 rings) = 61.2 us + 255 hops * 14.533 ns = 64.906 us per pass, 129.812 us for two.
    //   layer = 6.4 + 6.4 + max(6.4, 129.812) = 142.612 us.
    const LayerCost c = dataParallelCost(layerStudy()[4], true, {4, 3}, networkDefaults());
    const double weights = 2 * (7344000 / 120e9 + 255 * kHop);
    EXPECT_DOUBLE_EQ(c.compute_s, 3 * 6.4e-6);
    EXPECT_DOUBLE_EQ(c.total_s, 2 * 6.4e-6 + weights);
    EXPECT_NEAR(c.total_s, 142.612e-6, 1e-12);
    // Under the a9 model the same layer sums its phases and pays for the vector-unit transforms.
    MptParams a9 = networkDefaults();
    a9.worker.transform_unit = TransformUnit::Vector;
    a9.worker.overlap = Overlap::Sum;
    const LayerCost old = dataParallelCost(layerStudy()[4], true, {4, 3}, a9);
    EXPECT_GT(old.compute_s, c.compute_s);
    EXPECT_DOUBLE_EQ(old.total_s, old.compute_s + weights);
}

TEST(MptDefaults, PresetsAndNames) {
    EXPECT_EQ(presetOf(ModelOptions{}), Preset::Default);
    const ModelOptions fit = presetOptions(Preset::Fit);
    EXPECT_EQ(fit.transform_unit, TransformUnit::Vector);
    EXPECT_EQ(fit.vector_flops_per_cycle, 192);
    EXPECT_EQ(fit.passes, 1);
    EXPECT_EQ(fit.overlap, Overlap::Max);
    EXPECT_EQ(fit.objective, Objective::TotalTime);
    EXPECT_EQ(presetOf(fit), Preset::Fit);
    EXPECT_EQ(std::string(presetLabel(Preset::Fit)), "fit (not a reproduction)");
    ModelOptions custom = fit;
    custom.vector_flops_per_cycle = 193;
    EXPECT_EQ(presetOf(custom), Preset::Custom);
    for (Preset p : {Preset::Default, Preset::Fit, Preset::A9}) EXPECT_EQ(parsePreset(presetName(p)), p);
    EXPECT_THROW(parsePreset("custom"), std::invalid_argument);
    EXPECT_THROW(parseOverlap("min"), std::invalid_argument);
    EXPECT_EQ(parseTransformUnit("vector"), TransformUnit::Vector);
    EXPECT_EQ(arrayDimFor(ModelOptions{}, true), 64);
    EXPECT_EQ(arrayDimFor(ModelOptions{}, false), 96);
    EXPECT_EQ(wireBytesFor(ModelOptions{}, true), 4);
    EXPECT_EQ(wireBytesFor(ModelOptions{}, false), 2);
}

TEST(MptDefaults, ThreeAverages) {
    // Baselines 4 and 9 over times 1 and 1: total 13/2, geometric sqrt(36) = 6, arithmetic 6.5.
    const Averages a = averages({{4, 1}, {9, 1}});
    EXPECT_EQ(a.total, 6.5);
    EXPECT_EQ(a.geomean, 6);
    EXPECT_EQ(a.mean, 6.5);
    const Averages b = averages({{4, 2}, {9, 1}});  // ratios 2 and 9: total 13/3
    EXPECT_DOUBLE_EQ(b.total, 13.0 / 3);
    EXPECT_DOUBLE_EQ(b.geomean, std::sqrt(18.0));
    EXPECT_EQ(b.mean, 5.5);
    const Evaluation e = evaluate(layerStudy(), Scenario::WMpPlusStar, ScenarioParams{});
    EXPECT_DOUBLE_EQ(e.vsWdp().total, e.speedupVsWdp());
    EXPECT_DOUBLE_EQ(e.vsOne().total, e.speedupVsOne());
    EXPECT_EQ(e.w_dp_layer_s.size(), e.layers.size());
}

const MptPaperRow& row(const MptPaperStudy& s, const std::string& id) {
    for (const MptPaperRow& r : s.rows)
        if (r.id == id) return r;
    throw std::logic_error(id);
}

// Calibration check (issue 19 acceptance, docs/methods/mpt.md#the-paper-against-the-engine): with the default options, 256-worker w_dp
// over one worker on WRN-40-10, ResNet-34 and FractalNet 4x4 (total-time ratio over the three)
// lies within 10 % of the paper's 71x. A band, not an exact value: it checks the model's
// calibration, and the exact numbers follow from the hand-counted layers above.
TEST(MptDefaults, WdpOverOneWorkerWithinTenPercentOf71) {
    const MptPaperStudy s = mptPaperStudy(ModelOptions{}, PARTITA_EXAMPLES_DIR);
    const MptPaperRow& r = row(s, "net_wdp_vs_one");
    EXPECT_EQ(r.paper, 71);
    EXPECT_NEAR(r.ratio(), 1.0, 0.10) << r.engine.total;
    EXPECT_NEAR(r.engine.mean / 71, 1.0, 0.10);
    EXPECT_NEAR(r.engine.geomean / 71, 1.0, 0.10);
    EXPECT_FALSE(r.reason.empty());
    // w_mp+* over w_dp stays well below the paper's 2.7x (docs/methods/mpt.md#model-options-and-presets: about 1.3-1.7x per network).
    const MptPaperRow& plus = row(s, "net_wmp+*");
    EXPECT_GT(plus.engine.total, 1.3);
    EXPECT_LT(plus.engine.total, 2.0);
    for (const MptNetworkRow& n : s.networks) {
        EXPECT_GT(n.wmp_plus_star_vs_w_dp, 1.3) << n.name;
        EXPECT_LT(n.wmp_plus_star_vs_w_dp, 1.9) << n.name;
    }
}

// The fit preset (docs/methods/mpt.md#model-options-and-presets): about 2.91x on the layer study and 187x over one worker on the networks.
TEST(MptDefaults, FitPresetMatchesSpecD2) {
    const MptPaperStudy s = mptPaperStudy(presetOptions(Preset::Fit), PARTITA_EXAMPLES_DIR);
    EXPECT_EQ(s.preset, Preset::Fit);
    EXPECT_NEAR(row(s, "layers_wmp+*").engine.total, 2.91, 0.01);
    EXPECT_NEAR(row(s, "net_wmp+*_vs_one").engine.mean, 187, 1);
    EXPECT_TRUE(row(s, "net_wmp+*").reason.empty());  // reasons are for the defaults only
    EXPECT_FALSE(row(s, "dgx1").modelled);
}

}  // namespace
}  // namespace partita::mpt
