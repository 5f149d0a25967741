// partita-llm-hw/1 and partita-llm-runs/1: presets, round trips, defaults for absent and null keys,
// the Calculon importer, cluster overrides and tiers derived from a topology.
#include <gtest/gtest.h>

#include "core/llm/calculon_model.h"
#include "core/llm/runs.h"
#include "core/topology/topology.h"
#include "llm_test_util.h"

namespace partita::llm {
namespace {

using test::kGiB;

TEST(LlmFormats, ProfilePresetsAndRoundTrip) {
    EXPECT_EQ(profilePresetNames(), (std::vector<std::string>{"a100-sxm4-40gb", "a100-sxm4-80gb", "h100-sxm5-80gb"}));
    for (const auto& name : profilePresetNames()) {
        const Profile p = profilePreset(name);
        EXPECT_FALSE(p.provenance.empty());
        EXPECT_EQ(p.tiers.size(), 2u);
        EXPECT_EQ(p.tiers[0].size, 8);
        const Profile back = readProfileJson(profileToJson(p).dump(), name);
        EXPECT_EQ(profileToJson(back), profileToJson(p)) << name;
        EXPECT_EQ(back, p) << name;
    }
    const Profile a = profilePreset("a100-sxm4-80gb"), h = profilePreset("h100-sxm5-80gb");
    EXPECT_EQ(a.device.hbm_bytes, 80 * kGiB);
    EXPECT_EQ(profilePreset("a100-sxm4-40gb").device.hbm_bytes, 40 * kGiB);
    EXPECT_EQ(a.device.unit(true, Dtype::Bf16).peak_flops, 312e12);
    EXPECT_EQ(h.device.unit(true, Dtype::Bf16).peak_flops, 989e12);
    EXPECT_EQ(a.tiers[0].bandwidth_Bps, 300e9);
    EXPECT_EQ(h.tiers[0].bandwidth_Bps, 450e9);
    EXPECT_EQ(a.tiers[1].bandwidth_Bps, 25e9);  // 8 x 200 Gb/s HDR per node
    EXPECT_EQ(h.tiers[1].bandwidth_Bps, 50e9);  // 8 x 400 Gb/s NDR per node
    EXPECT_THROW(profilePreset("v100"), std::invalid_argument);
}

TEST(LlmFormats, AProfileWithSixteenBitUnitsOnlyEvaluates) {
    Profile p = profilePreset("a100-sxm4-80gb");
    for (auto* units : {&p.device.matrix, &p.device.vector})
        std::erase_if(*units, [](const Unit& u) { return u.dtype != Dtype::Bf16; });
    Plan plan;
    plan.tp = 8;
    plan.global_batch = 16;
    EXPECT_GT(evaluate(modelPreset("gpt3-13b"), plan, p).time.optimizer, 0);
}

TEST(LlmFormats, CalculonSystemImportIsExact) {
    const Profile p = test::calculonA100();
    EXPECT_EQ(p.device.compose, Compose::Sum);
    const Unit& mat = p.device.unit(true, Dtype::Fp16);
    EXPECT_EQ(mat.peak_flops, 312e12);
    // Step lookup: the first threshold the operation reaches (77.3 GFLOP -> 0.90, 12.9 -> 0.60).
    EXPECT_EQ(mat.efficiency.at(309.2e9, 1e9), 0.95);
    EXPECT_EQ(mat.efficiency.at(77.3e9, 1e9), 0.90);
    EXPECT_EQ(mat.efficiency.at(12.9e9, 1e9), 0.60);
    EXPECT_EQ(mat.efficiency.at(0, 1e9), 0.10);
    EXPECT_EQ(p.device.hbm_efficiency.at(50e6, 1e6), 0.75);
    ASSERT_EQ(p.tiers.size(), 2u);
    const Tier& nv = p.tiers[0];
    EXPECT_EQ(nv.size, 8);
    EXPECT_TRUE(nv.must_fill);
    EXPECT_EQ(nv.compute_steal, 0.15);
    // T = latency + S·scalar·(1 + offset/n) / (bandwidth·efficiency), one latency per operation.
    const double S = 48 * 1048576.0;
    EXPECT_DOUBLE_EQ(nv.time(Op::AllGather, S, 8, false), 1e-5 + S * 1.5 * (1 - 1.0 / 8) / (300e9 * 0.65));
    EXPECT_DOUBLE_EQ(p.tiers[1].time(Op::AllReduce, S, 4, false), 2e-5 + S / (25e9 * 0.9));
    // The ring's per-step latency in Partita's model.
    EXPECT_DOUBLE_EQ(nv.time(Op::AllReduce, S, 8, true), 14e-5 + S * 2 * (1 - 1.0 / 8) / (300e9 * 0.65));
    // Recognised by its keys wherever a profile is read.
    EXPECT_EQ(readProfileJson(test::kCalculonA100, "x.json"), importCalculonSystem(Json::parse(test::kCalculonA100), "x.json"));
}

TEST(LlmFormats, LoglinearCurveInterpolatesInLogSize) {
    Curve c{"op_gflop", Interp::LogLinear, {{100, 0.9}, {1, 0.5}}};
    EXPECT_EQ(c.at(1000e9, 1e9), 0.9);
    EXPECT_EQ(c.at(0.01e9, 1e9), 0.5);
    EXPECT_NEAR(c.at(10e9, 1e9), 0.7, 1e-12);
}

TEST(LlmFormats, ClusterOverrides) {
    ClusterOverrides o;
    o.gpus_per_node = 4;
    o.inter_node_Gbps_per_node = 800;  // vTrain's fabric: 800 Gb/s per node
    o.intra_node_GBps = 150;
    const Profile p = applyOverrides(profilePreset("a100-sxm4-80gb"), o);
    EXPECT_EQ(p.tiers[0].size, 4);
    EXPECT_EQ(p.tiers[0].bandwidth_Bps, 150e9);
    EXPECT_EQ(p.tiers[1].bandwidth_Bps, 25e9);  // 800 Gb/s / 8 / 4 GPUs
    EXPECT_EQ(p.notes.size(), 3u);
    ClusterOverrides both;
    both.inter_node_Gbps_per_node = 800;
    both.inter_node_Gbps_per_gpu = 200;
    try {
        applyOverrides(profilePreset("a100-sxm4-80gb"), both);
        ADD_FAILURE();
    } catch (const FieldError& e) {
        EXPECT_EQ(e.field(), "cluster.inter_node_Gbps_per_gpu");
    }
}

TEST(LlmFormats, TiersFromATopology) {
    const Profile p = profileFromTopology(profilePreset("a100-sxm4-80gb"), sim::builtinTopology("p100-16"));
    ASSERT_EQ(p.tiers.size(), 2u);
    EXPECT_EQ(p.tiers[0].size, 4);                   // 4 P100s joined by NVLink
    EXPECT_EQ(p.tiers[0].bandwidth_Bps, 3 * 20e9);   // three 20 GB/s links per GPU
    EXPECT_EQ(p.tiers[1].size, 16);
    EXPECT_EQ(p.tiers[1].bandwidth_Bps, 12.5e9 / 4);  // the node's IB link shared by its 4 GPUs
    // Mixed GPU kinds: plan on the slowest and say so.
    sim::Topology mixed = sim::builtinTopology("p100-16");
    mixed.devices[5].kind = "k80";
    mixed.devices[5].peak_flops /= 2;
    const Profile q = profileFromTopology(profilePreset("a100-sxm4-80gb"), mixed);
    EXPECT_EQ(q.device.unit(true, Dtype::Bf16).peak_flops, 156e12);
    bool noted = false;
    for (const auto& n : q.notes) noted = noted || n.find("slowest, 'k80'") != std::string::npos;
    EXPECT_TRUE(noted);
}

TEST(LlmFormats, RunsDefaultsForAbsentAndNullKeys) {
    const char* text = R"({"format": "partita-llm-runs/1", "runs": [
      {"name": "a", "model": {"layers": 24, "hidden": 2048, "heads": 16, "kv_heads": null, "ffn": null,
                              "seq": 2048, "vocab": 51200, "mlp": null, "norm": null},
       "cluster": {"profile": "a100-sxm4-80gb", "gpus": 8, "gpus_per_node": null, "intra_node_GBps": null,
                   "inter_node_Gbps_per_node": null},
       "plan": {"tp": 2, "pp": 2, "dp": 2, "cp": null, "micro_batch": 1, "global_batch": 8, "interleave": null,
                "schedule": null, "recompute": null, "zero": null, "distributed_optimizer": null,
                "sequence_parallel": null},
       "precision": null,
       "measured": {"iteration_s": null, "tokens_per_s_per_gpu": 10000, "tflops_per_gpu": null, "memory_gib": null}},
      {"name": "b", "model": {"preset": "llama2-70b"}, "cluster": {"profile": "h100-sxm5-80gb", "gpus": 64},
       "plan": {"tp": 8, "pp": 4, "dp": 2, "global_batch": 128, "interleave": 5},
       "measured": {"tflops_per_gpu": 400, "tflops_counts": "model"}}]})";
    const auto runs = readRuns(text, "r.json");
    ASSERT_EQ(runs.size(), 2u);
    const partita::llm::Run& a = runs[0];
    EXPECT_EQ(a.model.kv_heads, 16);
    EXPECT_EQ(a.model.ffn, 4 * 2048);
    EXPECT_EQ(a.model.mlp, MlpKind::Gelu);
    EXPECT_EQ(a.model.norm, NormKind::LayerNorm);
    EXPECT_EQ(a.model.position, Position::Learned);
    EXPECT_TRUE(a.model.tied_embeddings);
    EXPECT_EQ(a.plan.interleave, 1);
    EXPECT_EQ(a.plan.schedule, Schedule::OneF1B);
    EXPECT_EQ(a.plan.recompute, Recompute::None);
    EXPECT_EQ(a.plan.zero, 0);
    EXPECT_FALSE(a.cluster.gpus_per_node.has_value());
    EXPECT_EQ(a.source, "r.json");
    // 8 sequences x 2048 tokens / (10,000 tokens/s per GPU x 8 GPUs).
    EXPECT_DOUBLE_EQ(*measuredIterationSeconds(a), 8 * 2048 / 80000.0);
    const partita::llm::Run& b = runs[1];
    EXPECT_EQ(b.model.name, "llama2-70b");
    EXPECT_EQ(b.model.kv_heads, 8);
    EXPECT_EQ(b.plan.schedule, Schedule::Interleaved);  // interleave > 1 selects it
    EXPECT_DOUBLE_EQ(*measuredIterationSeconds(b),
                     iterationModelFlops(b.model, 128) / (400e12 * 64));
    // Round trip.
    const auto back = readRuns(runsToJson(runs).dump(), "back.json");
    ASSERT_EQ(back.size(), 2u);
    EXPECT_EQ(back[0].model, a.model);
    EXPECT_EQ(back[1].model, b.model);
    EXPECT_EQ(back[0].plan, a.plan);
    EXPECT_EQ(back[1].plan, b.plan);
    EXPECT_EQ(*measuredIterationSeconds(back[1]), *measuredIterationSeconds(b));
}

TEST(LlmFormats, ModelPresetsHavePublishedSizes) {
    auto billions = [](const char* name) { return static_cast<double>(modelParameters(modelPreset(name)).total()) / 1e9; };
    EXPECT_NEAR(billions("gpt3-175b"), 175, 1.5);
    EXPECT_NEAR(billions("gpt3-1.3b"), 1.3, 0.1);
    EXPECT_NEAR(billions("gpt3-13b"), 13, 0.3);
    EXPECT_NEAR(billions("megatron-1t"), 1008, 3);
    EXPECT_NEAR(billions("turing-530b"), 530, 2);
    EXPECT_NEAR(billions("llama2-7b"), 6.74, 0.01);
    EXPECT_NEAR(billions("llama2-70b"), 68.98, 0.01);
    EXPECT_NEAR(billions("llama3-8b"), 8.03, 0.01);
    EXPECT_NEAR(billions("llama3-405b"), 405.85, 0.1);
    for (const auto& m : modelPresets()) {
        EXPECT_NO_THROW(validate(m)) << m.name;
        EXPECT_FALSE(m.provenance.empty()) << m.name;
    }
}

}  // namespace
}  // namespace partita::llm
