// The CNN benchmarks of FlexFlow's evaluation (docs/methods/flexflow.md#results-beside-the-paper, Table 4) beside the
// built-in ones: ResNet-101 and Inception-v3 as partita-network/1 files.
#include <gtest/gtest.h>

#include "test_util.h"

namespace partita {
namespace {

double weights(const LayerTable& t) {
    double w = 0;
    for (const auto& l : t.layers) w += l.weights();
    return w;
}

Shape shapeOf(const Network& net, const std::string& name) {
    const int id = net.find(name);
    EXPECT_GE(id, 0) << name;
    return id < 0 ? Shape{} : net.ops[static_cast<size_t>(id)].out_shape;
}

int count(const Network& net, OpType type) {
    int n = 0;
    for (const auto& op : net.ops) n += op.type == type;
    return n;
}

TEST(SimNetworks, ResNet101) {
    const Network net = loadNetwork(test::example("networks/resnet-101.json"));
    EXPECT_EQ(shapeOf(net, "conv1"), (Shape{64, 56, 56}));  // after the fused 3x3/2 max pool
    EXPECT_EQ(shapeOf(net, "res2c"), (Shape{256, 56, 56}));
    EXPECT_EQ(shapeOf(net, "res3b3"), (Shape{512, 28, 28}));
    EXPECT_EQ(shapeOf(net, "res4b22"), (Shape{1024, 14, 14}));
    EXPECT_EQ(shapeOf(net, "res5c"), (Shape{2048, 7, 7}));
    EXPECT_EQ(shapeOf(net, "fc1000"), (Shape{1000, 1, 1}));
    EXPECT_EQ(count(net, OpType::Add), 3 + 4 + 23 + 3);
    const auto t = weightedLayers(net);
    EXPECT_EQ(t.size(), 1u + 33 * 3 + 4 + 1);  // conv1, bottlenecks, projections, fc (101 + 4 projections)
    EXPECT_EQ(t.shortcuts.size(), 33u);
    // Conv and fc weights from the shapes (no biases, no batch norm) beside the published 44.5 M.
    EXPECT_EQ(weights(t), 44442816);
    EXPECT_NEAR(weights(t) / 44.5e6, 1.0, 0.01);
}

TEST(SimNetworks, InceptionV3) {
    const Network net = loadNetwork(test::example("networks/inception-v3.json"));
    EXPECT_EQ(shapeOf(net, "Conv2d_2b_3x3"), (Shape{64, 73, 73}));
    EXPECT_EQ(shapeOf(net, "Conv2d_4a_3x3"), (Shape{192, 35, 35}));
    EXPECT_EQ(shapeOf(net, "Mixed_5b"), (Shape{256, 35, 35}));
    EXPECT_EQ(shapeOf(net, "Mixed_5d"), (Shape{288, 35, 35}));   // after the three Inception-A blocks
    EXPECT_EQ(shapeOf(net, "Mixed_6a"), (Shape{768, 17, 17}));   // reduction-A
    EXPECT_EQ(shapeOf(net, "Mixed_6e"), (Shape{768, 17, 17}));   // after the four Inception-B blocks
    EXPECT_EQ(shapeOf(net, "Mixed_7a"), (Shape{1280, 8, 8}));    // reduction-B
    EXPECT_EQ(shapeOf(net, "Mixed_7b.branch3x3"), (Shape{768, 8, 8}));
    EXPECT_EQ(shapeOf(net, "Mixed_7c"), (Shape{2048, 8, 8}));    // before the pool
    EXPECT_EQ(shapeOf(net, "avgpool"), (Shape{2048, 1, 1}));
    EXPECT_EQ(shapeOf(net, "fc"), (Shape{1000, 1, 1}));
    EXPECT_EQ(count(net, OpType::Concat), 3 + 1 + 4 + 1 + 2 * 3);
    EXPECT_EQ(count(net, OpType::Pool), 3 + 1 + 4 + 1 + 2 + 1);
    const auto t = weightedLayers(net);
    EXPECT_EQ(t.size(), 5u + 3 * 7 + 4 + 4 * 10 + 6 + 2 * 9 + 1);
    EXPECT_FALSE(t.isChain());
    // Without the auxiliary head, convs without bias or batch norm: 23.8 M published (torchvision, with BN).
    EXPECT_EQ(weights(t), 23799136);
    EXPECT_NEAR(weights(t) / 23.8e6, 1.0, 0.01);
}

TEST(SimNetworks, WriterRoundTripKeepsShapes) {
    for (const char* name : {"resnet-101", "inception-v3"}) {
        const Network net = loadNetwork(test::example(std::string("networks/") + name + ".json"));
        const Network again = readNetworkJson(writeNetworkJson(net), "again");
        ASSERT_EQ(again.ops.size(), net.ops.size()) << name;
        for (size_t i = 0; i < net.ops.size(); ++i) EXPECT_EQ(again.ops[i].out_shape, net.ops[i].out_shape);
        EXPECT_EQ(weights(weightedLayers(again)), weights(weightedLayers(net))) << name;
    }
}

}  // namespace
}  // namespace partita
