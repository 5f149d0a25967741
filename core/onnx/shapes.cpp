// Partita's own shape rules: the operators whose output shape comes from folded values (Reshape,
// Expand, Tile, Resize, Upsample, Split, Pad, reductions, ConstantOfShape, Range, Shape) and the
// element-wise ones (arithmetic, comparisons, logic). They follow each operator's opsets up to 21, so
// models newer than the ONNX library (1.12, opset 17) keep exact shapes where the axes moved from
// attributes to inputs.
#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "core/onnx/detail.h"
#include "core/util/checked.h"
#include "core/util/limits.h"

namespace partita::onnx::detail {

using ::onnx::TensorProto;

std::vector<std::int64_t> reshapeDims(const std::vector<std::int64_t>& in, const std::vector<std::int64_t>& shape,
                                      bool allowzero) {
    const std::int64_t total = elementCount(in);
    std::vector<std::int64_t> out(shape.size());
    std::int64_t known = 1;
    std::size_t infer = shape.size();
    bool zero = false;
    for (std::size_t i = 0; i < shape.size(); ++i) {
        std::int64_t s = shape[i];
        if (s == -1) {
            if (infer != shape.size()) throw RuleError("Reshape target " + valuesText(shape) + " has two -1 entries");
            infer = i;
            continue;
        }
        if (s < -1) throw RuleError("Reshape target " + valuesText(shape) + " has a negative size");
        if (s == 0 && !allowzero) {
            if (i >= in.size())
                throw RuleError("Reshape target " + valuesText(shape) + " copies axis " + std::to_string(i) +
                                " of a rank-" + std::to_string(in.size()) + " input");
            s = in[i];
        }
        zero = zero || s == 0;
        out[i] = s;
        if (s > 0 && known > limits::kOnnxTensorElements / s)
            throw RuleError("Reshape target " + valuesText(shape) + " exceeds the limit of " +
                            std::to_string(limits::kOnnxTensorElements) + " elements");
        known *= s;
    }
    if (infer != shape.size()) {
        if (known == 0 || total % known != 0)
            throw RuleError("cannot reshape " + dimsText(in) + " (" + std::to_string(total) + " elements) to " +
                            valuesText(shape));
        out[infer] = total / known;
    } else if (known != total) {
        throw RuleError("cannot reshape " + dimsText(in) + " (" + std::to_string(total) + " elements) to " +
                        valuesText(shape) + (zero ? "" : " (" + std::to_string(known) + " elements)"));
    }
    elementCount(out);
    return out;
}

std::vector<std::int64_t> reduceAxes(const IntList& axes, std::size_t rank, bool noop_with_empty_axes) {
    std::set<std::int64_t> set;
    for (const std::int64_t a : axes.values) set.insert(normalizeAxis(a, rank, "axis"));
    if (set.empty() && !noop_with_empty_axes)
        for (std::size_t i = 0; i < rank; ++i) set.insert(static_cast<std::int64_t>(i));
    return {set.begin(), set.end()};
}

std::vector<std::int64_t> reducedDims(const std::vector<std::int64_t>& in, const std::vector<std::int64_t>& axes,
                                      bool keepdims) {
    std::vector<std::int64_t> out;
    for (std::size_t i = 0; i < in.size(); ++i) {
        const bool reduced = std::find(axes.begin(), axes.end(), static_cast<std::int64_t>(i)) != axes.end();
        if (!reduced) out.push_back(in[i]);
        else if (keepdims) out.push_back(1);
    }
    return out;
}

IntList reductionAxesOf(const NodeCtx& c, int input_from_opset) {
    return c.opset >= input_from_opset ? intsFromInput(c, 1) : intsFromAttr(c, "axes");
}

namespace {

const Info* knownInput(const NodeCtx& c, std::size_t i) {
    const Info* in = c.input(i);
    return in && in->known() ? in : nullptr;
}

bool unary(const NodeCtx& c, std::vector<Info>& out) {
    const Info* x = knownInput(c, 0);
    if (!x) return false;
    int type = x->elem_type;
    if (c.op() == "Cast") type = static_cast<int>(c.attrInt("to", 0));
    out[0] = shaped(type, x->dims);
    if (c.op() == "Dropout" && out.size() > 1) out[1] = shaped(TensorProto::BOOL, x->dims);
    return true;
}

// Opset 17's LayerNormalization, and the same operator ONNX Runtime's optimiser writes into the
// default domain at older opsets: Y like X; Mean and InvStdDev keep the axes before `axis`, 1 after.
bool shapesLayerNorm(const NodeCtx& c, std::vector<Info>& out) {
    const Info* x = knownInput(c, 0);
    if (!x) return false;
    if (x->dims.empty()) throw RuleError("LayerNormalization needs an input of rank 1 or more");
    const auto axis = static_cast<std::size_t>(normalizeAxis(c.attrInt("axis", -1), x->dims.size(), "axis"));
    out[0] = shaped(x->elem_type, x->dims);
    std::vector<std::int64_t> stats = x->dims;
    for (std::size_t i = axis; i < stats.size(); ++i) stats[i] = 1;
    const auto type = static_cast<int>(c.attrInt("stash_type", TensorProto::FLOAT));
    for (std::size_t i = 1; i < out.size(); ++i) out[i] = shaped(type, stats);
    return true;
}

// Element-wise ops on broadcast inputs: Where's three, Min's and Max's one or more, two otherwise.
bool broadcast(const NodeCtx& c, std::vector<Info>& out) {
    const std::string& op = c.op();
    const bool variadic = op == "Min" || op == "Max";
    const std::size_t arity = op == "Where" ? 3 : variadic ? c.in.size() : 2;
    if (arity == 0) throw RuleError(op + " needs an input");
    std::vector<const Info*> ins;
    for (std::size_t i = 0; i < arity; ++i) {
        const Info* in = knownInput(c, i);
        if (!in) return false;
        ins.push_back(in);
    }
    static const std::set<std::string> to_bool{"Equal", "Less", "Greater", "LessOrEqual", "GreaterOrEqual",
                                                "And", "Or", "Xor"};
    const int type = to_bool.count(op) ? TensorProto::BOOL : op == "Where" ? ins[1]->elem_type : ins[0]->elem_type;
    out[0] = shaped(type, broadcastShapes(ins));
    return true;
}

bool reshape(const NodeCtx& c, std::vector<Info>& out) {
    const Info* x = knownInput(c, 0);
    const IntList shape = c.opset < 5 ? intsFromAttr(c, "shape") : intsFromInput(c, 1);
    if (!shape.known) return false;
    if (!x) {
        // A target of sizes alone (no 0 to copy, no -1 to infer) is the output's shape whatever the input's,
        // so a shape lost upstream (a control-flow node's output, read in structure mode) is found again.
        const Info* data = c.input(0);
        if (!data || shape.values.empty() ||
            std::any_of(shape.values.begin(), shape.values.end(), [](std::int64_t s) { return s <= 0; }))
            return false;
        elementCount(shape.values);
        out[0] = shaped(data->elem_type, shape.values);
        return true;
    }
    out[0] = shaped(x->elem_type, reshapeDims(x->dims, shape.values, c.attrInt("allowzero", 0) != 0));
    return true;
}

bool expand(const NodeCtx& c, std::vector<Info>& out) {
    const Info* x = knownInput(c, 0);
    const IntList shape = intsFromInput(c, 1);
    if (!x || !shape.known) return false;
    const Info target = shaped(0, shape.values);
    elementCount(shape.values);
    out[0] = shaped(x->elem_type, broadcastShapes({x, &target}));
    return true;
}

bool tile(const NodeCtx& c, std::vector<Info>& out) {
    const Info* x = knownInput(c, 0);
    const IntList repeats = intsFromInput(c, 1);
    if (!x || !repeats.known) return false;
    if (repeats.values.size() != x->dims.size())
        throw RuleError("Tile repeats " + valuesText(repeats.values) + " do not match the input " + dimsText(x->dims));
    std::vector<std::int64_t> dims;
    for (std::size_t i = 0; i < x->dims.size(); ++i) {
        if (repeats.values[i] < 0) throw RuleError("Tile repeats " + valuesText(repeats.values) + " are negative");
        dims.push_back(boundedMul(x->dims[i], repeats.values[i], limits::kOnnxTensorElements, "a tiled size"));
    }
    elementCount(dims);
    out[0] = shaped(x->elem_type, dims);
    return true;
}

// Resize (opsets 10–19) and Upsample (7–9): sizes when given, else floor(size × scale) as ONNX and
// ONNX Runtime compute it (in float).
bool resize(const NodeCtx& c, std::vector<Info>& out) {
    const Info* x = knownInput(c, 0);
    if (!x) return false;
    const bool upsample = c.op() == "Upsample";
    std::optional<std::vector<double>> scales;
    std::optional<std::vector<std::int64_t>> sizes;
    if (upsample && c.opset < 9) {
        scales = c.attrFloats("scales");
    } else {
        const std::size_t at = upsample || c.opset < 11 ? 1 : 2;
        const Info* s = c.input(at);
        if (s && s->has_values && s->count() > 0) {
            scales.emplace();
            for (std::size_t i = 0; i < s->count(); ++i) scales->push_back(s->number(i));
        } else if (s && !s->has_values && !(s->known() && elementCount(s->dims) == 0)) {
            return false;  // scales computed at run time
        }
        const IntList z = upsample || c.opset < 11 ? IntList{} : intsFromInput(c, 3);
        if (z.present && !z.known) return false;
        if (z.known && !z.values.empty()) sizes = z.values;
    }
    const std::size_t rank = x->dims.size();
    std::vector<std::int64_t> axes;
    if (auto a = c.attrInts("axes"); a && c.opset >= 18) {
        for (const std::int64_t v : *a) axes.push_back(normalizeAxis(v, rank, "axis"));
    } else {
        for (std::size_t i = 0; i < rank; ++i) axes.push_back(static_cast<std::int64_t>(i));
    }
    std::vector<std::int64_t> dims = x->dims;
    if (sizes) {
        if (sizes->size() != axes.size()) throw RuleError("Resize sizes " + valuesText(*sizes) + " do not match the axes");
        const std::string policy = c.attrString("keep_aspect_ratio_policy", "stretch");
        double scale = policy == "not_larger" ? 1e300 : 0;
        for (std::size_t k = 0; k < axes.size(); ++k) {
            const std::int64_t in = x->dims[static_cast<std::size_t>(axes[k])];
            if ((*sizes)[k] < 0) throw RuleError("Resize sizes " + valuesText(*sizes) + " are negative");
            if (in == 0) continue;
            const double r = static_cast<double>((*sizes)[k]) / static_cast<double>(in);
            scale = policy == "not_larger" ? std::min(scale, r) : std::max(scale, r);
        }
        for (std::size_t k = 0; k < axes.size(); ++k) {
            auto& d = dims[static_cast<std::size_t>(axes[k])];
            d = policy == "stretch" ? (*sizes)[k] : static_cast<std::int64_t>(std::floor(scale * static_cast<double>(d) + 0.5));
        }
    } else if (scales) {
        if (scales->size() != axes.size())
            throw RuleError("Resize scales (" + std::to_string(scales->size()) + ") do not match the input " + dimsText(x->dims));
        for (std::size_t k = 0; k < axes.size(); ++k) {
            const double s = (*scales)[k];
            auto& d = dims[static_cast<std::size_t>(axes[k])];
            const double v = std::floor(static_cast<double>(static_cast<float>(d) * static_cast<float>(s)));
            if (!(s > 0) || !(v >= 0) || v > static_cast<double>(limits::kOnnxTensorElements))
                throw RuleError("Resize scale " + std::to_string(s) + " is not a positive size factor");
            d = static_cast<std::int64_t>(v);
        }
    } else {
        return false;
    }
    elementCount(dims);
    out[0] = shaped(x->elem_type, dims);
    return true;
}

bool reduce(const NodeCtx& c, std::vector<Info>& out) {
    const Info* x = knownInput(c, 0);
    // ReduceSum took its axes as an input from opset 13, the others from opset 18.
    const IntList axes = reductionAxesOf(c, c.op() == "ReduceSum" ? 13 : 18);
    if (!x || (axes.present && !axes.known)) return false;
    const bool noop = c.attrInt("noop_with_empty_axes", 0) != 0;
    out[0] = shaped(x->elem_type, reducedDims(x->dims, reduceAxes(axes, x->dims.size(), noop), c.attrInt("keepdims", 1) != 0));
    return true;
}

bool split(const NodeCtx& c, std::vector<Info>& out) {
    const Info* x = knownInput(c, 0);
    const IntList parts = c.opset >= 13 ? intsFromInput(c, 1) : intsFromAttr(c, "split");
    if (!x || (parts.present && !parts.known)) return false;
    if (x->dims.empty()) throw RuleError("Split needs an input of rank 1 or more");
    const auto axis = static_cast<std::size_t>(normalizeAxis(c.attrInt("axis", 0), x->dims.size(), "axis"));
    const std::int64_t size = x->dims[axis];
    const auto n = static_cast<std::int64_t>(out.size());
    std::vector<std::int64_t> lengths = parts.values;
    if (lengths.empty()) {
        // Equal parts; opset 18 lets the last one be smaller.
        const std::int64_t chunk = c.opset >= 18 ? (size + n - 1) / n : size / n;
        if (c.opset < 18 && size % n != 0)
            throw RuleError("Split of an axis of size " + std::to_string(size) + " into " + std::to_string(n) + " equal parts");
        for (std::int64_t i = 0; i < n; ++i) lengths.push_back(std::min(chunk, std::max<std::int64_t>(size - i * chunk, 0)));
    }
    std::int64_t sum = 0;
    for (const std::int64_t l : lengths) {
        if (l < 0) throw RuleError("Split lengths " + valuesText(lengths) + " are negative");
        sum = checkedAdd(sum, l);
    }
    if (lengths.size() != out.size() || sum != size)
        throw RuleError("Split lengths " + valuesText(lengths) + " do not divide an axis of size " + std::to_string(size) +
                        " into " + std::to_string(out.size()) + " outputs");
    for (std::size_t i = 0; i < out.size(); ++i) {
        std::vector<std::int64_t> dims = x->dims;
        dims[axis] = lengths[i];
        out[i] = shaped(x->elem_type, dims);
    }
    return true;
}

bool pad(const NodeCtx& c, std::vector<Info>& out) {
    const Info* x = knownInput(c, 0);
    const IntList pads = c.opset >= 11 ? intsFromInput(c, 1) : intsFromAttr(c, c.opset >= 2 ? "pads" : "paddings");
    const IntList axesList = c.opset >= 18 ? intsFromInput(c, 3) : IntList{};
    if (!x || !pads.known || (axesList.present && !axesList.known)) return false;
    const std::size_t rank = x->dims.size();
    std::vector<std::int64_t> axes;
    if (axesList.present) {
        for (const std::int64_t a : axesList.values) axes.push_back(normalizeAxis(a, rank, "axis"));
    } else {
        for (std::size_t i = 0; i < rank; ++i) axes.push_back(static_cast<std::int64_t>(i));
    }
    if (pads.values.size() != 2 * axes.size())
        throw RuleError("Pad pads " + valuesText(pads.values) + " do not match the input " + dimsText(x->dims));
    std::vector<std::int64_t> dims = x->dims;
    for (std::size_t k = 0; k < axes.size(); ++k) {
        auto& d = dims[static_cast<std::size_t>(axes[k])];
        d = checkedAdd(checkedAdd(d, pads.values[k]), pads.values[k + axes.size()]);
        if (d < 0) throw RuleError("Pad pads " + valuesText(pads.values) + " remove more than the input " + dimsText(x->dims));
    }
    elementCount(dims);
    out[0] = shaped(x->elem_type, dims);
    return true;
}

bool slice(const NodeCtx& c, std::vector<Info>& out) {
    const Info* x = knownInput(c, 0);
    if (!x) return false;
    const std::optional<SlicePlan> plan = slicePlan(c, x->dims);
    if (!plan) return false;
    out[0] = shaped(x->elem_type, plan->dims);
    return true;
}

bool constantOfShape(const NodeCtx& c, std::vector<Info>& out) {
    const IntList shape = intsFromInput(c, 0);
    if (!shape.known) return false;
    elementCount(shape.values);
    int type = TensorProto::FLOAT;
    if (const auto* a = c.attr("value")) type = a->t().data_type();
    out[0] = shaped(type, shape.values);
    return true;
}

bool range(const NodeCtx& c, std::vector<Info>& out) {
    const Info *start = c.input(0), *limit = c.input(1), *delta = c.input(2);
    if (!start || !limit || !delta || !start->has_values || !limit->has_values || !delta->has_values) return false;
    if (start->count() != 1 || limit->count() != 1 || delta->count() != 1) throw RuleError("Range needs scalars");
    const double d = delta->number(0);
    if (d == 0) throw RuleError("Range with delta 0");
    const double n = std::ceil((limit->number(0) - start->number(0)) / d);
    if (n > static_cast<double>(limits::kOnnxTensorElements)) throw RuleError("Range of more than the tensor limit");
    out[0] = shaped(start->elem_type, {n > 0 ? static_cast<std::int64_t>(n) : 0});
    return true;
}

bool shape(const NodeCtx& c, std::vector<Info>& out) {
    const Info* x = c.input(0);
    if (!x || !x->rank_known) return false;
    const auto rank = static_cast<std::int64_t>(x->dims.size());
    auto clampAxis = [&](std::int64_t v) { return std::clamp<std::int64_t>(v < 0 ? v + rank : v, 0, rank); };
    const std::int64_t start = clampAxis(c.attrInt("start", 0)), end = clampAxis(c.attrInt("end", rank));
    out[0] = shaped(TensorProto::INT64, {std::max<std::int64_t>(end - start, 0)});
    return true;
}

using Rule = bool (*)(const NodeCtx&, std::vector<Info>&);

const std::map<std::string, Rule>& rules() {
    static const std::map<std::string, Rule> table = {
        {"Sqrt", unary},        {"Relu", unary},        {"LeakyRelu", unary},    {"Clip", unary},
        {"Sigmoid", unary},     {"HardSigmoid", unary}, {"HardSwish", unary},    {"Tanh", unary},
        {"Erf", unary},         {"Gelu", unary},        {"Softmax", unary},      {"Identity", unary},
        {"Dropout", unary},     {"Cast", unary},        {"Add", broadcast},      {"Sub", broadcast},
        {"Mul", broadcast},     {"Div", broadcast},     {"Pow", broadcast},      {"Equal", broadcast},
        {"Where", broadcast},   {"Reshape", reshape},   {"Expand", expand},      {"Tile", tile},
        {"Resize", resize},     {"Upsample", resize},   {"ReduceMean", reduce},  {"ReduceSum", reduce},
        {"ReduceMax", reduce},  {"ReduceProd", reduce}, {"Split", split},        {"Pad", pad},            {"Slice", slice},
        {"LayerNormalization", shapesLayerNorm},
        {"Floor", unary},       {"Ceil", unary},        {"Neg", unary},          {"Abs", unary},
        {"Sign", unary},        {"Reciprocal", unary},  {"Exp", unary},          {"Log", unary},
        {"Not", unary},         {"Min", broadcast},     {"Max", broadcast},      {"Mod", broadcast},
        {"Less", broadcast},    {"Greater", broadcast}, {"LessOrEqual", broadcast}, {"GreaterOrEqual", broadcast},
        {"And", broadcast},     {"Or", broadcast},      {"Xor", broadcast},
        {"ConstantOfShape", constantOfShape},           {"Range", range},        {"Shape", shape},
    };
    return table;
}

}  // namespace

bool hasOwnShapeRule(const std::string& op) { return rules().count(op) > 0; }

bool ownShapes(const NodeCtx& c, std::vector<Info>& out) {
    const auto it = rules().find(c.op());
    if (it == rules().end() || out.empty()) return false;
    return it->second(c, out);
}

}  // namespace partita::onnx::detail
