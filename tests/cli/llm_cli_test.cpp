// partita-cli llm: every subcommand, its --json shape (the keys other tools script against), --help,
// and refusals (impossible plans naming the field, malformed files naming file and pointer, no
// output file written after a refusal).
#include <filesystem>
#include <fstream>

#include "../core/llm_test_util.h"
#include "cli_test_util.h"

namespace partita::cli::test {
namespace {

namespace fs = std::filesystem;

std::string tempFile(const std::string& name, const std::string& text) {
    const fs::path dir = fs::temp_directory_path() / "partita-llm-cli-test";
    fs::create_directories(dir);
    const fs::path p = dir / name;
    std::ofstream(p) << text;
    return p.string();
}

const char* kRuns = R"({"format": "partita-llm-runs/1", "runs": [
  {"name": "175b-t8p8", "provenance": "test",
   "model": {"preset": "gpt3-175b"},
   "cluster": {"profile": "a100-sxm4-80gb", "gpus": 64, "gpus_per_node": 8, "intra_node_GBps": null,
               "inter_node_Gbps_per_node": null},
   "plan": {"tp": 8, "pp": 8, "dp": 1, "cp": 1, "micro_batch": 1, "global_batch": 64, "sequence_parallel": true,
            "interleave": 1, "schedule": "1f1b", "recompute": "selective", "zero": 0, "distributed_optimizer": false},
   "precision": "bf16",
   "measured": {"iteration_s": 13.75, "tokens_per_s_per_gpu": null, "tflops_per_gpu": null, "memory_gib": null}},
  {"name": "13b-t8", "model": {"preset": "gpt3-13b"}, "cluster": {"profile": "a100-sxm4-80gb", "gpus": 8},
   "plan": {"tp": 8, "global_batch": 16, "sequence_parallel": true, "recompute": "selective"},
   "measured": {"tflops_per_gpu": 120, "tflops_counts": "model"}},
  {"name": "bad", "model": {"preset": "gpt3-175b"}, "cluster": {"profile": "a100-sxm4-80gb", "gpus": 7},
   "plan": {"tp": 7, "global_batch": 64}, "measured": {"iteration_s": 1}}]})";

TEST(LlmCli, HelpForEverySubcommand) {
    const Result top = cli({"llm", "--help"});
    EXPECT_EQ(top.status, 0);
    for (const char* sub : {"evaluate", "simulate", "search", "validate", "calibrate", "profiles", "models"}) {
        EXPECT_NE(top.out.find(sub), std::string::npos) << sub;
        const Result r = cli({"llm", sub, "--help"});
        EXPECT_EQ(r.status, 0) << sub;
        EXPECT_NE(r.out.find("usage: partita-cli llm"), std::string::npos) << sub;
    }
    EXPECT_NE(cli({"llm", "evaluate", "--help"}).out.find("--recompute none|selective|full"), std::string::npos);
    EXPECT_NE(cli({"--help"}).out.find("llm"), std::string::npos);
    EXPECT_EQ(cli({"llm", "frobnicate"}).status, 2);
}

TEST(LlmCli, EvaluateTextAndJson) {
    const std::vector<std::string> args = {"llm", "evaluate", "--model", "gpt3-175b", "--profile", "a100-sxm4-80gb",
                                           "--tp", "8", "--pp", "8", "--dp", "1", "--global-batch", "64", "--sp",
                                           "--recompute", "selective"};
    const Result text = cli(args);
    ASSERT_EQ(text.status, 0) << text.err;
    for (const char* s : {"iteration", "bubble", "memory per GPU", "MFU", "tokens/s", "GiB", " s"})
        EXPECT_NE(text.out.find(s), std::string::npos) << s;
    auto json_args = args;
    json_args.push_back("--json");
    const auto j = cliJson(json_args);
    for (const char* k : {"plan", "iteration_s", "time_s", "memory_gib", "peak_stage", "fits", "stages", "mfu", "hfu",
                          "tokens_per_s", "micro_batches"})
        EXPECT_TRUE(j.contains(k)) << k;
    EXPECT_EQ(j["plan"]["tp"], 8);
    EXPECT_EQ(j["plan"]["schedule"], "1f1b");
    EXPECT_EQ(j["stages"].size(), 8u);
    EXPECT_TRUE(j["fits"].get<bool>());
    double sum = 0;
    for (const auto& [k, v] : j["time_s"].items()) sum += v.get<double>();
    EXPECT_NEAR(sum, j["iteration_s"].get<double>(), 1e-9);
    // Calculon's model on Calculon's own system file.
    const auto sys = tempFile("a100_80g.json", llm::test::kCalculonA100);
    const auto c = cliJson({"llm", "evaluate", "--model", "calculon", "--model", "gpt3-175b", "--profile", sys, "--tp", "8",
                            "--pp", "8", "--global-batch", "64", "--sp", "--recompute", "selective", "--interleave", "3",
                            "--ag-redo", "on", "--dp-overlap", "off", "--precision", "fp16", "--json"});
    EXPECT_EQ(c["cost_model"], "calculon");
    EXPECT_NEAR(c["iteration_s"].get<double>(), 13.638064304317554, 1e-9);
    EXPECT_NEAR(c["memory_gib"].get<double>(), 54.0733, 1e-4);
}

TEST(LlmCli, SimulateTextJsonTraceAndRefusals) {
    const std::string trace = tempFile("sim-trace.json", "");
    const std::vector<std::string> args = {"llm", "simulate", "--model", "gpt3-1.3b", "--tp", "4", "--pp", "2", "--dp",
                                           "2", "--global-batch", "16", "--sp", "--topology", "p100-16"};
    auto with_trace = args;
    with_trace.insert(with_trace.end(), {"--trace", trace});
    const Result text = cli(with_trace);
    ASSERT_EQ(text.status, 0) << text.err;
    for (const char* s : {"Simulated iteration", "Analytic iteration", "Ratio", "Differences, largest first",
                          "TP/SP collectives take up to"})
        EXPECT_NE(text.out.find(s), std::string::npos) << s << "\n" << text.out;
    std::ifstream f(trace);
    const Json t = Json::parse(f);
    EXPECT_TRUE(t.contains("traceEvents"));
    auto json_args = args;
    json_args.push_back("--json");
    const Result js = cli(json_args);
    ASSERT_EQ(js.status, 0) << js.err;
    const Json j = Json::parse(js.out);
    for (const char* k : {"simulated_s", "analytic_s", "ratio", "tasks", "stages", "reasons", "plan", "topology"})
        EXPECT_TRUE(j.contains(k)) << k;
    EXPECT_EQ(j["stages"].size(), 2u);
    // Too few devices: an error naming both numbers; no topology: usage.
    auto big = args;
    big[7] = "8";  // pp 8: 64 GPUs
    const Result r = cli(big);
    EXPECT_EQ(r.status, 1);
    EXPECT_NE(r.err.find("needs 64 GPUs"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("has 16 devices"), std::string::npos) << r.err;
    EXPECT_EQ(cli({"llm", "simulate", "--model", "gpt3-1.3b", "--global-batch", "4"}).status, 2);
    const Result missing = cli({"llm", "simulate", "--model", "gpt3-1.3b", "--global-batch", "4", "--topology", "/no/such.json"});
    EXPECT_EQ(missing.status, 1);
    EXPECT_NE(missing.err.find("/no/such.json"), std::string::npos) << missing.err;
}

TEST(LlmCli, EvaluateRefusesImpossiblePlansNamingTheField) {
    const Result r = cli({"llm", "evaluate", "--model", "gpt3-175b", "--tp", "7", "--global-batch", "64"});
    EXPECT_EQ(r.status, 1);
    EXPECT_NE(r.err.find("tp"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("heads"), std::string::npos) << r.err;
    const Result pp = cli({"llm", "evaluate", "--model", "gpt3-175b", "--pp", "7", "--global-batch", "64"});
    EXPECT_EQ(pp.status, 1);
    EXPECT_NE(pp.err.find("pp"), std::string::npos) << pp.err;
    const Result batch = cli({"llm", "evaluate", "--model", "gpt3-175b", "--dp", "3", "--global-batch", "64"});
    EXPECT_EQ(batch.status, 1);
    EXPECT_NE(batch.err.find("global_batch"), std::string::npos) << batch.err;
    const Result huge = cli({"llm", "evaluate", "--model", "gpt3-175b", "--dp", "9223372036854775807", "--global-batch", "64"});
    EXPECT_EQ(huge.status, 2);
    EXPECT_EQ(cli({"llm", "evaluate", "--model", "gpt3-175b"}).status, 2);  // no --global-batch
    EXPECT_EQ(cli({"llm", "evaluate", "--model", "gpt-9", "--global-batch", "8"}).status, 2);
    EXPECT_EQ(cli({"llm", "evaluate", "--model", "gpt3-175b", "--global-batch", "8", "--bogus"}).status, 2);
}

TEST(LlmCli, SearchJsonShape) {
    const auto j = cliJson({"llm", "search", "--model", "gpt3-1.3b", "--profile", "a100-sxm4-80gb", "--gpus", "8",
                            "--global-batch", "64", "--top", "3", "--json"});
    for (const char* k : {"best", "pareto", "evaluated", "feasible"}) EXPECT_TRUE(j.contains(k)) << k;
    ASSERT_TRUE(j["best"].is_object());
    for (const char* k : {"plan", "iteration_s", "memory_gib"}) EXPECT_TRUE(j["best"].contains(k)) << k;
    for (const char* k : {"tp", "pp", "dp", "cp", "micro_batch", "global_batch", "sequence_parallel", "interleave",
                          "schedule", "recompute", "zero", "distributed_optimizer"})
        EXPECT_TRUE(j["best"]["plan"].contains(k)) << k;
    EXPECT_EQ(j["best"]["plan"]["tp"].get<int>() * j["best"]["plan"]["pp"].get<int>() * j["best"]["plan"]["dp"].get<int>(), 8);
    ASSERT_FALSE(j["pareto"].empty());
    EXPECT_EQ(j["pareto"][0]["iteration_s"], j["best"]["iteration_s"]);
    for (const auto& p : j["pareto"])
        for (const char* k : {"plan", "iteration_s", "memory_gib"}) EXPECT_TRUE(p.contains(k)) << k;
    EXPECT_GT(j["evaluated"].get<std::int64_t>(), j["feasible"].get<std::int64_t>());
    EXPECT_EQ(j["ranked"].size(), 3u);
    const Result text = cli({"llm", "search", "--model", "gpt3-1.3b", "--gpus", "8", "--global-batch", "64", "--top", "2"});
    ASSERT_EQ(text.status, 0) << text.err;
    EXPECT_NE(text.out.find("best:"), std::string::npos);
    EXPECT_NE(text.out.find("Pareto front"), std::string::npos);
    EXPECT_EQ(cli({"llm", "search", "--model", "gpt3-1.3b", "--global-batch", "64"}).status, 2);  // no --gpus
}

TEST(LlmCli, ValidateJsonShape) {
    const auto runs = tempFile("runs.json", kRuns);
    const auto j = cliJson({"llm", "validate", "--runs", runs, "--json"});
    ASSERT_EQ(j["runs"].size(), 3u);
    for (const char* k : {"name", "predicted_iteration_s", "measured_iteration_s", "error_pct", "memory_gib", "fits"})
        EXPECT_TRUE(j["runs"][0].contains(k)) << k;
    EXPECT_EQ(j["runs"][0]["measured_iteration_s"], 13.75);
    EXPECT_GT(j["runs"][1]["measured_iteration_s"].get<double>(), 0);  // from TFLOP/s per GPU
    EXPECT_TRUE(j["runs"][2].contains("error"));
    EXPECT_FALSE(j["runs"][2].contains("predicted_iteration_s"));
    const double mape = (std::abs(j["runs"][0]["error_pct"].get<double>()) + std::abs(j["runs"][1]["error_pct"].get<double>())) / 2;
    EXPECT_NEAR(j["mape_pct"].get<double>(), mape, 1e-9);
    // --profile replaces every run's profile.
    const auto h = cliJson({"llm", "validate", "--runs", runs, "--profile", "h100-sxm5-80gb", "--json"});
    EXPECT_LT(h["runs"][0]["predicted_iteration_s"].get<double>(), j["runs"][0]["predicted_iteration_s"].get<double>());
    const Result text = cli({"llm", "validate", "--runs", runs});
    ASSERT_EQ(text.status, 0) << text.err;
    EXPECT_NE(text.out.find("MAPE"), std::string::npos);
    // A malformed file names the file and the JSON pointer.
    std::string broken = kRuns;
    broken.replace(broken.find("\"tp\": 8"), 7, "\"tp\": -8");
    const auto bad = tempFile("bad-runs.json", broken);
    const Result r = cli({"llm", "validate", "--runs", bad});
    EXPECT_EQ(r.status, 1);
    EXPECT_NE(r.err.find(bad + ": /runs/0/plan/tp"), std::string::npos) << r.err;
}

TEST(LlmCli, CalibrateWritesAUsableProfile) {
    const auto runs = tempFile("runs-cal.json", kRuns);
    const std::string out = (fs::temp_directory_path() / "partita-llm-cli-test" / "calibrated.json").string();
    fs::remove(out);
    const auto j = cliJson({"llm", "calibrate", "--runs", runs, "--profile", "a100-sxm4-80gb", "--out", out, "--json"});
    for (const char* k : {"out", "runs", "parameters", "mape_before_pct", "mape_after_pct"}) EXPECT_TRUE(j.contains(k)) << k;
    EXPECT_EQ(j["runs"], 2);
    EXPECT_LE(j["mape_after_pct"].get<double>(), j["mape_before_pct"].get<double>() + 1e-9);
    ASSERT_TRUE(fs::exists(out));
    const Result use = cli({"llm", "evaluate", "--model", "gpt3-13b", "--profile", out, "--tp", "8", "--global-batch", "16"});
    EXPECT_EQ(use.status, 0) << use.err;
    const Result text = cli({"llm", "calibrate", "--runs", runs, "--profile", "a100-sxm4-80gb", "--out", out});
    EXPECT_EQ(text.status, 0);
    EXPECT_NE(text.out.find("fit error"), std::string::npos);
    // A refusal leaves no file behind.
    const std::string never = (fs::temp_directory_path() / "partita-llm-cli-test" / "never.json").string();
    fs::remove(never);
    const Result refused = cli({"llm", "calibrate", "--runs", runs, "--profile", "no-such-profile", "--out", never});
    EXPECT_NE(refused.status, 0);
    EXPECT_FALSE(fs::exists(never));
}

TEST(LlmCli, ProfilesAndModels) {
    const auto j = cliJson({"llm", "profiles", "--json"});
    ASSERT_EQ(j["profiles"].size(), 3u);
    EXPECT_EQ(j["profiles"][1]["name"], "a100-sxm4-80gb");
    const auto show = cliJson({"llm", "profiles", "--show", "h100-sxm5-80gb"});
    EXPECT_EQ(show["format"], "partita-llm-hw/1");
    const Result text = cli({"llm", "profiles"});
    EXPECT_NE(text.out.find("h100-sxm5-80gb"), std::string::npos);
    const auto m = cliJson({"llm", "models", "--json"});
    bool llama = false;
    for (const auto& x : m["models"]) llama = llama || x["name"] == "llama3-405b";
    EXPECT_TRUE(llama);
}

}  // namespace
}  // namespace partita::cli::test
