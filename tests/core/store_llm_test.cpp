// LLM planner runs in the results database: kept as their settings (model dimensions, profile, plan),
// listed as "LLM", and evaluated again on load to the same numbers.
#include <gtest/gtest.h>

#include "core/llm/transformer.h"
#include "core/run/method_registry.h"
#include "core/run/method_run.h"
#include "core/store/results_db.h"
#include "store_test_util.h"

namespace partita {
namespace {

using namespace test;

LlmSettings llmSettings() {
    LlmSettings s;
    s.model_name = "gpt3-1.3b";
    s.model = llm::modelPreset("gpt3-1.3b");
    s.profile_name = "a100-sxm4-80gb";
    llm::ClusterOverrides o;
    o.gpus_per_node = 4;
    s.profile = llm::applyOverrides(llm::profilePreset("a100-sxm4-80gb"), o);
    s.plan.tp = 2;
    s.plan.pp = 2;
    s.plan.dp = 2;
    s.plan.micro_batch = 2;
    s.plan.global_batch = 16;
    s.plan.sequence_parallel = true;
    s.plan.recompute = llm::Recompute::Selective;
    return s;
}

TEST(StoreLlm, CodecRoundTripsTheSettingsExactly) {
    const LlmSettings s = llmSettings();
    const SettingsCodec& codec = settingsCodec("llm");
    MethodRun run = methodRun(s, evaluateLlm(s));
    MethodRun back;
    back.method = "llm";
    codec.read(back, Json::parse(codec.toJson(run).dump()), "test", codec.networkText(run));
    EXPECT_EQ(llmSettingsToJson(back.llm), llmSettingsToJson(s));
    EXPECT_EQ(back.llm.plan, s.plan);
    EXPECT_EQ(codec.key(back), codec.key(run));
    EXPECT_EQ(codec.recompute(back).time_s, run.summary.time_s);
    EXPECT_EQ(method("llm").label(), "LLM");
    EXPECT_EQ(method("llm").family(), MethodFamily::Settings);
}

TEST(StoreLlm, StoredRunReopensWithTheSameNumbers) {
    TempDir tmp;
    ResultsDb db(tmp.file("runs.db"));
    const LlmSettings s = llmSettings();
    const llm::Evaluation e = evaluateLlm(s);
    ASSERT_TRUE(e.fits);
    const MethodRun run = methodRun(s, e);
    const std::int64_t id = db.storeMethod(run);

    const std::vector<RunSummary> list = db.list();
    ASSERT_EQ(list.size(), 1u);
    EXPECT_EQ(list[0].method, "llm");
    EXPECT_EQ(list[0].name, run.name);
    EXPECT_EQ(list[0].accelerators, 8);
    EXPECT_EQ(list[0].time_step_s, e.iteration_s);

    const MethodRun back = db.loadMethod(id);
    EXPECT_EQ(llmSettingsToJson(back.llm), llmSettingsToJson(s));
    EXPECT_EQ(back.llm.plan, s.plan);
    EXPECT_EQ(back.summary.time_s, e.iteration_s);
    EXPECT_EQ(back.summary.traffic_B, e.peak_bytes);
    EXPECT_EQ(back.summary.speedup, 1.0);
    const llm::Evaluation again = evaluateLlm(back.llm);
    EXPECT_EQ(again.iteration_s, e.iteration_s);
    EXPECT_EQ(again.peak_bytes, e.peak_bytes);
    EXPECT_EQ(again.fits, e.fits);
}

TEST(StoreLlm, DamagedSettingsNameTheKey) {
    const SettingsCodec& codec = settingsCodec("llm");
    MethodRun run = methodRun(llmSettings(), evaluateLlm(llmSettings()));
    Json j = codec.toJson(run);
    j["plan"]["tpp"] = 2;
    MethodRun back;
    try {
        codec.read(back, j, "runs.db: run 1", "");
        ADD_FAILURE() << "read";
    } catch (const std::exception& e) {
        EXPECT_NE(std::string(e.what()).find("/plan/tpp"), std::string::npos) << e.what();
    }
}

}  // namespace
}  // namespace partita
