// partita-cli l2s: tables, JSON, sweep, compare and errors.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "tests/cli/cli_test_util.h"

namespace partita::cli::test {
namespace {

using nlohmann::json;

TEST(L2sCli, HelpAndTable) {
    const Result help = cli({"l2s", "--help"});
    EXPECT_EQ(help.status, 0);
    EXPECT_NE(help.out.find("--compare"), std::string::npos);
    const Result r = cli({"l2s", "--preset", "convnet"});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("16 cores on a 4x4 mesh"), std::string::npos);
    EXPECT_NE(r.out.find("conv2"), std::string::npos);
    EXPECT_NE(r.out.find("245,760 B"), std::string::npos);  // 16x16x32 x 2 B x 15
    EXPECT_NE(r.out.find("speedup 1.00x"), std::string::npos);
}

TEST(L2sCli, JsonMatchesTheOracle) {
    const json j = cliJson({"l2s", "--network", example("networks/cifar-c.json"), "--cores", "4", "--strategy",
                            "conv2=grouped,conv3=sparse", "--keep", "d0=1,d1=1,d2=0", "--json"});
    EXPECT_EQ(j["mesh"], "2x2");
    EXPECT_EQ(j["rows"][1]["scheme"], "grouped");
    EXPECT_EQ(j["rows"][1]["volume_B"], 0);
    EXPECT_EQ(j["rows"][2]["scheme"], "sparse");
    // conv3 reads 8x8x32 produced 8 channels per core: 1,024 B per flow, 8 one-hop flows kept.
    EXPECT_EQ(j["rows"][2]["volume_B"], 8 * 1024);
    EXPECT_EQ(j["rows"][2]["byte_hops"], 8 * 1024);
    EXPECT_EQ(j["rows"][3]["volume_B"], 4 * 4 * 64 * 2 * 3);
    EXPECT_GT(j["vs_traditional"]["speedup"].get<double>(), 1);
    EXPECT_EQ(j["distance"][0][3], 2);
}

TEST(L2sCli, SsMaskPresetShowsPaperReported) {
    const Result r = cli({"l2s", "--preset", "mlp", "--mask", "ss_mask"});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("exact counts per hop, hop keep 0.55,0,0, seed 1"), std::string::npos);
    EXPECT_NE(r.out.find("lane-filling compute, burst NoC at 0.4 flits/cycle/node"), std::string::npos);
    EXPECT_NE(r.out.find("paper-reported (Table IV, SS_Mask): speedup 1.59x, traffic 11 %"), std::string::npos);
}

TEST(L2sCli, Sweep) {
    const json j = cliJson({"l2s", "--preset", "lenet", "--mask", "ss_mask", "--sweep", "--json"});
    ASSERT_EQ(j["sweep"].size(), 4u);
    EXPECT_EQ(j["sweep"][1]["mesh"], "4x2");
    EXPECT_EQ(j["sweep"][3]["cores"], 32);
    EXPECT_EQ(j["sweep"][3]["paper_reported"]["speedup"], 1.58);
    const json g = json::parse(cli({"l2s", "--preset", "imagenet10-p3", "--strategy", "conv2=grouped,conv3=grouped",
                                     "--sweep", "--json"}).out);
    EXPECT_EQ(g["variant"], "grouped");
    EXPECT_EQ(g["sweep"][2]["paper_reported"]["speedup"], 6.0);  // Table V (Table III says 4.6x)
    const Result t = cli({"l2s", "--preset", "lenet", "--mask", "ss_mask", "--sweep"});
    EXPECT_NE(t.out.find("8x4"), std::string::npos);
}

TEST(L2sCli, Compare) {
    const Result r = cli({"l2s", "--preset", "convnet", "--compare"});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("SS_Mask"), std::string::npos);
    EXPECT_NE(r.out.find("1.32x"), std::string::npos);  // the paper-reported column
    EXPECT_NE(r.out.find("conv2,conv3"), std::string::npos);
    const json j = json::parse(cli({"l2s", "--preset", "convnet", "--compare", "--json"}).out);
    ASSERT_EQ(j["variants"].size(), 3u);
    EXPECT_EQ(j["variants"][1]["paper_reported"]["speedup"], 1.32);
    EXPECT_EQ(j["variants"][2]["engine"]["traffic_rate"].get<double>() < 1, true);
}

TEST(L2sCli, ModelOptions) {
    // The old models (docs/methods/l2s.md#model-options) by name: LeNet's traditional baseline as before
    // the model options (conv1 14,400 cycles).
    const json old = cliJson({"l2s", "--preset", "lenet", "--compute", "channel-only", "--comm", "ideal", "--json"});
    EXPECT_EQ(old["rows"][0]["compute_cycles"], 14400);
    EXPECT_EQ(old["rows"][3]["comm_cycles"], 8 + 6 * 4);  // fc2: ceil(16 link flits / 2) + 6 hops x 4
    const json now = cliJson({"l2s", "--preset", "lenet", "--json"});
    EXPECT_EQ(now["rows"][0]["compute_cycles"], 113);
    EXPECT_EQ(now["rows"][3]["comm_cycles"], 40 + 6 * 4);  // ceil(16 / 0.4) + 6 hops x 4
    EXPECT_EQ(cliJson({"l2s", "--preset", "lenet", "--rate", "0.8", "--json"})["rows"][3]["comm_cycles"], 20 + 24);
    const json hop = cliJson({"l2s", "--preset", "convnet", "--mask", "ss_mask", "--hop-keep", "1,0,0", "--json"});
    EXPECT_EQ(hop["keep"], json({1, 1, 0, 0, 0}));
    for (const auto& bad : std::vector<std::vector<std::string>>{{"--compute", "pixel"}, {"--comm", "booksim"},
                                                                 {"--rate", "0"}, {"--hop-keep", "1,0"}}) {
        std::vector<std::string> args = {"l2s", "--preset", "lenet"};
        args.insert(args.end(), bad.begin(), bad.end());
        const Result r = cli(args);
        EXPECT_EQ(r.status, 2) << bad[0];
        EXPECT_NE(r.err.find(bad[0]), std::string::npos) << r.err;
    }
}

TEST(L2sCli, CompareShowsGapsBesideThePaper) {
    const Result r = cli({"l2s", "--preset", "lenet", "--compare"});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("ratio"), std::string::npos);
    EXPECT_NE(r.out.find("0.93"), std::string::npos);  // 1.41x / 1.51x
    EXPECT_NE(r.out.find("Baseline communicates 43.6 % of its time (552 of 1,267 cycles); paper-implied 43.9 %"),
              std::string::npos);
    EXPECT_NE(r.out.find("gap SS_Mask: "), std::string::npos);
    const json j = json::parse(cli({"l2s", "--preset", "caffenet", "--compare", "--json"}).out);
    EXPECT_NEAR(j["paper_implied_comm_share"].get<double>(), 0.2114, 1e-4);
    EXPECT_FALSE(j["variants"][1]["gap"].get<std::string>().empty());
    // Off the default models the measured reasons are not claimed.
    const json off = json::parse(cli({"l2s", "--preset", "caffenet", "--compare", "--comm", "ideal", "--json"}).out);
    EXPECT_TRUE(off["variants"][1]["gap"].get<std::string>().empty());
}

TEST(L2sCli, Reference) {
    const Result r = cli({"l2s", "--reference"});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("never computed"), std::string::npos);
    EXPECT_NE(r.out.find("VGG19: Conv2 42M"), std::string::npos);
    const json j = json::parse(cli({"l2s", "--reference", "--json"}).out);
    EXPECT_EQ(j["rows"][2]["variant"], "SS_Mask");
    EXPECT_EQ(j["rows"][2]["speedup"], 1.59);
}

TEST(L2sCli, MaskFileCsvAndExport) {
    const auto dir = std::filesystem::temp_directory_path() / "partita-l2s-cli";
    std::filesystem::create_directories(dir);
    const std::string masks = (dir / "masks.json").string(), csv = (dir / "rows.csv").string();
    const Result e = cli({"l2s", "--preset", "lenet", "--cores", "4", "--mask", "ss_mask", "--export-masks", masks,
                          "--csv", csv});
    ASSERT_EQ(e.status, 0) << e.err;
    const json j = cliJson({"l2s", "--preset", "lenet", "--cores", "4", "--mask", masks, "--json"});
    EXPECT_EQ(j["rows"][1]["scheme"], "sparse");
    EXPECT_EQ(j["rows"][1]["longest_hops"], 1);
    const std::string strength = (dir / "strength.json").string();
    ASSERT_EQ(cli({"l2s", "--preset", "lenet", "--export-strength", strength, "--eps", "0.5"}).status, 0);
    std::ifstream sf(strength);
    const json sj = json::parse(sf);
    EXPECT_EQ(sj["format"], "partita-l2s-strength/1");
    EXPECT_EQ(sj["distance"][5][15], 4);
    EXPECT_EQ(sj["ss_mask"][5][15], 4.5);
    EXPECT_EQ(sj["ss_mask"][5][5], 0.5);
    EXPECT_EQ(sj["ss"][5][15], 1);
    std::ifstream f(csv);
    std::string header;
    std::getline(f, header);
    EXPECT_EQ(header.rfind("layer,scheme,traffic (B)", 0), 0u);
    std::filesystem::remove_all(dir);
}

TEST(L2sCli, Errors) {
    EXPECT_EQ(cli({"l2s"}).status, 2);
    EXPECT_EQ(cli({"l2s", "--preset", "lenet", "--network", "x.json"}).status, 2);
    const Result p = cli({"l2s", "--preset", "resnet"});
    EXPECT_EQ(p.status, 2);
    EXPECT_NE(p.err.find("unknown preset 'resnet'"), std::string::npos);
    const Result g = cli({"l2s", "--preset", "lenet", "--strategy", "conv2=grouped"});
    EXPECT_EQ(g.status, 2);
    EXPECT_NE(g.err.find("cannot be grouped"), std::string::npos);
    EXPECT_EQ(cli({"l2s", "--preset", "lenet", "--strategy", "dense"}).status, 2);
    EXPECT_EQ(cli({"l2s", "--preset", "lenet", "--keep", "d0=2"}).status, 2);
    EXPECT_EQ(cli({"l2s", "--preset", "lenet", "--mesh", "4by4"}).status, 2);
    const Result m = cli({"l2s", "--preset", "lenet", "--cores", "16", "--mesh", "3x3"});
    EXPECT_NE(m.status, 0);
    EXPECT_NE(m.err.find("3x3 does not hold 16"), std::string::npos);
    const Result f = cli({"l2s", "--preset", "lenet", "--mask", "/nonexistent/masks.json"});
    EXPECT_EQ(f.status, 1);
    EXPECT_NE(f.err.find("/nonexistent/masks.json"), std::string::npos);
    EXPECT_EQ(cli({"l2s", "--preset", "lenet", "--sweep", "--compare"}).status, 2);
}

TEST(L2sCli, MeshLimits) {
    // Each was an int overflow (a crash) or ran until memory ran out; now a usage error naming the limit.
    for (const std::vector<std::string>& args : {std::vector<std::string>{"--cores", "65536"},
                                                 std::vector<std::string>{"--cores", "5000"},
                                                 std::vector<std::string>{"--cores", "513"}}) {
        std::vector<std::string> argv{"l2s", "--preset", "caffenet"};
        argv.insert(argv.end(), args.begin(), args.end());
        const Result r = cli(argv);
        EXPECT_EQ(r.status, 2) << args[1];
        EXPECT_NE(r.err.find("--cores must be between 1 and 512, got " + args[1]), std::string::npos) << r.err;
    }
    const Result huge = cli({"l2s", "--preset", "caffenet", "--mesh", "65536x65537"});
    EXPECT_EQ(huge.status, 2);
    EXPECT_NE(huge.err.find("a side above 512 cores"), std::string::npos) << huge.err;
    const Result product = cli({"l2s", "--preset", "caffenet", "--mesh", "512x2"});
    EXPECT_EQ(product.status, 2);
    EXPECT_NE(product.err.find("--mesh 512x2 holds 1024 cores, more than 512"), std::string::npos) << product.err;
    // The largest mesh itself runs.
    const Result largest = cli({"l2s", "--preset", "lenet", "--mesh", "32x16"});
    ASSERT_EQ(largest.status, 0) << largest.err;
    EXPECT_NE(largest.out.find("512 cores on a 32x16 mesh"), std::string::npos) << largest.out;
}

TEST(L2sCli, OverflowedNetworkSizesAreAnError) {
    // Input 1 x 1 x (2^63 - 1), 64 channels: the fc after it reads 64 (2^63 - 1) values, which wrapped to -64.
    const std::string path = testing::TempDir() + "l2s-wide.json";
    std::ofstream(path) << R"({"format": "partita-network/1", "name": "wide",
 "input": {"channels": 1, "height": 1, "width": 9223372036854775807},
 "operators": [{"name": "c1", "type": "conv", "out_channels": 64, "kernel": 1},
               {"name": "fc2", "type": "fc", "out_features": 7}]})";
    const Result r = cli({"l2s", "--network", path, "--json"});
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.out.find("-448"), std::string::npos);
    EXPECT_NE(r.err.find("l2s-wide.json: /input/width: must be between 1 and 16777216"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace partita::cli::test
