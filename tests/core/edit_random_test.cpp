// 1,000 random edit sequences on a small graph (a property test): every edit either applies or throws
// std::invalid_argument and leaves the document as it was; every inverse restores the exact previous
// document; the incremental shapes and problems equal a from-scratch derivation and an independent
// oracle; and undoing everything gives the starting document.
#include <gtest/gtest.h>

#include <functional>
#include <random>

#include "core/edit/builder.h"
#include "core/edit/templates.h"
#include "edit_test_util.h"

namespace partita {
namespace {

using edit::Document;
using edit::kNetworkInput;
using edit::NodeId;
using edit::Patch;

// An independent oracle: a node is on a cycle when it can reach itself; a node has a shape when all
// its inputs exist and have shapes, it is on no cycle, and the rule accepts them (a fixed point).
void checkAgainstOracle(const Document& doc) {
    const auto ids = doc.ids();
    auto reaches = [&](NodeId from, NodeId target) {
        std::set<NodeId> seen;
        std::vector<NodeId> todo = doc.consumers(from);
        while (!todo.empty()) {
            const NodeId v = todo.back();
            todo.pop_back();
            if (v == target) return true;
            if (!seen.insert(v).second) continue;
            for (NodeId c : doc.consumers(v)) todo.push_back(c);
        }
        return false;
    };
    std::map<NodeId, Shape> shapes;
    std::optional<Shape> input = doc.header().input;
    if (input->c <= 0 || input->h <= 0 || input->w <= 0) input.reset();
    for (bool changed = true; changed;) {
        changed = false;
        for (NodeId id : ids) {
            if (shapes.count(id) || reaches(id, id)) continue;
            const edit::Node& n = *doc.node(id);
            std::vector<Shape> in;
            for (NodeId p : n.inputs) {
                if (p == kNetworkInput && input) in.push_back(*input);
                else if (shapes.count(p)) in.push_back(shapes.at(p));
            }
            if (in.size() != n.inputs.size() || in.empty()) continue;
            Operator op = n.op;
            try {
                deriveShapes(op, in);
            } catch (const std::exception&) {
                continue;
            }
            if (edit::editorShapeProblem(op)) continue;
            shapes[id] = op.out_shape;
            changed = true;
        }
    }
    for (NodeId id : ids) {
        ASSERT_EQ(doc.outputShape(id), shapes.count(id) ? std::optional<Shape>(shapes.at(id)) : std::nullopt) << id;
        if (reaches(id, id)) {
            ASSERT_NE(doc.problem(id)->find("cycle"), std::string::npos) << *doc.problem(id);
        }
    }
    NodeId previous = 0;
    for (const auto& p : doc.problems()) {
        ASSERT_LT(previous, p.node);  // ordered by node id
        previous = p.node;
    }
    if (doc.valid()) {
        const Network net = doc.toNetwork();
        for (const Operator& op : net.ops) ASSERT_EQ(doc.outputShape(*doc.findByName(op.name)), op.out_shape);
    }
}

class Session {
public:
    explicit Session(unsigned seed) : rng_(seed) {
        doc_.apply(edit::setHeader(doc_, {"random", "", {4, 8, 8}}));
        for (Operator o : {conv(4, 3), conv(8, 1), pool()}) doc_.apply(edit::addNode(doc_, o, {pick(true)}));
        start_ = doc_;
    }

    void step() {
        const Document before = doc_;
        try {
            const int action = uniform(0, 13);
            if (action == 12 && !undo_.empty()) {
                move(undo_, redo_);
            } else if (action == 13 && !redo_.empty()) {
                move(redo_, undo_);
            } else {
                const Patch inverse = doc_.apply(edit(action));
                Document undone = doc_;
                undone.apply(inverse);
                ASSERT_TRUE(test::sameDocument(undone, before)) << "action " << action;
                undo_.push_back(inverse);
                redo_.clear();
            }
        } catch (const std::invalid_argument&) {
            ASSERT_TRUE(test::sameDocument(doc_, before));
        }
        ASSERT_TRUE(test::sameDocument(doc_, test::rederived(doc_)));
        checkAgainstOracle(doc_);
    }

    void undoAll() {
        while (!undo_.empty()) move(undo_, redo_);
        EXPECT_TRUE(test::sameDocument(doc_, start_));
    }

private:
    int uniform(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }

    // A present node (or the network input), sometimes an id that is not in the document.
    NodeId pick(bool allow_input) {
        const auto ids = doc_.ids();
        const int r = uniform(0, static_cast<int>(ids.size()) + 1);
        if (r == 0 && allow_input) return kNetworkInput;
        if (r > static_cast<int>(ids.size()) || ids.empty()) return doc_.nextId() + 3;
        return ids[static_cast<size_t>(r == 0 ? 0 : r - 1)];
    }

    Operator conv(std::int64_t out, int k) {
        Operator o;
        o.type = OpType::Conv;
        o.out_channels = out;
        o.window = {k, k, 1, 1, k / 2, k / 2, Rounding::Exact};
        return o;
    }
    Operator pool() {
        Operator o;
        o.type = OpType::Pool;
        o.window = {2, 2, 2, 2, 0, 0, Rounding::Floor};
        return o;
    }
    Operator randomOp() {
        Operator o;
        switch (uniform(0, 8)) {
        case 0: o = conv(uniform(0, 1) ? 4 : 8, uniform(0, 1) ? 1 : 3); break;
        case 1: o = pool(); break;
        case 2: o.type = OpType::FullyConnected; o.out_channels = 10; break;
        case 3: o.type = OpType::Add; break;
        case 4: o.type = OpType::Concat; break;
        case 5: o.type = OpType::Elementwise; o.source_op = "Relu"; break;
        case 6: o.type = OpType::MatMul; break;
        case 7: o.type = OpType::Layout; o.layout_shape = uniform(0, 1) ? Shape{1, 8, 32} : Shape{4, 8, 8}; break;
        default: o = conv(uniform(0, 1) ? 0 : 4, 9); break;  // invalid channels, or a window that does not fit
        }
        return o;
    }

    std::vector<NodeId> inputs() {
        std::vector<NodeId> in;
        for (int k = uniform(0, 2); k >= 0; --k) in.push_back(pick(true));
        return in;
    }

    edit::TemplateParams randomTemplate() {
        switch (uniform(0, 5)) {
        case 0: return edit::ConvBnReluParams{"cbr", 4, 3, uniform(1, 2), true, true};
        case 1: return edit::ResNetBasicParams{"res", uniform(0, 1) ? 4 : 8, uniform(1, 2), uniform(0, 1) == 1};
        case 2: return edit::ResNetBottleneckParams{"bot", 2, 2, uniform(1, 2), true};
        case 3: return edit::InceptionParams{"mix", 2, 2, 2, 2, 2, 2, true};
        case 4: return edit::TransformerEncoderParams{"enc", uniform(1, 4), 8};
        default: return edit::MlpParams{"mlp", {8, 4}, true};
        }
    }

    Patch edit(int action) {
        switch (action) {
        case 0: return edit::addNode(doc_, randomOp(), inputs(), edit::Point{1, 2});
        case 1: return edit::connect(doc_, pick(true), pick(false), uniform(-1, 2));
        case 2: return edit::disconnect(doc_, pick(true), pick(false));
        case 3: return edit::removeNodes(doc_, {pick(false), pick(false)});
        case 4: {
            const NodeId id = pick(false);
            Operator o = randomOp();
            o.name = doc_.node(id) ? doc_.node(id)->op.name : "x";
            return edit::setOperator(doc_, id, o);
        }
        case 5: {
            const char* names[] = {"a", "b", "input", "", "conv"};
            return edit::rename(doc_, pick(false), names[uniform(0, 4)]);
        }
        case 6: return edit::moveNodes(doc_, {{pick(false), edit::Point{double(uniform(0, 9)), 3}}});
        case 7: return edit::duplicate(doc_, {pick(false), pick(false)}, uniform(0, 1) == 1, {5, 5});
        case 8: return edit::insertTemplate(doc_, randomTemplate(), {pick(true), uniform(0, 1) == 1, edit::Point{0, 0}});
        case 9: return edit::repeat(doc_, {pick(false), pick(false)}, uniform(0, 2));
        case 10: {
            Shape in{uniform(0, 1) ? 4 : 0, 8, 8};  // sometimes an invalid input
            return edit::setHeader(doc_, {"random", "", in});
        }
        default: {  // a raw patch: delete a node and leave the edges to it dangling
            Patch p;
            p.nodes[pick(false)] = std::nullopt;
            return p;
        }
        }
    }

    void move(std::vector<Patch>& from, std::vector<Patch>& to) {
        to.push_back(doc_.apply(from.back()));
        from.pop_back();
    }

    std::mt19937 rng_;
    Document doc_, start_;
    std::vector<Patch> undo_, redo_;
};

TEST(EditRandom, ThousandSequencesKeepEveryInvariant) {
    for (unsigned seed = 1; seed <= 1000; ++seed) {
        Session s(seed);
        for (int k = 0; k < 25 && !::testing::Test::HasFatalFailure(); ++k) s.step();
        ASSERT_FALSE(::testing::Test::HasFatalFailure()) << "seed " << seed;
        s.undoAll();
    }
}

}  // namespace
}  // namespace partita
