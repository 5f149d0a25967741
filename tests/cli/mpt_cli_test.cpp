// partita-cli mpt: tables, JSON, compare, sweep, the Winograd calculator and errors.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>

#include "tests/cli/cli_test_util.h"

namespace partita::cli::test {
namespace {

TEST(MptCli, DefaultTableHasUnitsAndChoices) {
    const Result r = cli({"mpt"});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("w_mp+*"), std::string::npos);
    EXPECT_NE(r.out.find("total [us]"), std::string::npos);
    EXPECT_NE(r.out.find("comm_time (16,16) [us]"), std::string::npos);
    EXPECT_NE(r.out.find("Late-2"), std::string::npos);
    EXPECT_NE(r.out.find("vs w_dp"), std::string::npos);
}

TEST(MptCli, JsonMatchesOracleConventions) {
    const auto j = cliJson({"mpt", "--scenario", "w_mp*", "--passes", "1", "--objective", "comm_volume", "--transform",
                            "paper-formula", "--json"});
    EXPECT_EQ(j["scenario"], "w_mp*");
    ASSERT_EQ(j["layers"].size(), 5u);
    const auto& late2 = j["layers"][4];
    EXPECT_EQ(late2["name"], "Late-2");
    EXPECT_EQ(late2["cost"]["grid"], nlohmann::json::array({16, 16}));
    EXPECT_EQ(late2["cost"]["comm_bytes"].get<double>(), 3993600);
    EXPECT_EQ(j["layers"][0]["cost"]["grid"], nlohmann::json::array({1, 256}));
    EXPECT_GT(j["speedup_vs_w_dp"].get<double>(), 0);
}

TEST(MptCli, OverrideForcesAGrid) {
    const auto j = cliJson({"mpt", "--override", "Late-2=4x64", "--json"});
    EXPECT_TRUE(j["layers"][4]["overridden"].get<bool>());
    EXPECT_EQ(j["layers"][4]["cost"]["grid"], nlohmann::json::array({4, 64}));
}

TEST(MptCli, CompareHasAllScenariosAndPaperColumn) {
    const Result r = cli({"mpt", "--compare"});
    ASSERT_EQ(r.status, 0) << r.err;
    for (const char* s : {"d_dp", "w_dp", "w_mp ", "w_mp+ ", "w_mp* ", "w_mp+*"}) EXPECT_NE(r.out.find(s), std::string::npos) << s;
    EXPECT_NE(r.out.find("paper-reported"), std::string::npos);
    EXPECT_NE(r.out.find("2.74x vs w_dp"), std::string::npos);
    EXPECT_NE(r.out.find("mpt --compare --paper"), std::string::npos);  // where the ratios and gap reasons are
    const auto parsed = cliJson({"mpt", "--compare", "--json", "--network", example("networks/wrn-40-10.json")});
    ASSERT_EQ(parsed["scenarios"].size(), 6u);
    EXPECT_EQ(parsed["scenarios"][1]["speedup_vs_w_dp"].get<double>(), 1.0);
    EXPECT_EQ(parsed["scenarios"][5]["paper_reported"], "2.7x vs w_dp; 191x vs 1 worker");
    EXPECT_TRUE(parsed["paper_reported"][0]["paper_reported"].get<bool>());
}

TEST(MptCli, ModelOptionsAndPresets) {
    const Result r = cli({"mpt", "--network", example("networks/resnet-34.json")});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("default (spec Part D2): dedicated transform unit, overlap max, 96x96 array, 2 B per element "
                         "on the wire (assumed)"),
              std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("geometric mean"), std::string::npos);
    const auto fit = cliJson({"mpt", "--preset", "fit", "--json"});
    EXPECT_EQ(fit["model"]["label"], "fit (not a reproduction)");
    EXPECT_EQ(fit["model"]["vector_flops_per_cycle"].get<double>(), 192);
    EXPECT_EQ(fit["objective"], "total_time");
    // A single option over a preset makes it custom; --vector-flops alone moves the transforms.
    const auto custom = cliJson({"mpt", "--preset", "fit", "--passes", "2", "--json"});
    EXPECT_EQ(custom["model"]["preset"], "custom");
    EXPECT_EQ(cliJson({"mpt", "--vector-flops", "64", "--json"})["model"]["transform_unit"], "vector");
    const auto a9 = cliJson({"mpt", "--preset", "a9", "--json"});
    const auto old = cliJson({"mpt", "--transform-unit", "vector", "--overlap", "sum", "--array-dim", "64",
                              "--bytes-per-element", "4", "--json"});
    EXPECT_EQ(a9["model"]["preset"], "a9");
    EXPECT_EQ(old["model"]["preset"], "a9");
    EXPECT_EQ(a9["totals"]["total_s"], old["totals"]["total_s"]);
    const auto& avg = a9["averages_vs_w_dp"];
    EXPECT_EQ(avg["total_time_ratio"], a9["speedup_vs_w_dp"]);
    EXPECT_GT(avg["geomean"].get<double>(), 0);
    EXPECT_EQ(cli({"mpt", "--preset", "best"}).status, 2);
    EXPECT_EQ(cli({"mpt", "--overlap", "min"}).status, 2);
    EXPECT_EQ(cli({"mpt", "--transform-unit", "gpu"}).status, 2);
    EXPECT_EQ(cli({"mpt", "--paper"}).status, 2);
}

TEST(MptCli, ComparePaperPutsEveryFigureBesideTheEngine) {
    const Result r = cli({"mpt", "--compare", "--paper"});
    ASSERT_EQ(r.status, 0) << r.err;
    for (const char* s : {"w_dp over 1 worker, networks", "71x", "191x", "2.7x", "2.74x", "fit (not a reproduction)",
                          "gap net_wmp+*:", "gap net_wdp_vs_one:", "no GPU model", "2 B per element on the wire (assumed)",
                          "FractalNet 4x4"})
        EXPECT_NE(r.out.find(s), std::string::npos) << s;
    const auto j = cliJson({"mpt", "--compare", "--paper", "--json"});
    EXPECT_EQ(j["preset"], "default");
    EXPECT_TRUE(j["wire_width_assumed"].get<bool>());
    bool found = false;
    for (const auto& f : j["figures"])
        if (f["id"] == "net_wdp_vs_one") {
            found = true;
            EXPECT_NEAR(f["ratio"].get<double>(), 1.0, 0.10);
        }
    EXPECT_TRUE(found);
    EXPECT_EQ(j["networks"].size(), 3u);
    EXPECT_EQ(j["fit_not_a_reproduction"].size(), j["figures"].size());
    // Under other options the gap reasons (measured on the defaults) are left out.
    EXPECT_EQ(cli({"mpt", "--compare", "--paper", "--overlap", "sum"}).out.find("gap net_wmp+*:"), std::string::npos);
}

TEST(MptCli, SweepAndCsv) {
    const std::string path = ::testing::TempDir() + "mpt_sweep.csv";
    const Result r = cli({"mpt", "--sweep", "--csv", path});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("(16,16)"), std::string::npos);
    std::ifstream f(path);
    std::string header;
    std::getline(f, header);
    EXPECT_NE(header.find("w_dp comm [MB/worker]"), std::string::npos);
    int rows = 0;
    for (std::string line; std::getline(f, line);) ++rows;
    EXPECT_EQ(rows, 5);
    std::remove(path.c_str());
    const auto j = nlohmann::json::parse(cli({"mpt", "--sweep", "--json"}).out);
    EXPECT_EQ(j["rows"].size(), 5u);
    EXPECT_EQ(j["rows"][0]["p"], 1);
}

TEST(MptCli, WinogradCalculator) {
    const Result r = cli({"mpt", "--winograd", "4,3"});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("F(4x4,3x3)"), std::string::npos);
    EXPECT_NE(r.out.find("exact"), std::string::npos);
    EXPECT_NE(r.out.find("1/24"), std::string::npos);
    const auto j = nlohmann::json::parse(cli({"mpt", "--winograd", "2,5", "--json"}).out);
    EXPECT_EQ(j["T"], 6);
    EXPECT_TRUE(j["self_test"]["exact"].get<bool>());
    EXPECT_EQ(j["mac_reduction"].get<double>(), 100.0 / 36.0);
}

TEST(MptCli, FunctionalPrediction) {
    const Result r = cli({"mpt", "--prediction", "functional", "--json"});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_FALSE(nlohmann::json::parse(r.out)["factors_paper_reported"].get<bool>());
    EXPECT_EQ(cli({"mpt", "--prediction", "guess"}).status, 2);
    EXPECT_EQ(cli({"mpt", "--prediction", "functional", "--tile-sigma", "0"}).status, 2);
}

TEST(MptCli, HelpAndReference) {
    EXPECT_NE(cli({"mpt", "--help"}).out.find("--compare"), std::string::npos);
    const Result r = cli({"mpt", "--reference"});
    ASSERT_EQ(r.status, 0);
    EXPECT_NE(r.out.find("DGX-1"), std::string::npos);
    EXPECT_NE(r.out.find("21.6 x"), std::string::npos);
}

TEST(MptCli, Errors) {
    EXPECT_EQ(cli({"mpt", "--scenario", "w_mp**"}).status, 2);
    EXPECT_EQ(cli({"mpt", "--p", "0"}).status, 2);
    EXPECT_EQ(cli({"mpt", "--p", "255"}).status, 0);  // odd p still has (1,255) and (3,85)
    EXPECT_EQ(cli({"mpt", "--objective", "speed"}).status, 2);
    EXPECT_EQ(cli({"mpt", "--configs", "all"}).status, 2);
    EXPECT_EQ(cli({"mpt", "--gather-2d", "1.5"}).status, 2);
    EXPECT_EQ(cli({"mpt", "--override", "Late-2=32x8"}).status, 2);
    EXPECT_EQ(cli({"mpt", "--override", "nope=16x16"}).status, 2);
    EXPECT_EQ(cli({"mpt", "--winograd", "0,3"}).status, 2);
    EXPECT_EQ(cli({"mpt", "--bogus"}).status, 2);
    EXPECT_EQ(cli({"mpt", "--layers", "study", "--network", "x.json"}).status, 2);
    const Result missing = cli({"mpt", "--network", "/nonexistent/net.json"});
    EXPECT_EQ(missing.status, 1);
    EXPECT_NE(missing.err.find("/nonexistent/net.json"), std::string::npos);
    const std::string bad = ::testing::TempDir() + "mpt_bad.json";
    std::ofstream(bad) << "{\"format\": \"partita-network/1\", \"name\": \"x\", ";
    EXPECT_EQ(cli({"mpt", "--network", bad}).status, 1);
    std::remove(bad.c_str());
}

}  // namespace
}  // namespace partita::cli::test
