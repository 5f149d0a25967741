#pragma once
// Two transformers read from different files (ONNX, a static twin, model JSON) that must plan alike:
// every figure evaluate reports, compared exactly.
#include <gtest/gtest.h>

#include "core/llm/evaluate.h"

namespace partita::llm {

inline void expectSameEvaluation(const Transformer& a, const Transformer& b) {
    Plan plan;
    plan.tp = 2;
    plan.pp = 2;
    plan.dp = 2;
    plan.global_batch = 16;
    plan.micro_batch = 2;
    plan.sequence_parallel = true;
    plan.recompute = Recompute::Selective;
    const Profile p = profilePreset("a100-sxm4-80gb");
    for (const ModelKind kind : {ModelKind::Partita, ModelKind::Calculon}) {
        if (kind == ModelKind::Calculon && a.kv_heads != a.heads) continue;  // Calculon has no GQA
        const Evaluation x = evaluate(a, plan, p, kind), y = evaluate(b, plan, p, kind);
        EXPECT_EQ(x.iteration_s, y.iteration_s);
        EXPECT_EQ(x.time.fwd, y.time.fwd);
        EXPECT_EQ(x.time.bwd, y.time.bwd);
        EXPECT_EQ(x.time.tp_exposed, y.time.tp_exposed);
        EXPECT_EQ(x.time.dp_exposed, y.time.dp_exposed);
        EXPECT_EQ(x.time.bubble, y.time.bubble);
        EXPECT_EQ(x.time.optimizer, y.time.optimizer);
        EXPECT_EQ(x.peak_bytes, y.peak_bytes);
        EXPECT_EQ(x.model_flops, y.model_flops);
        EXPECT_EQ(x.hardware_flops, y.hardware_flops);
        EXPECT_EQ(x.mfu, y.mfu);
        EXPECT_EQ(x.tokens_per_s, y.tokens_per_s);
        ASSERT_EQ(x.stages.size(), y.stages.size());
        for (std::size_t i = 0; i < x.stages.size(); ++i) {
            EXPECT_EQ(x.stages[i].params, y.stages[i].params);
            EXPECT_EQ(x.stages[i].total(), y.stages[i].total());
        }
        EXPECT_GT(x.iteration_s, 0);
    }
}

}  // namespace partita::llm
