// partita-cli end to end, in-process: the acceptance commands and the
// error paths (clear message naming the file and place, non-zero status).
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "tests/cli/cli_test_util.h"

namespace partita::cli {
namespace {

using test::cli;
using test::cliJson;
using test::example;

std::string tempFile(const std::string& name, const std::string& content) {
    const std::string path = testing::TempDir() + name;
    std::ofstream(path) << content;
    return path;
}

TEST(Cli, HyparLenetJson) {
    const auto j =
        cliJson({"hypar", "--network", example("networks/lenet-c.json"), "--levels", "4", "--batch", "256", "--json"});
    EXPECT_EQ(j["grid"], (std::vector<std::string>{"0011", "0010", "0000", "0011"}));
    EXPECT_EQ(j["total_comm_elements"].get<double>(), 3901560);
    EXPECT_EQ(j["level_comm_elements"], (std::vector<double>{478520, 395200, 256000, 201080}));
    EXPECT_NEAR(j["perf_vs_dp"].get<double>(), 3.19, 0.005);
    EXPECT_NEAR(j["energy_vs_dp"].get<double>(), 2.11, 0.005);
}

TEST(Cli, HyparVggAAndSfc) {
    auto r = cli({"hypar", "--network", example("networks/vgg-a.json"), "--levels", "4", "--json"});
    ASSERT_EQ(r.status, 0) << r.err;
    auto j = nlohmann::json::parse(r.out);
    std::string conv5_2, fc1;
    for (const auto& row : j["grid"]) {
        conv5_2 += row.get<std::string>()[7];
        fc1 += row.get<std::string>()[8];
    }
    EXPECT_EQ(conv5_2, "0001");
    EXPECT_EQ(fc1, "1111");
    r = cli({"hypar", "--network", example("networks/sfc.json"), "--json"});
    j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["grid"], (std::vector<std::string>{"1111", "1111", "0111", "1111"}));
}

TEST(Cli, EvaluateGridMatchesSearch) {
    const auto r = cli({"evaluate", "--network", example("networks/lenet-c.json"), "--grid", "0011,0010,0000,0011",
                        "--json"});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(nlohmann::json::parse(r.out)["total_comm_elements"].get<double>(), 3901560);
    const auto dp = cli({"evaluate", "--network", example("networks/lenet-c.json"), "--method", "dp", "--json"});
    EXPECT_EQ(nlohmann::json::parse(dp.out)["total_comm_elements"].get<double>(), 12915000);
}

TEST(Cli, StrategyExportThenEvaluate) {
    const std::string path = testing::TempDir() + "lenet-strategy.json";
    ASSERT_EQ(cli({"hypar", "--network", example("networks/lenet-c.json"), "--export", path}).status, 0);
    const auto r = cli({"evaluate", "--network", example("networks/lenet-c.json"), "--strategy", path, "--json"});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(nlohmann::json::parse(r.out)["total_comm_elements"].get<double>(), 3901560);
}

TEST(Cli, AccParTextNetwork) {
    const auto r = cli({"hypar", "--network", std::string(PARTITA_TEST_DATA) + "/accpar/Vgg11.txt", "--json"});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(nlohmann::json::parse(r.out)["layers"].size(), 11u);
}

TEST(Cli, ExploreFullLenetSpace) {
    const auto j = cliJson({"explore", "--network", example("networks/lenet-c.json"), "--full", "--json"});
    EXPECT_EQ(j["points"].get<int>(), 65536);
    EXPECT_TRUE(j.contains("hypar_is_global_optimum"));
    EXPECT_LE(j["best_comm"]["total_comm_elements"].get<double>(), 3901560);
}

TEST(Cli, TableGeomean) {
    const std::string csv = testing::TempDir() + "table.csv";
    const auto j = cliJson({"table", "--json", "--csv", csv});
    ASSERT_EQ(j["rows"].size(), 11u);
    const auto& geo = j["rows"][10];
    EXPECT_EQ(geo["network"], "geomean");
    EXPECT_NEAR(geo["perf_hypar_vs_dp_x"].get<double>(), 3.452, 0.0005);
    EXPECT_NEAR(geo["energy_hypar_vs_dp_x"].get<double>(), 1.555, 0.0005);
    EXPECT_NEAR(geo["perf_mp_vs_dp_x"].get<double>(), 0.189, 0.0005);
    EXPECT_NEAR(geo["perf_owt_vs_dp_x"].get<double>(), 3.277, 0.0005);
    EXPECT_NEAR(geo["perf_hypar_torus_vs_dp_htree_x"].get<double>(), 2.907, 0.0005);
    std::ifstream in(csv);
    std::string header;
    std::getline(in, header);
    EXPECT_NE(header.find("comm_hypar_GB"), std::string::npos);
}

TEST(Cli, ScaleSweep) {
    const auto r = cli({"scale", "--network", example("networks/vgg-a.json"), "--json"});
    ASSERT_EQ(r.status, 0) << r.err;
    const auto pts = nlohmann::json::parse(r.out)["points"];
    ASSERT_EQ(pts.size(), 7u);
    const double dp[] = {1.00, 1.45, 1.86, 2.18, 2.38, 2.49, 2.55};
    const double hy[] = {1.00, 1.92, 3.60, 6.39, 10.62, 16.21, 24.03};
    for (size_t i = 0; i < 7; ++i) {
        EXPECT_NEAR(pts[i]["dp_gain"].get<double>(), dp[i], 0.005) << i;
        EXPECT_NEAR(pts[i]["hypar_gain"].get<double>(), hy[i], 0.005) << i;
    }
    EXPECT_NEAR(pts[4]["hypar_total_comm_GB"].get<double>(), 1.408, 0.0005);
    EXPECT_NEAR(pts[6]["dp_total_comm_GB"].get<double>(), 66.957, 0.0005);
}

TEST(CliErrors, MissingFileNamesIt) {
    const auto r = cli({"hypar", "--network", "/nonexistent/net.json"});
    EXPECT_EQ(r.status, 1);
    EXPECT_NE(r.err.find("/nonexistent/net.json"), std::string::npos) << r.err;
}

TEST(CliErrors, BrokenJsonGivesLine) {
    const auto path = tempFile("broken.json", "{\n  \"format\": \"partita-network/1\",\n  \"name\": \n}\n");
    const auto r = cli({"hypar", "--network", path});
    EXPECT_EQ(r.status, 1);
    EXPECT_NE(r.err.find("broken.json: line 4"), std::string::npos) << r.err;
}

TEST(CliErrors, LevelsOutOfRange) {
    for (const char* bad : {"0", "13", "-1"}) {
        const auto r = cli({"hypar", "--network", example("networks/lenet-c.json"), "--levels", bad});
        EXPECT_EQ(r.status, 2) << bad;
        EXPECT_NE(r.err.find("--levels must be between 1 and 12"), std::string::npos) << r.err;
    }
}

TEST(CliErrors, UnknownOptionAndCommand) {
    EXPECT_EQ(cli({"hypar", "--netwrok", "x"}).status, 2);
    EXPECT_NE(cli({"hypar", "--netwrok", "x"}).err.find("unknown option --netwrok"), std::string::npos);
    EXPECT_EQ(cli({"frobnicate"}).status, 2);
    EXPECT_EQ(cli({}).status, 2);
}

TEST(CliErrors, BadGrid) {
    const auto r = cli({"evaluate", "--network", example("networks/lenet-c.json"), "--grid", "0011,0012,0000,0011"});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("level H2, position 4"), std::string::npos) << r.err;
    const auto wrong_levels = cli({"evaluate", "--network", example("networks/lenet-c.json"), "--grid", "0011,0010"});
    EXPECT_EQ(wrong_levels.status, 2);
    EXPECT_NE(wrong_levels.err.find("2 levels"), std::string::npos) << wrong_levels.err;
}

}  // namespace
}  // namespace partita::cli
