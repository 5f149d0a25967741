// Patterns found in real exported models (tools/onnx-models/export.py: torchvision and PyTorch 1.13
// exports), each reduced to a small model built here; counts worked out by hand in the comments.
#include <gtest/gtest.h>

#include <limits>

#include "core/model/counts.h"
#include "core/onnx/convert.h"
#include "core/onnx/counts.h"
#include "core/onnx/import.h"
#include "onnx_builder.h"
#include "test_util.h"

namespace partita {
namespace {

using test::OnnxBuilder;
using Dims = std::vector<std::int64_t>;

struct Imported {
    onnx::Graph graph;
    Network network;
};

const Operator& opNamed(const Network& net, const std::string& name) {
    const int i = net.find(name);
    if (i < 0) throw std::runtime_error("no operator " + name);
    return net.ops[static_cast<std::size_t>(i)];
}

// Imports and converts; the native network must count what the ONNX graph counts.
Imported importAndConvert(const OnnxBuilder& b, const onnx::InputDims& dims = {}) {
    Imported r{onnx::importOnnx(b.write(), dims), {}};
    r.network = onnx::toNetwork(r.graph, "model.onnx").network;
    const onnx::Summary s = onnx::summarize(r.graph);
    const NetworkCounts native = countNetwork(r.network);
    EXPECT_EQ(native.weights, static_cast<double>(s.weights));
    EXPECT_EQ(native.macs_per_sample, s.macs_per_sample);
    return r;
}

// nn.MultiheadAttention works sequence-first: a batch-first model transposes x [N, L, E] to [L, N, E]
// before its projections, so the batch sits on axis 1 (found with batch 3, sequence 7).
TEST(OnnxExports, SequenceFirstTensorsInsideABatchFirstModel) {
    OnnxBuilder b;
    b.input("x", {"batch", "seq", 8});
    OnnxBuilder::attrInts(b.node("Transpose", {"x"}, {"t"}, "to_seq_first"), "perm", {1, 0, 2});
    b.weight("w", {8, 4});
    b.node("MatMul", {"t", "w"}, {"m"}, "proj");
    OnnxBuilder::attrInts(b.node("Transpose", {"m"}, {"y"}, "to_batch_first"), "perm", {1, 0, 2});
    b.output("y");
    const Imported r = importAndConvert(b, {{}, {{"batch", 3}, {"seq", 7}}});
    // m [7, 3, 4]: per sample 7 positions of a linear layer 8 -> 4: 32 weights, 7·8·4 = 224 MACs.
    const NetworkCounts c = countNetwork(r.network);
    EXPECT_EQ(c.weights, 32.0);
    EXPECT_EQ(c.macs_per_sample, 224.0);
    EXPECT_EQ(opNamed(r.network, "proj").out_shape, (Shape{4, 7, 1}));
}

// PyTorch names every graph "torch_jit" (older releases "torch-jit-export"), Paddle2ONNX "Model from
// PaddlePaddle."; the file names the model.
TEST(OnnxExports, APlaceholderGraphNameGivesWayToTheFileName) {
    for (const std::string placeholder : {"torch_jit", "torch-jit-export", "main_graph", "", "Model from PaddlePaddle.",
                                          "paddle-onnx", "A model exported for serving."}) {
        OnnxBuilder b(13, placeholder);
        b.input("x", {1, 8});
        b.node("Relu", {"x"}, {"y"}, "act");
        b.output("y");
        const std::string path = b.write("my-detector");
        EXPECT_EQ(onnx::importOnnx(path, {}).name, std::filesystem::path(path).stem().string()) << placeholder;
    }
    OnnxBuilder named(13, "ocr_rec");
    named.input("x", {1, 8});
    named.node("Relu", {"x"}, {"y"}, "act");
    named.output("y");
    EXPECT_EQ(onnx::importOnnx(named.write("other"), {}).name, "ocr_rec");
}

std::string convertError(const onnx::Graph& g) {
    return test::anyErrorOf([&] { onnx::toNetwork(g, "model.onnx"); });
}

onnx::Attribute intsAttribute(Dims v) {
    onnx::Attribute a;
    a.ints = std::move(v);
    return a;
}

// The import checks window attributes against limits::kDimension; the conversion narrows them to the
// native model's ints and checks again, so a Graph built or changed by other code cannot overflow.
TEST(OnnxExports, ConvertNarrowsWindowAttributesWithARangeCheck) {
    OnnxBuilder b;
    b.input("x", {1, 4, 8, 8});
    b.weight("w", {4, 2, 3, 3});
    auto& conv = b.node("ConvTranspose", {"x", "w"}, {"y"}, "up");
    OnnxBuilder::attrInts(conv, "strides", {2, 2});
    b.output("y");
    const onnx::Graph good = onnx::importOnnx(b.write());
    EXPECT_EQ(convertError(good), "(no error)");
    const std::string at = "model.onnx: node 'up' (ConvTranspose, #0): ";
    auto with = [&](const std::string& key, onnx::Attribute a) {
        onnx::Graph g = good;
        g.nodes[0].attributes[key] = std::move(a);
        return convertError(g);
    };
    const Dims huge{std::int64_t{1} << 40, 1};
    EXPECT_EQ(with("strides", intsAttribute(huge)), at + "strides 1099511627776 is outside 1..16777216");
    EXPECT_EQ(with("dilations", intsAttribute({1, 0})), at + "dilations 0 is outside 1..16777216");
    EXPECT_EQ(with("pads", intsAttribute({0, -1, 0, 0})), at + "pads -1 is outside 0..16777216");
    EXPECT_EQ(with("pads", intsAttribute({0, 0})), at + "pads has 2 entries, not 4");
    EXPECT_EQ(with("output_padding", intsAttribute({0, std::int64_t{1} << 33})),
              at + "output_padding 8589934592 is outside 0..16777216");
    onnx::Attribute group;
    group.i = (std::int64_t{1} << 32) + 1;  // 1 once truncated to an int
    EXPECT_EQ(with("group", group), at + "group 4294967297 is outside 1..16777216");
}

// A window whose extent dilation·(k−1)+1 overflows an int imports (ONNX's sizes are int64) and is
// refused by the conversion: kernel 4,096 rows dilated by 2^24 reads 4,095·2^24 + 1 rows.
TEST(OnnxExports, AWindowExtentBeyondAnIntIsRefused) {
    OnnxBuilder b;
    b.input("x", {1, 1, 1, 1});
    b.weight("w", {1, 1, 4096, 1});
    OnnxBuilder::attrInts(b.node("ConvTranspose", {"x", "w"}, {"y"}, "tall"), "dilations", {1 << 24, 1});
    b.output("y");
    const onnx::Graph g = onnx::importOnnx(b.write());
    EXPECT_EQ(g.tensor("y")->dims, (Dims{1, 1, 4095 * (std::int64_t{1} << 24) + 1, 1}));
    EXPECT_EQ(convertError(g), "model.onnx: node 'tall' (ConvTranspose, #0): the window extent "
                               "(dilations·(kernel−1)+1) 68702699521 is outside 1..16777216");
}

Dims valuesOf(const onnx::Graph& g, const std::string& name) {
    const onnx::Tensor* t = g.tensor(name);
    return t && t->has_values ? t->int_values : Dims{-99};
}

// Sizes computed with the ops beyond Add/Sub/Mul/Div that exports use (ceil(h / 3) for a padded grid,
// min(len, k), masks through Greater/Less/Not/And/Where, Python's % on a size) fold to exact values.
TEST(OnnxExports, IntegerShapeArithmeticFolds) {
    OnnxBuilder b;
    b.input("x", {"N", 3, 10, 10});
    b.node("Shape", {"x"}, {"s"});
    b.scalarInt("two", 2);
    b.node("Gather", {"s", "two"}, {"h"});  // 10
    OnnxBuilder::attrInt(b.node("Cast", {"h"}, {"hf"}), "to", OnnxBuilder::kFloat);
    b.floats("three", {3.0f}, {});
    b.node("Div", {"hf", "three"}, {"q"});  // 3.33…
    b.node("Floor", {"q"}, {"fl"});         // 3
    b.node("Ceil", {"q"}, {"ce"});          // 4
    OnnxBuilder::attrInt(b.node("Cast", {"fl"}, {"f"}), "to", OnnxBuilder::kInt64);
    OnnxBuilder::attrInt(b.node("Cast", {"ce"}, {"c"}), "to", OnnxBuilder::kInt64);
    b.scalarInt("five", 5);
    b.node("Min", {"f", "c", "five"}, {"mn"});  // 3
    b.node("Max", {"f", "c"}, {"mx"});          // 4
    b.node("Neg", {"mn"}, {"neg"});             // -3
    b.node("Abs", {"neg"}, {"abs"});            // 3
    b.node("Sign", {"neg"}, {"sign"});          // -1
    b.scalarInt("four", 4);
    b.node("Mod", {"neg", "four"}, {"pymod"});  // Python: -3 % 4 = 1
    OnnxBuilder::attrInt(b.node("Mod", {"neg", "four"}, {"cmod"}), "fmod", 1);  // C: -3 % 4 = -3
    b.node("Pow", {"mn", "two"}, {"sq"});       // 9
    b.node("Greater", {"mx", "abs"}, {"gt"});   // true
    b.node("Less", {"mx", "abs"}, {"lt"});      // false
    b.node("Not", {"lt"}, {"nlt"});             // true
    b.node("And", {"gt", "nlt"}, {"both"});     // true
    b.node("Where", {"both", "abs", "mx"}, {"w"});  // 3
    b.ints("axes", {0});
    b.node("Unsqueeze", {"w", "axes"}, {"w1"});
    b.ints("lead", {0, -1});
    OnnxBuilder::attrInt(b.node("Concat", {"lead", "w1"}, {"target"}), "axis", 0);
    b.node("Reshape", {"x", "target"}, {"y"}, "reshape");  // [N, 100, 3]
    b.output("y");
    const onnx::Graph g = onnx::importOnnx(b.write(), {{}, {{"N", 2}}});
    EXPECT_EQ(valuesOf(g, "mn"), Dims{3});
    EXPECT_EQ(valuesOf(g, "mx"), Dims{4});
    EXPECT_EQ(valuesOf(g, "neg"), Dims{-3});
    EXPECT_EQ(valuesOf(g, "abs"), Dims{3});
    EXPECT_EQ(valuesOf(g, "sign"), Dims{-1});
    EXPECT_EQ(valuesOf(g, "pymod"), Dims{1});
    EXPECT_EQ(valuesOf(g, "cmod"), Dims{-3});
    EXPECT_EQ(valuesOf(g, "sq"), Dims{9});
    EXPECT_EQ(valuesOf(g, "gt"), Dims{1});
    EXPECT_EQ(valuesOf(g, "lt"), Dims{0});
    EXPECT_EQ(g.tensor("gt")->dtype, "bool");
    EXPECT_EQ(valuesOf(g, "w"), Dims{3});
    EXPECT_EQ(g.tensor("y")->dims, (Dims{2, 100, 3}));
    for (const onnx::Node& n : g.nodes) EXPECT_EQ(n.folded, n.name != "reshape") << n.name;
}

// Overflow, division by zero and negative exponents are left to run time, never folded to a wrong value.
TEST(OnnxExports, ArithmeticThatWouldOverflowIsNotFolded) {
    OnnxBuilder b;
    b.input("x", {2, 3});
    b.scalarInt("min", std::numeric_limits<std::int64_t>::min());
    b.scalarInt("zero", 0);
    b.scalarInt("ten", 10);
    b.scalarInt("big", 64);
    b.scalarInt("minus", -1);
    b.node("Neg", {"min"}, {"neg"});
    b.node("Abs", {"min"}, {"abs"});
    b.node("Mod", {"ten", "zero"}, {"mod"});
    b.node("Pow", {"ten", "big"}, {"pow"});
    b.node("Pow", {"ten", "minus"}, {"inv"});
    b.node("Relu", {"x"}, {"y"});
    b.output("y");
    const onnx::Graph g = onnx::importOnnx(b.write());
    for (const char* name : {"neg", "abs", "mod", "pow", "inv"}) {
        EXPECT_FALSE(g.tensor(name)->has_values) << name;
        EXPECT_TRUE(g.tensor(name)->constant) << name;  // still a constant: never an operator to cost
    }
}

// The same ops on activations are element-wise operators: a mask (Greater) chosen by Where.
TEST(OnnxExports, ComparisonsAndLogicOnActivationsAreElementwise) {
    OnnxBuilder b;
    b.input("x", {1, 4, 6, 6});
    b.weight("w", {8, 4, 1, 1});
    b.node("Conv", {"x", "w"}, {"c"}, "conv");
    b.floats("zero", {0.0f}, {});
    b.node("Greater", {"c", "zero"}, {"pos"}, "positive");
    b.node("Neg", {"c"}, {"n"}, "negate");
    b.node("Where", {"pos", "c", "n"}, {"y"}, "abs");  // |c|
    b.output("y");
    const Imported r = importAndConvert(b);
    // conv: 8·4 = 32 weights, 32·36 = 1,152 MACs; the rest costs none.
    EXPECT_EQ(countNetwork(r.network).macs_per_sample, 1152.0);
    EXPECT_EQ(opNamed(r.network, "positive").type, OpType::Elementwise);
    EXPECT_EQ(opNamed(r.network, "abs").inputs, (std::vector<std::string>{"positive", "conv", "negate"}));
    EXPECT_EQ(opNamed(r.network, "abs").out_shape, (Shape{8, 6, 6}));
    EXPECT_EQ(r.graph.tensor("pos")->dtype, "bool");
}

// nn.LayerNorm(16) as PyTorch 1.13 exports it below opset 17 (node names as it writes them), between
// two linear layers: x [N, 5, 8] → MatMul 8x16 → LayerNorm → MatMul 16x4. `square` picks Pow(d, 2)
// or Mul(d, d); `affine` adds the γ and β tail; `reciprocal` writes d / sd as d * Reciprocal(sd).
OnnxBuilder decomposedLayerNorm(const std::string& square = "Pow", bool affine = true, bool reciprocal = false) {
    OnnxBuilder b;
    b.input("x", {"N", 5, 8});
    b.weight("w1", {8, 16});
    b.node("MatMul", {"x", "w1"}, {"h"}, "/fc1/MatMul");
    OnnxBuilder::attrInts(b.node("ReduceMean", {"h"}, {"mean"}, "/norm/ReduceMean"), "axes", {-1});
    b.node("Sub", {"h", "mean"}, {"d"}, "/norm/Sub");
    b.floats("two", {2.0f}, {});
    if (square == "Pow") b.node("Pow", {"d", "two"}, {"sq"}, "/norm/Pow");
    else b.node("Mul", {"d", "d"}, {"sq"}, "/norm/Square");
    OnnxBuilder::attrInts(b.node("ReduceMean", {"sq"}, {"var"}, "/norm/ReduceMean_1"), "axes", {-1});
    b.floats("eps", {1e-5f}, {});
    b.node("Add", {"var", "eps"}, {"ve"}, "/norm/Add");
    b.node("Sqrt", {"ve"}, {"sd"}, "/norm/Sqrt");
    if (reciprocal) {
        b.node("Reciprocal", {"sd"}, {"inv"}, "/norm/Reciprocal");
        b.node("Mul", {"inv", "d"}, {"n"}, "/norm/Mul_1");  // d second: either order matches
    } else {
        b.node("Div", {"d", "sd"}, {"n"}, "/norm/Div");
    }
    std::string out = "n";
    if (affine) {
        b.weight("gamma", {16});
        b.weight("beta", {16});
        b.node("Mul", {"n", "gamma"}, {"g"}, "/norm/Mul");
        b.node("Add", {"g", "beta"}, {"ln"}, "/norm/Add_1");
        out = "ln";
    }
    b.weight("w2", {16, 4});
    b.node("MatMul", {out, "w2"}, {"y"}, "/fc2/MatMul");
    b.output("y");
    return b;
}

// The operators, without the views an import inserts between them.
std::vector<std::string> opNames(const Network& net) {
    std::vector<std::string> names;
    for (const Operator& op : net.ops)
        if (!isImportView(op)) names.push_back(op.name);
    return names;
}

// The nine nodes become one normalisation operator, as opset 17's LayerNormalization converts.
TEST(OnnxExports, DecomposedLayerNormIsOneNormalisation) {
    for (const bool reciprocal : {false, true})
    for (const bool affine : {true, false})
        for (const std::string square : {"Pow", "Mul"}) {
            SCOPED_TRACE(square + (affine ? " affine" : "") + (reciprocal ? " reciprocal" : ""));
            const Imported r = importAndConvert(decomposedLayerNorm(square, affine, reciprocal), {{}, {{"N", 2}}});
            EXPECT_EQ(opNames(r.network), (std::vector<std::string>{"/fc1/MatMul", "/norm/LayerNormalization", "/fc2/MatMul"}));
            const Operator& ln = opNamed(r.network, "/norm/LayerNormalization");
            EXPECT_EQ(ln.type, OpType::Elementwise);
            EXPECT_EQ(ln.source_op, "LayerNormalization");
            EXPECT_EQ(ln.inputs, std::vector<std::string>{"/fc1/MatMul"});
            EXPECT_EQ(ln.out_shape, (Shape{16, 5, 1}));
            EXPECT_EQ(opNamed(r.network, "/fc2/MatMul").inputs, std::vector<std::string>{"/norm/LayerNormalization"});
            // Per sample 5 positions: 5·8·16 + 5·16·4 = 640 + 320 = 960 MACs; weights 128 + 64 (γ, β not counted).
            const NetworkCounts c = countNetwork(r.network);
            EXPECT_EQ(c.macs_per_sample, 960.0);
            EXPECT_EQ(c.weights, 192.0);
        }
}

// Where the pattern does not hold, each op converts on its own: here the centred tensor d is also a
// graph output, and (second model) the means run over axis 1 (the 5 positions), not the trailing one.
TEST(OnnxExports, ALayerNormLookalikeConvertsOpByOp) {
    OnnxBuilder leak = decomposedLayerNorm();
    leak.output("d");
    const Imported a = importAndConvert(leak, {{}, {{"N", 2}}});
    EXPECT_EQ(opNames(a.network),
              (std::vector<std::string>{"/fc1/MatMul", "/norm/ReduceMean", "/norm/Sub", "/norm/Pow", "/norm/ReduceMean_1",
                                        "/norm/Add", "/norm/Sqrt", "/norm/Div", "/norm/Mul", "/norm/Add_1", "/fc2/MatMul"}));
    EXPECT_EQ(opNamed(a.network, "/norm/ReduceMean").type, OpType::Layout);
    EXPECT_EQ(opNamed(a.network, "/norm/Sub").type, OpType::Elementwise);
    EXPECT_EQ(opNamed(a.network, "/norm/Div").inputs, (std::vector<std::string>{"/norm/Sub", "sd@view"}));
    EXPECT_EQ(countNetwork(a.network).macs_per_sample, 960.0);

    // The reciprocal also read by the graph's outputs: the pattern does not hold.
    OnnxBuilder shared = decomposedLayerNorm("Pow", true, true);
    shared.output("inv");
    EXPECT_EQ(importAndConvert(shared, {{}, {{"N", 2}}}).network.find("/norm/LayerNormalization"), -1);

    OnnxBuilder over_positions = decomposedLayerNorm();
    for (auto& n : *over_positions.graph().mutable_node())
        if (n.op_type() == "ReduceMean") n.mutable_attribute(0)->set_ints(0, 1);  // axes [1]
    const Imported b = importAndConvert(over_positions, {{}, {{"N", 2}}});
    EXPECT_EQ(b.network.find("/norm/LayerNormalization"), -1);
    EXPECT_EQ(opNames(b.network).size(), 11u);
}

}  // namespace
}  // namespace partita
