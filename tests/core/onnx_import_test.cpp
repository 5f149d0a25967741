// ONNX import: files, input dims, folding of shape subgraphs, unsupported operators (issue 15, items 1 and 6).
#include <gtest/gtest.h>

#include <filesystem>
#include <limits>

#include "core/onnx/counts.h"
#include "core/onnx/import.h"
#include "onnx_builder.h"
#include "test_util.h"

namespace partita {
namespace {

using onnx::importOnnx;
using test::OnnxBuilder;
using Dims = std::vector<std::int64_t>;

Dims dimsOf(const onnx::Graph& g, const std::string& name) {
    const onnx::Tensor* t = g.tensor(name);
    return t ? t->dims : Dims{-99};
}

const onnx::Node& nodeNamed(const onnx::Graph& g, const std::string& name) {
    for (const onnx::Node& n : g.nodes)
        if (n.name == name) return n;
    throw std::runtime_error("no node " + name);
}

template <class F>
std::string errorOf(F f) {
    try {
        f();
    } catch (const InputError& e) {
        return e.what();
    }
    return "(no error)";
}

using test::contains;

// x [N, 3, 8, 8] → Conv 3×3 pad 1 → Reshape to [N, -1] with the target computed from Shape(x)[0]:
// Shape → Gather → Unsqueeze → Concat, as PyTorch's x.view(x.size(0), -1) exports.
OnnxBuilder reshapeChain(int opset = 13) {
    OnnxBuilder b(opset);
    b.input("x", {"N", 3, 8, 8});
    b.weight("w", {4, 3, 3, 3});
    auto& conv = b.node("Conv", {"x", "w"}, {"c"}, "conv");
    OnnxBuilder::attrInts(conv, "pads", {1, 1, 1, 1});
    b.node("Shape", {"c"}, {"shape"}, "shape");
    b.scalarInt("zero", 0);
    b.node("Gather", {"shape", "zero"}, {"n"}, "gather");
    if (opset >= 13) {
        b.ints("axes", {0});
        b.node("Unsqueeze", {"n", "axes"}, {"n1"}, "unsqueeze");
    } else {
        OnnxBuilder::attrInts(b.node("Unsqueeze", {"n"}, {"n1"}, "unsqueeze"), "axes", {0});
    }
    b.ints("minus1", {-1});
    OnnxBuilder::attrInt(b.node("Concat", {"n1", "minus1"}, {"target"}, "concat"), "axis", 0);
    b.node("Reshape", {"c", "target"}, {"flat"}, "reshape");
    b.weight("fc", {10, 256});
    OnnxBuilder::attrInt(b.node("Gemm", {"flat", "fc"}, {"y"}, "fc"), "transB", 1);
    b.output("y");
    return b;
}

TEST(OnnxImport, FoldsTheShapeGatherUnsqueezeConcatReshapeChain) {
    for (const int opset : {11, 13}) {
        SCOPED_TRACE(opset);
        const onnx::Graph g = importOnnx(reshapeChain(opset).write(), {{}, {{"N", 4}}});
        EXPECT_EQ(dimsOf(g, "c"), (Dims{4, 4, 8, 8}));
        EXPECT_EQ(g.tensor("target")->int_values, (Dims{4, -1}));
        EXPECT_TRUE(g.tensor("target")->has_values);
        EXPECT_EQ(dimsOf(g, "flat"), (Dims{4, 256}));
        EXPECT_EQ(dimsOf(g, "y"), (Dims{4, 10}));
        for (const char* n : {"shape", "gather", "unsqueeze", "concat"}) EXPECT_TRUE(nodeNamed(g, n).folded) << n;
        for (const char* n : {"conv", "reshape", "fc"}) EXPECT_FALSE(nodeNamed(g, n).folded) << n;
        const onnx::Summary s = onnx::summarize(g);
        EXPECT_EQ(s.operators, 3);
        EXPECT_EQ(s.batch, 4);
        EXPECT_EQ(g.opset, opset);
        EXPECT_EQ(g.producer, "partita-tests 1");
        EXPECT_EQ(g.name, "test");
        EXPECT_EQ(g.inputs, (std::vector<std::string>{"x"}));
        EXPECT_EQ(g.outputs, (std::vector<std::string>{"y"}));
    }
}

TEST(OnnxImport, ResizeScalesFromAConstantAndSizesFromAShapeChain) {
    OnnxBuilder b(13);
    b.input("x", {1, 3, "H", "W"});
    // Scales from a Constant node (PaddlePaddle's nearest upsampling).
    auto& k = b.node("Constant", {}, {"scales"}, "scales");
    auto& t = OnnxBuilder::attrTensor(k, "value", OnnxBuilder::kFloat, {4});
    for (const float v : {1.f, 1.f, 2.f, 2.f}) t.add_float_data(v);
    b.node("Resize", {"x", "", "scales"}, {"up"}, "resize_scales");
    // Sizes as PyTorch's interpolate(scale_factor=2) exports them: Shape[0:2] ++ Cast(Shape[2:4] · 2.0).
    b.node("Shape", {"x"}, {"s"});
    b.ints("b0", {0});
    b.ints("b2", {2});
    b.ints("b4", {4});
    b.node("Slice", {"s", "b0", "b2"}, {"nc"});
    b.node("Slice", {"s", "b2", "b4"}, {"hw"});
    OnnxBuilder::attrInt(b.node("Cast", {"hw"}, {"hwf"}), "to", OnnxBuilder::kFloat);
    b.floats("two", {2.f}, {});
    b.node("Mul", {"hwf", "two"}, {"hw2f"});
    OnnxBuilder::attrInt(b.node("Cast", {"hw2f"}, {"hw2"}), "to", OnnxBuilder::kInt64);
    OnnxBuilder::attrInt(b.node("Concat", {"nc", "hw2"}, {"sizes"}), "axis", 0);
    b.node("Resize", {"x", "", "", "sizes"}, {"up2"}, "resize_sizes");
    b.node("Add", {"up", "up2"}, {"y"}, "add");
    b.output("y");
    const onnx::Graph g = importOnnx(b.write(), {{}, {{"H", 20}, {"W", 30}}});
    EXPECT_EQ(g.tensor("scales")->float_values, (std::vector<double>{1, 1, 2, 2}));
    EXPECT_EQ(g.tensor("sizes")->int_values, (Dims{1, 3, 40, 60}));
    EXPECT_EQ(dimsOf(g, "up"), (Dims{1, 3, 40, 60}));
    EXPECT_EQ(dimsOf(g, "up2"), (Dims{1, 3, 40, 60}));
    EXPECT_EQ(onnx::summarize(g).operators, 3);  // two Resize and the Add; the rest folds
}

TEST(OnnxImport, UnsupportedOperatorsAreListedTogether) {
    OnnxBuilder b;
    b.input("x", {1, 4});
    b.input("cond", {}, ::onnx::TensorProto::BOOL);
    b.node("Relu", {"x"}, {"r"});
    auto& branch = b.node("If", {"cond"}, {"i"}, "branch");
    auto* g1 = branch.add_attribute();
    g1->set_name("then_branch");
    g1->set_type(::onnx::AttributeProto::GRAPH);
    g1->mutable_g()->set_name("then");
    b.node("Loop", {"", "cond"}, {"l"});
    auto& custom = b.node("FusedConv", {"r"}, {"f"}, "fused");
    custom.set_domain("com.microsoft");
    b.node("Relu", {"f"}, {"y"});
    b.output("y");
    const std::string path = b.write();
    try {
        importOnnx(path);
        FAIL() << "imported";
    } catch (const onnx::UnsupportedOperators& e) {
        ASSERT_EQ(e.nodes().size(), 3u);
        EXPECT_EQ(e.nodes()[0].name, "branch");
        EXPECT_EQ(e.nodes()[0].op_type, "If");
        EXPECT_EQ(e.nodes()[0].index, 1);
        EXPECT_EQ(e.nodes()[1].name, "Loop_2");
        EXPECT_EQ(e.nodes()[2].domain, "com.microsoft");
        EXPECT_EQ(e.source(), path);
        EXPECT_EQ(std::string(e.what()), path + ": 3 nodes use operators Partita does not support: 'branch' (If, #1), "
                                                "'Loop_2' (Loop, #2), 'fused' (com.microsoft.FusedConv, #3)");
    }
}

TEST(OnnxImport, TruncatedNonOnnxMissingAndDirectoryFilesAreRefusedByName) {
    const std::string bytes = reshapeChain().bytes();
    const std::string truncated = OnnxBuilder::writeBytes(bytes.substr(0, bytes.size() / 2), "truncated");
    EXPECT_EQ(errorOf([&] { importOnnx(truncated); }),
              truncated + ": not an ONNX model: the data is not a complete ONNX protobuf (truncated, or another format)");
    const std::string json = OnnxBuilder::writeBytes(R"({"format": "partita-network/1", "name": "n"})", "json");
    EXPECT_TRUE(contains(errorOf([&] { importOnnx(json); }), json + ": not an ONNX model")) << errorOf([&] { importOnnx(json); });
    const std::string empty = OnnxBuilder::writeBytes("", "empty");
    EXPECT_EQ(errorOf([&] { importOnnx(empty); }), empty + ": not an ONNX model: it has no ir_version");
    // Cut just after the graph: the opset list is missing.
    ::onnx::ModelProto noOpset = reshapeChain().model;
    noOpset.clear_opset_import();
    const std::string cut = OnnxBuilder::writeBytes(noOpset.SerializeAsString(), "cut");
    EXPECT_TRUE(contains(errorOf([&] { importOnnx(cut); }), "no opset version for the default domain"));
    EXPECT_EQ(errorOf([] { importOnnx("/nonexistent/model.onnx"); }),
              "/nonexistent/model.onnx: cannot open the file: it does not exist");
    const std::string dir = std::filesystem::temp_directory_path().string();
    EXPECT_EQ(errorOf([&] { importOnnx(dir); }), dir + ": cannot open the file: it is a folder, not a file");
    EXPECT_EQ(errorOf([&] { onnx::graphInputs(dir); }), dir + ": cannot open the file: it is a folder, not a file");
}

TEST(OnnxImport, GraphInputsListDeclaredDimsWithoutInitializers) {
    OnnxBuilder b;
    b.input("pixels", {"batch", 3, -1, "width"});
    b.input("mask", {"batch", "seq"}, OnnxBuilder::kInt64);
    b.inputWithoutShape("extra");
    b.weight("w", {4, 3, 3, 3});
    b.input("w", {4, 3, 3, 3});  // IR 3 exporters list initializers among the inputs too
    b.node("Conv", {"pixels", "w"}, {"y"});
    b.output("y");
    const std::vector<onnx::GraphInput> inputs = onnx::graphInputs(b.write());
    ASSERT_EQ(inputs.size(), 3u);
    EXPECT_EQ(inputs[0].name, "pixels");
    EXPECT_EQ(inputs[0].dtype, "float");
    ASSERT_EQ(inputs[0].dims.size(), 4u);
    EXPECT_EQ(inputs[0].dims[0].symbol, "batch");
    EXPECT_FALSE(inputs[0].dims[0].fixed());
    EXPECT_EQ(inputs[0].dims[1].value, 3);
    EXPECT_TRUE(inputs[0].dims[2].symbol.empty());
    EXPECT_FALSE(inputs[0].dims[2].fixed());
    EXPECT_EQ(inputs[1].dtype, "int64");
    EXPECT_FALSE(inputs[2].rank_known);
    EXPECT_EQ(onnx::defaultDims(inputs[0]), (Dims{1, 3, 224, 224}));
    EXPECT_EQ(onnx::defaultDims(inputs[1]), (Dims{1, 128}));
    EXPECT_EQ(onnx::defaultDims(inputs[2]), Dims{});
}

TEST(OnnxImport, DefaultDimsFollowTheLayout) {
    auto input = [](std::vector<onnx::InputDim> dims) {
        onnx::GraphInput in;
        in.rank_known = true;
        in.dims = std::move(dims);
        return in;
    };
    const onnx::InputDim dyn{0, "d"};
    EXPECT_EQ(onnx::defaultDims(input({dyn, dyn, dyn, {3, ""}})), (Dims{1, 224, 224, 3}));  // NHWC
    EXPECT_EQ(onnx::defaultDims(input({dyn, dyn, dyn, dyn})), (Dims{1, 3, 224, 224}));
    EXPECT_EQ(onnx::defaultDims(input({{8, ""}, {1, ""}, dyn, dyn})), (Dims{8, 1, 224, 224}));
    EXPECT_EQ(onnx::defaultDims(input({dyn, dyn, {768, ""}})), (Dims{1, 128, 768}));
    EXPECT_EQ(onnx::defaultDims(input({dyn, {16, ""}, dyn, dyn, dyn})), (Dims{1, 16, 1, 1, 1}));
    EXPECT_EQ(onnx::defaultDims(input({})), Dims{});
}

// A named dimension is sized once across inputs (silero-vad: input [batch, samples], state
// [2, batch, 128]): the first input that names it decides, and a size given for it decides.
TEST(OnnxImport, DefaultDimsSizeANamedDimensionOnce) {
    auto input = [](const char* name, std::vector<onnx::InputDim> dims) {
        onnx::GraphInput in;
        in.name = name;
        in.rank_known = true;
        in.dims = std::move(dims);
        return in;
    };
    const onnx::InputDim batch{0, "batch"}, samples{0, "samples"};
    const std::vector<onnx::GraphInput> inputs{input("input", {batch, samples}), input("state", {{2, ""}, batch, {128, ""}})};
    const onnx::InputDims d = onnx::defaultInputDims(inputs);
    EXPECT_EQ(d.inputs.at("input"), (Dims{1, 128}));
    EXPECT_EQ(d.inputs.at("state"), (Dims{2, 1, 128}));
    EXPECT_EQ(onnx::defaultDims(inputs[1]), (Dims{2, 128, 128}));  // alone, the rank-3 rule
    onnx::InputDims given;
    given.inputs["input"] = {4, 512};
    const onnx::InputDims completed = onnx::withDefaults(inputs, given);
    EXPECT_EQ(completed.inputs.at("state"), (Dims{2, 4, 128}));
}

// A transformer-style input: ids [batch, seq] → embedding → MatMul.
OnnxBuilder embedding() {
    OnnxBuilder b;
    b.input("input_ids:0", {"batch", "seq"}, OnnxBuilder::kInt64);
    b.weight("table", {1000, 32});
    b.node("Gather", {"table", "input_ids:0"}, {"e"}, "embed");
    b.weight("w", {32, 16});
    b.node("MatMul", {"e", "w"}, {"y"}, "proj");
    b.output("y");
    return b;
}

TEST(OnnxImport, SymbolicDimsBySymbolByInputOrByDefault) {
    const std::string path = embedding().write();
    const onnx::Graph bySymbol = importOnnx(path, {{}, {{"batch", 2}, {"seq", 7}}});
    EXPECT_EQ(dimsOf(bySymbol, "y"), (Dims{2, 7, 16}));
    const onnx::Graph byInput = importOnnx(path, {{{"input_ids:0", {3, 5}}}, {}});
    EXPECT_EQ(dimsOf(byInput, "y"), (Dims{3, 5, 16}));
    EXPECT_EQ(dimsOf(byInput, "input_ids:0"), (Dims{3, 5}));
    // --input wins over --dim for the input it names.
    const onnx::Graph both = importOnnx(path, {{{"input_ids:0", {3, 5}}}, {{"batch", 2}}});
    EXPECT_EQ(dimsOf(both, "y"), (Dims{3, 5, 16}));
    const onnx::Graph byDefault = importOnnx(path, onnx::defaultInputDims(onnx::graphInputs(path)));
    EXPECT_EQ(dimsOf(byDefault, "y"), (Dims{1, 128, 16}));
    const onnx::Summary s = onnx::summarize(byDefault);
    EXPECT_EQ(s.weights, 32 * 16);  // the embedding table is a Gather, not a weighted layer
    EXPECT_EQ(s.macs_per_sample, 128.0 * 32 * 16);
}

TEST(OnnxImport, UnsetDynamicDimsNameTheNodeTheTensorAndWhatToSet) {
    const std::string path = embedding().write();
    EXPECT_EQ(errorOf([&] { importOnnx(path); }),
              path + ": node 'embed' (Gather, #0): the shape of output 'e' is unknown ([?, ?, 32]); set the dynamic "
                     "input sizes: input 'input_ids:0' dim 0 ('batch'), input 'input_ids:0' dim 1 ('seq') "
                     "(--input NAME=d0,d1,… or --dim SYMBOL=V)");
    EXPECT_TRUE(contains(errorOf([&] { importOnnx(path, {{}, {{"batch", 2}}}); }),
                         "set the dynamic input sizes: input 'input_ids:0' dim 1 ('seq')"));
}

TEST(OnnxImport, BadInputDimsAreRefused) {
    const std::string path = embedding().write();
    EXPECT_EQ(errorOf([&] { importOnnx(path, {{{"ids", {1, 2}}}, {}}); }),
              path + ": --input ids: the model has no graph input of that name (inputs: input_ids:0)");
    EXPECT_EQ(errorOf([&] { importOnnx(path, {{}, {{"sequence", 2}}}); }),
              path + ": --dim sequence: no dynamic input dimension is named so (symbols: batch, seq)");
    EXPECT_EQ(errorOf([&] { importOnnx(path, {{{"input_ids:0", {1, 2, 3}}}, {}}); }),
              path + ": --input input_ids:0: 3 sizes given; the model declares 2 dimensions");
    EXPECT_EQ(errorOf([&] { importOnnx(path, {{{"input_ids:0", {1, 0}}}, {}}); }),
              path + ": --input input_ids:0: size 0 is outside 1..16777216");
    EXPECT_EQ(errorOf([&] { importOnnx(path, {{}, {{"batch", -4}, {"seq", 2}}}); }),
              path + ": --dim batch: size -4 is outside 1..16777216");
}

TEST(OnnxImport, InputWithoutShapeTakesItsRankFromTheUser) {
    OnnxBuilder b;
    b.inputWithoutShape("x");
    b.node("Relu", {"x"}, {"y"}, "act");
    b.output("y");
    const std::string path = b.write();
    EXPECT_EQ(dimsOf(importOnnx(path, {{{"x", {2, 5}}}, {}}), "y"), (Dims{2, 5}));
    EXPECT_TRUE(contains(errorOf([&] { importOnnx(path); }),
                         "node 'act' (Relu, #0): the shape of output 'y' is unknown; set the dynamic input sizes: input 'x' dim 0"));
}

TEST(OnnxImport, NodesOutOfOrderAreSortedAndCyclesRefused) {
    OnnxBuilder b;
    b.input("x", {2, 3});
    b.node("Sigmoid", {"r"}, {"y"}, "second");
    b.node("Relu", {"x"}, {"r"}, "first");
    b.output("y");
    const onnx::Graph g = importOnnx(b.write());
    ASSERT_EQ(g.nodes.size(), 2u);
    EXPECT_EQ(g.nodes[0].name, "first");
    EXPECT_EQ(g.nodes[0].index, 1);
    EXPECT_EQ(dimsOf(g, "y"), (Dims{2, 3}));

    OnnxBuilder cyc;
    cyc.input("x", {2, 3});
    cyc.node("Add", {"x", "b"}, {"a"}, "a");
    cyc.node("Relu", {"a"}, {"b"}, "b");
    cyc.output("b");
    EXPECT_TRUE(contains(errorOf([&] { importOnnx(cyc.write()); }), "node 'a' (Add, #0): the graph has a cycle through this node"));

    OnnxBuilder dangling;
    dangling.input("x", {2, 3});
    dangling.node("Add", {"x", "nowhere"}, {"y"}, "add");
    dangling.output("y");
    EXPECT_TRUE(contains(errorOf([&] { importOnnx(dangling.write()); }),
                         "node 'add' (Add, #0): input 'nowhere' is not produced by any node, initializer or graph input"));
}

TEST(OnnxImport, ExternalDataIsNeverOpenedAndInitializersListedAsInputsAreConstants) {
    OnnxBuilder b(11);
    b.input("x", {1, 3, 4, 4});
    auto& w = b.weight("w", {2, 3, 1, 1});
    w.clear_raw_data();
    w.set_data_location(::onnx::TensorProto::EXTERNAL);
    auto* loc = w.add_external_data();
    loc->set_key("location");
    loc->set_value("/nonexistent/weights.bin");
    b.input("w", {2, 3, 1, 1});
    b.node("Conv", {"x", "w"}, {"y"});
    b.output("y");
    const onnx::Graph g = importOnnx(b.write());
    EXPECT_EQ(dimsOf(g, "y"), (Dims{1, 2, 4, 4}));
    EXPECT_EQ(g.inputs, (std::vector<std::string>{"x"}));
    EXPECT_TRUE(g.tensor("w")->constant);
    EXPECT_EQ(onnx::summarize(g).weights, 6);
}

TEST(OnnxImport, ModelErrorsNameTheNode) {
    OnnxBuilder b;
    b.input("x", {1, 3, 8, 8});
    b.weight("w", {4, 3, 3, 3});
    auto& conv = b.node("Conv", {"x", "w"}, {"y"}, "conv");
    OnnxBuilder::attrString(conv, "padding", "same");  // not an attribute of Conv
    b.output("y");
    EXPECT_TRUE(contains(errorOf([&] { importOnnx(b.write()); }), "node 'conv' (Conv, #0): Unrecognized attribute: padding"))
        << errorOf([&] { importOnnx(b.write()); });

    OnnxBuilder wrong;  // a weight with 4 input channels for a 3-channel image
    wrong.input("x", {1, 3, 8, 8});
    wrong.weight("w", {4, 4, 3, 3});
    wrong.node("Conv", {"x", "w"}, {"y"}, "conv");
    wrong.output("y");
    EXPECT_TRUE(contains(errorOf([&] { importOnnx(wrong.write()); }),
                         "node 'conv' (Conv, #0): Conv input [1, 3, 8, 8] does not match weight [4, 4, 3, 3] with group 1"))
        << errorOf([&] { importOnnx(wrong.write()); });

    OnnxBuilder bad_data;  // an initializer whose data does not match its dims
    bad_data.input("x", {2});
    bad_data.ints("k", {1, 2, 3}, {2});
    bad_data.node("Add", {"x", "k"}, {"y"});
    bad_data.output("y");
    EXPECT_TRUE(contains(errorOf([&] { importOnnx(bad_data.write()); }),
                         "initializer 'k': tensor 'k' of [2] holds 3 values for 2 elements"));
}

TEST(OnnxImport, ConstantsFoldThroughLayoutOps) {
    // A weight transposed by a node (as some exporters leave it) is still a constant operand.
    OnnxBuilder b;
    b.input("x", {2, 8});
    b.weight("w", {4, 8});
    b.node("Transpose", {"w"}, {"wt"}, "t");
    b.node("MatMul", {"x", "wt"}, {"y"}, "mm");
    b.output("y");
    const onnx::Graph g = importOnnx(b.write());
    EXPECT_TRUE(nodeNamed(g, "t").folded);
    EXPECT_TRUE(g.tensor("wt")->constant);
    EXPECT_FALSE(g.tensor("wt")->has_values);
    const onnx::Summary s = onnx::summarize(g);
    EXPECT_EQ(s.operators, 1);
    EXPECT_EQ(s.weighted_layers, 1);
    EXPECT_EQ(s.weights, 32);
}

TEST(OnnxImport, StructureModeKeepsOperatorsItCannotCost) {
    // SimplifiedLayerNormalization passes its shape on; an unknown operator's output stays unknown,
    // and so does what follows it, where the costing import refuses the model.
    OnnxBuilder b;
    b.input("x", {2, 8});
    b.weight("g", {8});
    b.node("SimplifiedLayerNormalization", {"x", "g"}, {"n"}, "norm").set_domain("com.microsoft");
    b.weight("w", {8, 4});
    b.node("MatMul", {"n", "w"}, {"y"}, "mm");
    b.node("Einsum", {"y"}, {"e"}, "einsum");
    b.node("Relu", {"e"}, {"r"}, "relu");
    b.output("r");
    EXPECT_THROW(importOnnx(b.write()), onnx::UnsupportedOperators);
    onnx::OnnxModel model = onnx::OnnxModel::read(b.write());
    const onnx::Graph g = model.importStructure();
    EXPECT_EQ(dimsOf(g, "n"), (Dims{2, 8}));
    EXPECT_EQ(dimsOf(g, "y"), (Dims{2, 4}));
    EXPECT_EQ(dimsOf(g, "e"), Dims{});
    EXPECT_EQ(dimsOf(g, "r"), Dims{});
    EXPECT_EQ(nodeNamed(g, "einsum").op_type, "Einsum");
    // The model is kept: its initializers can be compared.
    EXPECT_TRUE(model.sameValues("w", "w", false));
    EXPECT_FALSE(model.sameValues("w", "w", true));  // [8, 4] is not [4, 8]
    EXPECT_FALSE(model.sameValues("w", "g", false));
    EXPECT_FALSE(model.sameValues("w", "absent", false));
}

TEST(OnnxImport, SplitOfValuesFoldsEveryPart) {
    // torch's repeat_interleave: an Expand whose target comes from a constant split in parts.
    OnnxBuilder b;
    b.input("x", {2, 1, 3});
    b.ints("parts", {2, 4, 3, 5, 6, 7}, {2, 3});
    b.ints("lengths", {1, 2});
    OnnxBuilder::attrInt(b.node("Split", {"parts", "lengths"}, {"a", "c"}, "split"), "axis", 1);
    b.ints("lead", {2});
    b.scalarInt("row", 0);
    b.node("Gather", {"c", "row"}, {"c0"}, "row0");  // c = [[4, 3], [6, 7]]: [4, 3]
    b.ints("pick", {0});
    b.node("Gather", {"c0", "pick"}, {"mid"}, "gather");  // [4]
    b.ints("last", {3});
    OnnxBuilder::attrInt(b.node("Concat", {"lead", "mid", "last"}, {"target"}, "concat"), "axis", 0);
    b.node("Expand", {"x", "target"}, {"y"}, "expand");
    b.output("y");
    const onnx::Graph g = importOnnx(b.write());
    EXPECT_EQ(g.tensor("a")->int_values, (Dims{2, 5}));
    EXPECT_EQ(dimsOf(g, "a"), (Dims{2, 1}));
    EXPECT_EQ(g.tensor("c")->int_values, (Dims{4, 3, 6, 7}));
    EXPECT_EQ(dimsOf(g, "c"), (Dims{2, 2}));
    EXPECT_TRUE(nodeNamed(g, "split").folded);
    EXPECT_EQ(dimsOf(g, "y"), (Dims{2, 4, 3}));
}

TEST(OnnxImport, AttributesAreKept) {
    const onnx::Graph g = importOnnx(reshapeChain().write(), {{}, {{"N", 1}}});
    const onnx::Node& conv = nodeNamed(g, "conv");
    EXPECT_EQ(conv.attributes.at("pads").ints, (Dims{1, 1, 1, 1}));
    EXPECT_EQ(nodeNamed(g, "fc").attributes.at("transB").i, 1);
    EXPECT_EQ(conv.inputs, (std::vector<std::string>{"x", "w"}));
    EXPECT_EQ(conv.outputs, (std::vector<std::string>{"c"}));
    EXPECT_EQ(conv.domain, "");
    EXPECT_TRUE(g.tensor("w")->constant);
    EXPECT_FALSE(g.tensor("w")->has_values);  // 108 floats of weight: only the shape is kept
}

TEST(OnnxImport, SizesBeyondTheLimitsAreErrors) {
    const std::int64_t d = std::int64_t{1} << 24;
    OnnxBuilder huge;
    huge.input("x", {d, d, d});
    huge.node("Relu", {"x"}, {"y"});
    huge.output("y");
    const std::string hugePath = huge.write();
    EXPECT_EQ(errorOf([&] { importOnnx(hugePath); }),
              hugePath + ": input 'x': a tensor of [16777216, 16777216, 16777216] exceeds the limit of 4503599627370496 elements");

    OnnxBuilder deep;
    deep.input("x", std::vector<OnnxBuilder::Dim>(33, std::int64_t{1}));
    deep.node("Relu", {"x"}, {"y"});
    deep.output("y");
    const std::string deepPath = deep.write();
    EXPECT_EQ(errorOf([&] { onnx::graphInputs(deepPath); }), deepPath + ": input 'x': rank 33 exceeds the limit of 32");

    OnnxBuilder tiled;
    tiled.input("x", {1 << 20, 1 << 20});
    tiled.ints("reps", {1 << 20, 1});
    tiled.node("Tile", {"x", "reps"}, {"y"}, "tile");
    tiled.output("y");
    EXPECT_TRUE(contains(errorOf([&] { importOnnx(tiled.write()); }),
                         "node 'tile' (Tile, #0): a tensor of [1099511627776, 1048576] exceeds the limit of 4503599627370496 elements"))
        << errorOf([&] { importOnnx(tiled.write()); });
}

TEST(OnnxImport, ImportFromBytesNamesTheSource) {
    const onnx::Graph g = onnx::importOnnxData(reshapeChain().bytes(), "dropped.onnx", {{}, {{"N", 2}}});
    EXPECT_EQ(g.source, "dropped.onnx");
    EXPECT_EQ(dimsOf(g, "y"), (Dims{2, 10}));
    EXPECT_EQ(errorOf([] { onnx::importOnnxData("\x08", "bytes"); }),
              "bytes: not an ONNX model: the data is not a complete ONNX protobuf (truncated, or another format)");
}

// loadNetwork asks a model for its inputs and then imports it: one parse, so the file is not read twice.
TEST(OnnxImport, AModelIsReadOnceForItsInputsAndItsImport) {
    const std::string path = reshapeChain().write();
    onnx::OnnxModel model = onnx::OnnxModel::read(path);
    std::filesystem::remove(path);  // whatever follows cannot read the file again
    ASSERT_EQ(model.inputs().size(), 1u);
    EXPECT_EQ(model.inputs()[0].dims[0].symbol, "N");
    const onnx::Graph g = std::move(model).import({{}, {{"N", 2}}});
    EXPECT_EQ(g.source, path);
    EXPECT_EQ(dimsOf(g, "y"), (Dims{2, 10}));
}

}  // namespace
}  // namespace partita
