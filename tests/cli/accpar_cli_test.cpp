// partita-cli accpar and table --study accpar, in-process.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "core/edit/templates.h"
#include "core/io/network_io.h"
#include "tests/cli/cli_test_util.h"

namespace partita::cli {
namespace {

using test::cli;
using test::cliJson;
using test::example;

TEST(AccParCli, TransformerJson) {
    const auto j = cliJson({"accpar", "--network", example("networks/transformer-mlp.json"), "--levels", "1", "--batch",
                            "2048", "--json"});
    EXPECT_EQ(j["grid"], std::vector<std::string>{"21"});
    EXPECT_EQ(j["ratios"], (std::vector<std::vector<double>>{{0.5, 0.5}}));
    EXPECT_EQ(j["accelerators"].get<int>(), 2);
}

TEST(AccParCli, MixedPresetJson) {
    const auto j = cliJson({"accpar", "--network", example("networks/alexnet.json"), "--array",
                            example("arrays/tpu-mixed-128.json"), "--batch", "512", "--json"});
    ASSERT_EQ(j["grid"].size(), 7u);
    ASSERT_EQ(j["ratios"].size(), 7u);
    for (const auto& row : j["grid"]) EXPECT_EQ(row.get<std::string>().size(), 8u);
    for (const auto& row : j["ratios"]) EXPECT_EQ(row.size(), 8u);
    EXPECT_EQ(j["grid_nodes"][0], "64 x tpu-v3 | 64 x tpu-v2");
    EXPECT_EQ(j["level_comm"].size(), 7u);
    EXPECT_GT(j["step_time_s"].get<double>(), 0);
    EXPECT_GE(j["speedup_vs_dp"].get<double>(), j["speedup_vs_owt"].get<double>());
    EXPECT_GE(j["speedup_vs_owt"].get<double>(), 1.0);
    EXPECT_GE(j["speedup_vs_hypar"].get<double>(), 1.0);
    EXPECT_EQ(j["baselines"]["dp"]["grid"][0], "00000000");
    EXPECT_EQ(j["baselines"]["owt"]["grid"][0], "00000111");
    EXPECT_EQ(j["baselines"]["dp"]["ratios"][0][0].get<double>(), 0.5);
    EXPECT_FALSE(j["tree"].empty());
    // The default array is the mixed preset; the same answer without --array.
    const auto d = cli({"accpar", "--network", example("networks/alexnet.json"), "--json"});
    EXPECT_EQ(nlohmann::json::parse(d.out)["step_time_s"], j["step_time_s"]);
    // Balanced baselines get the ratio model's ratios.
    const auto b = cli({"accpar", "--network", example("networks/alexnet.json"), "--balanced-baselines", "--json"});
    EXPECT_GT(nlohmann::json::parse(b.out)["baselines"]["dp"]["ratios"][0][0].get<double>(), 0.5);
}

// The editor's Transformer template, three blocks, saved as the editor saves it (issue 26): its Q, K
// and V projections all read the block input, which AccPar's level solver refused.
TEST(AccParCli, EditorTransformerTemplate) {
    edit::Document doc;
    doc.apply(edit::setHeader(doc, {"encoder-x3", "", {64, 8, 8}}));
    edit::Placement where;
    for (int b = 0; b < 3; ++b) {
        doc.apply(edit::insertTemplate(doc, edit::TransformerEncoderParams{}, where));
        where.after = doc.ids().back();
    }
    ASSERT_TRUE(doc.valid());
    const std::string path = testing::TempDir() + "encoder-x3.json";
    std::ofstream(path) << writeNetworkJson(doc.toNetwork());
    const auto r = cli({"accpar", "--network", path, "--json"});
    ASSERT_EQ(r.status, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_GT(j["step_time_s"].get<double>(), 0);
    EXPECT_GE(j["speedup_vs_dp"].get<double>(), 1.0);
    for (const auto& row : j["grid"]) EXPECT_EQ(row.get<std::string>().size(), 18u);  // 6 weighted layers x 3
}

// Issue 26 item 5: HyPar refuses a network that is not a chain, so AccPar's summary shows it refused
// with HyPar's reason, never as a ratio.
TEST(AccParCli, HyParRefusedOnANonChainIsNoRatio) {
    const std::vector<std::string> args{"accpar", "--network", example("networks/resnet-18.json"), "--levels", "2"};
    const auto r = cli(args);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("HyPar refused: HyPar needs a chain of weighted layers"), std::string::npos) << r.out;
    std::istringstream lines(r.out);
    bool row = false;  // the scheme table's HyPar row says refused, with no time or ratio
    for (std::string line; std::getline(lines, line);)
        if (line.starts_with("HyPar ") && !line.starts_with("HyPar refused:")) {
            row = true;
            EXPECT_NE(line.find("refused"), std::string::npos) << line;
            EXPECT_EQ(line.find('.'), std::string::npos) << line;
        }
    EXPECT_TRUE(row) << r.out;
    auto json = args;
    json.push_back("--json");
    const auto j = cliJson(json);
    EXPECT_TRUE(j["speedup_vs_hypar"].is_null());
    EXPECT_NE(j["baselines"]["hypar"]["refused"].get<std::string>().find("HyPar plans chains only"), std::string::npos);
    // A chain keeps its ratio.
    const auto chain = cliJson({"accpar", "--network", example("networks/alexnet.json"), "--levels", "2", "--json"});
    EXPECT_TRUE(chain["speedup_vs_hypar"].is_number());
}

TEST(AccParCli, ReferenceCompatible) {
    const auto j = cliJson({"accpar", "--network", std::string(PARTITA_TEST_DATA) + "/accpar/Alexnet.txt", "--levels",
                            "7", "--reference-compatible", "--json"});
    EXPECT_EQ(j["grid"], (std::vector<std::string>{"00000121", "00000211", "00000121", "00000212", "00000121",
                                                   "00021212", "00001121"}));
    EXPECT_EQ(j["level_comm_elements"][0].get<double>(), 10811424);
}

TEST(AccParCli, StudyTable) {
    const std::string csv = testing::TempDir() + "accpar-study.csv";
    const auto r = cli({"table", "--study", "accpar", "--json", "--csv", csv});
    ASSERT_EQ(r.status, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["accelerators"].get<int>(), 128);
    EXPECT_EQ(j["batch"].get<double>(), 512);
    ASSERT_GE(j["rows"].size(), 1u);
    EXPECT_EQ(j["rows"][0]["network"], "AlexNet");
    for (const auto& row : j["rows"]) {
        EXPECT_GE(row["perf_accpar_vs_dp_x"].get<double>(), row["perf_hypar_vs_dp_x"].get<double>()) << row;
        EXPECT_GE(row["perf_accpar_vs_dp_x"].get<double>(), row["perf_owt_vs_dp_x"].get<double>()) << row;
    }
    EXPECT_GE(j["geomean"]["perf_accpar_vs_dp_x"].get<double>(), j["geomean"]["perf_hypar_vs_dp_x"].get<double>());
    std::ifstream in(csv);
    std::string header;
    std::getline(in, header);
    // RFC 4180 lines end in CR LF.
    EXPECT_EQ(header, "network,perf_owt_vs_dp_x,perf_hypar_vs_dp_x,perf_accpar_vs_dp_x,step_dp_s,step_accpar_s\r");
}

TEST(AccParCli, HyparTableHasAccParColumn) {
    const auto j = cliJson({"table", "--networks", example("networks/lenet-c.json"), "--json"});
    EXPECT_GE(j["rows"][0]["perf_accpar_vs_dp_x"].get<double>(), 1.0);
}

TEST(AccParCli, Errors) {
    auto r = cli({"accpar", "--network", example("networks/alexnet.json"), "--ratio-model", "Q"});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("unknown ratio model 'Q'"), std::string::npos) << r.err;
    r = cli({"hypar", "--network", example("networks/alexnet.json"), "--array", example("arrays/tpu-mixed-128.json")});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("partita-cli accpar"), std::string::npos) << r.err;
    r = cli({"accpar", "--network", example("networks/alexnet.json"), "--array", example("arrays/tpu-mixed-128.json"),
             "--levels", "3"});
    EXPECT_EQ(r.status, 2);
    r = cli({"table", "--study", "hypar"});
    EXPECT_EQ(r.status, 2);
    const std::string bad = testing::TempDir() + "bad-groups.json";
    std::ofstream(bad) << R"({"format": "partita-array/1", "name": "bad", "accelerators": [
        {"kind": "a", "count": 2, "throughput_flops": 1e12, "bandwidth_Bps": 0}]})";
    r = cli({"accpar", "--network", example("networks/alexnet.json"), "--array", bad});
    EXPECT_EQ(r.status, 1);
    EXPECT_NE(r.err.find(bad + ": /accelerators/0/bandwidth_Bps: must be positive"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace partita::cli
