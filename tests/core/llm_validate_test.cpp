// validate and calibrate: predictions beside measured times, errors per run, and a least-squares fit
// that recovers known efficiency multipliers from runs the model itself generated.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>

#include "core/llm/calibrate.h"
#include "llm_test_util.h"

namespace partita::llm {
namespace {

partita::llm::Run makeRun(const std::string& name, const char* model, std::int64_t tp, std::int64_t pp, std::int64_t dp,
            std::int64_t batch, Recompute rc) {
    partita::llm::Run r;
    r.name = name;
    r.source = "synthetic";
    r.model = modelPreset(model);
    r.profile = "a100-sxm4-80gb";
    r.plan.tp = tp;
    r.plan.pp = pp;
    r.plan.dp = dp;
    r.plan.global_batch = batch;
    r.plan.sequence_parallel = tp > 1;
    r.plan.recompute = rc;
    r.gpus = tp * pp * dp;
    return r;
}

std::vector<partita::llm::Run> syntheticRuns() {
    return {makeRun("1.3b-d8", "gpt3-1.3b", 1, 1, 8, 64, Recompute::None),
            makeRun("6.7b-t8", "gpt3-6.7b", 8, 1, 1, 16, Recompute::Selective),
            makeRun("13b-t4p2", "gpt3-13b", 4, 2, 1, 32, Recompute::Selective),
            makeRun("13b-t8d2", "gpt3-13b", 8, 1, 2, 32, Recompute::Full),
            makeRun("175b-t8p8", "gpt3-175b", 8, 8, 1, 64, Recompute::Selective),
            makeRun("175b-t8p8d4", "gpt3-175b", 8, 8, 4, 256, Recompute::Selective),
            makeRun("22b-t8d4", "megatron-22b", 8, 1, 4, 64, Recompute::Selective)};
}

TEST(LlmValidate, PredictionsBesideMeasured) {
    auto runs = syntheticRuns();
    const Profile prof = profilePreset("a100-sxm4-80gb");
    for (auto& r : runs) r.measured.iteration_s = evaluate(r.model, r.plan, prof).iteration_s * 1.10;
    runs.push_back(makeRun("bad-tp", "gpt3-175b", 7, 1, 1, 64, Recompute::None));
    runs.push_back(makeRun("no-measure", "gpt3-1.3b", 1, 1, 8, 64, Recompute::None));
    runs.back().measured = {};
    runs.push_back(makeRun("gpu-count", "gpt3-1.3b", 1, 1, 8, 64, Recompute::None));
    runs.back().gpus = 16;
    const ValidationReport rep = validateRuns(runs, nullptr);
    ASSERT_EQ(rep.runs.size(), runs.size());
    for (size_t i = 0; i < 7; ++i) {
        EXPECT_TRUE(rep.runs[i].error.empty()) << rep.runs[i].error;
        EXPECT_NEAR(*rep.runs[i].error_pct, 100 * (1 / 1.1 - 1), 1e-9);
    }
    EXPECT_NE(rep.runs[7].error.find("tp"), std::string::npos);
    EXPECT_TRUE(rep.runs[8].error.empty());
    EXPECT_FALSE(rep.runs[8].error_pct.has_value());
    EXPECT_NE(rep.runs[9].error.find("cluster.gpus"), std::string::npos);
    EXPECT_NEAR(*rep.mape_pct, 100 * (1 - 1 / 1.1), 1e-9);
    EXPECT_NEAR(rep.mape_by_source.at("synthetic"), *rep.mape_pct, 1e-12);
}

TEST(LlmValidate, OverrideProfileReplacesTheRunsOwn) {
    auto runs = syntheticRuns();
    const Profile h100 = profilePreset("h100-sxm5-80gb");
    const ValidationReport a = validateRuns(runs, nullptr);
    const ValidationReport b = validateRuns(runs, &h100);
    EXPECT_LT(b.runs[0].predicted_s, a.runs[0].predicted_s);
    EXPECT_EQ(b.runs[0].predicted_s, evaluate(runs[0].model, runs[0].plan, h100).iteration_s);
}

TEST(LlmValidate, CalibrationRecoversKnownMultipliers) {
    auto runs = syntheticRuns();
    const Profile base = profilePreset("a100-sxm4-80gb");
    const std::vector<double> truth = {0.85, 1.1, 0.9, 0.8};
    const Profile hidden = scaledProfile(base, truth);
    for (auto& r : runs) r.measured.iteration_s = evaluate(r.model, r.plan, hidden).iteration_s;
    const CalibrationResult res = calibrate(runs, base, "synthetic");
    EXPECT_EQ(res.runs_used, 7);
    EXPECT_GT(res.mape_before, 1);
    EXPECT_LT(res.mape_after, 0.5);
    ASSERT_EQ(res.parameters.size(), 5u);
    EXPECT_NEAR(res.parameters[0].factor, truth[0], 0.02);
    for (const auto& p : res.parameters) EXPECT_EQ(p.fitted, p.name != "overhead") << p.name;  // not asked
    EXPECT_EQ(res.profile.device.layer_overhead_s, 0);
    EXPECT_NE(res.profile.provenance.find("calibrated"), std::string::npos);
    // The written profile reads back.
    EXPECT_EQ(readProfileJson(profileToJson(res.profile).dump(), "p.json"), res.profile);
}

// A framework's fixed time per layer and micro-batch (docs/methods/llm.md#framework-overhead): it adds
// L x (m + p - 1) per iteration on equal stages, and a calibration asked for it recovers it.
TEST(LlmValidate, FrameworkOverheadIsChargedPerLayerAndMicroBatchAndCalibrated) {
    auto runs = syntheticRuns();
    const Profile base = profilePreset("a100-sxm4-80gb");
    Profile slow = base;
    slow.device.layer_overhead_s = 0.004;
    for (const auto& r : runs) {
        const Evaluation a = evaluate(r.model, r.plan, base), b = evaluate(r.model, r.plan, slow);
        const std::int64_t p = r.plan.pp, layers = stageLayers(r.model, r.plan, 0);
        if (r.model.layers % p != 0) continue;  // equal stages only
        EXPECT_NEAR(b.time.overhead, 0.004 * static_cast<double>(layers * a.micro_batches), 1e-12) << r.name;
        EXPECT_NEAR(b.iteration_s - a.iteration_s, 0.004 * static_cast<double>(layers * (a.micro_batches + p - 1)),
                    1e-9 * b.iteration_s)
            << r.name;
    }
    for (auto& r : runs) r.measured.iteration_s = evaluate(r.model, r.plan, slow).iteration_s;
    const CalibrationResult res = calibrate(runs, base, "synthetic", ModelKind::Partita, {"overhead"});
    EXPECT_NEAR(res.profile.device.layer_overhead_s, 0.004, 1e-5);
    EXPECT_LT(res.mape_after, 0.1);
    for (const auto& p : res.parameters) EXPECT_EQ(p.fitted, p.name == "overhead") << p.name;
    EXPECT_EQ(readProfileJson(profileToJson(res.profile).dump(), "p.json"), res.profile);
    EXPECT_THROW(calibrate(runs, base, "x", ModelKind::Partita, {"speed"}), std::invalid_argument);
}

TEST(LlmValidate, SingleNodeRunsLeaveTheInterNodeTierAlone) {
    std::vector<partita::llm::Run> runs = {makeRun("a", "gpt3-1.3b", 1, 1, 8, 64, Recompute::None),
                             makeRun("b", "gpt3-6.7b", 8, 1, 1, 16, Recompute::Selective),
                             makeRun("c", "gpt3-13b", 4, 2, 1, 32, Recompute::Selective)};
    const Profile base = profilePreset("a100-sxm4-80gb");
    for (auto& r : runs) r.measured.iteration_s = evaluate(r.model, r.plan, base).iteration_s * 1.2;
    const CalibrationResult res = calibrate(runs, base, "single node");
    EXPECT_FALSE(res.parameters[3].fitted);
    EXPECT_EQ(res.profile.tiers[1].efficiency, base.tiers[1].efficiency);
    EXPECT_LT(res.mape_after, res.mape_before);
    std::vector<partita::llm::Run> none = {makeRun("x", "gpt3-1.3b", 7, 1, 1, 64, Recompute::None)};
    none[0].measured.iteration_s = 1;
    EXPECT_THROW(calibrate(none, base, "bad"), std::invalid_argument);
}

}  // namespace
}  // namespace partita::llm

namespace partita::llm {
namespace {

// The measured runs of examples/llm/measured (issue 28 acceptance): each system's preset predicts
// its published iteration times within 8 % MAPE, and a calibration on a cluster's single-node runs
// predicts the same cluster's multi-node runs within 12 %. Skipped where the files are absent.
std::vector<partita::llm::Run> measured(const std::string& file) {
    const std::string path = std::string(PARTITA_EXAMPLES_DIR) + "/llm/measured/" + file;
    if (!std::ifstream(path)) return {};
    return loadRuns(path);
}

TEST(LlmValidate, MeasuredRunsWithinEightPercentPerSystem) {
    int files = 0;
    for (const char* file : {"korthikanti-2022.json", "narayanan-sc21.json", "nemo-h100.json", "bigscience-bloom.json"}) {
        const auto runs = measured(file);
        if (runs.empty()) continue;
        ++files;
        const ValidationReport rep = validateRuns(runs, nullptr);
        ASSERT_TRUE(rep.mape_pct.has_value()) << file;
        EXPECT_LE(*rep.mape_pct, 8.0) << file;
    }
    if (files == 0) GTEST_SKIP() << "no examples/llm/measured files";
}

TEST(LlmValidate, SingleNodeCalibrationPredictsMultiNode) {
    int clusters = 0;
    for (const auto& [file, profile] : {std::pair{"korthikanti-2022.json", "a100-sxm4-80gb"},
                                        std::pair{"nemo-h100.json", "h100-sxm5-80gb"}}) {
        auto runs = measured(file);
        if (runs.empty()) continue;
        if (std::string(file) == "korthikanti-2022.json") {
            auto more = measured("narayanan-sc21.json");
            runs.insert(runs.end(), more.begin(), more.end());
        }
        std::vector<partita::llm::Run> single, multi;
        for (const auto& r : runs) (r.gpus <= 8 ? single : multi).push_back(r);
        if (single.empty() || multi.empty()) continue;
        ++clusters;
        const CalibrationResult cal = calibrate(single, profilePreset(profile), file);
        const ValidationReport rep = validateRuns(multi, &cal.profile);
        ASSERT_TRUE(rep.mape_pct.has_value()) << file;
        EXPECT_LE(*rep.mape_pct, 12.0) << file;
    }
    if (clusters == 0) GTEST_SKIP() << "no examples/llm/measured files";
}

// Jean Zay ran Megatron-DeepSpeed on the A100s whose efficiencies Selene's runs fitted: its profile is the
// A100 preset plus the framework time per layer, calibrated on its two single-node runs alone
// (examples/llm/profiles/jean-zay-a100-80gb.json is that calibration's output), and it predicts the 30
// multi-node runs within 12 % (docs/methods/llm.md#validation).
TEST(LlmValidate, JeanZayProfileIsTheSingleNodeOverheadCalibration) {
    const auto single = measured("bigscience-bloom-1node.json");
    const auto multi = measured("bigscience-bloom.json");
    if (single.empty() || multi.empty()) GTEST_SKIP() << "no BigScience runs";
    const CalibrationResult cal =
        calibrate(single, profilePreset("a100-sxm4-80gb"), "bigscience-bloom-1node.json", ModelKind::Partita, {"overhead"});
    const Profile shipped = loadProfile(std::string(PARTITA_EXAMPLES_DIR) + "/llm/profiles/jean-zay-a100-80gb.json");
    EXPECT_NEAR(shipped.device.layer_overhead_s, cal.profile.device.layer_overhead_s, 1e-9);
    EXPECT_GT(shipped.device.layer_overhead_s, 0.010);  // tens of milliseconds per layer, not a rounding
    const ValidationReport rep = validateRuns(multi, &cal.profile);
    ASSERT_TRUE(rep.mape_pct.has_value());
    EXPECT_LE(*rep.mape_pct, 12.0);
    // The efficiencies alone cannot tell the two apart from one shape of run, and predict the rest badly.
    const CalibrationResult efficiencies = calibrate(single, profilePreset("a100-sxm4-80gb"), "1node");
    EXPECT_GT(*validateRuns(multi, &efficiencies.profile).mape_pct, *rep.mape_pct);
}

}  // namespace
}  // namespace partita::llm
