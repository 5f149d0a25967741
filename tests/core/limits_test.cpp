// Issue 13's reproducers: inputs that crashed, hung or printed wrong numbers now get errors that name
// the file, the place and the limit; values inside the limits still work.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "core/io/array_io.h"
#include "core/io/network_io.h"
#include "core/sim/soap.h"
#include "core/topology/topology.h"
#include "core/topology/template.h"
#include "core/util/error.h"
#include "core/util/limits.h"
#include "test_util.h"

namespace partita {
namespace {

template <class F>
std::string errorOf(F f) {
    return test::anyErrorOf(f);
}

using test::contains;

std::string network(const std::string& input, const std::string& ops) {
    return R"({"format": "partita-network/1", "name": "n", "input": )" + input + R"(, "operators": [)" + ops + "]}";
}

TEST(Limits, TemplateArithmeticIsCheckedNotWrapped) {
    // -2^63 / -1 raised SIGFPE; intermediate values now stay within the documented bound.
    const std::string e = errorOf([] { sim::tmpl::evaluate("-(100000000000000 * 100000) / -1", {}); });
    EXPECT_TRUE(contains(e, "exceeds the limit of +-1099511627776")) << e;
    EXPECT_TRUE(contains(errorOf([] { sim::tmpl::evaluate("n * n * n", {{"n", 1 << 20}}); }), "exceeds the limit"));
    EXPECT_TRUE(contains(errorOf([] { sim::tmpl::evaluate("n + n", {{"n", limits::kTemplateValue}}); }),
                         "exceeds the limit"));
    EXPECT_EQ(sim::tmpl::evaluate("(n + 1) % 4 * 4 - -3", {{"n", 6}}), 15);
    EXPECT_EQ(sim::tmpl::evaluate("-1099511627776 / -1", {}), limits::kTemplateValue);
}

TEST(Limits, TemplateNestingIsBounded) {
    const std::string deep = std::string(20000, '(') + "1" + std::string(20000, ')');
    EXPECT_TRUE(contains(errorOf([&] { sim::tmpl::evaluate(deep, {}); }), "longer than 4096"));
    const std::string nested = std::string(300, '(') + "1" + std::string(300, ')');
    EXPECT_TRUE(contains(errorOf([&] { sim::tmpl::evaluate(nested, {}); }), "nests deeper than the limit of 256"));
    const std::string minus = std::string(300, '-') + "1";
    EXPECT_TRUE(contains(errorOf([&] { sim::tmpl::evaluate(minus, {}); }), "nests deeper"));
    EXPECT_EQ(sim::tmpl::evaluate(std::string(200, '(') + "7" + std::string(200, ')'), {}), 7);
}

TEST(Limits, OverflowingTopologyTemplateIsAnErrorNotMissingLinks) {
    const std::string text = R"({"format": "partita-topology/1", "name": "t",
      "devices": [{"for": [["i", 2]], "name": "A{i}", "peak_flops": 1e12, "mem_bandwidth_Bps": 1e11}],
      "links": [{"from": "A0", "to": "A{1 + 4000000000 * 4000000000}", "bandwidth_Bps": 1e9}]})";
    const std::string e = errorOf([&] { sim::readTopologyJson(text, "t.json"); });
    EXPECT_TRUE(contains(e, "t.json: /links/0")) << e;
    EXPECT_TRUE(contains(e, "exceeds the limit")) << e;
}

TEST(Limits, DeeplyNestedJsonIsRefusedBeforeAnyRecursion) {
    const std::string deep = std::string(60000, '[') + std::string(60000, ']');
    const std::string e = errorOf([&] { readNetworkJson(network(R"({"channels": 3})", R"({"name": "f", "type": "fc", "out_features": )" + deep + "}"), "deep.json"); });
    EXPECT_TRUE(contains(e, "deep.json: line 1, column")) << e.substr(0, 200);
    EXPECT_TRUE(contains(e, "deeper than the limit of 256 levels")) << e.substr(0, 200);
    EXPECT_LT(e.size(), 200u);
    // A shallow but wide value is shown as a short excerpt.
    std::string wide = "[1";
    for (int i = 0; i < 50000; ++i) wide += ", 1";
    wide += "]";
    const std::string w = errorOf([&] { readNetworkJson(network(R"({"channels": 3})", R"({"name": "f", "type": "fc", "out_features": )" + wide + "}"), "wide.json"); });
    EXPECT_TRUE(contains(w, "wide.json: /operators/0/out_features: expected an integer")) << w.substr(0, 200);
    EXPECT_LT(w.size(), 200u);
    // A number too long for a double is quoted only in part.
    const std::string n = errorOf([] { readNetworkJson("[" + std::string(100000, '1') + "]", "n.json"); });
    EXPECT_TRUE(contains(n, "n.json: line 1, column 2: malformed JSON (number overflow")) << n.substr(0, 200);
    EXPECT_LT(n.size(), 300u);
}

TEST(Limits, NumbersBeyondADoubleNameTheFileAndLine) {
    const std::string e = errorOf([] { readNetworkJson("{\n  \"format\": 1e400\n}", "big.json"); });
    EXPECT_TRUE(contains(e, "big.json: line 2, column 13: malformed JSON")) << e;
    EXPECT_TRUE(contains(e, "1e400")) << e;
}

TEST(Limits, HugeShapesAreRefusedNotWrapped) {
    // 3037000500^2 wrapped int64 and gave a negative step time and energy.
    const std::string e = errorOf([] {
        readNetworkJson(network(R"({"channels": 1, "height": 3037000500, "width": 3037000500})",
                                R"({"name": "f", "type": "fc", "out_features": 2})"), "n.json");
    });
    EXPECT_EQ(e, "n.json: /input/height: must be between 1 and 16777216, got 3037000500");
    const std::string f = errorOf([] {
        readNetworkJson(network(R"({"channels": 3})", R"({"name": "f", "type": "fc", "out_features": 9223372036854775807})"), "n.json");
    });
    EXPECT_EQ(f, "n.json: /operators/0/out_features: must be between 1 and 16777216, got 9223372036854775807");
    // Each axis within limits, but the tensor is not.
    const std::string t = errorOf([] {
        readNetworkJson(network(R"({"channels": 16777216, "height": 16777216, "width": 2})",
                                R"({"name": "f", "type": "fc", "out_features": 2})"), "n.json");
    });
    EXPECT_TRUE(contains(t, "n.json: input: the tensor 16777216x16777216x2")) << t;
    EXPECT_TRUE(contains(t, "exceeds the limit of 1099511627776")) << t;
    // Weights of one layer beyond 2^50.
    const std::string w = errorOf([] {
        readNetworkJson(network(R"({"channels": 1048576, "height": 1024, "width": 1})",
                                R"({"name": "f", "type": "fc", "out_features": 16777216})"), "n.json");
    });
    EXPECT_TRUE(contains(w, "n.json: operator 'f': the layer's weights")) << w;
}

TEST(Limits, WindowValuesStateTheLimit) {
    const std::string e = errorOf([] {
        readNetworkJson(network(R"({"channels": 3, "height": 8, "width": 8})",
                                R"({"name": "c", "type": "conv", "out_channels": 4, "kernel": 3, "padding": 4294967296})"), "n.json");
    });
    EXPECT_EQ(e, "n.json: /operators/0/padding: exceeds the limit of 16777216, got 4294967296");
    const std::string k = errorOf([] {
        readNetworkJson(network(R"({"channels": 3, "height": 8, "width": 8})",
                                R"({"name": "c", "type": "conv", "out_channels": 4, "kernel": 18446744073709551615})"), "n.json");
    });
    EXPECT_EQ(k, "n.json: /operators/0/kernel: exceeds the limit of 16777216, got 18446744073709551615");
}

TEST(Limits, UnsignedIntegersAreNotReadAsNegative) {
    const std::string e = errorOf([] {
        readArrayJson(R"({"format": "partita-array/1", "name": "a", "levels": 18446744073709551615})", "a.json");
    });
    EXPECT_EQ(e, "a.json: /levels: must be between 1 and 12, got 18446744073709551615");
}

std::string accparConv(std::int64_t in, const std::string& kernel, std::int64_t out, const std::string& pool) {
    return "num_layers 1\nc CONV\nin_ch 3\nin_fmap_h " + std::to_string(in) + "\nin_fmap_w " + std::to_string(in) +
           "\nkernel " + kernel + "\nout_ch 8\nout_fmap_h " + std::to_string(out) + "\nout_fmap_w " +
           std::to_string(out) + "\npool " + pool + "\n";
}

TEST(Limits, AccParTextValuesAreRangeCheckedNotNarrowed) {
    // 4294967299 was read as 3 and 4294967298 as 2.
    EXPECT_EQ(errorOf([] { readAccParText(accparConv(8, "4294967299", 8, "1"), "n.txt"); }),
              "n.txt: line 6: kernel 4294967299 exceeds the limit of 16777216");
    EXPECT_EQ(errorOf([] { readAccParText(accparConv(8, "3", 8, "4294967298"), "n.txt"); }),
              "n.txt: line 10: pool 4294967298 exceeds the limit of 16777216");
    EXPECT_EQ(errorOf([] { readAccParText(accparConv(8, "99999999999999999999999", 8, "1"), "n.txt"); }),
              "n.txt: line 6: kernel 99999999999999999999999 exceeds the limit of 16777216");
}

TEST(Limits, AccParFitOfAHugeKernelIsLinear) {
    // kernel 1,000,000 with no fitting stride looped for minutes (O(kernel^2)).
    const std::string e = errorOf([] { readAccParText(accparConv(1000, "1000000", 5000000, "3"), "n.txt"); });
    EXPECT_TRUE(contains(e, "n.txt: line 2: no stride and padding map 1000x1000 to 5000000x5000000 with kernel 1000000")) << e;
    // A fit that exists only with a huge padding is found, then refused for its size.
    const std::string f = errorOf([] { readAccParText(accparConv(1000, "16777216", 7, "3"), "n.txt"); });
    EXPECT_TRUE(contains(f, "n.txt: operator 'c': the layer's")) << f;
}

// The former quadratic search, kept here as the reference for the linear one.
bool referenceFit(std::int64_t in, std::int64_t kernel, std::int64_t out, std::int64_t pool, std::int64_t& stride,
                  std::int64_t& pad, std::int64_t& used) {
    std::vector<std::int64_t> pads{(kernel - 1) / 2};
    for (std::int64_t p = 0; p <= kernel; ++p)
        if (p != pads.front()) pads.push_back(p);
    for (std::int64_t p : {pool, std::int64_t{1}, std::int64_t{2}})
        for (std::int64_t s = 1; s <= kernel; ++s)
            for (std::int64_t pd : pads) {
                const std::int64_t span = in + 2 * pd - kernel;
                if (span < 0) continue;
                const std::int64_t conv = span / s + 1;
                if ((p > 1 ? conv / p : conv) == out && conv >= p) {
                    stride = s, pad = pd, used = p;
                    return true;
                }
            }
    return false;
}

TEST(Limits, AccParFitEqualsTheExhaustiveSearch) {
    std::mt19937 rng(13);
    int fitted = 0;
    for (int trial = 0; trial < 3000; ++trial) {
        const std::int64_t in = 1 + rng() % 40, kernel = 1 + rng() % 12, out = 1 + rng() % 40, pool = 1 + rng() % 4;
        std::int64_t s = 0, pd = 0, used = 0;
        const bool ok = referenceFit(in, kernel, out, pool, s, pd, used);
        const std::string text = accparConv(in, std::to_string(kernel), out, std::to_string(pool));
        if (!ok) {
            EXPECT_TRUE(contains(errorOf([&] { readAccParText(text, "n.txt"); }), "no stride and padding")) << text;
            continue;
        }
        Network net;
        try {
            net = readAccParText(text, "n.txt");
        } catch (const InputError&) {
            continue;  // the shapes fit but the fused pool does not tile exactly: same for both searches
        }
        ++fitted;
        const Operator& op = net.ops.front();
        EXPECT_EQ(op.window.stride_h, s) << text;
        EXPECT_EQ(op.window.pad_h, pd) << text;
        EXPECT_EQ(op.pool ? op.pool->kernel_h : 1, used) << text;
    }
    EXPECT_GT(fitted, 300);
}

TEST(Limits, SoapValidationErrorsNameTheFile) {
    const Network net = loadNetwork(std::string(PARTITA_EXAMPLES_DIR) + "/networks/lenet-c.json");
    std::string ops;
    for (const auto& op : net.ops) ops += std::string(ops.empty() ? "" : ", ") + R"({"name": ")" + op.name + R"(", "devices": [99]})";
    const sim::SoapStrategy s = sim::readSoapJson(R"({"format": "partita-soap/1", "operators": [)" + ops + "]}", "s.json", net);
    const std::string e = errorOf([&] { sim::validateStrategy(net, 8, s, 4); });
    EXPECT_TRUE(contains(e, "s.json: operator '" + net.ops.front().name + "': task 0 is placed on device 99")) << e;
}

}  // namespace
}  // namespace partita
