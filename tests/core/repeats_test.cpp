// Repeated blocks (core/model/repeats.h): the cuts, runs in the examples counted by hand, and
// hand-built graphs for each rule (shapes and input order are structure, names are not; a block
// starts at a weighted operator when it can; A A A A is 4 x A; a network output crosses no cut).
#include <gtest/gtest.h>

#include "core/io/network_io.h"
#include "core/model/repeats.h"
#include "test_util.h"

namespace partita {
namespace {

using Runs = std::vector<RepeatedRun>;

Network example(const std::string& name) { return loadNetwork(test::example("networks/" + name + ".json")); }

Operator elementwise(const std::string& name, const std::string& kind, std::vector<std::string> inputs = {}) {
    Operator op = test::join(name, OpType::Elementwise, std::move(inputs));
    op.source_op = kind;
    return op;
}

Operator layout(const std::string& name, std::vector<std::string> inputs, Shape shape) {
    Operator op = test::join(name, OpType::Layout, std::move(inputs));
    op.layout_shape = shape;
    return op;
}

Operator add(const std::string& name, std::vector<std::string> inputs) { return test::join(name, OpType::Add, std::move(inputs)); }

// A residual block conv, conv, add(second conv, entry) on 16 x 8 x 8; `swapped` adds (entry, second conv).
void residual(std::vector<Operator>& ops, const std::string& n, const std::string& x, bool swapped = false) {
    ops.push_back(test::conv("a" + n, {x}, 16, 3, 1, 1));
    ops.push_back(test::conv("b" + n, {"a" + n}, 16, 3, 1, 1));
    ops.push_back(add("add" + n, swapped ? std::vector<std::string>{x, "b" + n} : std::vector<std::string>{"b" + n, x}));
}

// A transformer layer over 64 tokens of 16 features (16 x 64 x 1): self-attention with Q, K, V and
// the projection as 1x1 convs and two matmuls of activations, then an MLP; each part residual.
// 16 operators; two segments (the attention part, the MLP part).
void transformerLayer(std::vector<Operator>& ops, const std::string& n, const std::string& x) {
    for (const char* p : {"q", "k", "v"}) ops.push_back(test::conv(p + n, {x}, 16, 1));
    ops.push_back(layout("q_rows" + n, {"q" + n}, {1, 64, 16}));
    ops.push_back(layout("k_cols" + n, {"k" + n}, {1, 16, 64}));
    ops.push_back(test::join("scores" + n, OpType::MatMul, {"q_rows" + n, "k_cols" + n}));
    ops.push_back(elementwise("softmax" + n, "Softmax", {"scores" + n}));
    ops.push_back(layout("v_rows" + n, {"v" + n}, {1, 64, 16}));
    ops.push_back(test::join("context" + n, OpType::MatMul, {"softmax" + n, "v_rows" + n}));
    ops.push_back(layout("context_t" + n, {"context" + n}, {16, 64, 1}));
    ops.push_back(test::conv("proj" + n, {"context_t" + n}, 16, 1));
    ops.push_back(add("attn" + n, {"proj" + n, x}));
    ops.push_back(test::conv("up" + n, {"attn" + n}, 64, 1));
    ops.push_back(elementwise("gelu" + n, "Gelu", {"up" + n}));
    ops.push_back(test::conv("down" + n, {"gelu" + n}, 16, 1));
    ops.push_back(add("out" + n, {"down" + n, "attn" + n}));
}

TEST(Repeats, CutsOfResNet18) {
    // conv1 | res2a (3 operators) | res2b (3) | res3a with its projection (4) | ... | pool | fc
    EXPECT_EQ(segmentCuts(example("resnet-18")),
              (std::vector<int>{-1, 0, 3, 6, 10, 13, 17, 20, 24, 27, 28, 29}));
    EXPECT_EQ(segmentCuts(Network{}), std::vector<int>{-1});
}

TEST(Repeats, ResNetStagesCountedByHand) {
    // ResNet-18 (2-2-2-2): only stage 2's blocks are alike; each later stage starts with a projection block.
    EXPECT_EQ(repeatedRuns(example("resnet-18")), (Runs{{1, 3, 2}}));
    // ResNet-34 (3-4-6-3): conv1, then per stage the identity blocks after the projection block
    // (4 operators): stage 2 at 1, stage 3 at 10 + 4, stage 4 at 23 + 4, stage 5 at 42 + 4.
    EXPECT_EQ(repeatedRuns(example("resnet-34")), (Runs{{1, 3, 3}, {14, 3, 3}, {27, 3, 5}, {46, 3, 2}}));
    // ResNet-50 (3-4-6-3 bottlenecks: 4 operators, 5 with the projection; stage 2 starts with one too).
    EXPECT_EQ(repeatedRuns(example("resnet-50")), (Runs{{6, 4, 2}, {19, 4, 3}, {36, 4, 5}, {61, 4, 2}}));
    for (const RepeatedRun& run : repeatedRuns(example("resnet-50"))) EXPECT_TRUE(isResidual(example("resnet-50"), run));
}

TEST(Repeats, OtherExamples) {
    // ResNet-101 (3-4-23-3): stage 4's 22 identity blocks after its projection block.
    EXPECT_EQ(repeatedRuns(example("resnet-101")), (Runs{{6, 4, 2}, {19, 4, 3}, {36, 4, 22}, {129, 4, 2}}));
    // WRN-40-10: three groups of six blocks, the first of each changing width (or stride).
    EXPECT_EQ(repeatedRuns(example("wrn-40-10")), (Runs{{5, 3, 5}, {24, 3, 5}, {43, 3, 5}}));
    // VGG-19: convs without a pool alike in their input and output (conv3_2-3, conv4_2-3, conv5_1-3).
    EXPECT_EQ(repeatedRuns(example("vgg-19")), (Runs{{5, 1, 2}, {9, 1, 2}, {12, 1, 3}}));
    EXPECT_EQ(repeatedRuns(example("vgg-16")), (Runs{{10, 1, 2}}));
    EXPECT_EQ(repeatedRuns(example("sfc")), (Runs{{1, 1, 2}}));  // fc2, fc3: 8,192 -> 8,192
    // Inception-v3: Mixed_6c and Mixed_6d (160 channels in their 7x7 branches; 6b has 128, 6e 192).
    const Network inception = example("inception-v3");
    EXPECT_EQ(repeatedRuns(inception), (Runs{{50, 12, 2}}));
    EXPECT_EQ(inception.ops[50].name, "Mixed_6c.branch1x1");
    EXPECT_FALSE(isResidual(inception, repeatedRuns(inception)[0]));
    for (const char* none : {"lenet-c", "alexnet", "vgg-a", "fractalnet-4x4", "transformer-mlp", "ops-tour"})
        EXPECT_EQ(repeatedRuns(example(none)), Runs{}) << none;
}

TEST(Repeats, TransformerLayersAreOneRun) {
    std::vector<Operator> ops;
    std::string x = "input";
    for (int i = 0; i < 3; ++i) {
        transformerLayer(ops, std::to_string(i), x);
        x = "out" + std::to_string(i);
    }
    ops.push_back(test::fc("classifier", {x}, 10));
    const Network net = test::network("transformer", {16, 64, 1}, ops);
    // Two segments a layer (each part has a shortcut), so the block is two segments long.
    EXPECT_EQ(segmentCuts(net), (std::vector<int>{-1, 11, 15, 27, 31, 43, 47, 48}));
    EXPECT_EQ(repeatedRuns(net), (Runs{{0, 16, 3}}));
    EXPECT_FALSE(isResidual(net, repeatedRuns(net)[0]));  // the layer's add reads the MLP's entry, not the layer's
}

TEST(Repeats, ConvBnReluStartsAtTheConv) {
    // A downsampling conv, then conv-bn-relu three times: every operator is a segment. From the first
    // bn on, bn relu conv repeats too; the run is moved to start at the conv.
    std::vector<Operator> ops{test::conv("c0", {}, 16, 3, 2, 1), elementwise("bn0", "BatchNormalization"),
                              elementwise("relu0", "Relu")};
    for (const char* n : {"1", "2", "3"}) {
        ops.push_back(test::conv(std::string("c") + n, {}, 16, 3, 1, 1));
        ops.push_back(elementwise(std::string("bn") + n, "BatchNormalization"));
        ops.push_back(elementwise(std::string("relu") + n, "Relu"));
    }
    const Network net = test::network("cbr", {8, 16, 16}, ops);
    EXPECT_EQ(segmentCuts(net).size(), 13u);
    EXPECT_EQ(repeatedRuns(net), (Runs{{3, 3, 3}}));
    EXPECT_FALSE(isResidual(net, repeatedRuns(net)[0]));
}

TEST(Repeats, ShapesAreStructure) {
    // conv 8 -> 16 differs from conv 16 -> 16 in its input shape; the three after it are alike:
    // 3 x conv, not 1 x (conv, conv) and a conv.
    const Network net = test::network("convs", {8, 8, 8},
                                      {test::conv("c0", {}, 16, 3, 1, 1), test::conv("c1", {}, 16, 3, 1, 1),
                                       test::conv("c2", {}, 16, 3, 1, 1), test::conv("c3", {}, 16, 3, 1, 1)});
    EXPECT_EQ(repeatedRuns(net), (Runs{{1, 1, 3}}));
    // Four alike: 4 x conv.
    const Network four = test::network("convs", {16, 8, 8},
                                       {test::conv("c0", {}, 16, 3, 1, 1), test::conv("c1", {}, 16, 3, 1, 1),
                                        test::conv("c2", {}, 16, 3, 1, 1), test::conv("c3", {}, 16, 3, 1, 1)});
    EXPECT_EQ(repeatedRuns(four), (Runs{{0, 1, 4}}));
    // The same parameters at another spatial size are another block: 2 + 2.
    const Network sizes = test::network("sizes", {16, 8, 8},
                                        {test::conv("c0", {}, 16, 3, 1, 1), test::conv("c1", {}, 16, 3, 1, 1),
                                         test::conv("c2", {}, 16, 3, 1, 2), test::conv("c3", {}, 16, 3, 1, 1),
                                         test::conv("c4", {}, 16, 3, 1, 1)});
    EXPECT_EQ(repeatedRuns(sizes), (Runs{{0, 1, 2}, {3, 1, 2}}));
}

TEST(Repeats, InputOrderIsStructureNamesAreNot) {
    std::vector<Operator> alike, swapped;
    residual(alike, "0", "input");
    residual(alike, "1", "add0");
    residual(swapped, "0", "input");
    residual(swapped, "1", "add0", true);
    const Network a = test::network("alike", {16, 8, 8}, alike);
    EXPECT_EQ(repeatedRuns(a), (Runs{{0, 3, 2}}));
    EXPECT_TRUE(isResidual(a, repeatedRuns(a)[0]));
    EXPECT_EQ(repeatedRuns(test::network("swapped", {16, 8, 8}, swapped)), Runs{});
}

TEST(Repeats, ANetworkOutputCrossesNoCut) {
    // `head` reads a and nothing reads head: the cut after b still holds.
    const Network net = test::network("head", {16, 8, 8},
                                      {test::conv("a", {}, 16, 3, 1, 1), test::fc("head", {"a"}, 10),
                                       test::conv("b", {"a"}, 16, 3, 1, 1), test::conv("c", {"b"}, 16, 3, 1, 1)});
    EXPECT_EQ(segmentCuts(net), (std::vector<int>{-1, 0, 2, 3}));
    // Segments a | head, b | c: b and c are in different segments with different structure.
    EXPECT_EQ(repeatedRuns(net), Runs{});
}

TEST(Repeats, TheRunCoveringMostGoesFirst) {
    // Segments A A U D A U D A U D (each conv its own segment; U pads 8 x 8 up to 10 x 10, D takes it
    // back): 2 x A at the start covers 2, 3 x (A U D) from the second A covers 9 and wins.
    std::vector<Operator> ops;
    const auto conv = [&](const std::string& name, int pad) { ops.push_back(test::conv(name, {}, 16, 3, 1, pad)); };
    conv("a0", 1);
    for (const char* n : {"1", "2", "3"}) {
        conv(std::string("a") + n, 1);
        conv(std::string("u") + n, 2);
        conv(std::string("d") + n, 0);
    }
    EXPECT_EQ(repeatedRuns(test::network("aud", {16, 8, 8}, ops)), (Runs{{1, 3, 3}}));
}

}  // namespace
}  // namespace partita
