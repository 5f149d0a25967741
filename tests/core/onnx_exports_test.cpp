// Patterns found in real exported models (tools/onnx-models/export.py: torchvision and PyTorch 1.13
// exports), each reduced to a small model built here; counts worked out by hand in the comments.
#include <gtest/gtest.h>

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

}  // namespace
}  // namespace partita
