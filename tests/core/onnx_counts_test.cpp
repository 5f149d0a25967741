// Weights and multiply-accumulates of imported ONNX graphs, counted by hand in the comments
// (issue 15, item 4's definitions: biases excluded, activation × activation MatMuls included).
#include <gtest/gtest.h>

#include "core/io/network_io.h"
#include "core/model/counts.h"
#include "core/onnx/convert.h"
#include "core/onnx/counts.h"
#include "core/onnx/import.h"
#include "onnx_builder.h"

namespace partita {
namespace {

using test::OnnxBuilder;

// Every model here also converts to a native network that counts exactly the same (what `inspect`
// prints for the model and for its `convert`ed JSON).
onnx::Graph import(const OnnxBuilder& b, const onnx::InputDims& dims = {}) {
    onnx::Graph g = onnx::importOnnx(b.write(), dims);
    const onnx::Summary s = onnx::summarize(g);
    const Network net = onnx::toNetwork(g, "model.onnx").network;
    const NetworkCounts native = countNetwork(net);
    EXPECT_EQ(native.weights, static_cast<double>(s.weights));
    EXPECT_EQ(native.macs_per_sample, s.macs_per_sample);
    EXPECT_EQ(native.weighted_layers, s.weighted_layers);
    const Network back = readNetworkJson(writeNetworkJson(net), "model.json");  // convert's round trip
    EXPECT_EQ(countNetwork(back).macs_per_sample, native.macs_per_sample);
    EXPECT_EQ(countNetwork(back).operators, native.operators);
    return g;
}

const onnx::NodeCounts& countsOf(const onnx::Graph& g, const std::vector<onnx::NodeCounts>& counts, const std::string& name) {
    for (std::size_t i = 0; i < g.nodes.size(); ++i)
        if (g.nodes[i].name == name) return counts[i];
    throw std::runtime_error("no node " + name);
}

TEST(OnnxCounts, GroupedConv) {
    OnnxBuilder b;
    b.input("x", {2, 16, 8, 8});
    b.weight("w", {32, 4, 3, 3});
    b.weight("bias", {32});
    OnnxBuilder::attrInt(b.node("Conv", {"x", "w", "bias"}, {"y"}, "conv"), "group", 4);
    b.output("y");
    const onnx::Graph g = import(b);
    // y [2, 32, 6, 6]. Weights 32·4·3·3 = 1,152 (the bias is not counted).
    // MACs per sample k_h·k_w·C_in/g·C_out·H_out·W_out = 3·3·(16/4)·32·6·6 = 41,472; batch 2: 82,944.
    const onnx::Summary s = onnx::summarize(g);
    EXPECT_EQ(s.batch, 2);
    EXPECT_EQ(s.operators, 1);
    EXPECT_EQ(s.weighted_layers, 1);
    EXPECT_EQ(s.weights, 1152);
    EXPECT_EQ(s.macs, 82944);
    EXPECT_EQ(s.macs_per_sample, 41472.0);
}

TEST(OnnxCounts, DepthwiseConv) {
    OnnxBuilder b;
    b.input("x", {1, 32, 56, 56});
    b.weight("w", {32, 1, 3, 3});
    auto& conv = b.node("Conv", {"x", "w"}, {"y"}, "dw");
    OnnxBuilder::attrInt(conv, "group", 32);
    OnnxBuilder::attrInts(conv, "pads", {1, 1, 1, 1});
    b.output("y");
    // y [1, 32, 56, 56]. Weights 32·1·3·3 = 288; MACs 3·3·(32/32)·32·56·56 = 903,168.
    const onnx::Summary s = onnx::summarize(import(b));
    EXPECT_EQ(s.weights, 288);
    EXPECT_EQ(s.macs_per_sample, 903168.0);
}

TEST(OnnxCounts, ConvTransposePlainAndGrouped) {
    for (const std::int64_t group : {1, 2}) {
        SCOPED_TRACE(group);
        OnnxBuilder b;
        b.input("x", {1, 4, 8, 8});
        b.weight("w", {4, 2 / group, 3, 3});
        auto& ct = b.node("ConvTranspose", {"x", "w"}, {"y"}, "up");
        OnnxBuilder::attrInt(ct, "group", group);
        OnnxBuilder::attrInts(ct, "strides", {2, 2});
        OnnxBuilder::attrInts(ct, "pads", {1, 1, 1, 1});
        OnnxBuilder::attrInts(ct, "output_padding", {1, 1});
        b.output("y");
        const onnx::Graph g = import(b);
        // y [1, 2, 16, 16] either way. Weights 4·(2/g)·3·3 = 72 or 36;
        // MACs k_h·k_w·C_in·C_out/g·H_in·W_in = 3·3·4·(2/g)·8·8 = 4,608 or 2,304.
        EXPECT_EQ(g.tensor("y")->dims, (std::vector<std::int64_t>{1, 2, 16, 16}));
        const onnx::Summary s = onnx::summarize(g);
        EXPECT_EQ(s.weights, group == 1 ? 72 : 36);
        EXPECT_EQ(s.macs_per_sample, group == 1 ? 4608.0 : 2304.0);
    }
}

TEST(OnnxCounts, GemmWithTransB) {
    OnnxBuilder b;
    b.input("x", {"batch", 256});
    b.weight("w", {128, 256});
    b.weight("c", {128});
    OnnxBuilder::attrInt(b.node("Gemm", {"x", "w", "c"}, {"y"}, "fc"), "transB", 1);
    b.output("y");
    const onnx::Graph g = import(b, {{}, {{"batch", 4}}});
    // y [4, 128]. Weights 128·256 = 32,768 (C excluded); MACs per sample K·N = 256·128 = 32,768; batch 4: 131,072.
    const onnx::Summary s = onnx::summarize(g);
    EXPECT_EQ(s.weights, 32768);
    EXPECT_EQ(s.macs, 131072);
    EXPECT_EQ(s.macs_per_sample, 32768.0);
    EXPECT_EQ(s.weighted_layers, 1);
}

// Multi-head self-attention as PyTorch exports it: x [batch, seq, 64], 4 heads of 16; the head
// reshapes take their targets from Shape(x) → Gather → Unsqueeze → Concat.
OnnxBuilder attention() {
    OnnxBuilder b;
    b.input("x", {"batch", "seq", 64});
    b.node("Shape", {"x"}, {"xs"});
    b.scalarInt("i0", 0);
    b.scalarInt("i1", 1);
    b.node("Gather", {"xs", "i0"}, {"bsz"});
    b.node("Gather", {"xs", "i1"}, {"len"});
    b.ints("axis0", {0});
    b.node("Unsqueeze", {"bsz", "axis0"}, {"bsz1"});
    b.node("Unsqueeze", {"len", "axis0"}, {"len1"});
    b.ints("heads", {4});
    b.ints("dk", {16});
    b.ints("dmodel", {64});
    OnnxBuilder::attrInt(b.node("Concat", {"bsz1", "len1", "heads", "dk"}, {"split_heads"}), "axis", 0);
    OnnxBuilder::attrInt(b.node("Concat", {"bsz1", "len1", "dmodel"}, {"merge_heads"}), "axis", 0);
    const std::vector<std::int64_t> perm_q = {0, 2, 1, 3}, perm_k = {0, 2, 3, 1};
    for (const std::string p : {"q", "k", "v"}) {
        b.weight("W" + p, {64, 64});
        b.weight("b" + p, {64});
        b.node("MatMul", {"x", "W" + p}, {p + "0"}, p + "_proj");
        b.node("Add", {p + "0", "b" + p}, {p + "1"});
        b.node("Reshape", {p + "1", "split_heads"}, {p + "2"});
        OnnxBuilder::attrInts(b.node("Transpose", {p + "2"}, {p + "h"}), "perm", p == "k" ? perm_k : perm_q);
    }
    b.node("MatMul", {"qh", "kh"}, {"scores"}, "scores");  // [b, 4, s, s]
    b.floats("scale", {4.f}, {});
    b.node("Div", {"scores", "scale"}, {"scaled"});
    OnnxBuilder::attrInt(b.node("Softmax", {"scaled"}, {"p"}), "axis", -1);
    b.node("MatMul", {"p", "vh"}, {"ctx"}, "context");  // [b, 4, s, 16]
    OnnxBuilder::attrInts(b.node("Transpose", {"ctx"}, {"ctx_t"}), "perm", perm_q);
    b.node("Reshape", {"ctx_t", "merge_heads"}, {"merged"});
    b.weight("Wo", {64, 64});
    b.node("MatMul", {"merged", "Wo"}, {"y"}, "o_proj");
    b.output("y");
    return b;
}

TEST(OnnxCounts, AttentionWithActivationTimesActivationMatMuls) {
    const onnx::Graph g = import(attention(), {{}, {{"batch", 2}, {"seq", 10}}});
    EXPECT_EQ(g.tensor("scores")->dims, (std::vector<std::int64_t>{2, 4, 10, 10}));
    EXPECT_EQ(g.tensor("y")->dims, (std::vector<std::int64_t>{2, 10, 64}));
    const std::vector<onnx::NodeCounts> counts = onnx::countNodes(g);
    // Projections: S·D·D = 10·64·64 = 40,960 MACs per sample each, 64·64 = 4,096 weights each.
    EXPECT_EQ(countsOf(g, counts, "q_proj").macs_per_sample, 40960.0);
    EXPECT_EQ(countsOf(g, counts, "q_proj").weights, 4096);
    // Scores Q·Kᵀ and context P·V: heads·S·S·d_k = 4·10·10·16 = 6,400 each, no weights.
    for (const char* n : {"scores", "context"}) {
        EXPECT_EQ(countsOf(g, counts, n).macs_per_sample, 6400.0) << n;
        EXPECT_EQ(countsOf(g, counts, n).weights, 0) << n;
        EXPECT_FALSE(countsOf(g, counts, n).weighted) << n;
    }
    const onnx::Summary s = onnx::summarize(g);
    EXPECT_EQ(s.weights, 4 * 4096);                       // 16,384
    EXPECT_EQ(s.macs_per_sample, 4 * 40960.0 + 2 * 6400);  // 176,640
    EXPECT_EQ(s.macs, 2 * 176640);
    EXPECT_EQ(s.weighted_layers, 4);
    // Operators: 3 × (MatMul, Add, Reshape, Transpose) + scores, Div, Softmax, context, Transpose,
    // Reshape, o_proj = 19; the 8 shape nodes fold.
    EXPECT_EQ(s.operators, 19);
}

TEST(OnnxCounts, MlpWithDecomposedLayerNorm) {
    OnnxBuilder b;
    b.input("x", {3, 20});
    b.weight("W1", {20, 32});
    b.weight("b1", {32});
    b.node("MatMul", {"x", "W1"}, {"h0"}, "fc1");
    b.node("Add", {"h0", "b1"}, {"h"});
    OnnxBuilder::attrInts(b.node("ReduceMean", {"h"}, {"mean"}), "axes", {-1});
    b.node("Sub", {"h", "mean"}, {"d"});
    b.floats("two", {2.f}, {});
    b.node("Pow", {"d", "two"}, {"sq"});
    OnnxBuilder::attrInts(b.node("ReduceMean", {"sq"}, {"var"}), "axes", {-1});
    b.floats("eps", {1e-5f}, {});
    b.node("Add", {"var", "eps"}, {"ve"});
    b.node("Sqrt", {"ve"}, {"sd"});
    b.node("Div", {"d", "sd"}, {"n"});
    b.weight("gamma", {32});
    b.weight("beta", {32});
    b.node("Mul", {"n", "gamma"}, {"ng"});
    b.node("Add", {"ng", "beta"}, {"nb"});
    b.node("Relu", {"nb"}, {"r"});
    b.weight("W2", {32, 10});
    b.weight("b2", {10});
    b.node("Gemm", {"r", "W2", "b2"}, {"y"}, "fc2");
    b.output("y");
    const onnx::Graph g = import(b);
    EXPECT_EQ(g.tensor("mean")->dims, (std::vector<std::int64_t>{3, 1}));
    EXPECT_EQ(g.tensor("n")->dims, (std::vector<std::int64_t>{3, 32}));
    // Weights 20·32 + 32·10 = 960 (biases, gamma and beta excluded); MACs per sample the same 960.
    const onnx::Summary s = onnx::summarize(g);
    EXPECT_EQ(s.batch, 3);
    EXPECT_EQ(s.weights, 960);
    EXPECT_EQ(s.macs_per_sample, 960.0);
    EXPECT_EQ(s.macs, 2880);
    EXPECT_EQ(s.weighted_layers, 2);
    EXPECT_EQ(s.operators, 13);
}

TEST(OnnxCounts, FoldedNodesAndOtherOperatorsCountNothing) {
    OnnxBuilder b;
    b.input("x", {2, 4});
    b.weight("w", {4, 4});
    b.weight("w2", {4, 4});
    b.node("MatMul", {"w", "w2"}, {"ww"}, "constant_product");  // folded: both operands constant
    b.node("MatMul", {"x", "ww"}, {"y"}, "mm");
    b.node("Relu", {"y"}, {"r"}, "act");
    b.output("r");
    const onnx::Graph g = import(b);
    const std::vector<onnx::NodeCounts> counts = onnx::countNodes(g);
    EXPECT_EQ(countsOf(g, counts, "constant_product").macs, 0);
    EXPECT_EQ(countsOf(g, counts, "act").macs, 0);
    EXPECT_EQ(countsOf(g, counts, "mm").weights, 16);
    EXPECT_EQ(countsOf(g, counts, "mm").macs_per_sample, 16.0);
    EXPECT_EQ(onnx::summarize(g).operators, 2);
}

}  // namespace
}  // namespace partita
