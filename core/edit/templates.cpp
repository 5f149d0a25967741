#include "core/edit/templates.h"

#include <stdexcept>

#include "core/edit/builder.h"
#include "core/util/limits.h"

namespace partita::edit {

namespace {

constexpr double kDx = 180, kDy = 90;  // layout hint spacing, about one node box apart in the editor

// A block before it has names: operators with local inputs (indices, or kIn for the block's input),
// named prefix_suffix (the prefix alone for an empty suffix) once a prefix is found with all names free.
class TemplatesBlock {
public:
    static constexpr int kIn = -1;

    int add(std::string suffix, Operator op, std::vector<int> inputs) {
        ops_.push_back({std::move(suffix), std::move(op), std::move(inputs)});
        return static_cast<int>(ops_.size()) - 1;
    }

    // The block's exit is its last operator.
    Patch finish(const Document& doc, const std::string& stem, const Placement& where) const {
        const std::string prefix = freePrefix(doc, stem.empty() ? "block" : stem);
        PatchBuilder b(doc);
        std::vector<NodeId> ids;
        std::vector<int> depth, column;
        std::map<int, int> per_depth;
        for (const Pending& p : ops_) {
            std::vector<NodeId> inputs;
            int d = 0;
            for (int in : p.inputs) {
                inputs.push_back(in == kIn ? where.after : ids[static_cast<size_t>(in)]);
                if (in != kIn) d = std::max(d, depth[static_cast<size_t>(in)] + 1);
            }
            Operator op = p.op;
            op.name = name(prefix, p.suffix);
            depth.push_back(d);
            column.push_back(per_depth[d]++);
            std::optional<Point> at;
            if (where.at) at = Point{where.at->x + column.back() * kDx, where.at->y + d * kDy};
            ids.push_back(b.add(std::move(op), std::move(inputs), at));
        }
        if (where.rewire)
            for (NodeId c : doc.consumers(where.after))
                for (NodeId& in : b.change(c).inputs)
                    if (in == where.after) in = ids.back();
        return b.take();
    }

private:
    struct Pending {
        std::string suffix;
        Operator op;
        std::vector<int> inputs;
    };

    static std::string name(const std::string& prefix, const std::string& suffix) {
        return suffix.empty() ? prefix : prefix + "_" + suffix;
    }

    std::string freePrefix(const Document& doc, const std::string& stem) const {
        for (std::int64_t k = 1;; ++k) {
            const std::string prefix = k == 1 ? stem : stem + "_" + std::to_string(k);
            bool free = true;
            for (const Pending& p : ops_) {
                const std::string n = name(prefix, p.suffix);
                free = free && n != "input" && !doc.findByName(n);
            }
            if (free) return prefix;
        }
    }

    std::vector<Pending> ops_;
};

void require(bool ok, const std::string& what) {
    if (!ok) throw std::invalid_argument(what);
}

void requireSize(std::int64_t v, const std::string& what) {
    require(v >= 1 && v <= limits::kDimension,
            what + " must be from 1 to " + std::to_string(limits::kDimension) + ", got " + std::to_string(v));
}

void requireNode(const Document& doc, const Placement& where) {
    if (where.after != kNetworkInput && !doc.node(where.after))
        throw std::invalid_argument("no operator has the id " + std::to_string(where.after));
}

// The block's input shape, for blocks whose layers depend on it.
Shape inputShape(const Document& doc, const Placement& where) {
    requireNode(doc, where);
    const auto s = doc.outputShape(where.after);
    const std::string who = where.after == kNetworkInput ? "the network input" : "'" + doc.node(where.after)->op.name + "'";
    if (!s) throw std::invalid_argument("the block's input " + who + " has no shape (it has a problem)");
    return *s;
}

Operator conv(std::int64_t channels, int kernel, int stride, const std::string& source_op = "") {
    Operator op;
    op.type = OpType::Conv;
    op.out_channels = channels;
    op.window = Window{kernel, kernel, stride, stride, kernel / 2, kernel / 2, stride > 1 ? Rounding::Floor : Rounding::Exact};
    op.source_op = source_op;
    return op;
}

Operator ofType(OpType type, const std::string& source_op = "") {
    Operator op;
    op.type = type;
    op.source_op = source_op;
    return op;
}

Operator layout(Shape shape) {
    Operator op = ofType(OpType::Layout, "Transpose");
    op.layout_shape = shape;
    return op;
}

// conv [-> bn] [-> relu]; returns the last.
int convUnit(TemplatesBlock& b, const std::string& stem, int in, Operator c, bool bn, bool relu, const std::string& bn_suffix,
             const std::string& relu_suffix) {
    int last = b.add(stem, std::move(c), {in});
    if (bn) last = b.add(bn_suffix, ofType(OpType::Elementwise, "BatchNormalization"), {last});
    if (relu) last = b.add(relu_suffix, ofType(OpType::Elementwise, "Relu"), {last});
    return last;
}

// The sum of a residual branch and the block's input (projected when the shape changes), then ReLU.
void templatesResidual(TemplatesBlock& b, int branch, bool project, std::int64_t channels, int stride, bool norm_act) {
    int shortcut = TemplatesBlock::kIn;
    if (project) shortcut = convUnit(b, "proj", TemplatesBlock::kIn, conv(channels, 1, stride), norm_act, false, "proj_bn", "");
    const int sum = b.add("add", ofType(OpType::Add), {branch, shortcut});
    if (norm_act) b.add("relu", ofType(OpType::Elementwise, "Relu"), {sum});
}

}  // namespace

Patch convBnRelu(const Document& doc, const ConvBnReluParams& p, const Placement& where) {
    requireSize(p.channels, "channels");
    requireSize(p.kernel, "kernel");
    requireSize(p.stride, "stride");
    requireNode(doc, where);
    TemplatesBlock b;
    convUnit(b, "", TemplatesBlock::kIn, conv(p.channels, p.kernel, p.stride), p.batch_norm, p.relu, "bn", "relu");
    return b.finish(doc, p.name, where);
}

Patch resnetBasic(const Document& doc, const ResNetBasicParams& p, const Placement& where) {
    requireSize(p.channels, "channels");
    requireSize(p.stride, "stride");
    const Shape in = inputShape(doc, where);
    TemplatesBlock b;
    int x = convUnit(b, "conv1", TemplatesBlock::kIn, conv(p.channels, 3, p.stride), p.norm_act, p.norm_act, "bn1", "relu1");
    x = convUnit(b, "conv2", x, conv(p.channels, 3, 1), p.norm_act, false, "bn2", "");
    templatesResidual(b, x, in.c != p.channels || p.stride != 1, p.channels, p.stride, p.norm_act);
    return b.finish(doc, p.name, where);
}

Patch resnetBottleneck(const Document& doc, const ResNetBottleneckParams& p, const Placement& where) {
    requireSize(p.width, "width");
    requireSize(p.expansion, "expansion");
    requireSize(p.stride, "stride");
    requireSize(p.width * p.expansion, "width x expansion");
    const std::int64_t out = p.width * p.expansion;
    const Shape in = inputShape(doc, where);
    TemplatesBlock b;
    int x = convUnit(b, "conv1", TemplatesBlock::kIn, conv(p.width, 1, 1), p.norm_act, p.norm_act, "bn1", "relu1");
    x = convUnit(b, "conv2", x, conv(p.width, 3, p.stride), p.norm_act, p.norm_act, "bn2", "relu2");
    x = convUnit(b, "conv3", x, conv(out, 1, 1), p.norm_act, false, "bn3", "");
    templatesResidual(b, x, in.c != out || p.stride != 1, out, p.stride, p.norm_act);
    return b.finish(doc, p.name, where);
}

Patch inception(const Document& doc, const InceptionParams& p, const Placement& where) {
    for (auto [v, what] : {std::pair{p.b1x1, "the 1x1 branch"}, {p.b3x3_reduce, "the 3x3 reduction"}, {p.b3x3, "the 3x3 branch"},
                           {p.b5x5_reduce, "the 5x5 reduction"}, {p.b5x5, "the 5x5 branch"}, {p.pool_proj, "the pool projection"}})
        requireSize(v, std::string(what) + "'s channels");
    requireNode(doc, where);
    TemplatesBlock b;
    const int b1 = convUnit(b, "1x1", TemplatesBlock::kIn, conv(p.b1x1, 1, 1), false, p.relu, "", "1x1_relu");
    int b3 = convUnit(b, "3x3_reduce", TemplatesBlock::kIn, conv(p.b3x3_reduce, 1, 1), false, p.relu, "", "3x3_reduce_relu");
    b3 = convUnit(b, "3x3", b3, conv(p.b3x3, 3, 1), false, p.relu, "", "3x3_relu");
    int b5 = convUnit(b, "5x5_reduce", TemplatesBlock::kIn, conv(p.b5x5_reduce, 1, 1), false, p.relu, "", "5x5_reduce_relu");
    b5 = convUnit(b, "5x5", b5, conv(p.b5x5, 5, 1), false, p.relu, "", "5x5_relu");
    Operator pool = ofType(OpType::Pool);
    pool.window = Window{3, 3, 1, 1, 1, 1};
    const int pooled = b.add("pool", pool, {TemplatesBlock::kIn});
    const int pp = convUnit(b, "pool_proj", pooled, conv(p.pool_proj, 1, 1), false, p.relu, "", "pool_proj_relu");
    b.add("", ofType(OpType::Concat), {b1, b3, b5, pp});
    return b.finish(doc, p.name, where);
}

Patch transformerEncoder(const Document& doc, const TransformerEncoderParams& p, const Placement& where) {
    const Shape in = inputShape(doc, where);
    const std::int64_t d = in.c, positions = in.h * in.w, hidden = p.mlp_hidden ? p.mlp_hidden : 4 * d;
    requireSize(p.heads, "heads");
    require(d % p.heads == 0, "heads (" + std::to_string(p.heads) + ") must divide the input's channels (" +
                                  std::to_string(d) + ")");
    requireSize(hidden, "the MLP's hidden width");
    requireSize(positions, "the positions (height x width)");
    const std::int64_t heads = p.heads, dk = d / heads;
    auto linear = [](std::int64_t out) { return conv(out, 1, 1, "MatMul"); };
    TemplatesBlock b;
    const int ln1 = b.add("ln1", ofType(OpType::Elementwise, "LayerNormalization"), {TemplatesBlock::kIn});
    const int q = b.add("q", linear(d), {ln1});
    const int k = b.add("k", linear(d), {ln1});
    const int v = b.add("v", linear(d), {ln1});
    const int qh = b.add("q_heads", layout({heads, positions, dk}), {q});
    const int kh = b.add("k_heads", layout({heads, dk, positions}), {k});
    const int scores = b.add("scores", ofType(OpType::MatMul), {qh, kh});
    const int soft = b.add("softmax", ofType(OpType::Elementwise, "Softmax"), {scores});
    const int vh = b.add("v_heads", layout({heads, positions, dk}), {v});
    const int context = b.add("context", ofType(OpType::MatMul), {soft, vh});
    const int merged = b.add("merge", layout(in), {context});
    const int proj = b.add("proj", linear(d), {merged});
    const int add1 = b.add("add1", ofType(OpType::Add), {proj, TemplatesBlock::kIn});
    const int ln2 = b.add("ln2", ofType(OpType::Elementwise, "LayerNormalization"), {add1});
    const int fc1 = b.add("fc1", linear(hidden), {ln2});
    const int gelu = b.add("gelu", ofType(OpType::Elementwise, "Gelu"), {fc1});
    const int fc2 = b.add("fc2", linear(d), {gelu});
    b.add("add2", ofType(OpType::Add), {fc2, add1});
    return b.finish(doc, p.name, where);
}

Patch mlp(const Document& doc, const MlpParams& p, const Placement& where) {
    require(!p.widths.empty(), "an MLP needs at least one layer");
    require(p.widths.size() <= 4096, "an MLP template takes at most 4096 layers");
    for (std::int64_t w : p.widths) requireSize(w, "a layer's width");
    requireNode(doc, where);
    TemplatesBlock b;
    int x = TemplatesBlock::kIn;
    for (size_t i = 0; i < p.widths.size(); ++i) {
        Operator fc = ofType(OpType::FullyConnected);
        fc.out_channels = p.widths[i];
        x = b.add("fc" + std::to_string(i + 1), fc, {x});
        if (p.relu && i + 1 < p.widths.size())
            x = b.add("relu" + std::to_string(i + 1), ofType(OpType::Elementwise, "Relu"), {x});
    }
    return b.finish(doc, p.name, where);
}

const char* templateLabel(const TemplateParams& params) {
    return std::visit([](const auto& p) { return std::decay_t<decltype(p)>::kLabel; }, params);
}

std::vector<TemplateParams> templateCatalog() {
    return {ConvBnReluParams{}, ResNetBasicParams{}, ResNetBottleneckParams{}, InceptionParams{},
            TransformerEncoderParams{}, MlpParams{}};
}

Patch insertTemplate(const Document& doc, const TemplateParams& params, const Placement& where) {
    struct Visit {
        const Document& doc;
        const Placement& where;
        Patch operator()(const ConvBnReluParams& p) const { return convBnRelu(doc, p, where); }
        Patch operator()(const ResNetBasicParams& p) const { return resnetBasic(doc, p, where); }
        Patch operator()(const ResNetBottleneckParams& p) const { return resnetBottleneck(doc, p, where); }
        Patch operator()(const InceptionParams& p) const { return inception(doc, p, where); }
        Patch operator()(const TransformerEncoderParams& p) const { return transformerEncoder(doc, p, where); }
        Patch operator()(const MlpParams& p) const { return mlp(doc, p, where); }
    };
    return std::visit(Visit{doc, where}, params);
}

}  // namespace partita::edit
