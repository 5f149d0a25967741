// Baseline SOAP strategies: data parallelism, "one weird trick", model
// parallelism and seeded random strategies are valid and have the documented shape.
#include <gtest/gtest.h>

#include "core/io/network_io.h"
#include "core/model/layers.h"
#include "core/partition/grid.h"
#include "core/sim/baselines.h"
#include "core/sim/lowering.h"
#include "core/sim/simulator.h"
#include "sim_test_util.h"
#include "test_util.h"

namespace partita::sim {
namespace {

TEST(SimBaselines, LargestDivisor) {
    EXPECT_EQ(largestDivisorUpTo(256, 16), 16);
    EXPECT_EQ(largestDivisorUpTo(6, 4), 3);
    EXPECT_EQ(largestDivisorUpTo(7, 4), 1);
    EXPECT_EQ(largestDivisorUpTo(10, 1), 1);
}

TEST(SimBaselines, DataParallelMatchesSoapAndValidates) {
    const Network net = loadNetwork(test::example("networks/alexnet.json"));
    const SoapStrategy dp = dataParallelStrategy(net, 256, 16);
    EXPECT_EQ(dp, dataParallel(net, 256, 16));
    EXPECT_NO_THROW(validateStrategy(net, 256, dp, 16));
    // A batch of 6 on 4 devices: the largest divisor, 3, pieces on devices 0..2.
    const SoapStrategy three = dataParallelStrategy(net, 6, 4);
    EXPECT_NO_THROW(validateStrategy(net, 6, three, 4));
    for (const auto& c : three.ops) {
        EXPECT_EQ(c.degree, (Degrees{3, 1, 1, 1}));
        EXPECT_EQ(c.devices, (std::vector<int>{0, 1, 2}));
    }
}

TEST(SimBaselines, OneWeirdTrickSplitsFcOnParameters) {
    const Network net = loadNetwork(test::example("networks/alexnet.json"));
    const SoapStrategy owt = oneWeirdTrickStrategy(net, 128, 16);
    EXPECT_NO_THROW(validateStrategy(net, 128, owt, 16));
    for (size_t i = 0; i < net.ops.size(); ++i) {
        const Degrees expect = net.ops[i].type == OpType::FullyConnected
                                   ? Degrees{1, largestDivisorUpTo(net.ops[i].out_shape.c, 16), 1, 1}
                                   : Degrees{16, 1, 1, 1};
        EXPECT_EQ(owt.ops[i].degree, expect) << net.ops[i].name;
        EXPECT_EQ(owt.ops[i].devices.size(), static_cast<size_t>(owt.ops[i].parts()));
    }
}

TEST(SimBaselines, ModelParallelAndRandomValidateEverywhere) {
    for (const char* name : {"lenet-c", "alexnet", "resnet-18", "inception-v3", "vgg-a"}) {
        const Network net = loadNetwork(test::example(std::string("networks/") + name + ".json"));
        const SoapStrategy mp = modelParallelStrategy(net, 64, 16);
        EXPECT_NO_THROW(validateStrategy(net, 64, mp, 16)) << name;
        for (const auto& c : mp.ops) EXPECT_EQ(c.degree[0], 1) << name;
        std::mt19937_64 a(7), b(7);
        const SoapStrategy r = randomStrategy(net, 64, 16, a);
        EXPECT_NO_THROW(validateStrategy(net, 64, r, 16)) << name;
        EXPECT_EQ(r, randomStrategy(net, 64, 16, b)) << name;  // seeded: reproducible
    }
}

TEST(SimBaselines, BaselinesSimulate) {
    const Network net = loadNetwork(test::example("networks/lenet-c.json"));
    const Topology topo = builtinTopology("p100-16");
    for (const auto& s : {dataParallelStrategy(net, 256, 16), oneWeirdTrickStrategy(net, 256, 16),
                          modelParallelStrategy(net, 256, 16)}) {
        const SimResult r = simulate(buildTaskGraph(net, 256, s, topo));
        EXPECT_GT(r.makespan, 0);
    }
}

TEST(SimBaselines, RejectsNoDevices) {
    const Network net = test::inceptionLike();
    EXPECT_THROW(dataParallelStrategy(net, 8, 0), Error);
}

}  // namespace
}  // namespace partita::sim

namespace partita::sim {
namespace {

TEST(SimLowering, DpGridIsDataParallel) {
    const Network net = loadNetwork(test::example("networks/alexnet.json"));
    const LayerTable layers = weightedLayers(net);
    const Grid dp(4, static_cast<int>(layers.size()), Cell{Split::Batch, 0.5});
    EXPECT_EQ(lowerGrid(net, layers, dp, 256, 16), dataParallelStrategy(net, 256, 16));
}

TEST(SimLowering, OwtGridIsOneWeirdTrick) {
    const Network net = loadNetwork(test::example("networks/alexnet.json"));
    const LayerTable layers = weightedLayers(net);
    Grid owt(3, static_cast<int>(layers.size()), Cell{Split::Batch, 0.5});
    for (int h = 0; h < 3; ++h)
        for (size_t l = 0; l < layers.size(); ++l)
            if (layers[l].is_fc) owt.at(h, static_cast<int>(l)).split = Split::Output;
    const SoapStrategy lowered = lowerGrid(net, layers, owt, 256, 8);
    EXPECT_EQ(lowered, oneWeirdTrickStrategy(net, 256, 8));
    // On a 16-device topology only the 2^3 devices of the grid are used.
    EXPECT_NO_THROW(validateStrategy(net, 256, lowerGrid(net, layers, owt, 256, 16), 16));
}

TEST(SimLowering, MixedLevelsComposeHalves) {
    const Network net = loadNetwork(test::example("networks/alexnet.json"));
    const LayerTable layers = weightedLayers(net);
    // H1 batch, H2 output: device = 2 * sample half + channel half.
    Grid g = Grid::fromStrings({std::string(layers.size(), '0'), std::string(layers.size(), '2')},
                               static_cast<int>(layers.size()));
    const SoapStrategy s = lowerGrid(net, layers, g, 256, 4);
    const OpConfig& c = s.ops[static_cast<size_t>(layers[0].op_id)];
    EXPECT_EQ(c.degree, (Degrees{2, 2, 1, 1}));
    EXPECT_EQ(c.devices[static_cast<size_t>(c.index({0, 1, 0, 0}))], 1);
    EXPECT_EQ(c.devices[static_cast<size_t>(c.index({1, 0, 0, 0}))], 2);
    EXPECT_NO_THROW(validateStrategy(net, 256, s, 4));
}

TEST(SimLowering, TypeTwoSplitsTheInputChannels) {
    const Network net = loadNetwork(test::example("networks/alexnet.json"));
    const LayerTable layers = weightedLayers(net);
    // Layer 2 (conv3): H1 batch, H2 input -> 2 sample pieces x 2 input-channel slices,
    // device = 2 * sample half + slice.
    Grid g(2, static_cast<int>(layers.size()), Cell{Split::Batch, 0.5});
    g.at(1, 2).split = Split::Input;
    const SoapStrategy s = lowerGrid(net, layers, g, 256, 4);
    const OpConfig& c = s.ops[static_cast<size_t>(layers[2].op_id)];
    EXPECT_EQ(c.degree, (Degrees{2, 1, 1, 1}));
    EXPECT_EQ(c.reduce, 2);
    EXPECT_EQ(c.devices, (std::vector<int>{0, 2, 1, 3}));  // tasks: piece fastest, then slice
    EXPECT_NO_THROW(validateStrategy(net, 256, s, 4));
    // The simulation adds the partial sums as a reduce-scatter (docs/methods/flexflow.md#reduce-splits):
    // each task of a piece sends the other task half of its pre-pool partial output, and backward the
    // all-gather sends each half of the output gradient back: 2 pieces x 2 tasks x 2 passes = 8 messages.
    const TaskGraph graph = buildTaskGraph(net, 256, s, test::cluster(1, 4));
    const Operator& conv3 = net.ops[static_cast<size_t>(layers[2].op_id)];
    const double half_bytes = 128.0 * conv3.out_shape.c * conv3.out_shape.h * conv3.out_shape.w * 4 / 2;
    int messages = 0;
    for (size_t t = 0; t < graph.slotCount(); ++t) {
        const TaskInfo& info = graph.info(static_cast<int>(t));
        if (!graph.alive(static_cast<int>(t)) || info.op != layers[2].op_id || info.phase != Phase::Transfer ||
            !info.first_hop || info.bytes != half_bytes)
            continue;
        const auto device = [&](int k) { return c.devices[static_cast<size_t>(k)]; };
        messages += info.to == device(info.part) && info.from == device(info.part ^ 2);  // the piece's other task
    }
    EXPECT_EQ(messages, 8);
    EXPECT_GT(simulate(graph).makespan, 0);
}

TEST(SimLowering, UnequalRatiosAreClearErrors) {
    const Network net = loadNetwork(test::example("networks/alexnet.json"));
    const LayerTable layers = weightedLayers(net);
    Grid g(2, static_cast<int>(layers.size()), Cell{Split::Batch, 0.5});
    g.at(1, 2) = Cell{Split::Batch, 0.25};
    try {
        lowerGrid(net, layers, g, 256, 4);
        FAIL() << "expected an error";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("ratio"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find(layers[2].name), std::string::npos);
    }
    EXPECT_THROW(lowerGrid(net, layers, Grid(3, static_cast<int>(layers.size())), 256, 4), Error);  // 8 > 4 devices
}

}  // namespace
}  // namespace partita::sim
