// ONNX import: files, dims, folding, unsupported operators (issue 15, items 1 and 6).
#include <gtest/gtest.h>

#include "core/onnx/counts.h"
#include "core/onnx/import.h"
#include "onnx_builder.h"
#include "test_util.h"

namespace partita {
namespace {

using onnx::importOnnx;
using test::OnnxBuilder;

std::vector<std::int64_t> dimsOf(const onnx::Graph& g, const std::string& name) {
    const onnx::Tensor* t = g.tensor(name);
    return t ? t->dims : std::vector<std::int64_t>{-99};
}

TEST(OnnxImport, SmallConvNet) {
    OnnxBuilder b;
    b.input("x", {"N", 3, 32, 32});
    b.weight("w", {8, 3, 3, 3});
    auto& conv = b.node("Conv", {"x", "w"}, {"y"}, "conv1");
    OnnxBuilder::attrInts(conv, "pads", {1, 1, 1, 1});
    b.node("Relu", {"y"}, {"z"});
    b.output("z");
    const onnx::Graph g = importOnnx(b.write(), {{}, {{"N", 2}}});
    EXPECT_EQ(dimsOf(g, "y"), (std::vector<std::int64_t>{2, 8, 32, 32}));
    EXPECT_EQ(dimsOf(g, "z"), (std::vector<std::int64_t>{2, 8, 32, 32}));
    ASSERT_EQ(g.nodes.size(), 2u);
    EXPECT_EQ(g.nodes[1].name, "Relu_1");
    const onnx::Summary s = onnx::summarize(g);
    EXPECT_EQ(s.weights, 8 * 3 * 3 * 3);
    EXPECT_EQ(s.macs_per_sample, 8.0 * 27 * 32 * 32);
}

}  // namespace
}  // namespace partita
