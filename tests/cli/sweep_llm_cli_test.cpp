// partita-cli sweep on examples/sweeps/llm-tp-pp.json (issue 28 item 4): the LLM plan axes from the
// command line; every stored point is what `llm evaluate --json` prints for its plan, and the table
// names llm's summary figures.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "sweep_test_util.h"

namespace partita::cli::test {
namespace {

TEST(SweepLlmCli, TheExampleSpecRunsAndEveryPointIsLlmEvaluateOfItsPlan) {
    Dir d;
    const std::string spec = std::string(PARTITA_EXAMPLES_DIR) + "/sweeps/llm-tp-pp.json";
    const Result r = cli({"sweep", spec, "--db", d.file("llm.sqlite"), "--jobs", "2"});
    EXPECT_EQ(r.status, 0) << r.err << r.out;
    EXPECT_EQ(r.out.substr(0, r.out.find('\n')),
              "Sweep 'llm-gpt3-13b-tp-pp': 32 points; 0 stored, 0 failed earlier; 32 to run on 2 jobs");
    EXPECT_NE(r.out.find(": 32 stored, 0 failed; database "), std::string::npos) << r.out;

    const Result csv = cli({"sweep-table", "--db", d.file("llm.sqlite")});
    ASSERT_EQ(csv.status, 0) << csv.err;
    EXPECT_EQ(csv.out.substr(0, csv.out.find('\n')),
              "tp,pp,recompute,iteration_s,mfu_pct,peak_memory_gib,fits,method,status,run_id\r");
    const Result table = cli({"sweep-table", "--db", d.file("llm.sqlite"), "--sweep", "llm-gpt3-13b-tp-pp", "--json"});
    ASSERT_EQ(table.status, 0) << table.err;
    const nlohmann::json j = nlohmann::json::parse(table.out);
    ASSERT_EQ(j["points"].size(), 32u);
    EXPECT_EQ(j["columns"][0]["label"], "iteration (s)");
    int compared = 0;
    for (const auto& p : j["points"]) {
        ASSERT_FALSE(p.contains("error")) << p.dump();
        const Result e = cli({"llm", "evaluate", "--model", "gpt3-13b", "--profile", "a100-sxm4-80gb", "--gpus", "64",
                              "--global-batch", "512", "--tp", p["tp"], "--pp", p["pp"], "--recompute", p["recompute"],
                              "--json"});
        ASSERT_EQ(e.status, 0) << e.err;
        const nlohmann::json x = nlohmann::json::parse(e.out);
        EXPECT_EQ(p["iteration_s"], x["iteration_s"]) << p.dump();
        EXPECT_EQ(p["peak_memory_gib"], x["memory_gib"]) << p.dump();
        EXPECT_EQ(p["mfu_pct"].get<double>(), 100 * x["mfu"].get<double>()) << p.dump();
        ++compared;
    }
    EXPECT_EQ(compared, 32);
}

}  // namespace
}  // namespace partita::cli::test
