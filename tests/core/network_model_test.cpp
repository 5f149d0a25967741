// Network model: shapes of the built-in networks (docs/methods/hypar.md#networks), DAG joins,
// and each kind of impossible network with its own clear error.
#include <gtest/gtest.h>

#include "core/cost/evaluate.h"
#include "core/io/network_io.h"
#include "core/util/error.h"
#include "test_util.h"

namespace partita {
namespace {

std::string networkErrorOf(const std::string& json) {
    return test::errorOf<InputError>([&] { readNetworkJson(json, "net.json"); });
}

std::string wrap(const std::string& ops, const std::string& input = R"({"channels": 1, "height": 8, "width": 8})") {
    return R"({"format": "partita-network/1", "name": "t", "input": )" + input + R"(, "operators": [)" + ops + "]}";
}

TEST(NetworkModel, WeightSumsAndMacsOfTheTenNetworks) {
    const std::pair<const char*, double> weights[] = {
        {"sfc", 140722176},     {"sconv", 100500},      {"lenet-c", 430500},    {"cifar-c", 145376},
        {"alexnet", 62367776},  {"vgg-a", 132851392},   {"vgg-b", 133035712},   {"vgg-c", 133625536},
        {"vgg-d", 138344128},   {"vgg-e", 143652544}};
    for (const auto& [name, expected] : weights) {
        double sum = 0;
        for (const auto& l : test::builtin(name).layers) sum += l.weights();
        EXPECT_EQ(sum, expected) << name;
    }
    // Forward MACs per image, docs/methods/hypar.md#networks [M] (rounded as printed there).
    EXPECT_NEAR(macsPerSample(test::builtin("vgg-a")) / 1e9, 7.609, 5e-4);
    EXPECT_NEAR(macsPerSample(test::builtin("vgg-e")) / 1e9, 19.632, 5e-4);
    EXPECT_NEAR(macsPerSample(test::builtin("alexnet")) / 1e9, 1.135, 5e-4);
    EXPECT_NEAR(macsPerSample(test::builtin("lenet-c")) / 1e6, 2.293, 5e-4);
    EXPECT_NEAR(macsPerSample(test::builtin("sconv")) / 1e6, 12.588, 5e-4);
    EXPECT_NEAR(macsPerSample(test::builtin("cifar-c")) / 1e6, 12.354, 5e-4);
    EXPECT_EQ(macsPerSample(test::builtin("sfc")), 140722176);
}

TEST(NetworkModel, AlexNetAndCifarShapes) {
    const auto a = test::builtin("alexnet");
    const double in[] = {227 * 227, 27 * 27, 13 * 13, 13 * 13, 13 * 13, 1, 1, 1};
    const double conv[] = {55 * 55, 27 * 27, 13 * 13, 13 * 13, 13 * 13, 1, 1, 1};
    const double out[] = {27 * 27, 13 * 13, 13 * 13, 13 * 13, 6 * 6, 1, 1, 1};
    for (size_t l = 0; l < 8; ++l) {
        EXPECT_EQ(a[l].in_hw, in[l]) << a[l].name;
        EXPECT_EQ(a[l].conv_hw, conv[l]) << a[l].name;
        EXPECT_EQ(a[l].out_hw, out[l]) << a[l].name;
    }
    EXPECT_EQ(a[5].c_in, 9216);
    const auto c = test::builtin("cifar-c");
    EXPECT_EQ(c[0].out_hw, 16 * 16);  // 3x3 stride-2 ceil pool
    EXPECT_EQ(c[2].out_hw, 4 * 4);
    EXPECT_EQ(c[3].c_in, 1024);
}

TEST(NetworkModel, StandalonePoolFoldsIntoProducer) {
    const auto net = readNetworkJson(wrap(R"({"name": "c", "type": "conv", "out_channels": 4, "kernel": 3, "padding": 1},
        {"name": "p", "type": "pool", "kernel": 2},
        {"name": "f", "type": "fc", "out_features": 10})"), "t");
    const auto t = weightedLayers(net);
    ASSERT_EQ(t.size(), 2u);
    EXPECT_EQ(t[0].conv_hw, 64);
    EXPECT_EQ(t[0].out_hw, 16);
    EXPECT_EQ(t[1].c_in, 64);
    EXPECT_TRUE(t.isChain());
}

TEST(NetworkModel, ResidualDagHasTwoPredecessors) {
    const auto net = readNetworkJson(wrap(R"({"name": "a", "type": "conv", "out_channels": 4, "kernel": 3, "padding": 1},
        {"name": "b", "type": "conv", "out_channels": 4, "kernel": 3, "padding": 1},
        {"name": "sum", "type": "add", "inputs": ["a", "b"]},
        {"name": "cat", "type": "concat", "inputs": ["sum", "a"]},
        {"name": "c", "type": "conv", "out_channels": 2, "kernel": 1})"), "t");
    const auto t = weightedLayers(net);
    ASSERT_EQ(t.size(), 3u);
    EXPECT_EQ(t[2].preds, (std::vector<int>{0, 1}));
    EXPECT_EQ(t[2].c_in, 8);
    EXPECT_FALSE(t.isChain());
}

TEST(NetworkModel, OperatorsMayAppearBeforeTheirInputs) {
    const auto net = readNetworkJson(wrap(R"({"name": "f", "type": "fc", "out_features": 3, "inputs": ["c"]},
        {"name": "c", "type": "conv", "out_channels": 2, "kernel": 3, "inputs": ["input"]})"), "t");
    EXPECT_EQ(net.ops[0].name, "c");
    EXPECT_EQ(net.ops[1].in_shape.c, 2 * 6 * 6);
}

TEST(NetworkErrors, EachCaseHasItsOwnMessage) {
    EXPECT_EQ(networkErrorOf(wrap(R"({"name": "c", "type": "conv", "out_channels": 2, "kernal": 3})")),
              "net.json: /operators/0: missing key 'kernel' (found 'kernal': a misspelling?)");
    EXPECT_EQ(networkErrorOf(wrap(R"({"name": "c", "type": "conv", "out_channels": 2, "kernel": 3, "bias": true})")),
              "net.json: /operators/0/bias: unknown key 'bias'");
    EXPECT_EQ(networkErrorOf(wrap(R"({"name": "c", "type": "lstm"})")),
              "net.json: /operators/0/type: unknown operator type 'lstm' (use conv, fc, pool, add, concat, "
              "conv_transpose, matmul, elementwise or layout)");
    EXPECT_EQ(networkErrorOf(wrap(R"({"name": "c", "type": "conv", "out_channels": 0, "kernel": 3})")),
              "net.json: /operators/0/out_channels: must be between 1 and 16777216, got 0");
    EXPECT_EQ(networkErrorOf(wrap(R"({"name": "c", "type": "conv", "out_channels": 2, "kernel": -3})")),
              "net.json: /operators/0/kernel: must be positive, got -3");
    EXPECT_EQ(networkErrorOf(wrap(R"({"name": "c", "type": "fc", "out_features": 2})", R"({"channels": -1})")),
              "net.json: /input/channels: must be between 1 and 16777216, got -1");
    EXPECT_EQ(networkErrorOf(wrap(R"({"name": "c", "type": "conv", "out_channels": 2, "kernel": 3, "stride": 2})")),
              "net.json: operator 'c': window 3 with stride 2 and padding 0 does not tile input 8 (5 is not a multiple "
              "of 2); set \"rounding\" to \"floor\" or \"ceil\"");
    EXPECT_EQ(networkErrorOf(wrap(R"({"name": "c", "type": "conv", "out_channels": 2, "kernel": 9})")),
              "net.json: operator 'c': window 9 does not fit input 8 with padding 0");
    EXPECT_EQ(networkErrorOf(wrap(R"({"name": "a", "type": "fc", "out_features": 2, "inputs": ["b"]},
                              {"name": "b", "type": "fc", "out_features": 2, "inputs": ["a"]})")),
              "net.json: operator 'a': the operators form a cycle: a -> b -> a");
    EXPECT_EQ(networkErrorOf(wrap(R"({"name": "a", "type": "fc", "out_features": 2, "inputs": ["nope"]})")),
              "net.json: operator 'a': unknown input 'nope'");
    EXPECT_EQ(networkErrorOf(wrap(R"({"name": "a", "type": "fc", "out_features": 2}, {"name": "a", "type": "fc", "out_features": 2})")),
              "net.json: operator 'a': duplicate operator name");
    EXPECT_EQ(networkErrorOf(wrap(R"({"name": "a", "type": "conv", "out_channels": 2, "kernel": 3},
                              {"name": "s", "type": "add", "inputs": ["a", "input"]})")),
              "net.json: operator 's': inputs have different shapes (2x6x6 vs 1x8x8)");
    EXPECT_EQ(networkErrorOf(R"({"format": "partita-network/2", "name": "t"})"),
              "net.json: /format: unsupported version 'partita-network/2' (this build reads 'partita-network/1')");
    EXPECT_EQ(networkErrorOf(R"({"format": "partita-network/1", "name": "t", "input": {"channels": 1}, "operators": []})"),
              "net.json: the network has no operators");
    EXPECT_EQ(networkErrorOf(R"({"format": "partita-network/1", "name": 5})"), "net.json: /name: expected a string, found number");
    EXPECT_EQ(networkErrorOf("[1, 2]"), "net.json: /: expected a JSON object, found array");
}

TEST(NetworkErrors, BrokenJsonNamesLineAndColumn) {
    const std::string msg = networkErrorOf("{\n  \"format\": \"partita-network/1\",\n  \"name\": ,\n}");
    EXPECT_EQ(msg.rfind("net.json: line 3, column 11: malformed JSON", 0), 0u) << msg;
}

TEST(NetworkFormat, RoundTripOfEveryBuiltIn) {
    for (const char* name : {"sfc", "sconv", "lenet-c", "cifar-c", "alexnet", "vgg-a", "vgg-b", "vgg-c", "vgg-d",
                             "vgg-e", "trick-vgge-conv5", "trick-vgge-fc3"}) {
        const Network a = loadNetwork(test::example(std::string("networks/") + name + ".json"));
        const std::string text = writeNetworkJson(a);
        const Network b = readNetworkJson(text, "round-trip");
        EXPECT_EQ(writeNetworkJson(b), text) << name;
        const auto ta = weightedLayers(a), tb = weightedLayers(b);
        ASSERT_EQ(ta.size(), tb.size());
        for (size_t l = 0; l < ta.size(); ++l) {
            EXPECT_EQ(ta[l].weights(), tb[l].weights());
            EXPECT_EQ(ta[l].out_hw, tb[l].out_hw);
        }
    }
}

}  // namespace
}  // namespace partita
