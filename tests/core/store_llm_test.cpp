// LLM planner runs in the results database: kept as their settings (model dimensions, profile, plan),
// listed as "LLM", and evaluated again on load to the same numbers.
#include <gtest/gtest.h>

#include "core/llm/transformer.h"
#include "core/llm/validate.h"
#include "core/run/llm_settings.h"
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

namespace partita {
namespace {

// Settings with every field moved off its default (model, profile, plan, kind, searched): the JSON
// codec must carry each of them.
std::vector<LlmSettings> nonDefaultSettings() {
    std::vector<LlmSettings> all;
    for (const char* preset : {"gpt3-1.3b", "llama2-7b"}) {
        LlmSettings s;
        s.model_name = std::string(preset) + "-variant";
        s.model = llm::modelPreset(preset);
        s.model.name = "variant";
        s.model.provenance = "a test";
        s.model.head_dim = s.model.headDim() * 2;
        s.model.kv_heads = s.model.heads / 2;
        s.model.tied_embeddings = !s.model.tied_embeddings;
        s.model.biases = !s.model.biases;
        s.model.dropout = !s.model.dropout;
        s.model.causal = !s.model.causal;
        s.profile_name = "h100";
        llm::ClusterOverrides o;
        o.gpus_per_node = 2;
        o.intra_node_GBps = 123;
        s.profile = llm::applyOverrides(llm::profilePreset("h100-sxm5-80gb"), o);
        s.plan.tp = 2, s.plan.pp = 4, s.plan.dp = 3, s.plan.cp = 2;
        s.plan.micro_batch = 2, s.plan.global_batch = 48;
        s.plan.sequence_parallel = true;
        s.plan.interleave = 2;
        s.plan.schedule = llm::Schedule::Interleaved;
        s.plan.recompute = llm::Recompute::Full;
        s.plan.zero = 2;
        s.plan.distributed_optimizer = true;
        s.plan.precision = llm::Dtype::Fp8;
        s.plan.ag_redo = true;
        s.plan.scatter_gather = false;
        s.plan.tp_overlap = llm::TpOverlap::Pipe;
        s.plan.dp_overlap = false;
        s.plan.pp_overlap = true;
        s.plan.fused_activation = true;
        s.plan.uneven_split = true;
        s.plan.offload_weights = s.plan.offload_activations = s.plan.offload_optimizer = true;
        s.plan.tp_tier = 0, s.plan.pp_tier = 1, s.plan.dp_tier = 1;
        s.kind = llm::ModelKind::Calculon;
        s.searched = true;
        all.push_back(s);
    }
    return all;
}

TEST(StoreLlm, EveryNonDefaultFieldSurvivesTheJsonRoundTrip) {
    for (const LlmSettings& s : nonDefaultSettings()) {
        const LlmSettings back = readLlmSettingsJson(Json::parse(llmSettingsToJson(s).dump()), "test");
        EXPECT_EQ(back.model, s.model) << s.model_name;
        EXPECT_EQ(back.profile, s.profile) << s.model_name;
        EXPECT_EQ(back.plan, s.plan) << s.model_name;
        EXPECT_TRUE(back == s) << s.model_name;
    }
}

}  // namespace
}  // namespace partita

namespace partita {
namespace {

TEST(StoreLlm, RefusalOfANonSettingsMethodNamesTheSettingsMethods) {
    TempDir tmp;
    ResultsDb db(tmp.file("runs.db"));
    MethodRun run = methodRun(llmSettings(), evaluateLlm(llmSettings()));
    run.method = "hypar";
    try {
        db.storeMethod(run);
        ADD_FAILURE() << "stored";
    } catch (const std::exception& e) {
        EXPECT_NE(std::string(e.what()).find("(mpt, l2s or llm)"), std::string::npos) << e.what();
    }
    run.method = "nope";
    try {
        (void)recompute(run);
        ADD_FAILURE() << "recomputed";
    } catch (const std::exception& e) {
        EXPECT_NE(std::string(e.what()).find("(mpt, l2s or llm)"), std::string::npos) << e.what();
    }
}

}  // namespace
}  // namespace partita

namespace partita {
namespace {

// A measured run as settings (what the predicted-vs-measured view loads) evaluates to `llm validate`'s
// prediction for it, run by run.
TEST(StoreLlm, AMeasuredRunAsSettingsEvaluatesToItsValidatedPrediction) {
    for (const char* file : {"narayanan-sc21.json", "bigscience-bloom.json"}) {
        const auto runs = llm::loadRuns(std::string(PARTITA_EXAMPLES_DIR) + "/llm/measured/" + file);
        ASSERT_FALSE(runs.empty());
        std::size_t compared = 0;
        for (const llm::Run& run : runs) {
            const llm::RunPrediction predicted = llm::predictRun(run, nullptr, llm::ModelKind::Partita);
            if (!predicted.error.empty()) continue;
            const LlmSettings s = llmSettingsOfRun(run);
            EXPECT_EQ(evaluateLlm(s).iteration_s, predicted.predicted_s) << file << " " << run.name;
            EXPECT_EQ(s.plan.gpus(), llm::runPlan(run).gpus());
            ++compared;
        }
        EXPECT_EQ(compared, runs.size()) << file;
    }
}

}  // namespace
}  // namespace partita
