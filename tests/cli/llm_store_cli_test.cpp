// partita-cli llm evaluate / search --db: the plan stored as an "llm" run that re-opens from the
// database with the same numbers the command printed.
#include <filesystem>

#include "cli_test_util.h"
#include "core/store/results_db.h"

namespace partita::cli::test {
namespace {

std::string freshDb(const std::string& name) {
    const std::string path = testing::TempDir() + name;
    std::filesystem::remove(path);
    return path;
}

TEST(LlmStoreCli, EvaluateStoresARunThatReopensExactly) {
    const std::string db = freshDb("llm-evaluate.sqlite");
    const auto j = cliJson({"llm", "evaluate", "--model", "gpt3-1.3b", "--tp", "2", "--pp", "2", "--dp", "2",
                            "--global-batch", "16", "--micro-batch", "2", "--gpus-per-node", "4", "--db", db, "--json"});
    ASSERT_TRUE(j.contains("run_id"));
    const ResultsDb store(db);
    const std::vector<RunSummary> list = store.list();
    ASSERT_EQ(list.size(), 1u);
    EXPECT_EQ(list[0].method, "llm");
    EXPECT_EQ(list[0].accelerators, 8);
    const MethodRun back = store.loadMethod(j["run_id"].get<std::int64_t>());
    EXPECT_EQ(back.llm.model_name, "gpt3-1.3b");
    EXPECT_EQ(back.llm.profile_name, "a100-sxm4-80gb");
    EXPECT_EQ(back.llm.plan.tp, 2);
    EXPECT_EQ(back.llm.plan.global_batch, 16);
    EXPECT_EQ(back.summary.time_s, j["iteration_s"].get<double>());
    EXPECT_EQ(evaluateLlm(back.llm).iteration_s, j["iteration_s"].get<double>());
}

TEST(LlmStoreCli, SearchStoresTheBestPlan) {
    const std::string db = freshDb("llm-search.sqlite");
    const auto j = cliJson({"llm", "search", "--model", "gpt3-1.3b", "--gpus", "8", "--global-batch", "64", "--top",
                            "1", "--db", db, "--json"});
    ASSERT_TRUE(j.contains("run_id"));
    const MethodRun back = ResultsDb(db).loadMethod(j["run_id"].get<std::int64_t>());
    EXPECT_TRUE(back.llm.searched);
    EXPECT_EQ(back.llm.plan.tp, j["best"]["plan"]["tp"].get<std::int64_t>());
    EXPECT_EQ(back.summary.time_s, j["best"]["iteration_s"].get<double>());
}

}  // namespace
}  // namespace partita::cli::test
