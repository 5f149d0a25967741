// Bad input to the LLM planner: impossible plans refused naming the field, absurd sizes refused by
// the documented limits, malformed runs and profile files named by file and JSON pointer.
#include <gtest/gtest.h>

#include "core/llm/runs.h"
#include "core/llm/search.h"
#include "core/util/error.h"
#include "llm_test_util.h"

namespace partita::llm {
namespace {

std::string fieldOf(const Transformer& m, const Plan& p, ModelKind kind = ModelKind::Partita) {
    try {
        validate(m, p, profilePreset("a100-sxm4-80gb"), kind);
    } catch (const FieldError& e) {
        return e.field();
    }
    return "";
}

TEST(LlmErrors, ImpossiblePlansNameTheField) {
    const auto& m = modelPreset("gpt3-175b");  // 96 layers, 96 heads
    Plan p = test::example175b();
    EXPECT_EQ(fieldOf(m, p), "");
    Plan q = p;
    q.tp = 7;
    q.pp = 1;
    EXPECT_EQ(fieldOf(m, q), "tp");  // 7 does not divide 96 heads
    q = p;
    q.pp = 7;
    EXPECT_EQ(fieldOf(m, q), "pp");  // 7 does not divide 96 layers
    q.uneven_split = true;
    EXPECT_EQ(fieldOf(m, q), "");
    q = p;
    q.dp = 3;
    EXPECT_EQ(fieldOf(m, q), "global_batch");  // 64 sequences over 3 replicas
    q = p;
    q.micro_batch = 3;
    EXPECT_EQ(fieldOf(m, q), "micro_batch");
    q = p;
    q.interleave = 5;
    q.schedule = Schedule::Interleaved;
    EXPECT_EQ(fieldOf(m, q), "interleave");  // 5 does not divide 12 layers per stage
    q.interleave = 3;
    q.global_batch = 60;
    EXPECT_EQ(fieldOf(m, q), "global_batch");  // 60 micro-batches not a multiple of pp
    EXPECT_EQ(fieldOf(m, q, ModelKind::Calculon), "");  // Calculon adds bubbles instead
    q = p;
    q.interleave = 3;
    EXPECT_EQ(fieldOf(m, q), "schedule");
    q = p;
    q.zero = 1;
    q.distributed_optimizer = true;
    EXPECT_EQ(fieldOf(m, q), "distributed_optimizer");
    q = p;
    q.cp = 2;
    EXPECT_EQ(fieldOf(m, q), "");
    EXPECT_EQ(fieldOf(m, q, ModelKind::Calculon), "cp");  // Calculon has no context parallelism
    q.cp = 3;
    EXPECT_EQ(fieldOf(m, q), "cp");  // 3 does not divide the 2,048 tokens
    q = p;
    q.sequence_parallel = false;
    q.ag_redo = true;
    EXPECT_EQ(fieldOf(m, q), "ag_redo");
    q = p;
    q.tp = 16;  // 16 GPUs in a tensor group: more than a DGX's 8 on NVLink, placed on InfiniBand
    q.pp = 4;
    EXPECT_EQ(fieldOf(m, q), "");
    q.tp_tier = 0;
    EXPECT_EQ(fieldOf(m, q), "tp");  // tier 0 holds 8 GPUs
    q.tp_tier = 5;
    EXPECT_EQ(fieldOf(m, q), "tp_tier");
}

TEST(LlmErrors, AbsurdSizesRefusedByTheLimits) {
    const auto& m = modelPreset("gpt3-175b");
    Plan p = test::example175b();
    p.dp = std::int64_t{1} << 62;
    EXPECT_EQ(fieldOf(m, p), "dp");
    p = test::example175b();
    p.tp = 8;
    p.pp = 8;
    p.dp = std::int64_t{1} << 16;  // 2^22 GPUs > 2^20
    p.global_batch = std::int64_t{1} << 16;
    EXPECT_EQ(fieldOf(m, p), "dp");
    Transformer big = m;
    big.layers = 1'000'000'000;
    EXPECT_EQ(fieldOf(big, test::example175b()), "model.layers");
    big = m;
    big.hidden = std::int64_t{1} << 30;
    EXPECT_EQ(fieldOf(big, test::example175b()), "model.hidden");
    SearchOptions o;
    o.gpus = std::numeric_limits<std::int64_t>::max();
    o.global_batch = 64;
    EXPECT_THROW(search(m, profilePreset("a100-sxm4-80gb"), o), FieldError);
}

const char* kRun = R"({"format": "partita-llm-runs/1", "runs": [{
  "name": "r", "provenance": "test",
  "model": {"layers": 96, "hidden": 12288, "heads": 96, "seq": 2048, "vocab": 51200},
  "cluster": {"profile": "a100-sxm4-80gb", "gpus": 64},
  "plan": {"tp": 8, "pp": 8, "dp": 1, "micro_batch": 1, "global_batch": 64},
  "measured": {"iteration_s": 10}}]})";

std::string runsError(const std::string& from, const std::string& to) {
    std::string text = kRun;
    const auto at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    text.replace(at, from.size(), to);
    try {
        readRuns(text, "runs.json");
    } catch (const InputError& e) {
        EXPECT_EQ(e.source(), "runs.json");
        return e.place();
    }
    return "(accepted)";
}

TEST(LlmErrors, MalformedRunsFilesNameFileAndPointer) {
    EXPECT_EQ(readRuns(kRun, "runs.json").size(), 1u);
    EXPECT_EQ(runsError("\"gpus\": 64", "\"gpus\": 9223372036854775807"), "/runs/0/cluster/gpus");
    EXPECT_EQ(runsError("\"layers\": 96", "\"layers\": 1000000000"), "/runs/0/model/layers");
    EXPECT_EQ(runsError("\"tp\": 8", "\"tpp\": 8"), "/runs/0/plan/tpp");
    EXPECT_EQ(runsError("\"tp\": 8", "\"tp\": \"eight\""), "/runs/0/plan/tp");
    EXPECT_EQ(runsError("\"iteration_s\": 10", "\"iteration_s\": -1"), "/runs/0/measured/iteration_s");
    EXPECT_EQ(runsError("\"heads\": 96,", ""), "/runs/0/model/heads");
    EXPECT_EQ(runsError("partita-llm-runs/1", "partita-llm-runs/2"), "/format");
    EXPECT_EQ(runsError("\"plan\": {", "\"plan\": {\"recompute\": \"some\", "), "/runs/0/plan/recompute");
    EXPECT_EQ(runsError("}}]}", "}}]").rfind("line 6, column", 0), 0u);  // unclosed object
}

TEST(LlmErrors, MalformedProfilesNameFileAndPointer) {
    Json good = profileToJson(profilePreset("a100-sxm4-80gb"));
    auto place = [&](const std::function<void(Json&)>& edit) {
        Json j = good;
        edit(j);
        try {
            readProfileJson(j.dump(), "hw.json");
        } catch (const InputError& e) {
            EXPECT_EQ(e.source(), "hw.json");
            return e.place();
        }
        return std::string("(accepted)");
    };
    EXPECT_EQ(place([](Json&) {}), "(accepted)");
    EXPECT_EQ(place([](Json& j) { j["tiers"][1]["bogus"] = 1; }), "/tiers/1/bogus");
    EXPECT_EQ(place([](Json& j) { j["tiers"][0]["efficiency"] = 1.5; }), "/tiers/0/efficiency");
    EXPECT_EQ(place([](Json& j) { j["device"]["hbm"]["capacity_gib"] = -80; }), "/device/hbm/capacity_gib");
    EXPECT_EQ(place([](Json& j) { j["device"]["units"]["matrix"]["bf16"]["efficiency"]["points"][1][1] = 2; }),
              "/device/units/matrix/bf16/efficiency/points/1/1");
    EXPECT_EQ(place([](Json& j) { j["device"]["units"]["matrix"]["bf16"]["efficiency"]["points"][1][0] = 1e6; }),
              "/device/units/matrix/bf16/efficiency/points/1/0");
    EXPECT_EQ(place([](Json& j) { j["tiers"][0]["collectives"]["all_reduce"] = {{"algorithm", "butterfly"}}; }),
              "/tiers/0/collectives/all_reduce/algorithm");
    EXPECT_EQ(place([](Json& j) { j["tiers"][0]["size"] = 9223372036854775807LL; }), "/tiers/0/size");
    EXPECT_EQ(place([](Json& j) { j.erase("tiers"); }), "/");
    // Calculon system files: an efficiency table whose last threshold is not 0.
    Json calc = Json::parse(test::kCalculonA100);
    calc["matrix"]["float16"]["gflops_efficiency"] = {{128, 0.95}, {16, 0.9}};
    try {
        readProfileJson(calc.dump(), "sys.json");
        ADD_FAILURE() << "accepted";
    } catch (const InputError& e) {
        EXPECT_EQ(e.place(), "/matrix/float16/gflops_efficiency/1/0");
    }
}

}  // namespace
}  // namespace partita::llm
