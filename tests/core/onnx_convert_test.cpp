// An imported ONNX graph as a native network: hand-built graphs (no protobuf), their native
// operators and views, and totals that match the ONNX counts by hand.
#include <gtest/gtest.h>

#include "core/model/layers.h"
#include "core/onnx/convert.h"
#include "test_util.h"

namespace partita::onnx {
namespace {

// A graph written like a model file: tensors with dims, nodes in order.
struct Builder {
    Graph g;
    Builder& tensor(const std::string& name, std::vector<std::int64_t> dims, bool constant = false) {
        Tensor t;
        t.name = name;
        t.dims = std::move(dims);
        t.constant = constant;
        g.tensors[name] = t;
        return *this;
    }
    Builder& node(const std::string& op, std::vector<std::string> in, std::vector<std::string> out,
                  std::map<std::string, Attribute> attrs = {}) {
        Node n;
        n.name = op + "_" + std::to_string(g.nodes.size());
        n.op_type = op;
        n.index = static_cast<int>(g.nodes.size());
        n.inputs = std::move(in);
        n.outputs = std::move(out);
        n.attributes = std::move(attrs);
        g.nodes.push_back(n);
        return *this;
    }
};

Attribute ints(std::vector<std::int64_t> v) {
    Attribute a;
    a.ints = std::move(v);
    return a;
}
Attribute one(std::int64_t v) {
    Attribute a;
    a.i = v;
    return a;
}

double macs(const Network& n) {
    double total = 0;
    for (const auto& l : weightedLayers(n).layers) total += l.macsPerSample();
    for (const auto& op : n.ops)  // activation x activation matmuls: G * M * N * K
        if (op.type == OpType::MatMul) total += double(op.out_shape.elements()) * double(op.in_shape.w);
    return total;
}

TEST(OnnxConvert, DepthwiseSeparableBlockAndClassifier) {
    Builder b;
    b.g.name = "dws";
    b.g.inputs = {"x"};
    b.tensor("x", {2, 8, 16, 16})
        .tensor("w_dw", {8, 1, 3, 3}, true)
        .tensor("dw", {2, 8, 16, 16})
        .tensor("act", {2, 8, 16, 16})
        .tensor("w_pw", {16, 8, 1, 1}, true)
        .tensor("pw", {2, 16, 16, 16})
        .tensor("gap", {2, 16, 1, 1})
        .tensor("flat", {2, 16})
        .tensor("w_fc", {10, 16}, true)
        .tensor("logits", {2, 10})
        .node("Conv", {"x", "w_dw"}, {"dw"}, {{"group", one(8)}, {"pads", ints({1, 1, 1, 1})}})
        .node("HardSwish", {"dw"}, {"act"})
        .node("Conv", {"act", "w_pw"}, {"pw"})
        .node("GlobalAveragePool", {"pw"}, {"gap"})
        .node("Flatten", {"gap"}, {"flat"})
        .node("Gemm", {"flat", "w_fc"}, {"logits"}, {{"transB", one(1)}});
    const Network n = toNetwork(b.g, "dws.onnx").network;
    EXPECT_EQ(n.input, (Shape{8, 16, 16}));
    ASSERT_EQ(n.ops.size(), 6u);
    EXPECT_EQ(n.ops[0].group, 8);
    EXPECT_EQ(n.ops[5].type, OpType::FullyConnected);
    EXPECT_EQ(n.ops[5].out_channels, 10);
    // Depthwise 3*3*8 per position * 256 + pointwise 8*16 * 256 + fc 16*10.
    EXPECT_EQ(macs(n), 72.0 * 256 + 128.0 * 256 + 160);
}

TEST(OnnxConvert, AttentionBecomesLinearLayersAndMatmuls) {
    // [N, S=4, D=8]: q, k, v = x W (constants); scores = q k^T; context = softmax(scores) v.
    Builder b;
    b.g.name = "attn";
    b.g.inputs = {"x"};
    b.tensor("x", {1, 4, 8});
    for (const char* w : {"wq", "wk", "wv"}) b.tensor(w, {8, 8}, true);
    b.tensor("q", {1, 4, 8}).tensor("k", {1, 4, 8}).tensor("v", {1, 4, 8}).tensor("kt", {1, 8, 4});
    b.tensor("s", {1, 4, 4}).tensor("p", {1, 4, 4}).tensor("ctx", {1, 4, 8}).tensor("out", {1, 4, 8});
    b.node("MatMul", {"x", "wq"}, {"q"})
        .node("MatMul", {"x", "wk"}, {"k"})
        .node("MatMul", {"x", "wv"}, {"v"})
        .node("Transpose", {"k"}, {"kt"}, {{"perm", ints({0, 2, 1})}})
        .node("MatMul", {"q", "kt"}, {"s"})
        .node("Softmax", {"s"}, {"p"})
        .node("MatMul", {"p", "v"}, {"ctx"})
        .node("Add", {"ctx", "x"}, {"out"});
    const Converted c = toNetwork(b.g, "attn.onnx");
    const Network& n = c.network;
    // Three linear layers of 8 x 8 over 4 positions, q k^T (4*4*8) and p v (4*8*4).
    EXPECT_EQ(macs(n), 3 * 64.0 * 4 + 128 + 128);
    const LayerTable t = weightedLayers(n);
    EXPECT_EQ(t.size(), 3u);
    EXPECT_FALSE(t.isChain());
    int matmuls = 0;
    for (const auto& op : n.ops) matmuls += op.type == OpType::MatMul;
    EXPECT_EQ(matmuls, 2);
    EXPECT_EQ(n.ops.back().type, OpType::Add);  // ctx + x: a residual join of equal views
}

TEST(OnnxConvert, AMatMulWithAConstantIsTheEquivalentFc) {
    Builder b;
    b.g.inputs = {"x"};
    b.tensor("x", {4, 32}).tensor("w", {32, 10}, true).tensor("y", {4, 10});
    b.node("MatMul", {"x", "w"}, {"y"});
    const Network n = toNetwork(b.g, "fc.onnx").network;
    ASSERT_EQ(n.ops.size(), 1u);
    EXPECT_EQ(n.ops[0].type, OpType::FullyConnected);
    EXPECT_EQ(weightedLayers(n)[0].weights(), 320.0);
}

TEST(OnnxConvert, ShapeDisagreementsAndUnknownInputsAreErrors) {
    Builder b;
    b.g.inputs = {"x"};
    b.tensor("x", {1, 3, 8, 8}).tensor("w", {4, 3, 3, 3}, true).tensor("y", {1, 4, 7, 7});  // 6x6 in fact
    b.node("Conv", {"x", "w"}, {"y"});
    EXPECT_NE(test::anyErrorOf([&] { toNetwork(b.g, "bad.onnx"); }).find("ONNX shape inference 196"),
              std::string::npos);
    Builder none;
    EXPECT_EQ(test::anyErrorOf([&] { toNetwork(none.g, "empty.onnx"); }), "empty.onnx: the model has no graph input");
}

}  // namespace
}  // namespace partita::onnx
