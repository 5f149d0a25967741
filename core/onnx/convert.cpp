#include "core/onnx/convert.h"

#include <algorithm>
#include <functional>
#include <numeric>
#include <set>
#include <stdexcept>
#include <unordered_map>

#include "core/onnx/fuse.h"
#include "core/util/error.h"
#include "core/util/limits.h"

namespace partita::onnx {

Shape defaultView(const std::vector<std::int64_t>& d) {
    const auto product = [&](size_t from, size_t to) {
        return std::accumulate(d.begin() + static_cast<std::ptrdiff_t>(from), d.begin() + static_cast<std::ptrdiff_t>(to),
                               std::int64_t{1}, std::multiplies<>());
    };
    switch (d.size()) {
    case 0: return {1, 1, 1};
    case 1: return {d[0], 1, 1};
    case 2: return {d[1], d[0], 1};
    case 3: return {d[0], d[1], d[2]};
    default: return {d[0], product(1, d.size() - 1), d.back()};
    }
}

namespace {

using Dims = std::vector<std::int64_t>;

std::int64_t product(const Dims& d, size_t from, size_t to) {
    std::int64_t p = 1;
    for (size_t i = from; i < to && i < d.size(); ++i) p *= d[i];
    return p;
}

const std::set<std::string>& elementwiseOps() {
    static const std::set<std::string> ops{"Add",     "Mul",         "Sub",         "Div",       "Pow",
                                           "Sqrt",    "Relu",        "LeakyRelu",   "Clip",      "Sigmoid",
                                           "HardSigmoid", "HardSwish", "Tanh",      "Erf",       "Gelu",
                                           "Softmax", "BatchNormalization", "LayerNormalization", "Dropout",
                                           "Identity", "Cast",       "Where",       "Equal",
                                           "Floor",   "Ceil",        "Neg",         "Abs",       "Sign",
                                           "Reciprocal", "Exp",      "Log",         "Not",       "Min",
                                           "Max",     "Mod",         "Less",        "Greater",   "LessOrEqual",
                                           "GreaterOrEqual", "And",  "Or",          "Xor"};
    return ops;
}

const std::set<std::string>& layoutOps() {
    static const std::set<std::string> ops{"Slice",  "Reshape",  "Flatten",    "Transpose",  "Squeeze",
                                           "Unsqueeze", "Pad",   "Resize",     "Upsample",   "Expand",
                                           "Gather", "Tile",     "ReduceMean", "ReduceSum",  "ReduceMax", "ReduceProd"};
    return ops;
}

class Converter {
public:
    Converter(const Graph& g, std::string source) : g_(g), source_(std::move(source)) {}

    Converted run() {
        if (g_.inputs.empty()) fail("", "the model has no graph input");
        const Tensor& in = tensorOf(g_.inputs[0], "graph input");
        if (in.dims.empty()) fail("input '" + in.name + "'", "the input has no batch dimension");
        batch_ = in.dims[0];
        if (batch_ < 1) fail("input '" + in.name + "'", "the batch size " + std::to_string(batch_) + " is not positive");
        out_.network.name = g_.name;
        out_.network.description = "Imported from ONNX" + (g_.producer.empty() ? "" : " (" + g_.producer + ")");
        out_.network.input = defaultView(perSample(in, "input '" + in.name + "'"));
        produced_[in.name] = {"input", out_.network.input};
        for (size_t i = 1; i < g_.inputs.size(); ++i)
            out_.warnings.push_back("graph input '" + g_.inputs[i] +
                                    "' is read as a constant (Partita models one activation input)");
        used_.insert("input");
        // A decomposed LayerNorm becomes one operator where its last node is; its other nodes none.
        const std::vector<Fusion> fusions = findDecomposedLayerNorms(g_);
        std::unordered_map<size_t, const Fusion*> fused;
        for (const Fusion& f : fusions)
            for (const size_t i : f.nodes) fused[i] = &f;
        for (size_t i = 0; i < g_.nodes.size(); ++i) {
            const auto f = fused.find(i);
            if (f == fused.end()) convert(g_.nodes[i]);
            else if (i == f->second->nodes.back()) convertFusion(*f->second, g_.nodes[i]);
        }
        if (out_.network.ops.empty()) fail("", "the model has no operator Partita prices");
        propagate(out_.network, source_);
        checkAgainstInference();
        return std::move(out_);
    }

private:
    struct Produced {
        std::string op;  // native operator name ("input" for the network input)
        Shape shape;     // its view
    };

    [[noreturn]] void fail(const std::string& where, const std::string& message) const {
        throw InputError(source_, where, message);
    }
    static std::string at(const Node& n) { return "node '" + n.name + "' (" + n.op_type + ", #" + std::to_string(n.index) + ")"; }

    const Tensor& tensorOf(const std::string& name, const std::string& role) const {
        const Tensor* t = g_.tensor(name);
        if (!t) fail(role + " '" + name + "'", "no such tensor");
        return *t;
    }

    // Per-sample dims: the batch is axis 0 (stripped) or folded into it (N·heads, divided). Sequence-first
    // tensors inside a batch-first model (PyTorch's attention works on [L, N, E]) carry it on a later
    // axis: the first one of the batch's size is stripped, else the first multiple of it divided. Only
    // element counts and the leading axes of matmul operands depend on this, and those keep axis 0.
    Dims perSample(const Tensor& t, const std::string& where) const {
        const Dims& d = t.dims;
        if (d.empty()) return {};
        const auto without = [&](size_t axis) {
            Dims out = d;
            out.erase(out.begin() + static_cast<std::ptrdiff_t>(axis));
            return out;
        };
        const auto divided = [&](size_t axis) {
            Dims out = d;
            out[axis] /= batch_;
            return out;
        };
        if (d[0] == batch_) return without(0);
        if (d[0] % batch_ == 0) return divided(0);
        for (size_t k = 1; k < d.size(); ++k)
            if (d[k] == batch_) return without(k);
        for (size_t k = 1; k < d.size(); ++k)
            if (d[k] % batch_ == 0) return divided(k);
        std::string text;
        for (const std::int64_t v : d) text += (text.empty() ? "[" : ", ") + std::to_string(v);
        fail(where, "tensor '" + t.name + "' " + text + "] has no axis that holds the batch (" +
                        std::to_string(batch_) + ")");
    }

    bool isActivation(const std::string& name) const { return !name.empty() && produced_.count(name) > 0; }

    std::vector<std::string> activations(const Node& n) const {
        std::vector<std::string> out;
        for (const auto& in : n.inputs)
            if (isActivation(in)) out.push_back(in);
        return out;
    }

    std::string uniqueName(std::string name) {
        if (name.empty() || name == "input") name += "_";
        std::string candidate = name;
        for (int k = 2; !used_.insert(candidate).second; ++k) candidate = name + "#" + std::to_string(k);
        return candidate;
    }

    // The native operator that gives tensor `name` in view `wanted` (a layout in between when needed).
    std::string viewOf(const std::string& name, const Shape& wanted) {
        const Produced& p = produced_.at(name);
        if (p.shape == wanted) return p.op;
        const std::string key = name + "|" + std::to_string(wanted.c) + "x" + std::to_string(wanted.h) + "x" +
                                std::to_string(wanted.w);
        if (const auto it = views_.find(key); it != views_.end()) return it->second;
        Operator op;
        op.name = uniqueName(name + "@view");
        op.type = OpType::Layout;
        op.source_op = "view";
        op.inputs = {p.op};
        op.layout_shape = wanted;
        views_[key] = op.name;
        out_.network.ops.push_back(op);
        return op.name;
    }

    // Adds `op` as the producer of `output` with view `shape`.
    void emit(Operator op, const std::string& output, const Shape& shape) {
        produced_[output] = {op.name, shape};
        out_.network.ops.push_back(std::move(op));
    }

    Operator base(const Node& n, OpType type, std::vector<std::string> inputs) {
        Operator op;
        op.name = uniqueName(n.name);
        op.type = type;
        op.source_op = n.op_type;
        op.inputs = std::move(inputs);
        return op;
    }

    std::int64_t intAttr(const Node& n, const std::string& key, std::int64_t fallback) const {
        const auto it = n.attributes.find(key);
        return it != n.attributes.end() && it->second.i ? *it->second.i : fallback;
    }
    Dims intsAttr(const Node& n, const std::string& key) const {
        const auto it = n.attributes.find(key);
        return it == n.attributes.end() ? Dims{} : it->second.ints;
    }
    std::string stringAttr(const Node& n, const std::string& key) const {
        const auto it = n.attributes.find(key);
        return it != n.attributes.end() && it->second.s ? *it->second.s : std::string();
    }

    // An attribute (or a size derived from one) narrowed to the native model's int fields: within
    // [lo, limits::kDimension], the native format's limit for a window field, else an error naming both.
    int narrowed(const Node& n, const std::string& attribute, std::int64_t v, std::int64_t lo) const {
        if (v < lo || v > limits::kDimension)
            fail(at(n), attribute + " " + std::to_string(v) + " is outside " + std::to_string(lo) + ".." +
                            std::to_string(limits::kDimension));
        return static_cast<int>(v);
    }
    // An ints attribute of a window: absent, or one entry per spatial axis (pads: two).
    Dims windowAttr(const Node& n, const std::string& key, size_t count) const {
        const Dims v = intsAttr(n, key);
        if (!v.empty() && v.size() != count)
            fail(at(n), key + " has " + std::to_string(v.size()) + " entries, not " + std::to_string(count));
        return v;
    }

    // Window fields of Conv, ConvTranspose and the pools (2-D; a 1-D op uses the width axis).
    // `kernel` is the weight's spatial dims (a conv) or the kernel_shape attribute (a pool).
    Window window(const Node& n, const Dims& kernel, const Dims& in_hw, const Dims& out_hw, bool transposed) {
        const std::string kernel_name = n.op_type.find("Pool") != std::string::npos ? "kernel_shape" : "kernel";
        const bool one_d = kernel.size() == 1;
        if (kernel.empty() || kernel.size() > 2 || in_hw.size() != kernel.size() || out_hw.size() != kernel.size())
            fail(at(n), "expected a 1-D or 2-D window");
        auto pick = [&](const Dims& v, size_t axis, std::int64_t fallback) {
            if (v.empty()) return fallback;
            return one_d ? (axis == 0 ? fallback : v[0]) : v[axis];
        };
        const Dims strides = windowAttr(n, "strides", kernel.size()), dilations = windowAttr(n, "dilations", kernel.size()),
                   pads = windowAttr(n, "pads", 2 * kernel.size());
        Window w;
        w.kernel_h = narrowed(n, kernel_name, one_d ? 1 : kernel[0], 1);
        w.kernel_w = narrowed(n, kernel_name, one_d ? kernel[0] : kernel[1], 1);
        w.stride_h = narrowed(n, "strides", pick(strides, 0, 1), 1);
        w.stride_w = narrowed(n, "strides", pick(strides, 1, 1), 1);
        w.dilation_h = narrowed(n, "dilations", pick(dilations, 0, 1), 1);
        w.dilation_w = narrowed(n, "dilations", pick(dilations, 1, 1), 1);
        // The native window's extent dilation·(k−1)+1 is an int too.
        narrowed(n, "the window extent (dilations·(kernel−1)+1)", std::int64_t{w.dilation_h} * (w.kernel_h - 1) + 1, 1);
        narrowed(n, "the window extent (dilations·(kernel−1)+1)", std::int64_t{w.dilation_w} * (w.kernel_w - 1) + 1, 1);
        w.rounding = intAttr(n, "ceil_mode", 0) ? Rounding::Ceil : Rounding::Floor;
        const std::string auto_pad = stringAttr(n, "auto_pad");
        if (!pads.empty() && (auto_pad.empty() || auto_pad == "NOTSET")) {
            const size_t r = pads.size() / 2;
            w.pad_h = narrowed(n, "pads", one_d ? 0 : pads[0], 0);
            w.pad_w = narrowed(n, "pads", one_d ? pads[0] : pads[1], 0);
            w.pad_h_end = narrowed(n, "pads", one_d ? 0 : pads[r], 0);
            w.pad_w_end = narrowed(n, "pads", one_d ? pads[r] : pads[r + 1], 0);
            return w;
        }
        if (auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER" || transposed) {
            // The total padding that gives ONNX's inferred output; SAME_UPPER puts the odd one at the end.
            // Sizes and window fields are within kDimension (checked), so the products fit an int64.
            auto split = [&](std::int64_t in, std::int64_t out, int stride, int span, int& begin, int& end) {
                const std::int64_t total =
                    transposed ? std::max<std::int64_t>(0, (in - 1) * stride + span - out)
                               : std::max<std::int64_t>(0, (out - 1) * stride + span - in);
                const std::int64_t small = total / 2, large = total - small;
                const std::string what = "pads (from auto_pad " + (auto_pad.empty() ? std::string("NOTSET") : auto_pad) + ")";
                begin = narrowed(n, what, auto_pad == "SAME_LOWER" ? large : small, 0);
                end = narrowed(n, what, auto_pad == "SAME_LOWER" ? small : large, 0);
            };
            for (const Dims* d : {&in_hw, &out_hw})
                for (const std::int64_t v : *d) narrowed(n, "a spatial size", v, 1);
            const size_t last = in_hw.size() - 1;
            if (!one_d) split(in_hw[0], out_hw[0], w.stride_h, w.spanH(), w.pad_h, w.pad_h_end);
            split(in_hw[last], out_hw[last], w.stride_w, w.spanW(), w.pad_w, w.pad_w_end);
        }
        return w;
    }

    // (C, H, W) of a channels-first image tensor (1-D: (C, 1, L)).
    Shape imageView(const Dims& d, const std::string& where) const {
        if (d.size() == 3) return {d[0], d[1], d[2]};
        if (d.size() == 2) return {d[0], 1, d[1]};
        fail(where, "expected a 1-D or 2-D image tensor, got per-sample rank " + std::to_string(d.size()));
    }

    void convertFusion(const Fusion& f, const Node& last) {
        const std::string where = at(last);
        if (!isActivation(f.input)) return;  // a second graph input, read as a constant (as convert() skips its ops)
        const Shape shape = defaultView(perSample(tensorOf(f.output, "output of " + where), where));
        Operator op;
        op.name = uniqueName(f.name);
        op.type = OpType::Elementwise;
        op.source_op = f.source_op;
        op.inputs = {viewOf(f.input, shape)};
        emit(op, f.output, shape);
    }

    void convert(const Node& n) {
        if (n.folded) return;
        const std::vector<std::string> acts = activations(n);
        if (acts.empty()) {  // arithmetic on constants only: its outputs are constants too
            return;
        }
        const std::string& op = n.op_type;
        const std::string where = at(n);
        const Tensor& out = tensorOf(n.outputs.at(0), "output of " + where);
        const Dims out_d = perSample(out, where);
        if (op == "Conv" || op == "ConvTranspose") return convertConv(n, op == "ConvTranspose", out_d);
        if (op == "MaxPool" || op == "AveragePool" || op == "GlobalAveragePool" || op == "GlobalMaxPool")
            return convertPool(n, out_d);
        if (op == "Gemm" || op == "MatMul") return convertMatMul(n, out_d);
        if (op == "Concat") return convertConcat(n, acts, out_d);
        if (op == "Split") {
            for (const auto& name : n.outputs) {
                if (name.empty()) continue;
                const Dims d = perSample(tensorOf(name, "output of " + where), where);
                Operator o = base(n, OpType::Layout, {viewOf(acts[0], produced_.at(acts[0]).shape)});
                o.name = uniqueName(n.name + ":" + name);
                o.layout_shape = defaultView(d);
                emit(o, name, o.layout_shape);
            }
            return;
        }
        if (elementwiseOps().count(op)) {
            const Shape shape = defaultView(out_d);
            // Two or more same-shaped activations summed: a join the residual analysis recognises.
            const bool join = op == "Add" && acts.size() >= 2 && std::all_of(acts.begin(), acts.end(), [&](const auto& a) {
                                  return g_.tensor(a)->dims == g_.tensor(acts[0])->dims;
                              });
            if (join) {
                std::vector<std::string> ins;
                for (const auto& a : acts) ins.push_back(viewOf(a, shape));
                return emit(base(n, OpType::Add, ins), n.outputs[0], shape);
            }
            std::vector<std::string> ins;
            for (const auto& a : acts) ins.push_back(viewOf(a, shape));
            return emit(base(n, OpType::Elementwise, ins), n.outputs[0], shape);
        }
        if (layoutOps().count(op)) {
            Operator o = base(n, OpType::Layout, {produced_.at(acts[0]).op});
            o.layout_shape = defaultView(out_d);
            return emit(o, n.outputs[0], o.layout_shape);
        }
        if (op == "Shape" || op == "Constant" || op == "ConstantOfShape" || op == "Range") return;  // no activation out
        fail(where, "no native form for this operator");
    }

    void convertConv(const Node& n, bool transposed, const Dims& out_d) {
        const std::string where = at(n);
        const std::string x = n.inputs.at(0);
        if (!isActivation(x)) fail(where, "the conv's data input is a constant");
        if (n.inputs.size() < 2 || isActivation(n.inputs[1])) fail(where, "the conv's weights are not a constant");
        const Tensor& w = tensorOf(n.inputs[1], "weights of " + where);
        const Tensor& xt = tensorOf(x, "input of " + where);
        const Dims in_d = perSample(xt, where);
        if (w.dims.size() != in_d.size() + 1 || w.dims.size() < 3) fail(where, "weights and input ranks disagree");
        const Shape in_view = imageView(in_d, where);
        const Shape out_view = imageView(out_d, where);
        const Dims kernel(w.dims.begin() + 2, w.dims.end());
        const Dims in_hw(in_d.begin() + 1, in_d.end()), out_hw(out_d.begin() + 1, out_d.end());
        Operator o = base(n, transposed ? OpType::ConvTranspose : OpType::Conv, {viewOf(x, in_view)});
        o.group = narrowed(n, "group", intAttr(n, "group", 1), 1);
        o.out_channels = transposed ? w.dims[1] * o.group : w.dims[0];
        o.window = window(n, kernel, in_hw, out_hw, transposed);
        if (transposed) {
            const Dims op = windowAttr(n, "output_padding", kernel.size());
            o.output_pad_h = narrowed(n, "output_padding", op.size() == 2 ? op[0] : 0, 0);
            o.output_pad_w = narrowed(n, "output_padding", op.empty() ? 0 : op.back(), 0);
        } else {
            o.window.rounding = Rounding::Floor;
        }
        emit(o, n.outputs[0], out_view);
    }

    void convertPool(const Node& n, const Dims& out_d) {
        const std::string where = at(n);
        const std::string x = n.inputs.at(0);
        const Dims in_d = perSample(tensorOf(x, "input of " + where), where);
        const Shape in_view = imageView(in_d, where);
        Operator o = base(n, OpType::Pool, {viewOf(x, in_view)});
        o.average_pool = n.op_type == "AveragePool" || n.op_type == "GlobalAveragePool";
        if (n.op_type.rfind("Global", 0) == 0) {
            o.window.kernel_h = narrowed(n, "the global pool's window", in_view.h, 1);
            o.window.kernel_w = narrowed(n, "the global pool's window", in_view.w, 1);
        } else {
            const Dims kernel = intsAttr(n, "kernel_shape");
            if (kernel.empty()) fail(where, "the pool has no kernel_shape");
            o.window = window(n, kernel, Dims(in_d.begin() + 1, in_d.end()), Dims(out_d.begin() + 1, out_d.end()), false);
        }
        emit(o, n.outputs[0], imageView(out_d, where));
    }

    void convertMatMul(const Node& n, const Dims& out_d) {
        const std::string where = at(n);
        const bool gemm = n.op_type == "Gemm";
        const std::string a = n.inputs.at(0), b = n.inputs.at(1);
        if (!isActivation(a)) fail(where, "a constant left operand is not supported");
        const Dims ad = perSample(tensorOf(a, "input of " + where), where);
        if (gemm && intAttr(n, "transA", 0)) fail(where, "transA on an activation is not supported");
        if (!isActivation(b)) {  // a linear layer: the constant is its weight matrix
            const Tensor& w = tensorOf(b, "weights of " + where);
            if (w.dims.size() != 2) fail(where, "a batched constant operand is not supported");
            const std::int64_t out_features = gemm && intAttr(n, "transB", 0) ? w.dims[0] : w.dims[1];
            if (ad.size() <= 1) {  // (K) per sample: a fully connected layer
                Operator o = base(n, OpType::FullyConnected, {produced_.at(a).op});
                o.out_channels = out_features;
                return emit(o, n.outputs[0], {out_features, 1, 1});
            }
            // (..., K): a 1x1 conv over the positions of the leading dims.
            const std::int64_t positions = product(ad, 0, ad.size() - 1);
            Operator o = base(n, OpType::Conv, {viewOf(a, {ad.back(), positions, 1})});
            o.out_channels = out_features;
            return emit(o, n.outputs[0], {out_features, positions, 1});
        }
        if (gemm) fail(where, "a Gemm of two activations is not supported");
        const Dims bd = perSample(tensorOf(b, "input of " + where), where);
        auto view = [&](const Dims& d, bool left) -> Shape {
            if (d.size() == 1) return left ? Shape{1, 1, d[0]} : Shape{1, d[0], 1};
            return {product(d, 0, d.size() - 2), d[d.size() - 2], d.back()};
        };
        const Shape av = view(ad, true), bv = view(bd, false);
        Operator o = base(n, OpType::MatMul, {viewOf(a, av), viewOf(b, bv)});
        const Shape out_view{std::max(av.c, bv.c), av.h, bv.w};
        if (out_view.elements() != product(out_d, 0, out_d.size()))
            fail(where, "its batch dimensions broadcast in a way Partita's (G, M, K) x (G, K, N) matmul does not");
        emit(o, n.outputs[0], out_view);
    }

    void convertConcat(const Node& n, const std::vector<std::string>& acts, const Dims& out_d) {
        const std::string where = at(n);
        const Dims first = perSample(tensorOf(acts[0], "input of " + where), where);
        std::int64_t axis = intAttr(n, "axis", 0);
        const auto rank = static_cast<std::int64_t>(first.size()) + 1;
        if (axis < 0) axis += rank;
        if (axis <= 0 || axis >= rank) fail(where, "concatenation along the batch axis is not supported");
        const auto ax = static_cast<size_t>(axis - 1);
        std::vector<std::string> ins;
        std::int64_t total = 0, rows = product(first, 0, ax);
        for (const auto& a : acts) {
            const Dims d = perSample(tensorOf(a, "input of " + where), where);
            const std::int64_t c = product(d, ax, d.size());
            ins.push_back(viewOf(a, {c, rows, 1}));
            total += c;
        }
        const Shape joined{total, rows, 1};
        Operator o = base(n, OpType::Concat, ins);
        if (ins.size() < 2) {  // one activation beside constants: the tensor grows, nothing joins
            o.type = OpType::Layout;
            o.layout_shape = defaultView(out_d);
            return emit(o, n.outputs[0], o.layout_shape);
        }
        emit(o, n.outputs[0], joined);
    }

    // Every native shape must hold as many elements as ONNX says the tensor has.
    void checkAgainstInference() const {
        std::unordered_map<std::string, const Operator*> by_name;
        for (const auto& op : out_.network.ops) by_name[op.name] = &op;
        for (const auto& [tensor, p] : produced_) {
            if (p.op == "input") continue;
            const Operator* op = by_name.at(p.op);
            const Tensor& t = *g_.tensor(tensor);
            const std::int64_t expected = product(t.dims, 0, t.dims.size()) / batch_;
            if (op->out_shape.elements() != expected)
                fail("operator '" + op->name + "'",
                     "its output has " + std::to_string(op->out_shape.elements()) + " elements per sample, ONNX shape "
                     "inference " + std::to_string(expected) + " (tensor '" + tensor + "')");
        }
    }

    const Graph& g_;
    std::string source_;
    std::int64_t batch_ = 1;
    Converted out_;
    std::unordered_map<std::string, Produced> produced_;
    std::unordered_map<std::string, std::string> views_;
    std::set<std::string> used_;
};

}  // namespace

Converted toNetwork(const Graph& graph, const std::string& source) { return Converter(graph, source).run(); }

}  // namespace partita::onnx
