#include "core/model/network.h"

#include <algorithm>
#include <limits>
#include <string_view>
#include <unordered_map>
#include <stdexcept>
#include <utility>

#include "core/util/checked.h"
#include "core/util/enum_names.h"
#include "core/util/error.h"
#include "core/util/graph.h"
#include "core/util/limits.h"

namespace partita {

namespace {
constexpr EnumName<OpType> kOpTypes[] = {{OpType::Conv, "conv"},
                                         {OpType::FullyConnected, "fc"},
                                         {OpType::Pool, "pool"},
                                         {OpType::Add, "add"},
                                         {OpType::Concat, "concat"},
                                         {OpType::ConvTranspose, "conv_transpose"},
                                         {OpType::MatMul, "matmul"},
                                         {OpType::Elementwise, "elementwise"},
                                         {OpType::Layout, "layout"}};
}  // namespace

const char* opTypeName(OpType type) { return enumName(kOpTypes, type); }

bool hasWeights(OpType type) {
    return type == OpType::Conv || type == OpType::FullyConnected || type == OpType::ConvTranspose;
}

int Network::find(const std::string& op_name) const {
    for (size_t i = 0; i < ops.size(); ++i)
        if (ops[i].name == op_name) return static_cast<int>(i);
    return -1;
}

std::int64_t windowOutput(std::int64_t in, int kernel, int stride, int pad, Rounding rounding) {
    return windowOutput(in, kernel, stride, pad, pad, rounding);
}

std::int64_t windowOutput(std::int64_t in, int span, int stride, int pad, int pad_end, Rounding rounding) {
    if (span <= 0) throw std::invalid_argument("kernel must be positive, got " + std::to_string(span));
    if (stride <= 0) throw std::invalid_argument("stride must be positive, got " + std::to_string(stride));
    if (pad < 0 || pad_end < 0)
        throw std::invalid_argument("padding must not be negative, got " + std::to_string(std::min(pad, pad_end)));
    const std::string padding = pad == pad_end ? std::to_string(pad) : std::to_string(pad) + "+" + std::to_string(pad_end);
    const std::int64_t span_left = in + pad + pad_end - span;
    if (span_left < 0)
        throw std::invalid_argument("window " + std::to_string(span) + " does not fit input " + std::to_string(in) +
                                    " with padding " + padding);
    if (span_left % stride != 0) {
        if (rounding == Rounding::Exact)
            throw std::invalid_argument("window " + std::to_string(span) + " with stride " + std::to_string(stride) +
                                        " and padding " + padding + " does not tile input " + std::to_string(in) +
                                        " (" + std::to_string(span_left) + " is not a multiple of " +
                                        std::to_string(stride) + "); set \"rounding\" to \"floor\" or \"ceil\"");
        if (rounding == Rounding::Ceil) return span_left / stride + 2;
    }
    return span_left / stride + 1;
}

std::int64_t transposedOutput(std::int64_t in, int span, int stride, int pad, int pad_end, int output_pad) {
    if (span <= 0 || stride <= 0) throw std::invalid_argument("kernel and stride must be positive");
    if (pad < 0 || pad_end < 0 || output_pad < 0) throw std::invalid_argument("padding must not be negative");
    if (output_pad >= stride) throw std::invalid_argument("output padding must be smaller than the stride");
    const std::int64_t out = (in - 1) * stride + span + output_pad - pad - pad_end;
    if (out <= 0)
        throw std::invalid_argument("the transposed convolution's output is empty (" + std::to_string(out) + ")");
    return out;
}

Shape broadcastShapes(const std::vector<Shape>& shapes) {
    Shape out{1, 1, 1};
    auto axis = [&](std::int64_t& o, std::int64_t v, const Shape& s) {
        if (v == o || v == 1) return;
        if (o != 1)
            throw std::invalid_argument("inputs do not broadcast (" + std::to_string(out.c) + "x" + std::to_string(out.h) +
                                        "x" + std::to_string(out.w) + " vs " + std::to_string(s.c) + "x" +
                                        std::to_string(s.h) + "x" + std::to_string(s.w) + ")");
        o = v;
    };
    for (const Shape& s : shapes) {
        axis(out.c, s.c, s);
        axis(out.h, s.h, s);
        axis(out.w, s.w, s);
    }
    return out;
}

namespace {

Shape applyWindow(const Shape& in, const Window& w) {
    return Shape{in.c, windowOutput(in.h, w.spanH(), w.stride_h, w.pad_h, w.padBottom(), w.rounding),
                 windowOutput(in.w, w.spanW(), w.stride_w, w.pad_w, w.padRight(), w.rounding)};
}

// Dilation positive, and the extent dilation·(kernel−1)+1 that spanH/spanW compute in an int fits one
// (kernel and dilation are each within kDimension, their product need not be).
void checkWindow(const Window& w) {
    if (w.dilation_h < 1 || w.dilation_w < 1) throw std::invalid_argument("dilation must be positive");
    for (const auto& [d, k] : {std::pair{w.dilation_h, w.kernel_h}, std::pair{w.dilation_w, w.kernel_w}})
        if (std::int64_t{d} * (k - 1) + 1 > std::numeric_limits<int>::max())
            throw std::overflow_error("the window's extent dilation·(kernel−1)+1 = " +
                                      std::to_string(std::int64_t{d} * (k - 1) + 1) + " exceeds the limit of " +
                                      std::to_string(std::numeric_limits<int>::max()));
}

// Conv and ConvTranspose: `group` divides both channel counts.
void checkGroups(const Operator& op) {
    if (op.group < 1) throw std::invalid_argument("group must be positive, got " + std::to_string(op.group));
    if (op.in_shape.c % op.group != 0 || op.out_channels % op.group != 0)
        throw std::invalid_argument("group " + std::to_string(op.group) + " does not divide the input channels (" +
                                    std::to_string(op.in_shape.c) + ") and out_channels (" +
                                    std::to_string(op.out_channels) + ")");
}

std::string describe(const std::string& name) { return "operator '" + name + "'"; }

std::string shapeText(const Shape& s) { return std::to_string(s.c) + "x" + std::to_string(s.h) + "x" + std::to_string(s.w); }

// a * b <= limit without overflow: the fast path, so that messages are only built for a failure.
bool productFits(std::int64_t a, std::int64_t b, std::int64_t limit) {
    std::int64_t r = 0;
    return !__builtin_mul_overflow(a, b, &r) && r <= limit;
}

// Every shape within limits::kDimension per axis (channels may hold a flattened tensor) and
// limits::kTensorElements in all, so later products of shapes cannot overflow.

void networkCheckShape(const Shape& s, bool flat_channels) {
    const bool axes = s.h <= limits::kDimension && s.w <= limits::kDimension && (flat_channels || s.c <= limits::kDimension);
    if (axes && productFits(s.c, s.h, limits::kTensorElements) &&
        productFits(s.c * s.h, s.w, limits::kTensorElements))
        return;
    if (s.h > limits::kDimension || s.w > limits::kDimension || (!flat_channels && s.c > limits::kDimension))
        throw std::overflow_error("shape " + shapeText(s) + " exceeds the limit of " +
                                  std::to_string(limits::kDimension) + " per axis");
    boundedMul(boundedMul(s.c, s.h, limits::kTensorElements, "the tensor " + shapeText(s)), s.w,
               limits::kTensorElements, "the tensor " + shapeText(s));
}

// A weighted layer's weights and per-sample MACs within limits (exact in a double).
void checkLayer(const Operator& op) {
    const std::int64_t kernel = std::int64_t{op.window.kernel_h} * op.window.kernel_w;  // two ints: no overflow
    const bool conv = op.type == OpType::Conv || op.type == OpType::ConvTranspose;
    if (!conv || (kernel <= limits::kLayerWeights && productFits(kernel, op.in_shape.c, limits::kLayerWeights))) {
        const std::int64_t fan_in = conv ? kernel * op.in_shape.c : op.in_shape.c;
        if (productFits(fan_in, op.out_channels, limits::kLayerWeights) &&
            productFits(fan_in, op.pre_pool_shape.elements(), limits::kLayerMacs))
            return;
    }
    std::int64_t fan_in = op.in_shape.c;
    if (conv)
        fan_in = boundedMul(boundedMul(op.window.kernel_h, op.window.kernel_w, limits::kLayerWeights, "the kernel"),
                            op.in_shape.c, limits::kLayerWeights, "the weights per output channel");
    boundedMul(fan_in, op.out_channels, limits::kLayerWeights, "the layer's weights");
    boundedMul(fan_in, op.pre_pool_shape.elements(), limits::kLayerMacs, "the layer's multiply-accumulates per sample");
}

// Orders operators so that every producer precedes its consumers (stable in
// file order); on a cycle, names the operators on it.
std::vector<int> topologicalOrder(const std::vector<std::vector<int>>& inputs, const Network& net,
                                  const std::string& source) {
    std::vector<int> order = graph::smallestFirstOrder(inputs);
    if (order.size() == inputs.size()) return order;
    const std::vector<int> cycle = graph::cycleOutside(graph::fromInputs(inputs), order);
    std::string text = net.ops[static_cast<size_t>(cycle.front())].name;
    for (size_t k = 1; k < cycle.size(); ++k) text += " -> " + net.ops[static_cast<size_t>(cycle[k])].name;
    throw InputError(source, describe(net.ops[static_cast<size_t>(cycle.front())].name), "the operators form a cycle: " + text);
}

// Puts the operators in `order` and renumbers their inputs.
void reorder(Network& net, const std::vector<int>& order, const std::vector<std::vector<int>>& inputs) {
    std::vector<int> new_id(net.ops.size());
    for (size_t k = 0; k < order.size(); ++k) new_id[static_cast<size_t>(order[k])] = static_cast<int>(k);
    std::vector<Operator> sorted;
    sorted.reserve(order.size());
    for (int old : order) {
        Operator op = std::move(net.ops[static_cast<size_t>(old)]);
        op.input_ids.clear();
        for (int p : inputs[static_cast<size_t>(old)]) op.input_ids.push_back(p < 0 ? -1 : new_id[static_cast<size_t>(p)]);
        sorted.push_back(std::move(op));
    }
    net.ops = std::move(sorted);
}

}  // namespace

void checkInputShape(const Shape& s) {
    if (s.c <= 0 || s.h <= 0 || s.w <= 0) throw std::invalid_argument("input sizes must be positive, got " + shapeText(s));
    networkCheckShape(s, false);
}

void checkArity(OpType type, size_t inputs) {
    if (inputs == 0) throw std::invalid_argument("the operator has no input");
    switch (type) {
    case OpType::Conv:
        if (inputs != 1) throw std::invalid_argument("a conv takes exactly one input");
        break;
    case OpType::FullyConnected:
        if (inputs != 1) throw std::invalid_argument("an fc layer takes exactly one input");
        break;
    case OpType::Pool:
        if (inputs != 1) throw std::invalid_argument("a pool takes exactly one input");
        break;
    case OpType::Add:
        if (inputs < 2) throw std::invalid_argument("an add needs at least two inputs");
        break;
    case OpType::Concat:
        if (inputs < 2) throw std::invalid_argument("a concat needs at least two inputs");
        break;
    case OpType::ConvTranspose:
        if (inputs != 1) throw std::invalid_argument("a transposed conv takes exactly one input");
        break;
    case OpType::MatMul:
        if (inputs != 2) throw std::invalid_argument("a matmul takes exactly two inputs");
        break;
    case OpType::Elementwise: break;
    case OpType::Layout:
        if (inputs != 1) throw std::invalid_argument("a layout operator takes exactly one input");
        break;
    }
}

void deriveShapes(Operator& op, const std::vector<Shape>& inputs) {
    checkArity(op.type, inputs.size());
    op.in_shape = inputs.front();
    switch (op.type) {
    case OpType::Conv: {
        if (op.out_channels <= 0)
            throw std::invalid_argument("out_channels must be positive, got " + std::to_string(op.out_channels));
        checkWindow(op.window);
        checkGroups(op);
        if (op.pool) checkWindow(*op.pool);
        Shape conv = applyWindow(op.in_shape, op.window);
        conv.c = op.out_channels;
        op.pre_pool_shape = conv;
        op.out_shape = op.pool ? applyWindow(conv, *op.pool) : conv;
        break;
    }
    case OpType::FullyConnected:
        if (op.out_channels <= 0)
            throw std::invalid_argument("out_features must be positive, got " + std::to_string(op.out_channels));
        op.in_shape = Shape{op.in_shape.elements(), 1, 1};  // fc flattens its input
        op.pre_pool_shape = op.out_shape = Shape{op.out_channels, 1, 1};
        break;
    case OpType::Pool:
        checkWindow(op.window);
        op.pre_pool_shape = op.out_shape = applyWindow(op.in_shape, op.window);
        break;
    case OpType::Add:
        for (const Shape& s : inputs)
            if (!(s == op.in_shape))
                throw std::invalid_argument("inputs have different shapes (" + shapeText(op.in_shape) + " vs " +
                                            shapeText(s) + ")");
        op.pre_pool_shape = op.out_shape = op.in_shape;
        break;
    case OpType::Concat: {
        Shape out = op.in_shape;
        out.c = 0;
        for (const Shape& s : inputs) {
            if (s.h != out.h || s.w != out.w)
                throw std::invalid_argument("inputs have different spatial sizes (" + std::to_string(out.h) + "x" +
                                            std::to_string(out.w) + " vs " + std::to_string(s.h) + "x" +
                                            std::to_string(s.w) + ")");
            // Each input is within kTensorElements, so the sum of kOperatorInputs of them cannot overflow.
            out.c += s.c;
        }
        op.pre_pool_shape = op.out_shape = out;
        break;
    }
    case OpType::ConvTranspose: {
        if (op.out_channels <= 0)
            throw std::invalid_argument("out_channels must be positive, got " + std::to_string(op.out_channels));
        checkWindow(op.window);
        checkGroups(op);
        const Window& w = op.window;
        op.pre_pool_shape = op.out_shape =
            Shape{op.out_channels,
                  transposedOutput(op.in_shape.h, w.spanH(), w.stride_h, w.pad_h, w.padBottom(), op.output_pad_h),
                  transposedOutput(op.in_shape.w, w.spanW(), w.stride_w, w.pad_w, w.padRight(), op.output_pad_w)};
        break;
    }
    case OpType::MatMul: {
        const Shape a = op.in_shape, b = inputs[1];
        if (a.w != b.h)
            throw std::invalid_argument("inner dimensions differ (" + shapeText(a) + " x " + shapeText(b) + ": " +
                                        std::to_string(a.w) + " vs " + std::to_string(b.h) + ")");
        if (a.c != b.c && a.c != 1 && b.c != 1)
            throw std::invalid_argument("batch dimensions do not broadcast (" + shapeText(a) + " x " + shapeText(b) + ")");
        op.pre_pool_shape = op.out_shape = Shape{std::max(a.c, b.c), a.h, b.w};
        break;
    }
    case OpType::Elementwise:
        op.pre_pool_shape = op.out_shape = broadcastShapes(inputs);
        if (const auto& a = op.attention) {
            // One input: q, k and v fused head by head (docs/formats/network.md#attention); the output is a third.
            if (inputs.size() == 1) {
                if (op.in_shape.c % 3 != 0)
                    throw std::invalid_argument("attention over one input needs q, k and v fused (3 x the channels), got " +
                                                std::to_string(op.in_shape.c) + " channels");
                op.pre_pool_shape.c = op.out_shape.c = op.in_shape.c / 3;
            }
            if (a->sequence < 1 || a->heads < 1)
                throw std::invalid_argument("attention needs a positive sequence and head count, got sequence " +
                                            std::to_string(a->sequence) + ", heads " + std::to_string(a->heads));
            if (op.out_shape.c % a->heads != 0)
                throw std::invalid_argument("attention: " + std::to_string(a->heads) + " heads do not divide " +
                                            std::to_string(op.out_shape.c) + " channels");
        }
        break;
    case OpType::Layout:
        if (op.layout_shape.c <= 0 || op.layout_shape.h <= 0 || op.layout_shape.w <= 0)
            throw std::invalid_argument("the output shape must be positive, got " + shapeText(op.layout_shape));
        op.pre_pool_shape = op.out_shape = op.layout_shape;
        break;
    }
    networkCheckShape(op.in_shape, op.type == OpType::FullyConnected);
    networkCheckShape(op.pre_pool_shape, false);
    networkCheckShape(op.out_shape, false);
    if (hasWeights(op.type)) checkLayer(op);
}

void propagate(Network& net, const std::string& source) {
    if (net.ops.empty()) throw InputError(source, "", "the network has no operators");
    if (net.ops.size() > static_cast<size_t>(limits::kOperators))
        throw InputError(source, "", std::to_string(net.ops.size()) + " operators exceed the limit of " +
                                         std::to_string(limits::kOperators));
    try {
        checkInputShape(net.input);
    } catch (const std::exception& e) {
        throw InputError(source, "input", e.what());
    }
    std::unordered_map<std::string_view, int> index;  // views of net.ops[i].name, which stay put below
    index.reserve(net.ops.size());
    for (size_t i = 0; i < net.ops.size(); ++i) {
        const auto& name = net.ops[i].name;
        if (name.empty()) throw InputError(source, "operator #" + std::to_string(i), "operator has no name");
        if (name == "input") throw InputError(source, describe(name), "the name 'input' is reserved for the network input");
        if (!index.emplace(name, static_cast<int>(i)).second)
            throw InputError(source, describe(name), "duplicate operator name");
    }
    // Resolve input names; an empty list means "the previous operator in the file".
    std::vector<std::vector<int>> inputs(net.ops.size());
    for (size_t i = 0; i < net.ops.size(); ++i) {
        auto& op = net.ops[i];
        if (op.inputs.empty()) {  // the previous operator: known without looking its name up
            op.inputs.push_back(i == 0 ? "input" : net.ops[i - 1].name);
            inputs[i].push_back(static_cast<int>(i) - 1);
            continue;
        }
        if (op.inputs.size() > static_cast<size_t>(limits::kOperatorInputs))
            throw InputError(source, describe(op.name), std::to_string(op.inputs.size()) +
                                                            " inputs exceed the limit of " +
                                                            std::to_string(limits::kOperatorInputs));
        for (const auto& in : op.inputs) {
            if (in == "input") { inputs[i].push_back(-1); continue; }
            auto it = index.find(in);
            if (it == index.end()) throw InputError(source, describe(op.name), "unknown input '" + in + "'");
            if (it->second == static_cast<int>(i)) throw InputError(source, describe(op.name), "the operator is its own input (a cycle)");
            inputs[i].push_back(it->second);
        }
    }
    const auto order = topologicalOrder(inputs, net, source);
    if (std::is_sorted(order.begin(), order.end()))  // already in order (the usual case): no moves
        for (size_t i = 0; i < net.ops.size(); ++i) net.ops[i].input_ids = std::move(inputs[i]);
    else
        reorder(net, order, inputs);

    std::vector<Shape> shapes;
    for (auto& op : net.ops) {
        shapes.clear();
        for (int id : op.input_ids) shapes.push_back(id < 0 ? net.input : net.ops[static_cast<size_t>(id)].out_shape);
        try {
            deriveShapes(op, shapes);
        } catch (const std::invalid_argument& e) {
            throw InputError(source, describe(op.name), e.what());
        } catch (const std::overflow_error& e) {
            throw InputError(source, describe(op.name), e.what());
        }
    }
}

}  // namespace partita
