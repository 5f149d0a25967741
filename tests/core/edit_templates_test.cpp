// The editor's templates and repeat(): every block gives a valid network that propagate() accepts,
// with weights and MACs from a hand count; names stay unique; repeat chains single-entry,
// single-exit blocks and refuses the others.
#include <gtest/gtest.h>

#include "core/edit/templates.h"
#include "core/model/counts.h"
#include "edit_test_util.h"
#include "test_util.h"

namespace partita {
namespace {

using edit::Document;
using edit::kNetworkInput;
using edit::NodeId;

Operator head() {
    Operator o = test::op("head", OpType::FullyConnected);
    o.out_channels = 10;
    return o;
}

edit::Placement after(NodeId id) {
    edit::Placement p;
    p.after = id;
    return p;
}

Document withInput(Shape input) {
    Document doc;
    doc.apply(edit::setHeader(doc, {"t", "", input}));
    return doc;
}

// The template alone after the network input: its network's counts (and the document must be valid).
NetworkCounts countsOf(const edit::TemplateParams& params, Shape input, Shape expected_output) {
    Document doc = withInput(input);
    doc.apply(edit::insertTemplate(doc, params, {}));
    EXPECT_TRUE(doc.valid()) << (doc.problems().empty() ? "empty" : doc.problems().front().reason);
    if (!doc.valid()) return {};
    const Network net = doc.toNetwork();
    EXPECT_EQ(net.ops.back().out_shape, expected_output);
    return countNetwork(net);
}

TEST(EditTemplates, ConvBnReluByHand) {
    const auto n = countsOf(edit::ConvBnReluParams{"conv", 16, 3, 1, true, true}, {3, 32, 32}, {16, 32, 32});
    EXPECT_EQ(n.operators, 3);
    EXPECT_EQ(n.weights, 3.0 * 3 * 3 * 16);
    EXPECT_EQ(n.macs_per_sample, 432.0 * 32 * 32);
}

TEST(EditTemplates, ResNetBasicWithProjectionByHand) {
    // conv1 3x3 16->32 stride 2, conv2 3x3 32->32, projection 1x1 16->32 stride 2; all at 16x16.
    const auto n = countsOf(edit::ResNetBasicParams{"res", 32, 2, true}, {16, 32, 32}, {32, 16, 16});
    EXPECT_EQ(n.weighted_layers, 3);
    EXPECT_EQ(n.weights, 4608.0 + 9216 + 512);
    EXPECT_EQ(n.macs_per_sample, (4608.0 + 9216 + 512) * 256);
    // Same channels and stride: the identity shortcut.
    EXPECT_EQ(countsOf(edit::ResNetBasicParams{"res", 16, 1, false}, {16, 8, 8}, {16, 8, 8}).weighted_layers, 2);
}

TEST(EditTemplates, ResNetBottleneckByHand) {
    // 1x1 64->16, 3x3 16->16, 1x1 16->64 at 8x8; no projection (64 in, 64 out, stride 1).
    const auto n = countsOf(edit::ResNetBottleneckParams{"res", 16, 4, 1, true}, {64, 8, 8}, {64, 8, 8});
    EXPECT_EQ(n.weighted_layers, 3);
    EXPECT_EQ(n.weights, 1024.0 + 2304 + 1024);
    EXPECT_EQ(n.macs_per_sample, 4352.0 * 64);
    EXPECT_EQ(countsOf(edit::ResNetBottleneckParams{"res", 16, 4, 2, true}, {64, 8, 8}, {64, 4, 4}).weighted_layers, 4);
}

TEST(EditTemplates, InceptionByHand) {
    // GoogLeNet's inception (3a) on 192x28x28: 64 + 128 + 32 + 32 = 256 channels out.
    const auto n = countsOf(edit::InceptionParams{}, {192, 28, 28}, {256, 28, 28});
    EXPECT_EQ(n.weighted_layers, 6);
    EXPECT_EQ(n.weights, 12288.0 + 18432 + 110592 + 3072 + 12800 + 6144);
    EXPECT_EQ(n.macs_per_sample, 163328.0 * 784);
}

TEST(EditTemplates, TransformerEncoderByHand) {
    // d = 16 features at 8x8 = 64 positions, 2 heads of 8, MLP 64: Q, K, V, output projection
    // (4 x 16 x 16 weights) and the MLP (2 x 16 x 64), each applied at 64 positions; scores
    // (2, 64, 8) x (2, 8, 64) and context (2, 64, 64) x (2, 64, 8): 64 x 64 x 16 MACs each.
    const auto n = countsOf(edit::TransformerEncoderParams{"enc", 2, 64}, {16, 8, 8}, {16, 8, 8});
    EXPECT_EQ(n.operators, 18);
    EXPECT_EQ(n.weights, 4.0 * 256 + 2 * 1024);
    EXPECT_EQ(n.macs_per_sample, 3072.0 * 64 + 2 * 65536);
    Document doc = withInput({16, 8, 8});
    EXPECT_EQ(test::errorOf<std::invalid_argument>(
                  [&] { edit::insertTemplate(doc, edit::TransformerEncoderParams{"enc", 3, 0}, {}); }),
              "heads (3) must divide the input's channels (16)");
}

// Resizing the Q projection under the template's head split (16 -> 12 channels) leaves the split's
// fixed 2x64x8 output with more elements than its input: a problem at the split, not a silent reshape.
TEST(EditTemplates, ResizingAProjectionUnderAHeadSplitIsAProblem) {
    Document doc = withInput({16, 8, 8});
    doc.apply(edit::insertTemplate(doc, edit::TransformerEncoderParams{"enc", 2, 64}, {}));
    ASSERT_TRUE(doc.valid());
    const NodeId q = doc.findByName("enc_q").value();
    Operator op = doc.node(q)->op;
    op.out_channels = 12;
    doc.apply(edit::setOperator(doc, q, op));
    EXPECT_FALSE(doc.valid());
    const NodeId heads = doc.findByName("enc_q_heads").value();
    ASSERT_TRUE(doc.problem(heads).has_value());
    EXPECT_EQ(*doc.problem(heads), "a transpose keeps its elements: its input 12x8x8 has 768, its output shape 2x64x8 has 1024");
    EXPECT_FALSE(doc.problem(q).has_value());  // the projection itself is fine
}

TEST(EditTemplates, MlpByHand) {
    const auto n = countsOf(edit::MlpParams{"mlp", {100, 10}, true}, {1, 28, 28}, {10, 1, 1});
    EXPECT_EQ(n.operators, 3);
    EXPECT_EQ(n.weights, 78400.0 + 1000);
    EXPECT_EQ(n.macs_per_sample, 79400.0);
}

TEST(EditTemplates, EveryCatalogEntryIsValidTwiceWithUniqueNames) {
    ASSERT_EQ(edit::templateCatalog().size(), 6u);
    for (const auto& params : edit::templateCatalog()) {
        Document doc = withInput({64, 32, 32});
        doc.apply(edit::insertTemplate(doc, params, {}));
        const NodeId exit = doc.ids().back();
        doc.apply(edit::insertTemplate(doc, params, after(exit)));  // the same names again: a second prefix
        ASSERT_TRUE(doc.valid()) << edit::templateLabel(params);
        EXPECT_NO_THROW(doc.toNetwork()) << edit::templateLabel(params);
    }
    EXPECT_EQ(std::string(edit::templateLabel(edit::templateCatalog()[4])), "Transformer encoder block");
    Document doc = withInput({8, 8, 8});
    doc.apply(edit::insertTemplate(doc, edit::ConvBnReluParams{}, {}));
    doc.apply(edit::insertTemplate(doc, edit::ConvBnReluParams{}, {}));
    for (const char* name : {"conv", "conv_bn", "conv_relu", "conv_2", "conv_2_bn", "conv_2_relu"})
        EXPECT_TRUE(doc.findByName(name)) << name;
}

TEST(EditTemplates, InsertedBetweenANodeAndItsReadersWithLayoutHints) {
    Document doc = withInput({8, 8, 8});
    doc.apply(edit::addNode(doc, test::convOp("a", 8, 1), {kNetworkInput}));
    doc.apply(edit::addNode(doc, head(), {1}));
    edit::ResNetBasicParams p;
    p.channels = 16;
    doc.apply(edit::insertTemplate(doc, p, {1, true, edit::Point{100, 50}}));
    const NodeId relu = *doc.findByName("res_relu");
    EXPECT_EQ(doc.node(2)->inputs, std::vector<NodeId>{relu});
    EXPECT_EQ(doc.node(*doc.findByName("res_conv1"))->position, (edit::Point{100, 50}));
    EXPECT_EQ(doc.node(*doc.findByName("res_proj"))->position, (edit::Point{280, 50}));  // beside conv1
    EXPECT_EQ(doc.node(relu)->position, (edit::Point{100, 50 + 6 * 90}));
    // A block's input must have a shape when its layers depend on it.
    doc.apply(edit::setOperator(doc, 1, test::convOp("a", 8, 9)));
    EXPECT_EQ(test::errorOf<std::invalid_argument>([&] { edit::insertTemplate(doc, p, after(1)); }),
              "the block's input 'a' has no shape (it has a problem)");
}

class Repeat : public ::testing::Test {
protected:
    void SetUp() override {
        doc = withInput({8, 8, 8});
        doc.apply(edit::addNode(doc, test::convOp("stem", 8, 1), {kNetworkInput}));
        doc.apply(edit::insertTemplate(doc, edit::ResNetBasicParams{"res", 8, 1, false}, after(1)));
        block = {2, 3, 4};  // res_conv1, res_conv2, res_add
        doc.apply(edit::addNode(doc, head(), {4}));
    }
    Document doc;
    std::vector<NodeId> block;
};

TEST_F(Repeat, ChainsCopiesAndMovesTheReadersToTheLast) {
    const Document before = doc;
    const double one = countNetwork(doc.toNetwork()).macs_per_sample;
    doc.apply(edit::repeat(doc, block, 2));
    ASSERT_TRUE(doc.valid());
    EXPECT_EQ(doc.ids().size(), 11u);
    const NodeId conv1_2 = *doc.findByName("res_conv1_2"), add2 = *doc.findByName("res_add_2");
    const NodeId conv1_3 = *doc.findByName("res_conv1_3"), add3 = *doc.findByName("res_add_3");
    EXPECT_EQ(doc.node(conv1_2)->inputs, std::vector<NodeId>{4});
    EXPECT_EQ(doc.node(add2)->inputs, (std::vector<NodeId>{*doc.findByName("res_conv2_2"), 4}));
    EXPECT_EQ(doc.node(conv1_3)->inputs, std::vector<NodeId>{add2});
    EXPECT_EQ(doc.node(*doc.findByName("head"))->inputs, std::vector<NodeId>{add3});
    // Each copy adds two 3x3 8->8 convs at 8x8.
    EXPECT_EQ(countNetwork(doc.toNetwork()).macs_per_sample, one + 2 * 2 * 576.0 * 64);
    EXPECT_TRUE(edit::repeat(before, block, 0).empty());
}

TEST_F(Repeat, RefusesBlocksWithoutOneEntryAndOneExit) {
    auto error = [&](const std::vector<NodeId>& ids) {
        return test::errorOf<std::invalid_argument>([&] { edit::repeat(doc, ids, 2); });
    };
    EXPECT_EQ(error({1, 2}), "only the block's output may be read outside it, but 'res_add' reads 'stem'");
    EXPECT_EQ(error({3, 4}), "a repeated block reads exactly one operator outside it; this one reads 2");
    EXPECT_EQ(error({1, 2, 4}), "a repeated block reads exactly one operator outside it; this one reads 2");
    doc.apply(edit::addNode(doc, test::convOp("side", 8, 1), {2}));
    EXPECT_EQ(error({2, 3, 4, 6}), "a repeated block has one output (an operator nothing in the block reads); this one has 2");
    EXPECT_EQ(error({}), "select the block to repeat");
}

}  // namespace
}  // namespace partita
