// Folding: the values of the small integer tensors exporters compute shapes with (Shape → Gather →
// Unsqueeze → Concat → Reshape, Range/ConstantOfShape masks, Resize sizes; the arithmetic and
// comparisons beyond Add/Sub/Mul/Div/Equal/Where are in fold_math.cpp). A node folds when every
// input it reads values from has them and its outputs stay within kOnnxFoldedValues elements.
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <set>

#include "core/onnx/detail.h"
#include "core/util/checked.h"
#include "core/util/limits.h"

namespace partita::onnx::detail {

using ::onnx::TensorProto;

namespace {

bool small(const std::vector<std::int64_t>& dims) { return elementCount(dims) <= limits::kOnnxFoldedValues; }

bool valued(const Info* in) { return in && in->has_values; }

Info valuedOf(const Info& src, std::vector<std::int64_t> dims, const std::vector<std::size_t>& index) {
    Info out = shaped(src.elem_type, std::move(dims));
    takeValues(src, index, out);
    return out;
}

std::vector<std::size_t> identityIndex(std::size_t n) {
    std::vector<std::size_t> index(n);
    for (std::size_t i = 0; i < n; ++i) index[i] = i;
    return index;
}

bool foldConstant(const NodeCtx& c, Info& out) {
    for (const auto& a : c.node.attribute()) {
        const std::string& n = a.name();
        if (n == "value") {
            readTensor(a.t(), out);
        } else if (n == "value_float" || n == "value_int") {
            out = shaped(n == "value_float" ? TensorProto::FLOAT : TensorProto::INT64, {});
            out.has_values = true;
            out.is_float = n == "value_float";
            if (out.is_float) out.floats = {static_cast<double>(a.f())};
            else out.ints = {a.i()};
        } else if (n == "value_floats" || n == "value_ints") {
            const bool f = n == "value_floats";
            const auto count = static_cast<std::int64_t>(f ? a.floats_size() : a.ints_size());
            out = shaped(f ? TensorProto::FLOAT : TensorProto::INT64, {count});
            out.has_values = count <= limits::kOnnxFoldedValues;
            out.is_float = f;
            if (out.has_values && f) out.floats.assign(a.floats().begin(), a.floats().end());
            if (out.has_values && !f) out.ints.assign(a.ints().begin(), a.ints().end());
        } else if (n == "value_string") {
            out = shaped(TensorProto::STRING, {});
        } else if (n == "value_strings") {
            out = shaped(TensorProto::STRING, {static_cast<std::int64_t>(a.strings_size())});
        } else if (n == "sparse_value") {
            const std::vector<std::int64_t> dims(a.sparse_tensor().dims().begin(), a.sparse_tensor().dims().end());
            elementCount(dims);
            out = shaped(a.sparse_tensor().values().data_type(), dims);
        } else {
            continue;
        }
        out.constant = true;
        return true;
    }
    throw RuleError("a Constant needs a value attribute");
}

bool foldShape(const NodeCtx& c, Info& out) {
    const Info* in = c.input(0);
    if (!in || !in->known()) return false;
    const auto rank = static_cast<std::int64_t>(in->dims.size());
    // Opset 15's start/end: negative counts from the back; both clamp to [0, rank].
    auto clampAxis = [&](std::int64_t v) {
        if (v < 0) v += rank;
        return std::clamp<std::int64_t>(v, 0, rank);
    };
    const std::int64_t start = clampAxis(c.attrInt("start", 0));
    const std::int64_t end = clampAxis(c.attrInt("end", rank));
    out = shaped(TensorProto::INT64, {std::max<std::int64_t>(end - start, 0)});
    out.has_values = true;
    for (std::int64_t i = start; i < end; ++i) out.ints.push_back(in->dims[static_cast<std::size_t>(i)]);
    return true;
}

bool foldGather(const NodeCtx& c, Info& out) {
    const Info* data = c.input(0);
    const Info* indices = c.input(1);
    if (!valued(data) || !valued(indices) || indices->is_float) return false;
    if (data->dims.empty()) throw RuleError("Gather needs data of rank 1 or more");
    const std::size_t axis = static_cast<std::size_t>(normalizeAxis(c.attrInt("axis", 0), data->dims.size(), "axis"));
    std::vector<std::int64_t> dims(data->dims.begin(), data->dims.begin() + static_cast<std::ptrdiff_t>(axis));
    dims.insert(dims.end(), indices->dims.begin(), indices->dims.end());
    dims.insert(dims.end(), data->dims.begin() + static_cast<std::ptrdiff_t>(axis) + 1, data->dims.end());
    if (!small(dims)) return false;
    const std::int64_t n = data->dims[axis];
    std::size_t outer = 1, inner = 1;
    for (std::size_t i = 0; i < axis; ++i) outer *= static_cast<std::size_t>(data->dims[i]);
    for (std::size_t i = axis + 1; i < data->dims.size(); ++i) inner *= static_cast<std::size_t>(data->dims[i]);
    std::vector<std::size_t> index;
    for (std::size_t o = 0; o < outer; ++o)
        for (std::int64_t k : indices->ints) {
            if (k < -n || k >= n)
                throw RuleError("Gather index " + std::to_string(k) + " is outside an axis of size " + std::to_string(n));
            if (k < 0) k += n;
            for (std::size_t i = 0; i < inner; ++i)
                index.push_back((o * static_cast<std::size_t>(n) + static_cast<std::size_t>(k)) * inner + i);
        }
    out = valuedOf(*data, std::move(dims), index);
    return true;
}

bool foldUnsqueeze(const NodeCtx& c, Info& out) {
    const Info* data = c.input(0);
    if (!valued(data)) return false;
    const IntList axes = c.opset >= 13 ? intsFromInput(c, 1) : intsFromAttr(c, "axes");
    if (!axes.known) return false;
    const std::size_t rank = data->dims.size() + axes.values.size();
    std::set<std::int64_t> at;
    for (const std::int64_t a : axes.values)
        if (!at.insert(normalizeAxis(a, rank, "axis")).second) throw RuleError("Unsqueeze repeats axis " + std::to_string(a));
    std::vector<std::int64_t> dims;
    for (std::size_t i = 0, k = 0; i < rank; ++i)
        dims.push_back(at.count(static_cast<std::int64_t>(i)) ? 1 : data->dims[k++]);
    out = valuedOf(*data, std::move(dims), identityIndex(data->count()));
    return true;
}

bool foldSqueeze(const NodeCtx& c, Info& out) {
    const Info* data = c.input(0);
    if (!valued(data)) return false;
    const IntList axes = c.opset >= 13 ? intsFromInput(c, 1) : intsFromAttr(c, "axes");
    if (axes.present && !axes.known) return false;
    std::set<std::int64_t> drop;
    for (const std::int64_t a : axes.values) {
        const std::int64_t k = normalizeAxis(a, data->dims.size(), "axis");
        if (data->dims[static_cast<std::size_t>(k)] != 1)
            throw RuleError("Squeeze axis " + std::to_string(a) + " has size " +
                            std::to_string(data->dims[static_cast<std::size_t>(k)]));
        drop.insert(k);
    }
    std::vector<std::int64_t> dims;
    for (std::size_t i = 0; i < data->dims.size(); ++i) {
        const bool squeeze = axes.values.empty() ? data->dims[i] == 1 : drop.count(static_cast<std::int64_t>(i)) > 0;
        if (!squeeze) dims.push_back(data->dims[i]);
    }
    out = valuedOf(*data, std::move(dims), identityIndex(data->count()));
    return true;
}

bool foldConcat(const NodeCtx& c, Info& out) {
    if (c.in.empty()) throw RuleError("Concat needs an input");
    for (const Info* in : c.in)
        if (!valued(in)) return false;
    const Info& first = *c.in[0];
    if (first.dims.empty()) throw RuleError("Concat needs inputs of rank 1 or more");
    const std::size_t axis = static_cast<std::size_t>(normalizeAxis(c.attrInt("axis", 0), first.dims.size(), "axis"));
    std::vector<std::int64_t> dims = first.dims;
    dims[axis] = 0;
    for (const Info* in : c.in) {
        if (in->dims.size() != first.dims.size() || in->is_float != first.is_float)
            throw RuleError("Concat inputs " + dimsText(first.dims) + " and " + dimsText(in->dims) + " differ");
        for (std::size_t i = 0; i < dims.size(); ++i)
            if (i != axis && in->dims[i] != first.dims[i])
                throw RuleError("Concat inputs " + dimsText(first.dims) + " and " + dimsText(in->dims) + " differ");
        dims[axis] = checkedAdd(dims[axis], in->dims[axis]);
    }
    if (!small(dims)) return false;
    std::size_t outer = 1, inner = 1;
    for (std::size_t i = 0; i < axis; ++i) outer *= static_cast<std::size_t>(dims[i]);
    for (std::size_t i = axis + 1; i < dims.size(); ++i) inner *= static_cast<std::size_t>(dims[i]);
    out = shaped(first.elem_type, dims);
    out.has_values = true;
    out.is_float = first.is_float;
    for (std::size_t o = 0; o < outer; ++o)
        for (const Info* in : c.in) {
            const std::size_t chunk = static_cast<std::size_t>(in->dims[axis]) * inner;
            for (std::size_t i = o * chunk; i < (o + 1) * chunk; ++i) {
                if (in->is_float) out.floats.push_back(in->floats[i]);
                else out.ints.push_back(in->ints[i]);
            }
        }
    return true;
}

}  // namespace

std::optional<SlicePlan> slicePlan(const NodeCtx& c, const std::vector<std::int64_t>& in) {
    IntList starts, ends, axes, steps;
    if (c.opset < 10) {
        starts = intsFromAttr(c, "starts");
        ends = intsFromAttr(c, "ends");
        axes = intsFromAttr(c, "axes");
    } else {
        starts = intsFromInput(c, 1);
        ends = intsFromInput(c, 2);
        axes = intsFromInput(c, 3);
        steps = intsFromInput(c, 4);
    }
    if (!starts.known || !ends.known || (axes.present && !axes.known) || (steps.present && !steps.known)) return std::nullopt;
    const std::size_t rank = in.size();
    const std::size_t n = starts.values.size();
    if (ends.values.size() != n || (axes.present && axes.values.size() != n) || (steps.present && steps.values.size() != n))
        throw RuleError("Slice starts, ends, axes and steps differ in length");
    SlicePlan plan{std::vector<std::int64_t>(rank, 0), std::vector<std::int64_t>(rank, 1), in};
    std::set<std::int64_t> seen;
    for (std::size_t k = 0; k < n; ++k) {
        const std::int64_t a = axes.present ? normalizeAxis(axes.values[k], rank, "axis") : static_cast<std::int64_t>(k);
        if (a >= static_cast<std::int64_t>(rank) || !seen.insert(a).second) throw RuleError("Slice axes repeat or exceed the rank");
        const std::int64_t d = in[static_cast<std::size_t>(a)];
        const std::int64_t st = steps.present ? steps.values[k] : 1;
        if (st == 0) throw RuleError("Slice step 0");
        std::int64_t s = starts.values[k], e = ends.values[k];
        if (s < 0) s += d;
        if (e < 0) e += d;
        if (d == 0) {
            s = e = 0;
        } else if (st > 0) {
            s = std::clamp<std::int64_t>(s, 0, d);
            e = std::clamp<std::int64_t>(e, 0, d);
        } else {
            s = std::clamp<std::int64_t>(s, 0, d - 1);
            e = std::clamp<std::int64_t>(e, -1, d - 1);
        }
        const std::int64_t span = st > 0 ? e - s : s - e;
        const std::int64_t len = span <= 0 ? 0 : (span - 1) / (st > 0 ? st : -st) + 1;
        const auto ax = static_cast<std::size_t>(a);
        plan.first[ax] = s;
        plan.step[ax] = st;
        plan.dims[ax] = len;
    }
    return plan;
}

namespace {

bool foldSlice(const NodeCtx& c, Info& out) {
    const Info* data = c.input(0);
    if (!valued(data)) return false;
    const std::optional<SlicePlan> plan = slicePlan(c, data->dims);
    if (!plan) return false;
    const std::size_t rank = data->dims.size();
    const std::size_t count = static_cast<std::size_t>(elementCount(plan->dims));
    std::vector<std::size_t> stride(rank, 1);
    for (std::size_t i = rank; i-- > 1;) stride[i - 1] = stride[i] * static_cast<std::size_t>(data->dims[i]);
    std::vector<std::size_t> index;
    index.reserve(count);
    std::vector<std::int64_t> pos(rank, 0);
    for (std::size_t k = 0; k < count; ++k) {
        std::size_t at = 0;
        for (std::size_t a = 0; a < rank; ++a)
            at += static_cast<std::size_t>(plan->first[a] + pos[a] * plan->step[a]) * stride[a];
        index.push_back(at);
        for (std::size_t a = rank; a-- > 0;) {
            if (++pos[a] < plan->dims[a]) break;
            pos[a] = 0;
        }
    }
    out = valuedOf(*data, plan->dims, index);
    return true;
}

bool foldCast(const NodeCtx& c, Info& out) {
    const Info* in = c.input(0);
    if (!valued(in)) return false;
    const auto to = static_cast<int>(c.attrInt("to", 0));
    out = shaped(to, in->dims);
    out.has_values = true;
    if (isFloatType(to)) {
        out.is_float = true;
        for (std::size_t i = 0; i < in->count(); ++i) out.floats.push_back(in->number(i));
        return true;
    }
    if (to == TensorProto::BOOL) {
        for (std::size_t i = 0; i < in->count(); ++i) out.ints.push_back(in->number(i) != 0);
        return true;
    }
    if (dtypeName(to).empty() || to == TensorProto::STRING || to == TensorProto::UINT64 || to == TensorProto::COMPLEX64 ||
        to == TensorProto::COMPLEX128)
        return false;
    for (std::size_t i = 0; i < in->count(); ++i) {
        if (!in->is_float) {
            out.ints.push_back(in->ints[i]);
            continue;
        }
        const double v = std::trunc(in->floats[i]);
        if (!(std::fabs(v) < 9.2e18)) return false;  // NaN or beyond int64: leave it to run time
        out.ints.push_back(static_cast<std::int64_t>(v));
    }
    return true;
}

bool foldConstantOfShape(const NodeCtx& c, Info& out) {
    const IntList shape = intsFromInput(c, 0);
    if (!shape.known) return false;
    for (const std::int64_t d : shape.values)
        if (d < 0) throw RuleError("ConstantOfShape of negative size " + std::to_string(d));
    if (!small(shape.values)) return false;
    Info value = shaped(TensorProto::FLOAT, {1});
    value.has_values = value.is_float = true;
    value.floats = {0.0};
    if (const auto* a = c.attr("value")) readTensor(a->t(), value);
    if (!value.has_values || value.count() != 1) return false;
    out = valuedOf(value, shape.values, std::vector<std::size_t>(static_cast<std::size_t>(elementCount(shape.values)), 0));
    return true;
}

bool foldRange(const NodeCtx& c, Info& out) {
    const Info *start = c.input(0), *limit = c.input(1), *delta = c.input(2);
    if (!valued(start) || !valued(limit) || !valued(delta)) return false;
    if (start->count() != 1 || limit->count() != 1 || delta->count() != 1) throw RuleError("Range needs scalars");
    if (start->is_float != delta->is_float) return false;
    const double d = delta->number(0);
    if (d == 0) throw RuleError("Range with delta 0");
    const double n = std::ceil((limit->number(0) - start->number(0)) / d);
    const std::int64_t count = n > 0 ? static_cast<std::int64_t>(std::min(n, 1e18)) : 0;
    if (count > limits::kOnnxFoldedValues) return false;
    out = shaped(start->elem_type, {count});
    out.has_values = true;
    out.is_float = start->is_float;
    for (std::int64_t i = 0; i < count; ++i) {
        if (out.is_float) out.floats.push_back(start->floats[0] + static_cast<double>(i) * d);
        else out.ints.push_back(checkedAdd(start->ints[0], checkedMul(i, delta->ints.at(0))));
    }
    return true;
}

bool foldExpand(const NodeCtx& c, Info& out) {
    const Info* data = c.input(0);
    const IntList shape = intsFromInput(c, 1);
    if (!valued(data) || !shape.known) return false;
    const Info target = shaped(0, shape.values);
    const std::vector<std::int64_t> dims = broadcastShapes({data, &target});
    if (!small(dims)) return false;
    out = valuedOf(*data, dims, broadcastIndex(data->dims, dims));
    return true;
}

// Element-wise Add/Sub/Mul/Div, Equal and Where on broadcast values; integer arithmetic is checked
// and a division by zero is left to run time.
bool foldElementwise(const NodeCtx& c, Info& out) {
    const std::string& op = c.op();
    const std::size_t arity = op == "Where" ? 3 : 2;
    std::vector<const Info*> ins;
    for (std::size_t i = 0; i < arity; ++i) {
        if (!valued(c.input(i))) return false;
        ins.push_back(c.input(i));
    }
    const std::vector<std::int64_t> dims = broadcastShapes(ins);
    if (!small(dims)) return false;
    std::vector<std::vector<std::size_t>> at;
    for (const Info* in : ins) at.push_back(broadcastIndex(in->dims, dims));
    const std::size_t n = at[0].size();
    if (op == "Where") {
        const Info &x = *ins[1], &y = *ins[2];
        if (x.is_float != y.is_float) return false;
        out = shaped(x.elem_type, dims);
        out.has_values = true;
        out.is_float = x.is_float;
        for (std::size_t i = 0; i < n; ++i) {
            const bool pick = ins[0]->number(at[0][i]) != 0;
            if (x.is_float) out.floats.push_back(pick ? x.floats[at[1][i]] : y.floats[at[2][i]]);
            else out.ints.push_back(pick ? x.ints[at[1][i]] : y.ints[at[2][i]]);
        }
        return true;
    }
    const Info &a = *ins[0], &b = *ins[1];
    if (op == "Equal") {
        out = shaped(TensorProto::BOOL, dims);
        out.has_values = true;
        for (std::size_t i = 0; i < n; ++i) out.ints.push_back(a.number(at[0][i]) == b.number(at[1][i]));
        return true;
    }
    out = shaped(a.elem_type, dims);
    out.has_values = true;
    out.is_float = a.is_float || b.is_float;
    for (std::size_t i = 0; i < n; ++i) {
        if (out.is_float) {
            const double x = a.number(at[0][i]), y = b.number(at[1][i]);
            out.floats.push_back(op == "Add" ? x + y : op == "Sub" ? x - y : op == "Mul" ? x * y : x / y);
            continue;
        }
        const std::int64_t x = a.ints[at[0][i]], y = b.ints[at[1][i]];
        if (op == "Div" && (y == 0 || (x == std::numeric_limits<std::int64_t>::min() && y == -1))) return false;
        try {
            out.ints.push_back(op == "Add" ? checkedAdd(x, y) : op == "Sub" ? checkedSub(x, y)
                               : op == "Mul" ? checkedMul(x, y) : x / y);
        } catch (const std::overflow_error&) {
            return false;
        }
    }
    return true;
}

bool foldReduceProd(const NodeCtx& c, Info& out) {
    const Info* data = c.input(0);
    if (!valued(data)) return false;
    const IntList axes = reductionAxesOf(c, 18);
    if (axes.present && !axes.known) return false;
    const std::vector<std::int64_t> reduce = reduceAxes(axes, data->dims.size(), c.attrInt("noop_with_empty_axes", 0) != 0);
    const bool keep = c.attrInt("keepdims", 1) != 0;
    std::vector<std::int64_t> kept = reducedDims(data->dims, reduce, true);
    out = shaped(data->elem_type, reducedDims(data->dims, reduce, keep));
    out.has_values = true;
    out.is_float = data->is_float;
    const auto n = static_cast<std::size_t>(elementCount(kept));
    if (out.is_float) out.floats.assign(n, 1.0);
    else out.ints.assign(n, 1);
    // Each input element multiplies into the output element at its coordinates with reduced axes at 0.
    const std::vector<std::size_t> to = broadcastIndex(kept, data->dims);
    try {
        for (std::size_t i = 0; i < to.size(); ++i) {
            if (out.is_float) out.floats[to[i]] *= data->floats[i];
            else out.ints[to[i]] = checkedMul(out.ints[to[i]], data->ints[i]);
        }
    } catch (const std::overflow_error&) {
        return false;
    }
    return true;
}

bool foldReshape(const NodeCtx& c, Info& out) {
    const Info* data = c.input(0);
    const IntList shape = c.opset < 5 ? intsFromAttr(c, "shape") : intsFromInput(c, 1);
    if (!valued(data) || !shape.known) return false;
    out = valuedOf(*data, reshapeDims(data->dims, shape.values, c.attrInt("allowzero", 0) != 0),
                   identityIndex(data->count()));
    return true;
}

bool foldIdentity(const NodeCtx& c, Info& out) {
    const Info* data = c.input(0);
    if (!valued(data)) return false;
    out = *data;
    return true;
}

const std::map<std::string, std::function<bool(const NodeCtx&, Info&)>>& folders() {
    static const std::map<std::string, std::function<bool(const NodeCtx&, Info&)>> table = {
        {"Constant", foldConstant},   {"Shape", foldShape},
        {"Gather", foldGather},       {"Unsqueeze", foldUnsqueeze},
        {"Squeeze", foldSqueeze},     {"Concat", foldConcat},
        {"Slice", foldSlice},         {"Cast", foldCast},
        {"ConstantOfShape", foldConstantOfShape}, {"Range", foldRange},
        {"Expand", foldExpand},       {"Where", foldElementwise},
        {"Equal", foldElementwise},   {"Add", foldElementwise},
        {"Sub", foldElementwise},     {"Mul", foldElementwise},
        {"Div", foldElementwise},     {"ReduceProd", foldReduceProd},
        {"Reshape", foldReshape},     {"Identity", foldIdentity},
        {"Floor", foldMath},          {"Ceil", foldMath},
        {"Neg", foldMath},            {"Abs", foldMath},
        {"Sign", foldMath},           {"Sqrt", foldMath},
        {"Reciprocal", foldMath},     {"Not", foldMath},
        {"Min", foldMath},            {"Max", foldMath},
        {"Mod", foldMath},            {"Pow", foldMath},
        {"Less", foldMath},           {"Greater", foldMath},
        {"LessOrEqual", foldMath},    {"GreaterOrEqual", foldMath},
        {"And", foldMath},            {"Or", foldMath},
        {"Xor", foldMath},
    };
    return table;
}

}  // namespace

namespace {

// Split of a valued tensor (the repeat counts torch's repeat_interleave exports split apart): every
// output's values, its dims from Split's shape rule.
bool foldSplit(const NodeCtx& c, std::vector<Info>& out) {
    const Info* data = c.input(0);
    if (!valued(data) || data->count() != static_cast<std::size_t>(elementCount(data->dims))) return false;
    if (!ownShapes(c, out)) return false;
    const auto axis = static_cast<std::size_t>(normalizeAxis(c.attrInt("axis", 0), data->dims.size(), "axis"));
    std::size_t outer = 1, inner = 1;
    for (std::size_t i = 0; i < axis; ++i) outer *= static_cast<std::size_t>(data->dims[i]);
    for (std::size_t i = axis + 1; i < data->dims.size(); ++i) inner *= static_cast<std::size_t>(data->dims[i]);
    const auto size = static_cast<std::size_t>(data->dims[axis]);
    std::size_t offset = 0;
    for (Info& o : out) {
        const auto length = static_cast<std::size_t>(o.dims[axis]);
        std::vector<std::size_t> index;
        index.reserve(outer * length * inner);
        for (std::size_t a = 0; a < outer; ++a)
            for (std::size_t k = 0; k < length; ++k)
                for (std::size_t r = 0; r < inner; ++r) index.push_back((a * size + offset + k) * inner + r);
        takeValues(*data, index, o);
        o.constant = true;
        offset += length;
    }
    return true;
}

}  // namespace

bool fold(const NodeCtx& c, std::vector<Info>& out) {
    if (c.op() == "Split") return foldSplit(c, out);
    const auto it = folders().find(c.op());
    if (it == folders().end() || out.size() != 1) return false;
    for (const Info* in : c.in)
        if (in && in->has_values && in->count() != static_cast<std::size_t>(elementCount(in->dims)))
            return false;  // guards the index arithmetic above
    Info result;
    if (!it->second(c, result)) return false;
    result.constant = true;
    out[0] = std::move(result);
    return true;
}

}  // namespace partita::onnx::detail
