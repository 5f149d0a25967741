// Every supported ONNX operator imports with the shape ONNX's specification gives it (issue 15, item 2).
// Expected shapes are worked out by hand in the comments.
#include <gtest/gtest.h>

#include <limits>

#include "core/onnx/import.h"
#include "onnx_builder.h"

namespace partita {
namespace {

using test::OnnxBuilder;
using Dims = std::vector<std::int64_t>;
constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();

onnx::Graph importOne(const OnnxBuilder& b, const onnx::InputDims& dims = {}) { return onnx::importOnnx(b.write(), dims); }

Dims tensorDims(const onnx::Graph& g, const std::string& name) {
    const onnx::Tensor* t = g.tensor(name);
    return t ? t->dims : Dims{-99};
}

// One operator on x of `dims`, output "y".
OnnxBuilder single(const std::string& op, const Dims& dims, int opset = 13) {
    OnnxBuilder b(opset);
    std::vector<OnnxBuilder::Dim> in(dims.begin(), dims.end());
    b.input("x", in);
    b.node(op, {"x"}, {"y"}, op);
    b.output("y");
    return b;
}

TEST(OnnxOperators, ConvGroupedDilatedAsymmetricStrided) {
    OnnxBuilder b;
    b.input("x", {1, 8, 17, 17});
    b.weight("w", {8, 2, 3, 3});
    b.weight("bias", {8});
    auto& conv = b.node("Conv", {"x", "w", "bias"}, {"y"});
    OnnxBuilder::attrInt(conv, "group", 4);
    OnnxBuilder::attrInts(conv, "strides", {2, 2});
    OnnxBuilder::attrInts(conv, "pads", {1, 0, 2, 1});     // top, left, bottom, right
    OnnxBuilder::attrInts(conv, "dilations", {2, 1});
    b.output("y");
    // H: (17 + 1 + 2 - (2·(3−1)+1)) / 2 + 1 = 15/2 + 1 = 8; W: (17 + 0 + 1 − 3) / 2 + 1 = 7 + 1 = 8.
    EXPECT_EQ(tensorDims(importOne(b), "y"), (Dims{1, 8, 8, 8}));
}

TEST(OnnxOperators, ConvSameUpperAndDepthwise) {
    OnnxBuilder b;
    b.input("x", {1, 6, 15, 15});
    b.weight("w", {6, 1, 3, 3});
    auto& conv = b.node("Conv", {"x", "w"}, {"y"});
    OnnxBuilder::attrInt(conv, "group", 6);
    OnnxBuilder::attrInts(conv, "strides", {2, 2});
    OnnxBuilder::attrString(conv, "auto_pad", "SAME_UPPER");
    b.output("y");
    EXPECT_EQ(tensorDims(importOne(b), "y"), (Dims{1, 6, 8, 8}));  // ceil(15 / 2)
}

TEST(OnnxOperators, ConvTranspose) {
    OnnxBuilder b;
    b.input("x", {1, 4, 8, 8});
    b.weight("w", {4, 2, 3, 3});
    auto& ct = b.node("ConvTranspose", {"x", "w"}, {"y"});
    OnnxBuilder::attrInts(ct, "strides", {2, 2});
    OnnxBuilder::attrInts(ct, "pads", {1, 1, 1, 1});
    OnnxBuilder::attrInts(ct, "output_padding", {1, 1});
    b.output("y");
    // (8 − 1)·2 − 2 + 3 + 1 = 16; C_out = 2 · group 1.
    EXPECT_EQ(tensorDims(importOne(b), "y"), (Dims{1, 2, 16, 16}));
}

TEST(OnnxOperators, GemmTransposes) {
    OnnxBuilder b;
    b.input("a", {64, 2});
    b.weight("bw", {10, 64});
    b.weight("c", {10});
    auto& gemm = b.node("Gemm", {"a", "bw", "c"}, {"y"});
    OnnxBuilder::attrInt(gemm, "transA", 1);
    OnnxBuilder::attrInt(gemm, "transB", 1);
    b.output("y");
    EXPECT_EQ(tensorDims(importOne(b), "y"), (Dims{2, 10}));
}

TEST(OnnxOperators, MatMulConstantAndBatched) {
    OnnxBuilder b;
    b.input("x", {2, 5, 64});
    b.input("q", {2, 4, 5, 16});
    b.input("k", {4, 16, 7});
    b.weight("w", {64, 32});
    b.node("MatMul", {"x", "w"}, {"y"});
    b.node("MatMul", {"q", "k"}, {"s"});  // broadcast over the leading 2
    b.output("y");
    b.output("s");
    const onnx::Graph g = importOne(b);
    EXPECT_EQ(tensorDims(g, "y"), (Dims{2, 5, 32}));
    EXPECT_EQ(tensorDims(g, "s"), (Dims{2, 4, 5, 7}));
}

TEST(OnnxOperators, Normalisations) {
    OnnxBuilder b(17);
    b.input("x", {2, 8, 4, 4});
    b.input("t", {2, 5, 64});
    for (const char* n : {"scale", "bias", "mean", "var"}) b.weight(n, {8});
    b.weight("g", {64});
    b.weight("beta", {64});
    b.node("BatchNormalization", {"x", "scale", "bias", "mean", "var"}, {"y"});
    auto& ln = b.node("LayerNormalization", {"t", "g", "beta"}, {"z"});
    OnnxBuilder::attrInt(ln, "axis", -1);
    b.output("y");
    b.output("z");
    const onnx::Graph g = importOne(b);
    EXPECT_EQ(tensorDims(g, "y"), (Dims{2, 8, 4, 4}));
    EXPECT_EQ(tensorDims(g, "z"), (Dims{2, 5, 64}));
}

TEST(OnnxOperators, LayerNormalizationBeforeOpset17WithStatistics) {
    OnnxBuilder b(13);  // as ONNX Runtime's optimiser writes it
    b.input("t", {2, 5, 64});
    b.weight("g", {64});
    auto& ln = b.node("LayerNormalization", {"t", "g"}, {"z", "mean", "inv"});
    OnnxBuilder::attrInt(ln, "axis", -1);
    b.output("z");
    const onnx::Graph g = importOne(b);
    EXPECT_EQ(tensorDims(g, "z"), (Dims{2, 5, 64}));
    EXPECT_EQ(tensorDims(g, "mean"), (Dims{2, 5, 1}));
    EXPECT_EQ(tensorDims(g, "inv"), (Dims{2, 5, 1}));
}

TEST(OnnxOperators, ElementwiseBroadcasting) {
    OnnxBuilder b;
    b.input("a", {2, 1, 4});
    b.input("c", {3, 1});
    b.weight("v", {4});
    b.node("Add", {"a", "v"}, {"add"});  // [2,1,4]
    b.node("Mul", {"a", "c"}, {"mul"});  // [2,3,4]
    b.node("Sub", {"c", "a"}, {"sub"});  // [2,3,4]
    b.node("Div", {"mul", "v"}, {"div"});
    b.node("Pow", {"a", "v"}, {"pow"});
    b.output("div");
    const onnx::Graph g = importOne(b);
    EXPECT_EQ(tensorDims(g, "add"), (Dims{2, 1, 4}));
    EXPECT_EQ(tensorDims(g, "mul"), (Dims{2, 3, 4}));
    EXPECT_EQ(tensorDims(g, "sub"), (Dims{2, 3, 4}));
    EXPECT_EQ(tensorDims(g, "div"), (Dims{2, 3, 4}));
    EXPECT_EQ(tensorDims(g, "pow"), (Dims{2, 1, 4}));
}

TEST(OnnxOperators, ElementwiseShapesThatDoNotBroadcastAreAnError) {
    OnnxBuilder b;
    b.input("a", {2, 3});
    b.input("c", {4});
    b.node("Add", {"a", "c"}, {"y"}, "bad_add");
    b.output("y");
    try {
        importOne(b);
        FAIL();
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("node 'bad_add' (Add, #0): shapes [2, 3] and [4] do not broadcast"),
                  std::string::npos)
            << e.what();
    }
}

TEST(OnnxOperators, UnaryOperatorsKeepTheShape) {
    for (const char* op : {"Sqrt", "Relu", "LeakyRelu", "Sigmoid", "HardSigmoid", "HardSwish", "Tanh", "Erf", "Gelu",
                           "Softmax", "Identity", "Clip", "Dropout"}) {
        SCOPED_TRACE(op);
        const onnx::Graph g = importOne(single(op, {2, 3, 5}, 14));
        EXPECT_EQ(tensorDims(g, "y"), (Dims{2, 3, 5}));
        EXPECT_EQ(g.tensor("y")->dtype, "float");
        EXPECT_FALSE(g.nodes[0].folded);
    }
}

TEST(OnnxOperators, ClipWithBoundsAndDropoutMask) {
    OnnxBuilder b;
    b.input("x", {2, 3});
    b.floats("lo", {0.f}, {});
    b.floats("hi", {6.f}, {});
    b.node("Clip", {"x", "lo", "hi"}, {"y"});
    b.node("Dropout", {"y"}, {"z", "mask"});
    b.output("z");
    const onnx::Graph g = importOne(b);
    EXPECT_EQ(tensorDims(g, "y"), (Dims{2, 3}));
    EXPECT_EQ(tensorDims(g, "mask"), (Dims{2, 3}));
    EXPECT_EQ(g.tensor("mask")->dtype, "bool");
}

TEST(OnnxOperators, CastChangesTheType) {
    OnnxBuilder b = single("Cast", {2, 3});
    OnnxBuilder::attrInt(*b.graph().mutable_node(0), "to", ::onnx::TensorProto::FLOAT16);
    const onnx::Graph g = importOne(b);
    EXPECT_EQ(tensorDims(g, "y"), (Dims{2, 3}));
    EXPECT_EQ(g.tensor("y")->dtype, "float16");
}

TEST(OnnxOperators, ReductionsWithAxesAsAttributeOrInput) {
    OnnxBuilder b;  // opset 13: ReduceSum reads an axes input, the others an attribute
    b.input("x", {2, 3, 4});
    auto& mean = b.node("ReduceMean", {"x"}, {"mean"});
    OnnxBuilder::attrInts(mean, "axes", {-1});
    b.ints("ax", {1});
    auto& sum = b.node("ReduceSum", {"x", "ax"}, {"sum"});
    OnnxBuilder::attrInt(sum, "keepdims", 0);
    b.node("ReduceMax", {"x"}, {"max"});  // every axis, kept
    auto& prod = b.node("ReduceProd", {"x"}, {"prod"});
    OnnxBuilder::attrInts(prod, "axes", {0, 2});
    OnnxBuilder::attrInt(prod, "keepdims", 0);
    b.output("mean");
    const onnx::Graph g = importOne(b);
    EXPECT_EQ(tensorDims(g, "mean"), (Dims{2, 3, 1}));
    EXPECT_EQ(tensorDims(g, "sum"), (Dims{2, 4}));
    EXPECT_EQ(tensorDims(g, "max"), (Dims{1, 1, 1}));
    EXPECT_EQ(tensorDims(g, "prod"), (Dims{3}));
}

TEST(OnnxOperators, Opset18ReductionsAndSplitTakeTheirNewForms) {
    OnnxBuilder b(18);
    b.input("x", {2, 8, 4});
    b.ints("ax", {1});
    b.node("ReduceMean", {"x", "ax"}, {"mean"});
    auto& split = b.node("Split", {"x"}, {"s0", "s1", "s2"});
    OnnxBuilder::attrInt(split, "axis", 1);
    OnnxBuilder::attrInt(split, "num_outputs", 3);
    b.output("mean");
    const onnx::Graph g = importOne(b);
    EXPECT_EQ(tensorDims(g, "mean"), (Dims{2, 1, 4}));
    EXPECT_EQ(tensorDims(g, "s0"), (Dims{2, 3, 4}));  // ceil(8 / 3) = 3, 3, and the rest 2
    EXPECT_EQ(tensorDims(g, "s2"), (Dims{2, 2, 4}));
}

TEST(OnnxOperators, ConcatAndSplit) {
    OnnxBuilder b;
    b.input("a", {2, 3, 4});
    b.input("c", {2, 5, 4});
    auto& cat = b.node("Concat", {"a", "c"}, {"y"});
    OnnxBuilder::attrInt(cat, "axis", 1);
    b.ints("parts", {2, 6});
    auto& split = b.node("Split", {"y", "parts"}, {"p", "q"});
    OnnxBuilder::attrInt(split, "axis", -2);
    b.node("Split", {"c"}, {"h0", "h1"});  // equal halves of axis 0
    b.output("p");
    const onnx::Graph g = importOne(b);
    EXPECT_EQ(tensorDims(g, "y"), (Dims{2, 8, 4}));
    EXPECT_EQ(tensorDims(g, "p"), (Dims{2, 2, 4}));
    EXPECT_EQ(tensorDims(g, "q"), (Dims{2, 6, 4}));
    EXPECT_EQ(tensorDims(g, "h1"), (Dims{1, 5, 4}));
}

TEST(OnnxOperators, SplitOpset11Attribute) {
    OnnxBuilder b(11);
    b.input("x", {6, 2});
    auto& split = b.node("Split", {"x"}, {"a", "c"});
    OnnxBuilder::attrInts(split, "split", {1, 5});
    b.output("a");
    const onnx::Graph g = importOne(b);
    EXPECT_EQ(tensorDims(g, "a"), (Dims{1, 2}));
    EXPECT_EQ(tensorDims(g, "c"), (Dims{5, 2}));
}

TEST(OnnxOperators, SliceWithStepsAndNegativeIndices) {
    OnnxBuilder b;
    b.input("x", {2, 9, 4});
    b.ints("st", {1});
    b.ints("en", {kMax});
    b.ints("ax", {1});
    b.ints("sp", {2});
    b.node("Slice", {"x", "st", "en", "ax", "sp"}, {"y"});  // 1, 3, 5, 7: 4
    b.ints("st2", {-1, 0});
    b.ints("en2", {-kMax, 3});
    b.ints("ax2", {2, 0});
    b.ints("sp2", {-1, 1});
    b.node("Slice", {"x", "st2", "en2", "ax2", "sp2"}, {"z"});  // axis 2 reversed: 4; axis 0: 2
    b.output("y");
    const onnx::Graph g = importOne(b);
    EXPECT_EQ(tensorDims(g, "y"), (Dims{2, 4, 4}));
    EXPECT_EQ(tensorDims(g, "z"), (Dims{2, 9, 4}));
}

TEST(OnnxOperators, SliceOpset9Attributes) {
    OnnxBuilder b = single("Slice", {4, 10}, 9);
    auto& n = *b.graph().mutable_node(0);
    OnnxBuilder::attrInts(n, "starts", {2});
    OnnxBuilder::attrInts(n, "ends", {-1});
    OnnxBuilder::attrInts(n, "axes", {1});
    EXPECT_EQ(tensorDims(importOne(b), "y"), (Dims{4, 7}));
}

TEST(OnnxOperators, ReshapeFlattenTranspose) {
    OnnxBuilder b;
    b.input("x", {2, 3, 4, 5});
    b.ints("shape", {0, -1, 5});
    b.node("Reshape", {"x", "shape"}, {"r"});  // [2, 12, 5]
    auto& fl = b.node("Flatten", {"x"}, {"f"});
    OnnxBuilder::attrInt(fl, "axis", 2);  // [6, 20]
    auto& tr = b.node("Transpose", {"x"}, {"t"});
    OnnxBuilder::attrInts(tr, "perm", {0, 2, 3, 1});
    b.node("Transpose", {"x"}, {"rev"});  // reversed
    b.output("r");
    const onnx::Graph g = importOne(b);
    EXPECT_EQ(tensorDims(g, "r"), (Dims{2, 12, 5}));
    EXPECT_EQ(tensorDims(g, "f"), (Dims{6, 20}));
    EXPECT_EQ(tensorDims(g, "t"), (Dims{2, 4, 5, 3}));
    EXPECT_EQ(tensorDims(g, "rev"), (Dims{5, 4, 3, 2}));
}

TEST(OnnxOperators, ReshapeThatCannotHoldTheElementsIsAnError) {
    OnnxBuilder b;
    b.input("x", {2, 3, 4});
    b.ints("shape", {5, -1});
    b.node("Reshape", {"x", "shape"}, {"y"}, "to_rows");
    b.output("y");
    try {
        importOne(b);
        FAIL();
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("node 'to_rows' (Reshape, #0): cannot reshape [2, 3, 4] (24 elements) to [5, -1]"),
                  std::string::npos)
            << e.what();
    }
}

TEST(OnnxOperators, SqueezeUnsqueezeBothForms) {
    OnnxBuilder b;  // opset 13: axes are inputs
    b.input("x", {2, 1, 4, 1});
    b.ints("one", {1});
    b.node("Squeeze", {"x", "one"}, {"s"});  // [2, 4, 1]
    b.node("Squeeze", {"x"}, {"all"});       // [2, 4]
    b.ints("ax", {0, -1});
    b.node("Unsqueeze", {"all", "ax"}, {"u"});  // [1, 2, 4, 1]
    b.output("u");
    const onnx::Graph g = importOne(b);
    EXPECT_EQ(tensorDims(g, "s"), (Dims{2, 4, 1}));
    EXPECT_EQ(tensorDims(g, "all"), (Dims{2, 4}));
    EXPECT_EQ(tensorDims(g, "u"), (Dims{1, 2, 4, 1}));

    OnnxBuilder old(11);  // opset 11: axes are attributes
    old.input("x", {2, 1, 4});
    auto& sq = old.node("Squeeze", {"x"}, {"s"});
    OnnxBuilder::attrInts(sq, "axes", {1});
    auto& un = old.node("Unsqueeze", {"s"}, {"u"});
    OnnxBuilder::attrInts(un, "axes", {2});
    old.output("u");
    const onnx::Graph g11 = importOne(old);
    EXPECT_EQ(tensorDims(g11, "s"), (Dims{2, 4}));
    EXPECT_EQ(tensorDims(g11, "u"), (Dims{2, 4, 1}));
}

TEST(OnnxOperators, PadAsInputAndAsAttribute) {
    OnnxBuilder b;
    b.input("x", {1, 1, 4, 4});
    b.ints("pads", {0, 0, 1, 2, 0, 0, 3, 4});  // begins, then ends
    b.node("Pad", {"x", "pads"}, {"y"});
    b.output("y");
    EXPECT_EQ(tensorDims(importOne(b), "y"), (Dims{1, 1, 8, 10}));

    OnnxBuilder old = single("Pad", {1, 2, 5}, 2);
    OnnxBuilder::attrInts(*old.graph().mutable_node(0), "pads", {0, 1, 1, 0, 1, 1});
    EXPECT_EQ(tensorDims(importOne(old), "y"), (Dims{1, 4, 7}));
}

TEST(OnnxOperators, Pools) {
    OnnxBuilder b;
    b.input("x", {1, 3, 32, 32});
    auto& mp = b.node("MaxPool", {"x"}, {"m"});
    OnnxBuilder::attrInts(mp, "kernel_shape", {3, 3});
    OnnxBuilder::attrInts(mp, "strides", {2, 2});
    OnnxBuilder::attrInts(mp, "pads", {1, 1, 1, 1});  // (32 + 2 − 3) / 2 + 1 = 16
    auto& ap = b.node("AveragePool", {"x"}, {"a"});
    OnnxBuilder::attrInts(ap, "kernel_shape", {3, 3});
    OnnxBuilder::attrInts(ap, "strides", {2, 2});
    OnnxBuilder::attrInt(ap, "ceil_mode", 1);  // ceil((32 − 3) / 2) + 1 = 16
    b.node("GlobalAveragePool", {"x"}, {"g"});
    b.output("m");
    const onnx::Graph g = importOne(b);
    EXPECT_EQ(tensorDims(g, "m"), (Dims{1, 3, 16, 16}));
    EXPECT_EQ(tensorDims(g, "a"), (Dims{1, 3, 16, 16}));
    EXPECT_EQ(tensorDims(g, "g"), (Dims{1, 3, 1, 1}));
}

TEST(OnnxOperators, ResizeWithScalesOrSizesAndUpsample) {
    OnnxBuilder b;
    b.input("x", {1, 3, 8, 8});
    b.floats("scales", {1.f, 1.f, 2.f, 2.f});
    b.node("Resize", {"x", "", "scales"}, {"up"});
    b.ints("sizes", {1, 3, 5, 12});
    b.node("Resize", {"x", "", "", "sizes"}, {"sized"});
    b.floats("half", {1.f, 1.f, 0.5f, 0.5f});
    b.node("Resize", {"x", "", "half"}, {"down"});
    b.output("up");
    const onnx::Graph g = importOne(b);
    EXPECT_EQ(tensorDims(g, "up"), (Dims{1, 3, 16, 16}));
    EXPECT_EQ(tensorDims(g, "sized"), (Dims{1, 3, 5, 12}));
    EXPECT_EQ(tensorDims(g, "down"), (Dims{1, 3, 4, 4}));

    OnnxBuilder r10(10);  // Resize-10 has only X and scales
    r10.input("x", {1, 2, 3, 3});
    r10.floats("scales", {1.f, 1.f, 3.f, 2.f});
    r10.node("Resize", {"x", "scales"}, {"y"});
    r10.output("y");
    EXPECT_EQ(tensorDims(importOne(r10), "y"), (Dims{1, 2, 9, 6}));

    OnnxBuilder u9(9);  // Upsample-9: scales input
    u9.input("x", {1, 2, 3, 3});
    u9.floats("scales", {1.f, 1.f, 2.f, 2.f});
    u9.node("Upsample", {"x", "scales"}, {"y"});
    u9.output("y");
    EXPECT_EQ(tensorDims(importOne(u9), "y"), (Dims{1, 2, 6, 6}));

    OnnxBuilder u11(11);  // deprecated after opset 9, still exported by older converters
    u11.input("x", {1, 2, 3, 3});
    u11.floats("scales", {1.f, 1.f, 2.f, 2.f});
    u11.node("Upsample", {"x", "scales"}, {"y"});
    u11.output("y");
    EXPECT_EQ(tensorDims(importOne(u11), "y"), (Dims{1, 2, 6, 6}));

    OnnxBuilder u7 = single("Upsample", {1, 2, 3, 3}, 7);  // Upsample-7: scales attribute
    OnnxBuilder::attrFloats(*u7.graph().mutable_node(0), "scales", {1.f, 1.f, 2.f, 3.f});
    EXPECT_EQ(tensorDims(importOne(u7), "y"), (Dims{1, 2, 6, 9}));
}

TEST(OnnxOperators, GatherAsEmbeddingLookup) {
    OnnxBuilder b;
    b.input("ids", {2, 5}, OnnxBuilder::kInt64);
    b.weight("table", {100, 16});
    b.node("Gather", {"table", "ids"}, {"emb"});
    b.output("emb");
    const onnx::Graph g = importOne(b);
    EXPECT_EQ(tensorDims(g, "emb"), (Dims{2, 5, 16}));
    EXPECT_FALSE(g.nodes[0].folded);
}

TEST(OnnxOperators, ExpandTileWhereEqualOnActivations) {
    OnnxBuilder b;
    b.input("x", {2, 1, 4});
    b.input("c", {3, 1}, ::onnx::TensorProto::BOOL);
    b.ints("shape", {2, 3, 4});
    b.node("Expand", {"x", "shape"}, {"e"});
    b.ints("reps", {1, 2, 3});
    b.node("Tile", {"x", "reps"}, {"t"});  // [2, 2, 12]
    b.node("Where", {"c", "x", "e"}, {"w"});
    b.node("Equal", {"x", "e"}, {"eq"});
    b.output("w");
    const onnx::Graph g = importOne(b);
    EXPECT_EQ(tensorDims(g, "e"), (Dims{2, 3, 4}));
    EXPECT_EQ(tensorDims(g, "t"), (Dims{2, 2, 12}));
    EXPECT_EQ(tensorDims(g, "w"), (Dims{2, 3, 4}));
    EXPECT_EQ(tensorDims(g, "eq"), (Dims{2, 3, 4}));
    EXPECT_EQ(g.tensor("eq")->dtype, "bool");
}

TEST(OnnxOperators, ShapeOpsFoldToValues) {
    OnnxBuilder b;
    b.input("x", {2, 3, 4});
    auto& c = b.node("Constant", {}, {"k"});
    auto& t = OnnxBuilder::attrTensor(c, "value", OnnxBuilder::kInt64, {2});
    t.add_int64_data(3);
    t.add_int64_data(4);
    b.node("ConstantOfShape", {"k"}, {"zeros"});  // [3, 4] of 0.0f
    b.scalarInt("start", 0);
    b.scalarInt("limit", 10);
    b.scalarInt("delta", 3);
    b.node("Range", {"start", "limit", "delta"}, {"r"});  // 0, 3, 6, 9
    b.node("Shape", {"x"}, {"s"});
    b.scalarInt("two", 2);
    b.node("Gather", {"s", "two"}, {"last"});  // 4
    b.node("Equal", {"r", "last"}, {"is4"});   // none
    b.ints("ones", {1});
    b.node("Expand", {"last", "ones"}, {"ex"});
    b.node("Where", {"is4", "r", "ex"}, {"sel"});  // 4, 4, 4, 4
    b.node("Add", {"x", "zeros"}, {"y"});
    b.output("y");
    const onnx::Graph g = importOne(b);
    EXPECT_EQ(tensorDims(g, "zeros"), (Dims{3, 4}));
    EXPECT_EQ(g.tensor("zeros")->float_values, std::vector<double>(12, 0.0));
    EXPECT_EQ(g.tensor("r")->int_values, (Dims{0, 3, 6, 9}));
    EXPECT_EQ(g.tensor("s")->int_values, (Dims{2, 3, 4}));
    EXPECT_EQ(g.tensor("last")->int_values, (Dims{4}));
    EXPECT_EQ(tensorDims(g, "last"), (Dims{}));
    EXPECT_EQ(g.tensor("is4")->int_values, (Dims{0, 0, 0, 0}));
    EXPECT_EQ(g.tensor("sel")->int_values, (Dims{4, 4, 4, 4}));
    EXPECT_EQ(tensorDims(g, "y"), (Dims{2, 3, 4}));
    for (const onnx::Node& n : g.nodes) EXPECT_EQ(n.folded, n.op_type != "Add") << n.name;
}

TEST(OnnxOperators, ReduceProdFoldsAFlattenedSize) {
    OnnxBuilder b;
    b.input("x", {2, 3, 4});
    b.node("Shape", {"x"}, {"s"});
    b.ints("one", {1});
    b.ints("end", {3});
    b.node("Slice", {"s", "one", "end"}, {"tail"});  // [3, 4]
    b.node("ReduceProd", {"tail"}, {"prod"});       // [12], kept as a 1-D tensor
    b.ints("minus1", {-1});
    OnnxBuilder::attrInt(b.node("Concat", {"minus1", "prod"}, {"target"}), "axis", 0);
    b.node("Reshape", {"x", "target"}, {"y"});
    b.output("y");
    const onnx::Graph g = importOne(b);
    EXPECT_EQ(g.tensor("prod")->int_values, (Dims{12}));
    EXPECT_EQ(tensorDims(g, "y"), (Dims{2, 12}));
}

// Issue 15's list, with ReduceProd and Tile, and the element-wise arithmetic, comparison and logic ops
// real exports compute sizes and masks with (OnnxExports.IntegerShapeArithmeticFolds).
TEST(OnnxOperators, TheSupportedSetIsIssue15sListWithReduceProdTileAndShapeArithmetic) {
    const std::vector<std::string> expected = {
        "Abs", "Add", "And", "AveragePool", "BatchNormalization", "Cast", "Ceil", "Clip", "Concat", "Constant",
        "ConstantOfShape", "Conv", "ConvTranspose", "Div", "Dropout", "Equal", "Erf", "Exp", "Expand", "Flatten",
        "Floor", "Gather", "Gelu", "Gemm", "GlobalAveragePool", "Greater", "GreaterOrEqual", "HardSigmoid",
        "HardSwish", "Identity", "LayerNormalization", "LeakyRelu", "Less", "LessOrEqual", "Log", "MatMul", "Max",
        "MaxPool", "Min", "Mod", "Mul", "Neg", "Not", "Or", "Pad", "Pow", "Range", "Reciprocal", "ReduceMax",
        "ReduceMean", "ReduceProd", "ReduceSum", "Relu", "Reshape", "Resize", "Shape", "Sigmoid", "Sign", "Slice",
        "Softmax", "Split", "Sqrt", "Squeeze", "Sub", "Tanh", "Tile", "Transpose", "Unsqueeze", "Upsample", "Where",
        "Xor"};
    EXPECT_EQ(onnx::supportedOperators(), expected);
}

}  // namespace
}  // namespace partita
