// Array and strategy files: round trips and their malformed cases.
#include <gtest/gtest.h>

#include "core/io/array_io.h"
#include "core/io/strategy_io.h"
#include "core/search/methods.h"
#include "core/util/error.h"
#include "test_util.h"

namespace partita {
namespace {

template <class F>
std::string errorOf(F f) {
    return test::errorOf<InputError>(f);
}

std::string arrayText(const std::string& extra) {
    return R"({"format": "partita-array/1", "name": "a", "levels": 4)" + extra + "}";
}

TEST(ArrayFormat, ExamplesHaveSpecValues) {
    const Array a = loadArray(test::example("arrays/hmc-htree-16.json"));
    EXPECT_EQ(a.count(), 16);
    EXPECT_EQ(a.topology, Topology::HTree);
    EXPECT_EQ(a.levelBandwidths(), (std::vector<double>{12.8e9, 6.4e9, 3.2e9, 1.6e9}));
    const Array t = loadArray(test::example("arrays/hmc-torus-16.json"));
    EXPECT_EQ(t.levelBandwidths(), (std::vector<double>{6.4e9, 6.4e9, 1.6e9, 1.6e9}));
    EXPECT_EQ(a.accelerator.throughput_ops, 420e9);
    EXPECT_EQ(a.accelerator.e_link_pj_per_bit, 20);
}

TEST(ArrayFormat, RoundTrip) {
    Array a = defaultArray(6, Topology::Torus);
    a.link_bps = 3.2e9;
    a.accelerator.throughput_ops = 1344e9;
    const std::string text = writeArrayJson(a);
    EXPECT_EQ(writeArrayJson(readArrayJson(text, "x")), text);
}

TEST(ArrayFormat, Errors) {
    EXPECT_EQ(errorOf([] { readArrayJson(arrayText(R"(, "link_bps": 0)"), "a.json"); }),
              "a.json: /link_bps: must be positive, got 0");
    EXPECT_EQ(errorOf([] { readArrayJson(R"({"format": "partita-array/1", "name": "a", "levels": 0})", "a.json"); }),
              "a.json: /levels: must be between 1 and 12, got 0");
    EXPECT_EQ(errorOf([] { readArrayJson(R"({"format": "partita-array/1", "name": "a", "levels": 13})", "a.json"); }),
              "a.json: /levels: must be between 1 and 12, got 13");
    EXPECT_EQ(errorOf([] { readArrayJson(arrayText(R"(, "topology": "ring")"), "a.json"); }),
              "a.json: /topology: unknown topology 'ring' (use htree or torus)");
    EXPECT_EQ(errorOf([] { readArrayJson(arrayText(R"(, "accelerator": {"e_dram_pj": -1})"), "a.json"); }),
              "a.json: /accelerator/e_dram_pj: must not be negative, got -1");
    EXPECT_EQ(errorOf([] { readArrayJson(arrayText(R"(, "acclerator": {})"), "a.json"); }),
              "a.json: /acclerator: unknown key 'acclerator'");
}

TEST(StrategyFormat, RoundTripWithRatios) {
    const auto t = test::builtin("lenet-c");
    Grid g = hyparSearch(t, 4, CostParams{});
    Strategy s = makeStrategy(t, g, "hypar");
    const std::string text = writeStrategyJson(s);
    const Strategy back = readStrategyJson(text, "s.json");
    EXPECT_EQ(back.grid, g);
    EXPECT_EQ(back.layers, s.layers);
    g.at(1, 2).ratio = 0.75;
    g.at(2, 0).split = Split::Output;
    s.grid = g;
    EXPECT_EQ(readStrategyJson(writeStrategyJson(s), "s.json").grid, g);
}

TEST(StrategyFormat, Errors) {
    const std::string head = R"({"format": "partita-strategy/1", "layers": ["a", "b"], )";
    EXPECT_EQ(errorOf([&] { readStrategyJson(head + R"("grid": ["01", "0x"]})", "s.json"); }),
              "s.json: /grid: level H2, position 2: 'x' is not a choice (use 0..2)");
    EXPECT_EQ(errorOf([&] { readStrategyJson(head + R"("grid": ["011"]})", "s.json"); }),
              "s.json: /grid: level H1 has 3 choices, the network has 2 weighted layers");
    EXPECT_EQ(errorOf([&] { readStrategyJson(head + R"("grid": ["01"], "ratios": [[0.5, 1.5]]})", "s.json"); }),
              "s.json: /ratios: level H1, layer 2: a ratio must lie strictly between 0 and 1, found 1.5");
    const auto t = test::builtin("lenet-c");
    const Strategy s = readStrategyJson(head + R"("grid": ["01"]})", "s.json");
    EXPECT_EQ(errorOf([&] { checkStrategyFits(s, t, "s.json"); }), "s.json: /layers: the strategy has 2 layers, the network has 4");
}

}  // namespace
}  // namespace partita
