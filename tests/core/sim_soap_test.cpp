// SOAP configurations: validity rules, random proposals, strategy JSON.
#include <gtest/gtest.h>

#include "core/io/network_io.h"
#include "core/sim/soap.h"
#include "core/util/error.h"
#include "sim_test_util.h"
#include "test_util.h"

namespace partita::sim {
namespace {

using test::errorOf;
using test::on;

Network alexnet() { return loadNetwork(partita::test::example("networks/alexnet.json")); }

TEST(SimSoap, DimensionKindsFollowTable2) {
    EXPECT_EQ(dimKind(OpType::Conv, Dim::Sample), DimKind::Sample);
    EXPECT_EQ(dimKind(OpType::Conv, Dim::Channel), DimKind::Parameter);
    EXPECT_EQ(dimKind(OpType::Conv, Dim::Height), DimKind::Attribute);
    EXPECT_EQ(dimKind(OpType::FullyConnected, Dim::Channel), DimKind::Parameter);
    EXPECT_EQ(dimKind(OpType::FullyConnected, Dim::Width), DimKind::Fixed);
    EXPECT_EQ(dimKind(OpType::Pool, Dim::Channel), DimKind::Attribute);
}

TEST(SimSoap, TaskIndexIsMixedRadixSampleFastest) {
    const OpConfig c = on({2, 3, 1, 2}, std::vector<int>(12, 0));
    EXPECT_EQ(c.parts(), 12);
    EXPECT_EQ(c.coords(0), (Degrees{0, 0, 0, 0}));
    EXPECT_EQ(c.coords(1), (Degrees{1, 0, 0, 0}));
    EXPECT_EQ(c.coords(2), (Degrees{0, 1, 0, 0}));
    EXPECT_EQ(c.coords(11), (Degrees{1, 2, 0, 1}));
    for (int k = 0; k < 12; ++k) EXPECT_EQ(c.index(c.coords(k)), k);
}

TEST(SimSoap, ValidationErrorsNameTheOperator) {
    const Network net = alexnet();  // conv1 out 96x27x27 (post-pool), fc1 4096
    const int conv1 = net.find("conv1"), fc1 = net.find("fc1");
    EXPECT_EQ(errorOf([&] { validateConfig(net, conv1, 8, on({1, 1, 2, 1}, {0, 1}), 4); }),
              "operator 'conv1': degree 2 along height does not divide 27");
    EXPECT_EQ(errorOf([&] { validateConfig(net, conv1, 6, on({4, 1, 1, 1}, {0, 1, 2, 3}), 4); }),
              "operator 'conv1': degree 4 along sample does not divide 6");
    EXPECT_EQ(errorOf([&] { validateConfig(net, fc1, 8, on({1, 1, 1, 1}, {0}), 4); }), "no error");
    EXPECT_EQ(errorOf([&] { validateConfig(net, fc1, 8, on({1, 2, 1, 1}, {0}), 4); }),
              "operator 'fc1': the degrees make 2 tasks but 1 devices are listed");
    EXPECT_EQ(errorOf([&] { validateConfig(net, fc1, 8, on({8, 1, 1, 1}, {0, 1, 2, 3, 4, 5, 6, 7}), 4); }),
              "operator 'fc1': the degrees make 8 tasks, more than the 4 devices");
    EXPECT_EQ(errorOf([&] { validateConfig(net, conv1, 8, on({1, 3, 1, 1}, {0, 1, 4}), 4); }),
              "operator 'conv1': task 2 is placed on device 4, which does not exist (the topology has 4 devices)");
    EXPECT_EQ(errorOf([&] { validateConfig(net, conv1, 8, on({2, 1, 1, 1}, {1, 1}), 4); }),
              "operator 'conv1': tasks 0 and 1 share device 1 (allow shared devices to permit this)");
    EXPECT_EQ(errorOf([&] { validateConfig(net, conv1, 8, on({2, 1, 1, 1}, {1, 1}), 4, true); }), "no error");
    EXPECT_EQ(errorOf([&] { validateConfig(net, conv1, 8, on({0, 1, 1, 1}, {}), 4); }),
              "operator 'conv1': the degree along sample must be positive, got 0");
    EXPECT_EQ(errorOf([&] { validateConfig(net, fc1, 8, on({1, 1, 2, 1}, {0, 1}), 4); }),
              "operator 'fc1': fc operators cannot be split along height");
    EXPECT_EQ(errorOf([] { batchCount(2.5); }), "the batch must be a positive integer, got 2.500000");
    EXPECT_EQ(errorOf([&] { dataParallel(net, 6, 4); }),
              "data parallelism over 4 devices needs a batch divisible by it, got 6");
    SoapStrategy s = dataParallel(net, 8, 4);
    s.ops.pop_back();
    EXPECT_EQ(errorOf([&] { validateStrategy(net, 8, s, 4); }),
              "the strategy configures 7 operators but network 'AlexNet' has 8");
}

TEST(SimSoap, ValidDegreesAndRandomConfigs) {
    const Network net = alexnet();
    const Operator& fc3 = net.ops[static_cast<size_t>(net.find("fc3"))];  // 1000 outputs
    const auto degrees = validDegrees(fc3, 4, 4);
    // sample in {1,2,4}, channel in {1,2,4} (divisors of 1000 up to 4), product <= 4.
    EXPECT_EQ(degrees.size(), 6u);
    std::mt19937_64 rng(7);
    for (int trial = 0; trial < 500; ++trial)
        for (int op = 0; op < static_cast<int>(net.ops.size()); ++op) {
            const OpConfig c = randomConfig(net.ops[static_cast<size_t>(op)], 16, 16, rng);
            EXPECT_NO_THROW(validateConfig(net, op, 16, c, 16)) << op;
        }
}

TEST(SimSoap, JsonRoundTrip) {
    const Network net = alexnet();
    std::mt19937_64 rng(3);
    SoapStrategy s = dataParallel(net, 16, 4);
    for (size_t i = 0; i < net.ops.size(); ++i) s.ops[i] = randomConfig(net.ops[i], 16, 8, rng);
    const std::string text = writeSoapJson(s, net);
    const SoapStrategy back = readSoapJson(text, "s.json", net);
    EXPECT_EQ(back, s);
    EXPECT_EQ(writeSoapJson(back, net), text);
    EXPECT_NE(text.find("\"format\": \"partita-soap/1\""), std::string::npos);
}

std::string soapText(const std::string& ops) {
    return R"({"format": "partita-soap/1", "network": "Lenet-c", "operators": [)" + ops + "]}";
}

TEST(SimSoap, JsonErrors) {
    const Network net = loadNetwork(partita::test::example("networks/lenet-c.json"));
    const std::string rest = R"(, {"name": "conv2", "devices": [0]}, {"name": "fc1", "devices": [0]},
                                 {"name": "fc2", "devices": [0]})";
    auto read = [&](const std::string& text) { return errorOf([&] { readSoapJson(text, "s.json", net); }); };
    EXPECT_EQ(read(soapText(R"({"name": "conv1", "devices": [0]})" + rest)), "no error");
    EXPECT_EQ(read(soapText(R"({"name": "conv9", "devices": [0]})" + rest)),
              "s.json: /operators/0/name: network 'Lenet-c' has no operator 'conv9'");
    EXPECT_EQ(read(soapText(R"({"name": "conv2", "devices": [0]})" + rest)),
              "s.json: /operators/1/name: operator 'conv2' is configured twice");
    EXPECT_EQ(read(soapText(rest.substr(1))), "s.json: /operators: operator 'conv1' has no configuration");
    EXPECT_EQ(read(soapText(R"({"name": "conv1", "degrees": {"sample": 2}, "devices": [0]})" + rest)),
              "s.json: /operators/0/devices: the degrees make 2 tasks but 1 devices are listed");
    EXPECT_EQ(read(soapText(R"({"name": "conv1", "degrees": {"height": 0}, "devices": [0]})" + rest)),
              "s.json: /operators/0/degrees/height: must be between 1 and 1048576, got 0");
    EXPECT_EQ(read(soapText(R"({"name": "conv1", "degrees": {"hieght": 2}, "devices": [0, 1]})" + rest)),
              "s.json: /operators/0/degrees/hieght: unknown key 'hieght'");
    EXPECT_EQ(read(soapText(R"({"name": "conv1", "devices": [-1]})" + rest)),
              "s.json: /operators/0/devices: expected non-negative integer device ids, found -1");
    EXPECT_EQ(read(soapText(R"({"name": "conv1", "devices": [0], "device": 1})" + rest)),
              "s.json: /operators/0/device: unknown key 'device'");
    EXPECT_EQ(read(R"({"format": "partita-soap/1", "network": "AlexNet", "operators": []})"),
              "s.json: /network: the strategy is for network 'AlexNet', not 'Lenet-c'");
    EXPECT_EQ(read(R"({"format": "partita-soap/2", "operators": []})"),
              "s.json: /format: unsupported version 'partita-soap/2' (this build reads 'partita-soap/1')");
    EXPECT_EQ(read("{"), "s.json: line 1, column 2: malformed JSON (parse error at line 1, column 2: syntax error "
                         "while parsing object key - unexpected end of input; expected string literal)");
}

}  // namespace
}  // namespace partita::sim
