// Folding of the arithmetic, comparison and logic ops exporters compute sizes with besides Add/Sub/
// Mul/Div (fold.cpp): Floor and Ceil of a float ratio (`ceil(h / 32)`), Neg, Abs, Sign, Sqrt and
// Reciprocal of a size (an attention scale), Min and Max (`min(len, k)`), Mod, Pow, and the comparisons
// and logic of mask and Where chains. Integer arithmetic is checked; an overflow, a division by zero or
// a NaN leaves the node to run time (not folded), never a wrong value.
#include <cmath>
#include <limits>
#include <optional>

#include "core/onnx/detail.h"
#include "core/util/checked.h"
#include "core/util/limits.h"

namespace partita::onnx::detail {

using ::onnx::TensorProto;

namespace {

constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();

Info valuedShape(int elem_type, std::vector<std::int64_t> dims) {
    Info out = shaped(elem_type, std::move(dims));
    out.has_values = true;
    out.is_float = isFloatType(elem_type);
    return out;
}

std::optional<std::int64_t> intUnary(const std::string& op, std::int64_t x) {
    if (op == "Floor" || op == "Ceil") return x;
    if (op == "Neg") return x == kMin ? std::nullopt : std::optional<std::int64_t>(-x);
    if (op == "Abs") return x == kMin ? std::nullopt : std::optional<std::int64_t>(x < 0 ? -x : x);
    if (op == "Sign") return (x > 0) - (x < 0);
    return std::nullopt;  // Sqrt, Reciprocal: float types only
}

double floatUnary(const std::string& op, double x) {
    if (op == "Floor") return std::floor(x);
    if (op == "Ceil") return std::ceil(x);
    if (op == "Neg") return -x;
    if (op == "Abs") return std::fabs(x);
    if (op == "Sign") return (x > 0) - (x < 0);
    if (op == "Sqrt") return std::sqrt(x);
    return 1.0 / x;  // Reciprocal
}

bool foldUnary(const NodeCtx& c, Info& out) {
    const Info* in = c.input(0);
    if (!in || !in->has_values) return false;
    const std::string& op = c.op();
    out = valuedShape(op == "Not" ? TensorProto::BOOL : in->elem_type, in->dims);
    out.is_float = in->is_float && op != "Not";
    for (std::size_t i = 0; i < in->count(); ++i) {
        if (op == "Not") {
            out.ints.push_back(in->number(i) == 0);
        } else if (in->is_float) {
            const double v = floatUnary(op, in->floats[i]);
            if (std::isnan(v)) return false;
            out.floats.push_back(v);
        } else {
            const std::optional<std::int64_t> v = intUnary(op, in->ints[i]);
            if (!v) return false;
            out.ints.push_back(*v);
        }
    }
    return true;
}

// x mod y: fmod 1 takes the dividend's sign (C), fmod 0 the divisor's (Python).
std::optional<std::int64_t> intMod(std::int64_t x, std::int64_t y, bool fmod) {
    if (y == 0 || (x == kMin && y == -1)) return std::nullopt;
    std::int64_t r = x % y;
    if (!fmod && r != 0 && (r < 0) != (y < 0)) r += y;
    return r;
}

std::optional<std::int64_t> intPow(std::int64_t base, std::int64_t exponent) {
    if (exponent < 0) return std::nullopt;
    if (exponent == 0) return 1;
    if (base == 0 || base == 1) return base;
    if (base == -1) return exponent % 2 ? -1 : 1;
    std::int64_t r = 1;
    try {
        for (std::int64_t k = 0; k < exponent; ++k) r = checkedMul(r, base);  // |base| >= 2: overflows within 63
    } catch (const std::overflow_error&) {
        return std::nullopt;
    }
    return r;
}

bool isComparison(const std::string& op) {
    return op == "Less" || op == "Greater" || op == "LessOrEqual" || op == "GreaterOrEqual";
}
bool isLogic(const std::string& op) { return op == "And" || op == "Or" || op == "Xor"; }

bool foldBroadcast(const NodeCtx& c, Info& out) {
    const std::string& op = c.op();
    std::vector<const Info*> ins;
    for (const Info* in : c.in) {
        if (!in || !in->has_values) return false;
        ins.push_back(in);
    }
    if (ins.empty()) throw RuleError(op + " needs an input");
    const std::vector<std::int64_t> dims = broadcastShapes(ins);
    if (elementCount(dims) > limits::kOnnxFoldedValues) return false;
    std::vector<std::vector<std::size_t>> at;
    for (const Info* in : ins) at.push_back(broadcastIndex(in->dims, dims));
    const std::size_t n = at[0].size();
    if (isComparison(op) || isLogic(op)) {
        out = valuedShape(TensorProto::BOOL, dims);
        for (std::size_t i = 0; i < n; ++i) {
            const double x = ins[0]->number(at[0][i]), y = ins[1]->number(at[1][i]);
            const bool a = x != 0, b = y != 0;
            out.ints.push_back(op == "Less"             ? x < y
                               : op == "Greater"        ? x > y
                               : op == "LessOrEqual"    ? x <= y
                               : op == "GreaterOrEqual" ? x >= y
                               : op == "And"            ? a && b
                               : op == "Or"             ? a || b
                                                        : a != b);
        }
        return true;
    }
    // Min, Max, Mod, Pow keep the first input's type; mixed integer and float operands are left alone.
    const bool is_float = ins[0]->is_float;
    for (const Info* in : ins)
        if (in->is_float != is_float) return false;
    out = valuedShape(ins[0]->elem_type, dims);
    const bool fmod = c.attrInt("fmod", 0) != 0;
    for (std::size_t i = 0; i < n; ++i) {
        if (is_float) {
            double v = ins[0]->floats[at[0][i]];
            for (std::size_t k = 1; k < ins.size(); ++k) {
                const double y = ins[k]->floats[at[k][i]];
                if (op == "Min") v = std::min(v, y);
                else if (op == "Max") v = std::max(v, y);
                else if (op == "Pow") v = std::pow(v, y);
                else v = fmod || y == 0 ? std::fmod(v, y) : v - y * std::floor(v / y);
            }
            if (std::isnan(v)) return false;
            out.floats.push_back(v);
            continue;
        }
        std::optional<std::int64_t> v = ins[0]->ints[at[0][i]];
        for (std::size_t k = 1; k < ins.size() && v; ++k) {
            const std::int64_t y = ins[k]->ints[at[k][i]];
            if (op == "Min") v = std::min(*v, y);
            else if (op == "Max") v = std::max(*v, y);
            else if (op == "Pow") v = intPow(*v, y);
            else v = intMod(*v, y, fmod);
        }
        if (!v) return false;
        out.ints.push_back(*v);
    }
    return true;
}

}  // namespace

bool foldMath(const NodeCtx& c, Info& out) {
    const std::string& op = c.op();
    if (op == "Floor" || op == "Ceil" || op == "Neg" || op == "Abs" || op == "Sign" || op == "Sqrt" ||
        op == "Reciprocal" || op == "Not")
        return foldUnary(c, out);
    if ((isComparison(op) || isLogic(op) || op == "Mod" || op == "Pow") && c.in.size() != 2)
        throw RuleError(op + " needs two inputs");
    return foldBroadcast(c, out);
}

}  // namespace partita::onnx::detail
