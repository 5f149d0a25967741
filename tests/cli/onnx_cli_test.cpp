// partita-cli on ONNX models built in the test: inspect's table and totals (counted by hand),
// --input / --dim, convert's round trip, every method on the imported graph, and refusals.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/cli/cli_test_util.h"
#include "tests/core/onnx_builder.h"

namespace partita::cli {
namespace {

using partita::test::OnnxBuilder;
using test::cli;
using test::cliJson;

// x [N, 3, H, W] (N and H, W symbolic) -> depthwise-separable block -> global pool -> classifier.
std::string smallCnn() {
    OnnxBuilder b(13, "small-cnn");
    b.input("x", {std::string("N"), std::int64_t{3}, std::string("H"), std::string("W")});
    b.weight("w_stem", {8, 3, 3, 3});
    OnnxBuilder::attrInts(b.node("Conv", {"x", "w_stem"}, {"stem"}, "stem"), "pads", {1, 1, 1, 1});
    b.node("Relu", {"stem"}, {"stem_act"}, "stem_act");
    b.weight("w_dw", {8, 1, 3, 3});
    auto& dw = b.node("Conv", {"stem_act", "w_dw"}, {"dw"}, "dw");
    OnnxBuilder::attrInt(dw, "group", 8);
    OnnxBuilder::attrInts(dw, "pads", {1, 1, 1, 1});
    OnnxBuilder::attrInts(dw, "strides", {2, 2});
    b.node("HardSigmoid", {"dw"}, {"dw_act"}, "dw_act");
    b.weight("w_pw", {16, 8, 1, 1});
    b.node("Conv", {"dw_act", "w_pw"}, {"pw"}, "pw");
    b.node("GlobalAveragePool", {"pw"}, {"gap"}, "gap");
    b.node("Flatten", {"gap"}, {"flat"}, "flat");
    b.weight("w_fc", {10, 16});
    OnnxBuilder::attrInt(b.node("Gemm", {"flat", "w_fc"}, {"logits"}, "fc"), "transB", 1);
    b.output("logits");
    return b.write("small-cnn");
}

TEST(OnnxCli, InspectCountsByHand) {
    const std::string model = smallCnn();
    const auto j = cliJson({"inspect", "--network", model, "--input", "x=2,3,32,32", "--json"});
    // stem 3x3x3x8 = 216 weights at 32x32 positions; depthwise 8x3x3 = 72 at 16x16; pointwise 8x16 = 128 at
    // 16x16; fc 16x10 = 160.
    EXPECT_EQ(j["weights"].get<double>(), 216 + 72 + 128 + 160);
    EXPECT_EQ(j["macs_per_sample"].get<double>(), 216.0 * 1024 + 72.0 * 256 + 128.0 * 256 + 160);
    EXPECT_EQ(j["weighted_layers"].get<int>(), 4);
    EXPECT_EQ(j["operators"].get<int>(), 8);
    EXPECT_TRUE(j["unsupported"].empty());
    // The symbols instead of the whole shape give the same network.
    const auto k = cliJson({"inspect", "--network", model, "--dim", "N=2", "--dim", "H=32", "--dim", "W=32", "--json"});
    EXPECT_EQ(k["macs_per_sample"], j["macs_per_sample"]);
    // Left open: batch 1 and 224 px sides, and said so.
    const auto d = cliJson({"inspect", "--network", model, "--json"});
    EXPECT_EQ(d["input_shape"], (std::vector<int>{3, 224, 224}));
    EXPECT_EQ(d["input_defaults"], nlohmann::json::parse(R"([{"input": "x", "sizes": [1, 3, 224, 224]}])"));
    EXPECT_TRUE(j["input_defaults"].empty());
    EXPECT_TRUE(k["input_defaults"].empty());  // every symbol set
    // Only what was left open is a default: N given, H and W not.
    const auto part = cliJson({"inspect", "--network", model, "--dim", "N=2", "--json"});
    EXPECT_EQ(part["input_defaults"], nlohmann::json::parse(R"([{"input": "x", "sizes": [2, 3, 224, 224]}])"));
    const auto text = cli({"inspect", "--network", model});
    EXPECT_NE(text.out.find("Input sizes not given, defaults used: --input x=1,3,224,224 (set them with --input"),
              std::string::npos)
        << text.out;
    EXPECT_EQ(cli({"inspect", "--network", model, "--input", "x=1,3,32,32"}).out.find("defaults used"), std::string::npos);
}

TEST(OnnxCli, ConvertRoundTripKeepsEveryTotal) {
    const std::string model = smallCnn();
    const std::string json = testing::TempDir() + "small-cnn.json";
    const auto r = cli({"convert", "--network", model, "--input", "x=1,3,32,32", "--out", json});
    ASSERT_EQ(r.status, 0) << r.err;
    const auto a = cliJson({"inspect", "--network", model, "--input", "x=1,3,32,32", "--json"});
    const auto b = cliJson({"inspect", "--network", json, "--json"});
    for (const char* key : {"operators", "weighted_layers", "weights", "macs_per_sample"}) EXPECT_EQ(a[key], b[key]) << key;
}

TEST(OnnxCli, EveryMethodRunsOnTheImportedGraph) {
    const std::string model = smallCnn();
    for (const std::vector<std::string>& args :
         {std::vector<std::string>{"hypar", "--levels", "2"}, {"accpar", "--levels", "2"},
          {"simulate", "--topology", "p100-16", "--method", "dp"},
          {"mcmc", "--topology", "p100-16", "--iterations", "200", "--seed", "1"}}) {
        std::vector<std::string> full = args;
        for (const char* extra : {"--network", "", "--input", "x=1,3,32,32", "--json"}) full.push_back(extra);
        full[args.size() + 1] = model;
        const auto r = cli(full);
        EXPECT_EQ(r.status, 0) << args[0] << ": " << r.err;
    }
}

TEST(OnnxCli, RefusalsNameWhatIsWrong) {
    OnnxBuilder b;
    b.input("x", {std::int64_t{1}, std::int64_t{4}});
    b.node("Relu", {"x"}, {"a"}, "relu");
    b.node("If", {"a"}, {"y"}, "branchy");
    b.node("Loop", {"a"}, {"z"}, "loopy");
    b.output("y");
    const std::string model = b.write("if");
    const auto r = cli({"inspect", "--network", model, "--json"});
    EXPECT_EQ(r.status, 1);
    const auto j = nlohmann::json::parse(r.out);
    ASSERT_EQ(j["unsupported"].size(), 2u);
    EXPECT_EQ(j["unsupported"][0]["name"], "branchy");
    EXPECT_EQ(j["unsupported"][1]["op_type"], "Loop");
    EXPECT_NE(r.err.find("branchy"), std::string::npos);
    const auto bad = cli({"inspect", "--network", model, "--input", "x"});
    EXPECT_EQ(bad.status, 2);
    EXPECT_NE(bad.err.find("--input expects NAME=VALUE"), std::string::npos);
    const std::string junk = OnnxBuilder::writeBytes(std::string("\\x08\\x07garbage", 9), "junk");
    const auto broken = cli({"inspect", "--network", junk});
    EXPECT_EQ(broken.status, 1);
    EXPECT_NE(broken.err.find(junk), std::string::npos);
}

TEST(OnnxCli, InspectJsonOfAnOperatorNameThatIsNotUtf8NamesTheFileAndTheNode) {
    OnnxBuilder b(13, "bad-utf8");
    b.input("x", {std::int64_t{1}, std::int64_t{4}});
    b.node(std::string("Re\xfflu"), {"x"}, {"y"}, "act");
    b.output("y");
    const std::string model = b.write("bad-utf8");
    const test::Result r = test::cli({"inspect", "--network", model, "--json"});
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(r.err, "partita-cli inspect: error: " + model +
                         ": node #0: its op_type is not valid UTF-8 (byte 0xFF at offset 2)\n");
    std::filesystem::remove(model);
}

}  // namespace
}  // namespace partita::cli
