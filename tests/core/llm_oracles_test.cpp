// docs/methods/llm.md#what-is-modelled's worked example W1-W21 (GPT-3 175B, 64 A100-80GB, t8 p8 d1, b1, B64, SP +
// selective) and Korthikanti et al. Fig. 1's memory values (docs/methods/llm.md#validation). "Exact" rows compare integers.
#include <gtest/gtest.h>

#include <cmath>

#include "core/llm/calculon_model.h"
#include "core/llm/layer_costs.h"
#include "llm_test_util.h"

namespace partita::llm {
namespace {

using test::example175b;
using test::kGiB;
using test::kMiB;

const Transformer& gpt175() { return modelPreset("gpt3-175b"); }

double perGpuMatrix(const std::vector<Kernel>& kernels, bool attention_only, bool backward) {
    double sum = 0;
    for (const auto& k : kernels) {
        if (k.engine != Engine::Matrix || (attention_only && !k.attention_core)) continue;
        sum += backward ? k.agrad.flops + k.wgrad.flops : k.fwd.flops;
    }
    return sum;
}

TEST(LlmOracles, W1LayerForwardFlopsExact) {
    const auto& m = gpt175();
    EXPECT_EQ(m.layers, 96);
    EXPECT_EQ(m.seq * 1 * m.hidden, 25'165'824);  // sbh
    EXPECT_EQ(attentionCoreFlops(m, 1), 206'158'430'208.0);
    EXPECT_EQ(layerForwardMatrixFlops(m, 1) - attentionCoreFlops(m, 1), 7'421'703'487'488.0);  // 24bsh²
    EXPECT_EQ(layerForwardMatrixFlops(m, 1), 7'627'861'917'696.0);
}

TEST(LlmOracles, W2PerGpuLayerForwardExact) {
    const auto kernels = layerKernels(gpt175(), 1, 8, true, KernelStyle{});
    EXPECT_EQ(perGpuMatrix(kernels, false, false), 953'482'739'712.0);
    // Calculon counts the vector ops too.
    EXPECT_EQ(calculonLayerForwardFlops(gpt175(), example175b()), 953'998'639'104.0);
    // Megatron's fused QKV GEMM (232 GFLOP) or Calculon's three (77 GFLOP each): same FLOPs.
    KernelStyle unfused;
    unfused.fused_qkv = false;
    const auto three = layerKernels(gpt175(), 1, 8, true, unfused);
    EXPECT_EQ(perGpuMatrix(three, false, false), 953'482'739'712.0);
    double q = 0, qkv = 0;
    for (const auto& k : three)
        if (k.name == "q") q = k.fwd.flops;
    for (const auto& k : kernels)
        if (k.name == "qkv") qkv = k.fwd.flops;
    EXPECT_NEAR(q / 1e9, 77.3, 0.05);
    EXPECT_NEAR(qkv / 1e9, 231.9, 0.05);
}

TEST(LlmOracles, W3W4MicroBatchFlops) {
    const auto kernels = layerKernels(gpt175(), 1, 8, true, KernelStyle{});
    const double fwd = 12 * perGpuMatrix(kernels, false, false);
    const double bwd = 12 * perGpuMatrix(kernels, false, true);
    const double rec = 12 * perGpuMatrix(kernels, true, false);
    EXPECT_EQ(fwd, 12 * 953'482'739'712.0);
    EXPECT_EQ(bwd, 2 * fwd);
    EXPECT_EQ(rec, 12 * 206'158'430'208.0 / 8);
    EXPECT_NEAR(fwd / 1e12, 11.4418, 5e-5);
    EXPECT_NEAR(bwd / 1e12, 22.8836, 5e-5);
    EXPECT_NEAR(rec / 1e12, 0.3092, 5e-5);
    EXPECT_NEAR((fwd + bwd) / 1e12, 34.3254, 5e-5);
    EXPECT_NEAR((fwd + bwd + rec) / 1e12, 34.6346, 5e-5);
    EXPECT_NEAR((2 * fwd + bwd) / 1e12, 45.7672, 5e-5);
    // The cached layer cost counts the same recompute FLOPs.
    const Profile prof = profilePreset("a100-sxm4-80gb");
    const Plan plan = example175b();
    const CostContext ctx = costContext(gpt175(), prof, plan);
    EXPECT_EQ(layerCost(ctx, layerKey(plan, placement(plan, prof))).recompute_flops, 206'158'430'208.0 / 8);
}

TEST(LlmOracles, W5LogitsOnLastStage) {
    const auto head = headKernels(gpt175(), 1, 8, true, KernelStyle{});
    double lm = 0;
    for (const auto& k : head)
        if (k.name == "lm_head") lm = k.fwd.flops + k.agrad.flops + k.wgrad.flops;
    EXPECT_EQ(lm, 3 * logitFlops(gpt175(), 1) / 8);
    EXPECT_EQ(lm, 966'367'641'600.0);
    EXPECT_NEAR(lm / 1e12, 0.9664, 5e-5);
}

TEST(LlmOracles, W6W7IterationFlops) {
    const auto& m = gpt175();
    const double per_mb = 3 * 12 * 953'482'739'712.0;  // W4 without recompute
    EXPECT_NEAR(64 * per_mb / 1e12, 2196.82, 0.01);
    EXPECT_NEAR(64 * (3 * 12 * 953'482'739'712.0) / 312e12, 7.041, 0.0005);
    const double B = 64, s = 2048, L = 96, h = 12288, V = 51200;
    const double formula = 72 * B * s * L * h * h * (1 + s / (6 * h) + V / (12 * L * h));
    EXPECT_NEAR(iterationModelFlops(m, 64) / formula, 1, 1e-15);
    // With full recompute [N21]: 96·B·s·L·h²(1 + s/6h + V/16Lh).
    const double hardware = iterationModelFlops(m, 64) + 64 * L * layerForwardMatrixFlops(m, 1);
    EXPECT_NEAR(hardware / (96 * B * s * L * h * h * (1 + s / (6 * h) + V / (16 * L * h))), 1, 1e-15);
}

TEST(LlmOracles, W8W9W10ParametersAndStateExact) {
    const auto& m = gpt175();
    const std::int64_t h = m.hidden;
    EXPECT_EQ(12 * m.layers * h * h / (8 * 8), 2'717'908'992);
    const LayerParameters lp = layerParameters(m);
    EXPECT_EQ(lp.total(), 12 * h * h + 13 * h);
    EXPECT_EQ(12 * lp.total() / 8, 2'718'148'608);
    const Plan plan = example175b();
    const BytesPerParam bpp = bytesPerParam(Precision{}, 0, false, 1);
    EXPECT_EQ(bpp.weights, 2);
    EXPECT_EQ(bpp.grads, 4);
    EXPECT_EQ(bpp.optimizer, 12);
    EXPECT_EQ(2'717'908'992.0 * bpp.total() / kGiB, 45.5625);
    EXPECT_EQ(2'717'908'992.0 * 16 / kGiB, 40.5);
    // First stage: blocks + V·h/t + s·h.
    EXPECT_EQ(stageParams(m, plan, 0), 2'718'148'608.0 + 78'643'200.0 + 25'165'824.0);
    EXPECT_NEAR(78'643'200.0 * 18 / kGiB, 1.318, 0.0005);
    EXPECT_NEAR(25'165'824.0 * 18 / kGiB, 0.422, 0.0005);
    // A middle stage holds the blocks only; the last a tied copy of the embedding and the final LN.
    EXPECT_EQ(stageParams(m, plan, 3), 2'718'148'608.0);
    EXPECT_EQ(stageParams(m, plan, 7), 2'718'148'608.0 + 78'643'200.0 + 2 * 12288.0);
}

TEST(LlmOracles, W11W12W13ActivationsExact) {
    const auto& m = gpt175();
    ActivationOptions o;
    o.tp = 8;
    o.sequence_parallel = true;
    o.recompute = Recompute::Selective;
    const double a = layerActivationBytes(m, 1, o);
    EXPECT_EQ(a, 106'954'752.0);
    EXPECT_EQ(a / kMiB, 102);
    EXPECT_EQ(inFlight(Schedule::OneF1B, 8, 1, 64, 0), 8);
    EXPECT_EQ(12 * 8 * a, 10'267'656'192.0);
    EXPECT_EQ(12 * 8 * a / kGiB, 9.5625);
    EXPECT_EQ(inFlight(Schedule::Interleaved, 8, 3, 64, 0), 31.0 / 3);
    EXPECT_EQ(12 * a * inFlight(Schedule::Interleaved, 8, 3, 64, 0) / kGiB, 12.3515625);
    // The evaluation's first stage holds exactly these.
    const Profile prof = profilePreset("a100-sxm4-80gb");
    EXPECT_EQ(evaluate(m, example175b(1), prof).stages[0].activations, 10'267'656'192.0);
    EXPECT_EQ(evaluate(m, example175b(3), prof).stages[0].activations / kGiB, 12.3515625);
}

TEST(LlmOracles, W14EmbeddingExtrasExact) {
    const Evaluation e = evaluate(gpt175(), example175b(), profilePreset("a100-sxm4-80gb"));
    EXPECT_EQ(e.stages[0].extras, 25'182'208.0);
    EXPECT_NEAR(e.stages[0].extras / kGiB, 0.023, 0.0005);
}

TEST(LlmOracles, W15ActivationAlternatives) {
    const auto& m = gpt175();
    auto mib = [&](std::int64_t tp, bool sp, Recompute r) {
        ActivationOptions o;
        o.tp = tp;
        o.sequence_parallel = sp;
        o.recompute = r;
        return layerActivationBytes(m, 1, o) / kMiB;
    };
    EXPECT_EQ(mib(1, false, Recompute::None), 2736);
    EXPECT_EQ(mib(8, false, Recompute::None), 552);
    EXPECT_EQ(mib(8, true, Recompute::None), 342);
    EXPECT_EQ(mib(8, false, Recompute::Selective), 312);
    EXPECT_EQ(mib(8, false, Recompute::Full), 48);
    EXPECT_EQ(mib(8, true, Recompute::Full), 6);
}

TEST(LlmOracles, W16FirstStageFits) {
    const Evaluation e = evaluate(gpt175(), example175b(), profilePreset("a100-sxm4-80gb"));
    const StageMemory& s = e.stages[0];
    const double without_working = s.weights + s.grads + s.optimizer + s.activations + s.extras;
    EXPECT_NEAR(without_working / kGiB, 56.89, 0.005);
    EXPECT_LT(s.total(), 80 * kGiB);
    EXPECT_TRUE(e.fits);
}

TEST(LlmOracles, W17W18Bubbles) {
    EXPECT_EQ(bubbleOverIdeal(Schedule::OneF1B, 8, 1, 64), 7.0 / 64);
    EXPECT_EQ(bubbleShare(Schedule::OneF1B, 8, 1, 64), 7.0 / 71);
    EXPECT_NEAR(100 * bubbleOverIdeal(Schedule::OneF1B, 8, 1, 64), 10.94, 0.005);
    EXPECT_NEAR(100 * bubbleShare(Schedule::OneF1B, 8, 1, 64), 9.86, 0.005);
    EXPECT_EQ(bubbleOverIdeal(Schedule::Interleaved, 8, 3, 64), 7.0 / 192);
    EXPECT_EQ(bubbleShare(Schedule::Interleaved, 8, 3, 64), 7.0 / 199);
    EXPECT_NEAR(100 * bubbleShare(Schedule::Interleaved, 8, 3, 64), 3.52, 0.005);
    // Calculon's stages are equal (no embeddings): its bubble is exactly that share of the pipeline.
    for (std::int64_t v : {1, 3}) {
        const Evaluation e = evaluate(gpt175(), test::calculon175b(v), test::calculonA100(), ModelKind::Calculon);
        const double pipeline = e.iteration_s - e.time.optimizer - e.time.dp_exposed;
        EXPECT_NEAR(e.time.bubble / pipeline, bubbleShare(Schedule::Interleaved, 8, v, 64), 1e-12);
    }
}

TEST(LlmOracles, W19W20W21CommunicationVolumes) {
    const auto& m = gpt175();
    Plan plan = example175b();
    const TpVolume tp = tpLayerBytes(m, plan);
    EXPECT_EQ(ringBytes(Op::AllGather, 48 * kMiB, 8), 42 * kMiB);
    EXPECT_EQ(tp.fwd, 168 * kMiB);
    EXPECT_EQ(tp.bwd, 252 * kMiB);
    EXPECT_EQ(ppMessageBytes(m, plan), 6 * kMiB);
    EXPECT_EQ(ppIterationBytes(m, plan), 768 * kMiB);
    EXPECT_EQ(ppIterationBytes(m, example175b(3)), 2.25 * kGiB);
    EXPECT_EQ(dpIterationBytes(m, plan, Precision{}, 3).reduce, 0);
    // d = 2: the blocks' fp32 gradients all-reduced, or reduce-scattered plus 16-bit parameters gathered.
    const double G = 2'717'908'992.0 * 4;
    EXPECT_EQ(ringBytes(Op::AllReduce, G, 2) / kGiB, 10.125);
    EXPECT_EQ(ringBytes(Op::ReduceScatter, G, 2) / kGiB, 5.0625);
    EXPECT_EQ(ringBytes(Op::AllGather, 2'717'908'992.0 * 2, 2) / kGiB, 2.53125);
}

// Korthikanti et al. 2022 Fig. 1 (docs/methods/llm.md#validation): weights + optimizer state 45.5625 GiB for 22B (t8 p1)
// and 175B (t8 p8) at 18 B/param; first-stage activations with SP + selective 9.5625 GiB (22B, b4)
// and 12.3515625 GiB (175B, v = 3).
TEST(LlmOracles, KorthikantiFigure1) {
    const auto& m22 = modelPreset("megatron-22b");
    EXPECT_EQ(12 * m22.layers * m22.hidden * m22.hidden / 8, 2'717'908'992);
    EXPECT_EQ(2'717'908'992.0 * bytesPerParam(Precision{}, 0, false, 1).total() / kGiB, 45.5625);
    ActivationOptions o;
    o.tp = 8;
    o.sequence_parallel = true;
    o.recompute = Recompute::Selective;
    EXPECT_EQ(48 * layerActivationBytes(m22, 4, o) * inFlight(Schedule::OneF1B, 1, 1, 1, 0) / kGiB, 9.5625);
    const auto& m175 = modelPreset("gpt3-175b");
    EXPECT_EQ(12 * layerActivationBytes(m175, 1, o) * inFlight(Schedule::Interleaved, 8, 3, 64, 0) / kGiB, 12.3515625);
}

}  // namespace
}  // namespace partita::llm
