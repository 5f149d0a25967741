// partita-cli sweep and merge-db: a 40-point HyPar/AccPar sweep gives the same database with one
// job, two jobs, two shards merged, and after an interruption; reruns run nothing; failures are
// recorded and set the exit status.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "sweep_test_util.h"

namespace partita::cli::test {
namespace {

// 4 networks x 2 methods x 5 levels.
constexpr const char* kForty = R"({"format": "partita-sweep/1", "name": "forty",
  "networks": ["lenet-c", "cifar-c", "vgg-a", "alexnet"], "methods": ["hypar", "accpar"],
  "axes": {"levels": [1, 2, 3, 4, 5]}})";

TEST(SweepCli, OneJobTwoJobsAndTwoMergedShardsGiveTheSameDatabase) {
    Dir d;
    const std::string spec = d.write("forty.json", kForty);
    const Result one = cli({"sweep", spec, "--db", d.file("one.sqlite"), "--jobs", "1"});
    ASSERT_EQ(one.status, 0) << one.err << one.out;
    EXPECT_EQ(one.out.substr(0, one.out.find('\n')),
              "Sweep 'forty': 40 points; 0 stored, 0 failed earlier; 40 to run on 1 job");
    EXPECT_NE(one.out.find(": 40 stored, 0 failed; database " + d.file("one.sqlite")), std::string::npos) << one.out;
    EXPECT_NE(one.err.find("40/40 points, "), std::string::npos) << one.err;  // not a terminal: plain lines
    EXPECT_EQ(one.err.find('\r'), std::string::npos);
    const auto expected = contents(d.file("one.sqlite"));
    ASSERT_EQ(expected.size(), 40u);
    EXPECT_EQ(expected[0].substr(expected[0].rfind('|', expected[0].size() - 2) + 1), "40|");  // one run per point

    ASSERT_EQ(cli({"sweep", spec, "--db", d.file("two.sqlite"), "--jobs", "2"}).status, 0);
    EXPECT_EQ(contents(d.file("two.sqlite")), expected);

    const Result s0 = cli({"sweep", spec, "--db", d.file("s0.sqlite"), "--shard", "0/2", "--jobs", "2"});
    EXPECT_EQ(s0.out.substr(0, s0.out.find('\n')),
              "Sweep 'forty': 40 points; shard 0/2: 20; 0 stored, 0 failed earlier; 20 to run on 2 jobs");
    ASSERT_EQ(cli({"sweep", spec, "--db", d.file("s1.sqlite"), "--shard", "1/2", "--jobs", "1"}).status, 0);
    const Result merged = cli({"merge-db", d.file("merged.sqlite"), d.file("s0.sqlite"), d.file("s1.sqlite")});
    ASSERT_EQ(merged.status, 0) << merged.err;
    EXPECT_EQ(merged.out, d.file("s0.sqlite") + ": 20 runs added, 0 already present; 20 sweep points added, 0 already present\n" +
                              d.file("s1.sqlite") + ": 20 runs added, 0 already present; 20 sweep points added, 0 already present\n");
    EXPECT_EQ(contents(d.file("merged.sqlite")), expected);
    // Merging again adds nothing.
    const Result again = cli({"merge-db", d.file("merged.sqlite"), d.file("one.sqlite")});
    EXPECT_EQ(again.out, d.file("one.sqlite") + ": 0 runs added, 40 already present; 0 sweep points added, 40 already present\n");
    EXPECT_EQ(contents(d.file("merged.sqlite")), expected);

    // A finished sweep runs nothing.
    const Result rerun = cli({"sweep", spec, "--db", d.file("one.sqlite"), "--jobs", "2"});
    EXPECT_EQ(rerun.status, 0);
    EXPECT_EQ(rerun.out.substr(0, rerun.out.find('\n')),
              "Sweep 'forty': 40 points; 40 stored, 0 failed earlier; 0 to run on 2 jobs");
    EXPECT_EQ(contents(d.file("one.sqlite")), expected);

    // Half done (as after an interruption), then the whole sweep: no duplicate, nothing lost.
    const std::string half = d.file("half.sqlite");
    ASSERT_EQ(cli({"sweep", spec, "--db", half, "--shard", "0/2"}).status, 0);
    const Result finish = cli({"sweep", spec, "--db", half, "--jobs", "2"});
    EXPECT_EQ(finish.out.substr(0, finish.out.find('\n')),
              "Sweep 'forty': 40 points; 20 stored, 0 failed earlier; 20 to run on 2 jobs");
    EXPECT_EQ(contents(half), expected);
}

TEST(SweepCli, SeededMcmcPointsFindTheSameStrategiesWithOneOrTwoJobs) {
    Dir d;
    const std::string spec = d.write("m.json", R"({"format": "partita-sweep/1", "networks": ["lenet-c"],
      "topologies": ["p100-16"], "methods": [{"method": "mcmc", "iterations": 60, "starts": ["dp", "random"]}],
      "axes": {"seed": [1, 2, 3], "batch": [32, 64]}})");
    ASSERT_EQ(cli({"sweep", spec, "--db", d.file("one.sqlite"), "--jobs", "1"}).status, 0);
    ASSERT_EQ(cli({"sweep", spec, "--db", d.file("two.sqlite"), "--jobs", "2"}).status, 0);
    const auto one = contents(d.file("one.sqlite"));
    ASSERT_EQ(one.size(), 6u);
    EXPECT_NE(one[0].find("\"iterations\":60"), std::string::npos) << one[0];
    EXPECT_EQ(contents(d.file("two.sqlite")), one);
}

TEST(SweepCli, AFailingPointIsRecordedTheOthersRunAndTheStatusSaysSo) {
    Dir d;
    const std::string spec = d.write("f.json", R"({"format": "partita-sweep/1", "name": "f",
      "networks": ["lenet-c", "nets/missing.json"], "methods": ["hypar", "dp"], "axes": {"levels": [2, 3]}})");
    const std::string db = d.file("f.sqlite");
    const Result r = cli({"sweep", spec, "--db", db, "--jobs", "2"});
    EXPECT_EQ(r.status, 1) << r.err;
    const std::string missing = d.file("nets/missing.json");
    EXPECT_NE(r.out.find(": 4 stored, 4 failed; database "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("Failed points (4):\n  #4 {\"array\":\"levels=4\",\"levels\":2,\"method\":\"hypar\",\"network\":"
                         "\"nets/missing.json\"}: " + missing + ": cannot open the file\n"),
              std::string::npos)
        << r.out;
    const auto rows = contents(db);
    ASSERT_EQ(rows.size(), 8u);
    int failed = 0;
    for (const auto& row : rows) failed += row.find("cannot open the file") != std::string::npos;
    EXPECT_EQ(failed, 4);
    const Result rerun = cli({"sweep", spec, "--db", db});
    EXPECT_EQ(rerun.status, 1);
    EXPECT_NE(rerun.out.find("4 stored, 4 failed earlier; 0 to run"), std::string::npos) << rerun.out;
    EXPECT_NE(rerun.out.find("(earlier run): " + missing), std::string::npos) << rerun.out;
    EXPECT_EQ(contents(db), rows);
}

TEST(SweepCli, DryRunsAndUsageErrors) {
    Dir d;
    const std::string spec = d.write("forty.json", kForty);
    const Result dry = cli({"sweep", spec, "--dry-run", "--shard", "3/4", "--jobs", "3"});
    EXPECT_EQ(dry.status, 0);
    EXPECT_EQ(dry.out, "Sweep 'forty': 40 points; shard 3/4: 10; 0 stored, 0 failed earlier; 10 to run on 3 jobs\n");
    EXPECT_FALSE(fs::exists(d.file("x.sqlite")));
    EXPECT_EQ(cli({"sweep", spec, "--dry-run", "--db", d.file("x.sqlite")}).status, 0);
    EXPECT_FALSE(fs::exists(d.file("x.sqlite")));  // a dry run creates nothing
    EXPECT_EQ(cli({"sweep", spec}).err,
              "partita-cli sweep: option --db is required (the results database to fill)\n");
    EXPECT_EQ(cli({"sweep", spec, "--db", d.file("x.sqlite"), "--shard", "2/2"}).err,
              "partita-cli sweep: --shard expects i/n with 0 <= i < n (e.g. 0/4), got '2/2'\n");
    EXPECT_EQ(cli({"sweep", "--db", "x"}).status, 2);
    EXPECT_EQ(cli({"merge-db"}).err, "partita-cli merge-db: usage: partita-cli merge-db OUT [IN...]\n");
    EXPECT_EQ(cli({"merge-db", d.file("x.sqlite")}).out, d.file("x.sqlite") + ": schema 4, nothing to merge\n");
    EXPECT_EQ(cli({"merge-db", d.file("x.sqlite"), "--force"}).err, "partita-cli merge-db: unknown option --force\n");
    const Result bad = cli({"sweep", d.write("bad.json", R"({"format": "partita-sweep/1", "networks": ["lenet-c"],
        "methods": ["hypar"], "axes": {"levels": [0]}})"), "--dry-run"});
    EXPECT_EQ(bad.status, 1);
    EXPECT_EQ(bad.err, "partita-cli sweep: error: " + d.file("bad.json") +
                           ": /axes/levels/0: axis 'levels' takes integers from 1 to 12, found 0\n");
}

}  // namespace
}  // namespace partita::cli::test
