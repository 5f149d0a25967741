#pragma once
// Shared helpers for the editor-document tests: exact document comparison and a from-scratch
// re-derivation to compare the incremental one with.
#include <gtest/gtest.h>

#include <string>

#include "core/edit/document.h"

namespace partita::test {

inline std::string shapeText(const std::optional<Shape>& s) {
    return s ? std::to_string(s->c) + "x" + std::to_string(s->h) + "x" + std::to_string(s->w) : "none";
}

// Same header, nodes (ids, parameters, inputs, hints), derived shapes and problems.
inline ::testing::AssertionResult sameDocument(const edit::Document& a, const edit::Document& b) {
    if (!(a.header() == b.header())) return ::testing::AssertionFailure() << "headers differ";
    if (a.ids() != b.ids()) return ::testing::AssertionFailure() << "node ids differ";
    for (edit::NodeId id : a.ids()) {
        if (!(*a.node(id) == *b.node(id)))
            return ::testing::AssertionFailure() << "node " << id << " ('" << a.node(id)->op.name << "') differs";
        if (a.outputShape(id) != b.outputShape(id))
            return ::testing::AssertionFailure() << "node " << id << " shape " << shapeText(a.outputShape(id)) << " vs "
                                                 << shapeText(b.outputShape(id));
        if (a.problem(id) != b.problem(id))
            return ::testing::AssertionFailure() << "node " << id << " problem '" << a.problem(id).value_or("") << "' vs '"
                                                 << b.problem(id).value_or("") << "'";
    }
    if (a.problems().size() != b.problems().size()) return ::testing::AssertionFailure() << "problem lists differ";
    return ::testing::AssertionSuccess();
}

// The same nodes and header, derived all at once in a new document.
inline edit::Document rederived(const edit::Document& doc) {
    edit::Patch all;
    all.header = doc.header();
    for (edit::NodeId id : doc.ids()) all.nodes.emplace(id, *doc.node(id));
    edit::Document fresh;
    fresh.apply(all);
    return fresh;
}

inline Operator op(const std::string& name, OpType type) {
    Operator o;
    o.name = name;
    o.type = type;
    return o;
}

inline Operator convOp(const std::string& name, std::int64_t out, int k, int stride = 1, int pad = 0) {
    Operator o = op(name, OpType::Conv);
    o.out_channels = out;
    o.window = {k, k, stride, stride, pad, pad, Rounding::Exact};
    return o;
}

}  // namespace partita::test
