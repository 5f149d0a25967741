// Checks before ONNX's own inference functions run: ONNX 1.12 divides by strides and indexes with
// axes and permutations as the model gives them, so a malformed attribute must be refused here, and
// it does not compare a convolution's channels or Gemm's inner sizes, which the counts rest on.
#include <algorithm>
#include <set>

#include "core/onnx/detail.h"
#include "core/util/limits.h"

namespace partita::onnx::detail {

namespace {

const Info* ranked(const NodeCtx& c, std::size_t i) {
    const Info* in = c.input(i);
    return in && in->rank_known ? in : nullptr;
}

// An ints attribute of `count` entries within [lo, hi], when present.
void checkInts(const NodeCtx& c, const char* name, std::size_t count, std::int64_t lo, std::int64_t hi) {
    const auto v = c.attrInts(name);
    if (!v) return;
    if (v->size() != count)
        throw RuleError(std::string(name) + " " + valuesText(*v) + " needs " + std::to_string(count) + " entries");
    for (const std::int64_t x : *v)
        if (x < lo || x > hi)
            throw RuleError(std::string(name) + " " + valuesText(*v) + " must lie in " + std::to_string(lo) + ".." +
                            std::to_string(hi));
}

void checkConvPool(const NodeCtx& c) {
    const Info* x = ranked(c, 0);
    const std::string& op = c.op();
    const std::string pad = c.attrString("auto_pad", "NOTSET");
    if (pad != "NOTSET" && pad != "SAME_UPPER" && pad != "SAME_LOWER" && pad != "VALID")
        throw RuleError("auto_pad '" + pad.substr(0, 40) + "' is not NOTSET, SAME_UPPER, SAME_LOWER or VALID");
    if (!x) return;
    if (x->dims.size() < 3) throw RuleError(op + " needs an input of rank 3 or more, not " + dimsText(x->dims));
    const std::size_t spatial = x->dims.size() - 2;
    const std::int64_t big = limits::kDimension;
    if (op == "MaxPool" || op == "AveragePool") {
        if (!c.attr("kernel_shape")) throw RuleError(op + " needs kernel_shape");
    } else if (const Info* w = ranked(c, 1); w && w->dims.size() != x->dims.size()) {
        throw RuleError(op + " weight " + dimsText(w->dims) + " does not match the input " + dimsText(x->dims));
    }
    checkInts(c, "kernel_shape", spatial, 1, big);
    checkInts(c, "strides", spatial, 1, big);
    checkInts(c, "dilations", spatial, 1, big);
    checkInts(c, "pads", 2 * spatial, 0, big);
    if (op == "ConvTranspose") {
        checkInts(c, "output_padding", spatial, 0, big);
        if (const auto shape = c.attrInts("output_shape"); shape && shape->size() != spatial && shape->size() != spatial + 2)
            throw RuleError("output_shape " + valuesText(*shape) + " does not match the input " + dimsText(x->dims));
        checkInts(c, "output_shape", c.attrInts("output_shape") ? c.attrInts("output_shape")->size() : 0, 1, big);
    }
}

void checkOperands(const NodeCtx& c) {
    const Info* x = c.input(0);
    const Info* w = c.input(1);
    if (!x || !w || !x->known() || !w->known()) return;
    const std::string& op = c.op();
    if (op == "Conv" || op == "ConvTranspose") {
        const std::int64_t group = c.attrInt("group", 1);
        if (group < 1) throw RuleError(op + " group " + std::to_string(group) + " is not positive");
        // Conv: W is [C_out, C_in/g, k…]; ConvTranspose: W is [C_in, C_out/g, k…].
        const bool fits = op == "Conv" ? x->dims[1] == w->dims[1] * group && w->dims[0] % group == 0
                                       : x->dims[1] == w->dims[0] && x->dims[1] % group == 0;
        if (!fits)
            throw RuleError(op + " input " + dimsText(x->dims) + " does not match weight " + dimsText(w->dims) +
                            " with group " + std::to_string(group));
    } else if (op == "Gemm") {
        if (x->dims.size() != 2 || w->dims.size() != 2) throw RuleError("Gemm needs rank-2 A and B");
        const std::int64_t ka = x->dims[c.attrInt("transA", 0) ? 0 : 1];
        const std::int64_t kb = w->dims[c.attrInt("transB", 0) ? 1 : 0];
        if (ka != kb)
            throw RuleError("Gemm A " + dimsText(x->dims) + " and B " + dimsText(w->dims) + " differ in their inner size");
    }
}

void checkAxes(const NodeCtx& c) {
    const std::string& op = c.op();
    const Info* x = ranked(c, 0);
    if (!x) return;
    const std::size_t rank = x->dims.size();
    if (op == "Transpose") {
        if (const auto perm = c.attrInts("perm")) {
            std::vector<std::int64_t> sorted = *perm;
            std::sort(sorted.begin(), sorted.end());
            for (std::size_t i = 0; i < sorted.size(); ++i)
                if (sorted.size() != rank || sorted[i] != static_cast<std::int64_t>(i))
                    throw RuleError("perm " + valuesText(*perm) + " is not a permutation of " + std::to_string(rank) + " axes");
        }
    } else if (op == "Flatten") {
        const std::int64_t axis = c.attrInt("axis", 1);
        if (axis < -static_cast<std::int64_t>(rank) || axis > static_cast<std::int64_t>(rank))
            throw RuleError("axis " + std::to_string(axis) + " is outside a rank-" + std::to_string(rank) + " tensor");
    } else if (op == "Concat" || op == "Gather" || op == "LayerNormalization" || op == "Softmax") {
        if (rank == 0) throw RuleError(op + " needs an input of rank 1 or more");
        normalizeAxis(c.attrInt("axis", op == "Softmax" ? -1 : 0), rank, "axis");
        if (op == "Concat")
            for (const Info* in : c.in)
                if (in && in->rank_known && in->dims.size() != rank)
                    throw RuleError("Concat inputs of ranks " + std::to_string(rank) + " and " + std::to_string(in->dims.size()));
    } else if (op == "Squeeze" || op == "Unsqueeze") {
        const IntList axes = c.opset >= 13 ? intsFromInput(c, 1) : intsFromAttr(c, "axes");
        const std::size_t out_rank = op == "Unsqueeze" ? rank + axes.values.size() : rank;
        std::set<std::int64_t> seen;
        for (const std::int64_t a : axes.values)
            if (!seen.insert(normalizeAxis(a, out_rank, "axis")).second)
                throw RuleError(op + " axes " + valuesText(axes.values) + " repeat an axis");
        if (out_rank > static_cast<std::size_t>(limits::kOnnxRank)) throw RuleError(op + " beyond the rank limit");
    }
}

}  // namespace

void checkNode(const NodeCtx& c) {
    const std::string& op = c.op();
    if (op == "Conv" || op == "ConvTranspose" || op == "MaxPool" || op == "AveragePool") checkConvPool(c);
    checkOperands(c);
    checkAxes(c);
}

}  // namespace partita::onnx::detail
