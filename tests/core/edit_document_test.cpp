// The editor's document (core/edit): patches and their inverses, Lenet-c built node by node, the
// problems a node can have (each naming its node), and the edit functions.
#include <gtest/gtest.h>

#include <filesystem>

#include "core/edit/document.h"
#include "core/io/network_io.h"
#include "core/model/counts.h"
#include "edit_test_util.h"
#include "test_util.h"

namespace partita {
namespace {

using edit::Document;
using edit::kNetworkInput;
using edit::NodeId;
using edit::Patch;
using test::convOp;
using test::op;
using test::sameDocument;

// Applies `p` and checks that its inverse restores the document exactly (then re-applies it).
void applyChecked(Document& doc, const Patch& p) {
    const Document before = doc;
    const Patch inverse = doc.apply(p);
    Document undone = doc;
    undone.apply(inverse);
    EXPECT_TRUE(sameDocument(undone, before));
}

NodeId add(Document& doc, Operator o, std::vector<NodeId> inputs) {
    const NodeId id = doc.nextId();
    applyChecked(doc, edit::addNode(doc, std::move(o), std::move(inputs)));
    return id;
}

Operator lenetConv(const std::string& name, std::int64_t out) {
    Operator c = convOp(name, out, 5);
    c.pool = Window{2, 2, 2, 2, 0, 0, Rounding::Exact};
    return c;
}

Operator fcOp(const std::string& name, std::int64_t out) {
    Operator f = op(name, OpType::FullyConnected);
    f.out_channels = out;
    return f;
}

TEST(EditDocument, LenetCBuiltNodeByNodeIsTheExample) {
    const Network lenet = loadNetwork(test::example("networks/lenet-c.json"));
    Document doc;
    std::vector<Patch> undo;
    undo.push_back(doc.apply(edit::setHeader(doc, {lenet.name, lenet.description, {1, 28, 28}})));
    NodeId last = kNetworkInput;
    for (const Operator& o : {lenetConv("conv1", 20), lenetConv("conv2", 50), fcOp("fc1", 500), fcOp("fc2", 10)}) {
        const NodeId id = doc.nextId();
        undo.push_back(doc.apply(edit::addNode(doc, o, {last})));
        last = id;
    }
    ASSERT_TRUE(doc.valid());
    const Network built = doc.toNetwork();
    ASSERT_EQ(built.ops.size(), lenet.ops.size());
    for (size_t i = 0; i < built.ops.size(); ++i) {
        EXPECT_EQ(built.ops[i].name, lenet.ops[i].name);
        EXPECT_EQ(built.ops[i].out_shape, lenet.ops[i].out_shape);
        EXPECT_EQ(built.ops[i].in_shape, lenet.ops[i].in_shape);
    }
    EXPECT_EQ(doc.outputShape(2), (Shape{50, 4, 4}));  // (12 - 5 + 1) / 2
    const NetworkCounts a = countNetwork(built), b = countNetwork(lenet);
    EXPECT_EQ(a.weights, b.weights);
    EXPECT_EQ(a.weights, 500.0 + 25000 + 400000 + 5000);
    EXPECT_EQ(a.macs_per_sample, b.macs_per_sample);
    const std::string saved = writeNetworkJson(built);
    EXPECT_EQ(saved, writeNetworkJson(lenet));

    // Undo to empty, redo to the full graph: byte-identical saves.
    std::vector<Patch> redo;
    while (!undo.empty()) {
        redo.push_back(doc.apply(undo.back()));
        undo.pop_back();
    }
    EXPECT_TRUE(sameDocument(doc, Document{}));
    EXPECT_FALSE(doc.valid());
    while (!redo.empty()) {
        doc.apply(redo.back());
        redo.pop_back();
    }
    EXPECT_EQ(writeNetworkJson(doc.toNetwork()), saved);
}

TEST(EditDocument, EveryExampleRoundTripsThroughADocument) {
    for (const auto& entry : std::filesystem::directory_iterator(test::example("networks"))) {
        const Network net = loadNetwork(entry.path().string());
        const Document doc = Document::fromNetwork(net);
        ASSERT_TRUE(doc.valid()) << entry.path();
        EXPECT_EQ(writeNetworkJson(doc.toNetwork()), writeNetworkJson(net)) << entry.path();
        EXPECT_TRUE(sameDocument(doc, test::rederived(doc))) << entry.path();
    }
}

TEST(EditDocument, DerivedShapesAreKeptInTheOperatorForCounts) {
    Document doc;
    doc.apply(edit::setHeader(doc, {"n", "", {3, 8, 8}}));
    const NodeId c = add(doc, convOp("c", 4, 3, 1, 1), {kNetworkInput});
    EXPECT_EQ(doc.node(c)->op.out_shape, (Shape{4, 8, 8}));
    EXPECT_EQ(countOperator(doc.node(c)->op).weights, 3.0 * 3 * 3 * 4);
    EXPECT_EQ(countOperator(doc.node(c)->op).macs_per_sample, 3.0 * 3 * 3 * 4 * 64);
    doc.apply(edit::setOperator(doc, c, convOp("c", 4, 9)));  // does not fit 8
    EXPECT_EQ(doc.node(c)->op.out_shape, Shape{});
    EXPECT_EQ(doc.problem(c), "window 9 does not fit input 8 with padding 0");
}

class Problems : public ::testing::Test {
protected:
    void SetUp() override {
        doc.apply(edit::setHeader(doc, {"p", "", {4, 8, 8}}));
        a = add(doc, convOp("a", 4, 3, 1, 1), {kNetworkInput});
        b = add(doc, convOp("b", 4, 3, 1, 1), {a});
        c = add(doc, convOp("c", 4, 3, 1, 1), {b});
        d = add(doc, op("d", OpType::Add), {c, a});
    }
    std::vector<std::pair<NodeId, std::string>> list() const {
        std::vector<std::pair<NodeId, std::string>> out;
        for (const auto& p : doc.problems()) out.emplace_back(p.node, p.reason);
        EXPECT_TRUE(sameDocument(doc, test::rederived(doc)));
        return out;
    }
    using List = std::vector<std::pair<NodeId, std::string>>;
    Document doc;
    NodeId a = 0, b = 0, c = 0, d = 0;
};

TEST_F(Problems, NoneInAValidGraph) {
    EXPECT_TRUE(doc.valid());
    EXPECT_EQ(doc.outputShape(d), (Shape{4, 8, 8}));
}

TEST_F(Problems, ACycleNamesEveryNodeOnItAndItsConsumersSayWhichInput) {
    applyChecked(doc, edit::connect(doc, c, a, 0));  // a reads c: a -> b -> c -> a
    const std::string cycle = "the operators form a cycle: a -> b -> c -> a";
    EXPECT_EQ(list(), (List{{a, cycle}, {b, cycle}, {c, cycle}, {d, "input 'c' has a problem"}}));
    EXPECT_THROW(doc.toNetwork(), std::logic_error);
    applyChecked(doc, edit::connect(doc, kNetworkInput, a, 0));  // broken again
    EXPECT_TRUE(doc.valid());
}

TEST_F(Problems, ASelfLoopAndTwoCyclesThroughOneNode) {
    applyChecked(doc, edit::connect(doc, b, b));  // b reads a and itself: a conv with two inputs, on a cycle
    EXPECT_EQ(list()[0], (std::pair<NodeId, std::string>{b, "the operators form a cycle: b -> b"}));
    applyChecked(doc, edit::disconnect(doc, b, b));
    applyChecked(doc, edit::connect(doc, d, a, 0));  // a <- d <- c <- b <- a and a <- d <- a
    EXPECT_EQ(list()[0], (std::pair<NodeId, std::string>{a, "the operator is on a cycle among a, b, c, d"}));
    EXPECT_EQ(list().size(), 4u);
}

TEST_F(Problems, ArityMissingAndAbsentInputs) {
    applyChecked(doc, edit::disconnect(doc, a, d));
    applyChecked(doc, edit::disconnect(doc, kNetworkInput, a));
    EXPECT_EQ(list(), (List{{a, "the operator has no input"},
                            {b, "input 'a' has a problem"},
                            {c, "input 'b' has a problem"},
                            {d, "an add needs at least two inputs"}}));
    // A patch may delete a node and leave the edges to it: its readers name the missing node.
    Patch raw;
    raw.nodes[b] = std::nullopt;
    applyChecked(doc, raw);
    EXPECT_EQ(list()[1], (std::pair<NodeId, std::string>{c, "input 1 is an operator that does not exist (node 2)"}));
}

TEST_F(Problems, ShapeMismatchAndABadNetworkInput) {
    applyChecked(doc, edit::setOperator(doc, c, convOp("c", 8, 3, 1, 1)));
    EXPECT_EQ(list(), (List{{d, "inputs have different shapes (8x8x8 vs 4x8x8)"}}));
    applyChecked(doc, edit::setHeader(doc, {"p", "", {0, 8, 8}}));
    EXPECT_EQ(list()[0].second, "the network input has a problem: input sizes must be positive, got 0x8x8");
    EXPECT_EQ(list().size(), 4u);
    EXPECT_EQ(doc.outputShape(kNetworkInput), std::nullopt);
}

TEST_F(Problems, RejectedPatchesLeaveTheDocumentUnchanged) {
    const Document before = doc;
    auto rejects = [&](const Patch& p, const std::string& message) {
        EXPECT_EQ(test::errorOf<std::invalid_argument>([&] { doc.apply(p); }), message);
        EXPECT_TRUE(sameDocument(doc, before));
    };
    rejects(edit::rename(doc, b, "a"), "another operator is named 'a'");
    rejects(edit::rename(doc, b, "input"), "the name 'input' is reserved for the network input");
    rejects(edit::rename(doc, b, ""), "node 2 has no name");
    Patch wrong_id;
    wrong_id.nodes[b] = *doc.node(c);
    rejects(wrong_id, "node 2 carries the id 3");
    Patch input;
    input.nodes[kNetworkInput] = std::nullopt;
    rejects(input, "a patch cannot change the network input (node 0)");
    Patch twins = edit::addNode(doc, convOp("x", 4, 1), {a});
    twins.nodes[99] = edit::Node{99, convOp("x", 4, 1), {a}, {}};
    rejects(twins, "two operators would be named 'x'");
    // Names may swap within one patch.
    Patch swap = edit::rename(doc, a, "b");
    swap.nodes.merge(edit::rename(doc, b, "a").nodes);
    EXPECT_NO_THROW(doc.apply(swap));
    EXPECT_EQ(doc.findByName("a"), b);
}

TEST(EditDocument, EditFunctions) {
    Document doc;
    doc.apply(edit::setHeader(doc, {"e", "", {4, 8, 8}}));
    const NodeId a = add(doc, convOp("conv", 4, 1), {kNetworkInput});
    const NodeId b = add(doc, convOp("conv", 4, 1), {a});  // a taken name becomes unique
    EXPECT_EQ(doc.node(b)->op.name, "conv_2");
    const NodeId s = add(doc, op("", OpType::Add), {a, b});
    EXPECT_EQ(doc.node(s)->op.name, "add");
    EXPECT_EQ(doc.consumers(a), (std::vector<NodeId>{b, s}));
    applyChecked(doc, edit::connect(doc, kNetworkInput, s));  // appends
    EXPECT_EQ(doc.node(s)->inputs, (std::vector<NodeId>{a, b, kNetworkInput}));
    applyChecked(doc, edit::connect(doc, b, s, 0));  // replaces slot 0
    EXPECT_EQ(doc.node(s)->inputs, (std::vector<NodeId>{b, b, kNetworkInput}));
    EXPECT_THROW(edit::connect(doc, a, s, 4), std::invalid_argument);
    EXPECT_THROW(edit::connect(doc, 77, s), std::invalid_argument);
    applyChecked(doc, edit::disconnect(doc, b, s));  // every slot reading b
    EXPECT_EQ(doc.node(s)->inputs, (std::vector<NodeId>{kNetworkInput}));
    EXPECT_TRUE(edit::disconnect(doc, a, s).empty());
    applyChecked(doc, edit::moveNodes(doc, {{a, {10, 20}}}));
    EXPECT_EQ(doc.positions(), (std::map<std::string, edit::Point>{{"conv", {10, 20}}}));
    applyChecked(doc, edit::removeNodes(doc, {a}));  // b loses its input
    EXPECT_EQ(doc.node(b)->inputs, std::vector<NodeId>{});
    EXPECT_EQ(doc.nextId(), 4);
}

TEST(EditDocument, DuplicateKeepsInnerEdgesAndNamesUnique) {
    Document doc;
    doc.apply(edit::setHeader(doc, {"e", "", {4, 8, 8}}));
    const NodeId a = add(doc, convOp("a", 4, 1), {kNetworkInput});
    const NodeId b = add(doc, convOp("b", 4, 1), {a});
    const NodeId c = add(doc, op("c", OpType::Add), {a, b});
    applyChecked(doc, edit::moveNodes(doc, {{b, {0, 100}}}));
    applyChecked(doc, edit::duplicate(doc, {c, b}, true, {50, 0}));
    const NodeId b2 = *doc.findByName("b_2"), c2 = *doc.findByName("c_2");
    EXPECT_EQ(b2, 4);  // copies in id order
    EXPECT_EQ(doc.node(b2)->inputs, (std::vector<NodeId>{a}));
    EXPECT_EQ(doc.node(c2)->inputs, (std::vector<NodeId>{a, b2}));
    EXPECT_EQ(doc.node(b2)->position, (edit::Point{50, 100}));
    applyChecked(doc, edit::duplicate(doc, {c, b}, false, {0, 0}));
    EXPECT_EQ(doc.node(*doc.findByName("c_3"))->inputs, (std::vector<NodeId>{kNetworkInput, *doc.findByName("b_3")}));
    EXPECT_TRUE(doc.valid());
}

}  // namespace
}  // namespace partita
