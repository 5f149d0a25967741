// Issue 26 items 4 and 7 through partita-cli sweep: a point beyond a limit fails alone and a rerun
// skips the rest; an over-large spec is refused at once and a dry run counts points one at a time
// (guarded by a harness time limit, cliWithin).
#include <gtest/gtest.h>

#include "tests/cli/sweep_test_util.h"

namespace partita::cli::test {
namespace {

TEST(SweepLimitsCli, ASweepPointBeyondALimitFailsAloneAndARerunSkipsTheRest) {
    Dir d;
    const std::string spec = d.write("nan.json", R"({"format": "partita-sweep/1", "name": "nan",
      "networks": ["lenet-c"], "methods": ["hypar"], "axes": {"throughput_ops": [4.2e11, 1e-300, 1e12]}})");
    const std::string db = d.file("nan.sqlite");
    const Result r = cli({"sweep", spec, "--db", db, "--jobs", "2"});
    EXPECT_EQ(r.status, 1) << r.err;
    EXPECT_NE(r.out.find(": 2 stored, 1 failed; database "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("#1 {\"array\":\"levels=4\",\"method\":\"hypar\",\"network\":\"lenet-c\",\"throughput_ops\":1e-300}: "
                         "array 'HMC H-tree 16': throughput_ops must be between 1 and 1e+21 ops/s, got 1e-300 ops/s"),
              std::string::npos)
        << r.out;
    const auto rows = contents(db);
    ASSERT_EQ(rows.size(), 3u);
    const Result rerun = cli({"sweep", spec, "--db", db});
    EXPECT_NE(rerun.out.find("2 stored, 1 failed earlier; 0 to run"), std::string::npos) << rerun.out;
    EXPECT_EQ(contents(db), rows);
}

TEST(SweepLimitsCli, AnOverLargeSpecIsRefusedAtOnceAndADryRunStreams) {
    Dir d;
    std::string batch, seed;
    for (int i = 0; i < 100'000; ++i) {
        batch += (i ? "," : "") + std::to_string(i + 1);
        seed += (i ? "," : "") + std::to_string(i);
    }
    const std::string huge = d.write("huge.json", R"({"format": "partita-sweep/1", "networks": ["lenet-c"],
      "methods": [{"method": "mcmc", "iterations": 1}], "topologies": ["p100-16"],
      "axes": {"batch": [)" + batch + R"(], "seed": [)" + seed + "]}}");
    const Result r = cliWithin(60, {"sweep", huge, "--dry-run"});
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.err, "partita-cli sweep: error: " + huge +
                         ": the sweep expands to more than 1,000,000 combinations (the limit); split it into several sweeps\n");
    // 200,000 points counted one at a time (a zip keeps the count under the limit).
    const std::string zipped = d.write("zipped.json", R"({"format": "partita-sweep/1", "networks": ["lenet-c", "vgg-a"],
      "methods": ["dp"], "zip": [["batch", "link_bps"]],
      "axes": {"batch": [)" + batch + R"(], "link_bps": [)" + batch + "]}}");
    const Result dry = cliWithin(120, {"sweep", zipped, "--dry-run"});  // 200,000 points, under ASan too
    EXPECT_EQ(dry.status, 0) << dry.err;
    EXPECT_EQ(dry.out.substr(0, dry.out.find(" on ")),
              "Sweep 'zipped': 200000 points; 0 stored, 0 failed earlier; 200000 to run");
}

}  // namespace
}  // namespace partita::cli::test
