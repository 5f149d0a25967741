// The operator kinds imported models need (grouped, dilated, asymmetric and transposed convs, matmuls
// of two activations, element-wise and layout ops): shapes from hand counts, how each enters the
// weighted-layer view and the simulator, and properties (group 1 == the plain conv; a layout between
// two layers changes no cost; JSON round trips).
#include <gtest/gtest.h>

#include "core/io/network_io.h"
#include "core/model/layers.h"
#include "core/run/run.h"
#include "core/search/methods.h"
#include "core/sim/baselines.h"
#include "core/sim/task_graph.h"
#include "core/sim/simulator.h"
#include "core/topology/topology.h"
#include "test_util.h"

namespace partita {
namespace {

const Operator& op(const Network& n, const std::string& name) { return n.ops[static_cast<size_t>(n.find(name))]; }

Network tour() { return loadNetwork(test::example("networks/ops-tour.json")); }

TEST(NetworkOps, ShapesOfTheTourFromHandCounts) {
    const Network n = tour();
    EXPECT_EQ(op(n, "dw").out_shape, (Shape{16, 16, 16}));       // (32 + 0 + 1 - 3) / 2 + 1 = 16
    EXPECT_EQ(op(n, "dilated").out_shape, (Shape{32, 16, 16}));  // span 2 * 2 + 1 = 5: 16 + 4 - 5 + 1
    EXPECT_EQ(op(n, "up").out_shape, (Shape{16, 32, 32}));       // (16 - 1) * 2 + 2
    EXPECT_EQ(op(n, "down").out_shape, (Shape{16, 8, 8}));
    EXPECT_EQ(op(n, "scores").out_shape, (Shape{1, 64, 64}));    // (1, 64, 16) x (1, 16, 64)
    EXPECT_EQ(op(n, "context").out_shape, (Shape{1, 64, 16}));
    EXPECT_EQ(op(n, "classifier").in_shape, (Shape{16 * 64, 1, 1}));
}

TEST(NetworkOps, WeightsAndMacsOfTheNewLayers) {
    const LayerTable t = weightedLayers(tour());
    auto layer = [&](const std::string& name) {
        for (const auto& l : t.layers)
            if (l.name == name) return l;
        ADD_FAILURE() << name;
        return WeightedLayer{};
    };
    // Depthwise: 16 filters of 3x3x1 = 144 weights; 144 MACs per output position, 16 x 16 positions.
    EXPECT_EQ(layer("dw").weights(), 144.0);
    EXPECT_EQ(layer("dw").macsPerSample(), 144.0 * 256);
    EXPECT_EQ(layer("dw").groups, 16);
    // Dilation widens the window, not the kernel: 3 * 3 * 32 * 32 weights.
    EXPECT_EQ(layer("dilated").weights(), 9.0 * 32 * 32);
    // Transposed 2x2, 32 -> 16 channels, applied at each of the 16 x 16 input positions.
    EXPECT_EQ(layer("up").weights(), 4.0 * 32 * 16);
    EXPECT_EQ(layer("up").macsPerSample(), 4.0 * 32 * 16 * 256);
    // A 1x1 conv over 64 token positions is a linear layer: 16 x 16 weights, 64 applications.
    EXPECT_EQ(layer("q").macsPerSample(), 16.0 * 16 * 64);
    // Matmuls of two activations, element-wise and layout ops carry no weights.
    for (const auto& l : t.layers) EXPECT_NE(l.name, "scores");
    EXPECT_FALSE(t.isChain());  // q, k and v read the same tokens
}

TEST(NetworkOps, GroupOneIsThePlainConv) {
    Network plain = test::network("g", {8, 12, 12}, {test::conv("c", {}, 16, 3), test::fc("f", {}, 10)});
    Network grouped = plain;
    grouped.ops[0].group = 1;
    propagate(grouped, "t");
    const auto a = weightedLayers(plain), b = weightedLayers(grouped);
    ASSERT_EQ(a.size(), b.size());
    for (size_t l = 0; l < a.size(); ++l) {
        EXPECT_EQ(a[l].weights(), b[l].weights());
        EXPECT_EQ(a[l].macsPerSample(), b[l].macsPerSample());
    }
    grouped.ops[0].group = 3;  // divides neither 8 nor 16
    EXPECT_NE(test::anyErrorOf([&] { propagate(grouped, "t"); }).find("group 3 does not divide"), std::string::npos);
}

TEST(NetworkOps, ALayoutBetweenTwoLayersChangesNoCost) {
    const Network direct = test::network("d", {8, 6, 6}, {test::conv("c", {}, 4, 3), test::fc("f", {}, 10)});
    Operator flatten;
    flatten.name = "flatten";
    flatten.type = OpType::Layout;
    flatten.layout_shape = Shape{4 * 4 * 4, 1, 1};
    const Network laid = test::network("d", {8, 6, 6}, {test::conv("c", {}, 4, 3), flatten, test::fc("f", {}, 10)});
    const Array array = defaultArray(3);
    for (Method m : kAllMethods) {
        const partita::Run a = planRun(makeInputs(direct, array, CostParams{}), m);
        const partita::Run b = planRun(makeInputs(laid, array, CostParams{}), m);
        EXPECT_EQ(a.grid, b.grid);
        EXPECT_EQ(a.eval().total_elements, b.eval().total_elements);
        EXPECT_EQ(a.eval().time_step_s, b.eval().time_step_s);
    }
}

TEST(NetworkOps, ErrorsNameTheOperator) {
    auto wrap = [](const std::string& ops) {
        return R"({"format": "partita-network/1", "name": "e", "input": {"channels": 4, "height": 8, "width": 8},
                   "operators": [)" + ops + "]}";
    };
    auto error = [&](const std::string& ops) {
        return test::anyErrorOf([&] { readNetworkJson(wrap(ops), "e.json"); });
    };
    EXPECT_EQ(error(R"({"name": "a", "type": "layout", "shape": {"channels": 4, "height": 64}},
                       {"name": "m", "type": "matmul", "inputs": ["a", "a"]})"),
              "e.json: operator 'm': inner dimensions differ (4x64x1 x 4x64x1: 1 vs 64)");
    EXPECT_EQ(error(R"({"name": "a", "type": "layout", "shape": {"channels": 3}},
                       {"name": "e", "type": "elementwise", "inputs": ["a", "input"]})"),
              "e.json: operator 'e': inputs do not broadcast (3x1x1 vs 4x8x8)");
    EXPECT_EQ(error(R"({"name": "t", "type": "conv_transpose", "out_channels": 2, "kernel": 2, "stride": 2,
                       "output_padding": 2})"),
              "e.json: operator 't': output padding must be smaller than the stride");
    EXPECT_EQ(error(R"({"name": "c", "type": "conv", "out_channels": 2, "kernel": 3, "padding": [1, 1, -1, 0]})"),
              "e.json: /operators/0/padding: expected [top, left, bottom, right] of non-negative integers, found "
              "[1, 1, -1, 0]");
    // Kernel and dilation within their limit of 2^24 each, but the extent 2^24·(2^24 − 1) + 1 is no int.
    const std::string wide = R"("kernel": [16777216, 1], "dilation": [16777216, 1])";
    const std::string too_wide = "the window's extent dilation·(kernel−1)+1 = 281474959933441 exceeds the limit of 2147483647";
    EXPECT_EQ(error(R"({"name": "c", "type": "conv", "out_channels": 2, )" + wide + "}"), "e.json: operator 'c': " + too_wide);
    EXPECT_EQ(error(R"({"name": "t", "type": "conv_transpose", "out_channels": 2, )" + wide + "}"),
              "e.json: operator 't': " + too_wide);
    EXPECT_EQ(error(R"({"name": "p", "type": "pool", )" + wide + "}"), "e.json: operator 'p': " + too_wide);
}

TEST(NetworkOps, JsonRoundTripKeepsEveryField) {
    const Network n = tour();
    const Network back = readNetworkJson(writeNetworkJson(n), "back");
    ASSERT_EQ(back.ops.size(), n.ops.size());
    for (size_t i = 0; i < n.ops.size(); ++i) {
        SCOPED_TRACE(n.ops[i].name);
        EXPECT_EQ(back.ops[i].type, n.ops[i].type);
        EXPECT_EQ(back.ops[i].out_shape, n.ops[i].out_shape);
        EXPECT_EQ(back.ops[i].group, n.ops[i].group);
        EXPECT_EQ(back.ops[i].source_op, n.ops[i].source_op);
        EXPECT_EQ(back.ops[i].window.padBottom(), n.ops[i].window.padBottom());
        EXPECT_EQ(back.ops[i].window.dilation_h, n.ops[i].window.dilation_h);
    }
    EXPECT_EQ(writeNetworkJson(back), writeNetworkJson(n));
}

TEST(NetworkOps, EveryKindSimulates) {
    const Network n = tour();
    const sim::Topology topology = sim::builtinTopology("p100-16");
    for (const auto& strategy : {sim::dataParallelStrategy(n, 16, 4), sim::modelParallelStrategy(n, 16, 4),
                                 sim::oneWeirdTrickStrategy(n, 16, 4)}) {
        EXPECT_NO_THROW(sim::validateStrategy(n, 16, strategy, 4));
        EXPECT_GT(sim::simulate(sim::buildTaskGraph(n, 16, strategy, topology)).makespan, 0);
    }
}

}  // namespace
}  // namespace partita
