// The proof of the method registry (docs/contributing/adding-a-method.md): Stripes, a method that
// exists only in the tests (tests/stripes_method.h), registered for the test, is listed by
// partita-cli methods, runs with partita-cli run, takes part in a sweep, is stored, and re-opens with
// the same numbers; no shared file names it.
#include <gtest/gtest.h>

#include <map>

#include "core/store/results_db.h"
#include "tests/cli/sweep_test_util.h"
#include "tests/stripes_method.h"

namespace partita::cli {
namespace {

using test::cli;
using test::cliJson;
using test::example;

using Registered = partita::test::StripesRegistered;

TEST(PluginMethod, ListedByTheCli) {
    const Registered stripes;
    const auto j = cliJson({"methods", "--json"});
    const auto& last = j["methods"].back();
    EXPECT_EQ(last["key"], "stripes");
    EXPECT_EQ(last["label"], "Stripes");
    EXPECT_EQ(last["command"], "partita-cli run stripes");
    EXPECT_EQ(last["in_sweeps"], true);
    EXPECT_NE(cli({"methods"}).out.find("Stripes"), std::string::npos);
    // Each built-in names the command that runs it.
    std::map<std::string, std::string> command;
    for (const auto& m : j["methods"]) command[m["key"]] = m["command"];
    EXPECT_EQ(command["hypar"], "partita-cli run hypar");
    EXPECT_EQ(command["accpar"], "partita-cli accpar");
    EXPECT_EQ(command["simulate"], "partita-cli simulate");
    EXPECT_EQ(command["mcmc"], "partita-cli mcmc");
    EXPECT_EQ(command["mpt"], "partita-cli mpt");
    EXPECT_EQ(command["llm"], "partita-cli llm");
}

TEST(PluginMethod, RunsStoresAndReopensWithTheSameNumbers) {
    const Registered stripes;
    const test::Dir d;
    const std::string db = d.file("runs.sqlite");
    const std::string net = example("networks/vgg-a.json");
    const auto j = cliJson({"run", "stripes", "--network", net, "--levels", "2", "--db", db, "--json"});
    EXPECT_EQ(j["method"], "stripes");
    const std::vector<std::string> want_grid{"01010101010", "01010101010"};  // VGG-A: 11 weighted layers
    EXPECT_EQ(j["grid"].get<std::vector<std::string>>(), want_grid);
    // The same grid through evaluate gives the same numbers: run adds no model of its own.
    const auto same = cliJson({"evaluate", "--network", net, "--levels", "2", "--grid", "01010101010,01010101010", "--json"});
    EXPECT_EQ(j["time_step_s"], same["time_step_s"]);
    EXPECT_EQ(j["total_comm_elements"], same["total_comm_elements"]);

    const ResultsDb store(db, true);
    const std::vector<RunSummary> runs = store.list();
    ASSERT_EQ(runs.size(), 1u);
    EXPECT_EQ(runs[0].method, "stripes");
    EXPECT_EQ(runs[0].id, j["run_id"].get<std::int64_t>());
    const partita::Run again = store.load(runs[0].id);
    EXPECT_EQ(again.method, "stripes");
    EXPECT_EQ(again.grid.toStrings(), want_grid);
    EXPECT_EQ(again.stepTime(), j["time_step_s"].get<double>());
    EXPECT_EQ(again.eval().total_elements, j["total_comm_elements"].get<double>());
}

TEST(PluginMethod, TakesPartInASweep) {
    const Registered stripes;
    const test::Dir d;
    const std::string spec = d.write("s.json", R"({"format": "partita-sweep/1", "name": "stripes",
        "networks": ["lenet-c", "alexnet"], "arrays": [{"levels": 2}], "methods": ["stripes", "dp"],
        "axes": {"levels": [1, 2]}})");
    const std::string db = d.file("sweep.sqlite");
    const auto r = cli({"sweep", spec, "--db", db});
    ASSERT_EQ(r.status, 0) << r.err;
    const ResultsDb store(db, true);
    int stripes_runs = 0;
    for (const RunSummary& s : store.list()) {
        if (s.method != "stripes") continue;
        ++stripes_runs;
        const partita::Run run = store.load(s.id);
        for (int h = 0; h < run.grid.levels(); ++h)
            for (int l = 0; l < run.grid.layers(); ++l)
                EXPECT_EQ(run.grid.split(h, l), l % 2 ? Split::Input : Split::Batch);
    }
    EXPECT_EQ(stripes_runs, 4);  // 2 networks x 2 levels
}

TEST(PluginMethod, GoneWhenUnregistered) {
    { const Registered stripes; }
    const auto r = cli({"run", "stripes", "--network", example("networks/lenet-c.json")});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("unknown method 'stripes'"), std::string::npos) << r.err;
    const auto mpt = cli({"run", "mpt", "--network", example("networks/lenet-c.json")});
    EXPECT_EQ(mpt.status, 2);
    EXPECT_NE(mpt.err.find("partita-cli mpt"), std::string::npos) << mpt.err;
}

}  // namespace
}  // namespace partita::cli
