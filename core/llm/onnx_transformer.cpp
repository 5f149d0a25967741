// Recognising a transformer in an ONNX graph (onnx_transformer.h; docs/methods/llm.md#from-an-onnx-model).
// The walk, per attention block: a Softmax between two activation MatMuls (scores and context); the
// queries, keys and values traced back through layout ops (Reshape, Transpose, Split, rotary Mul/Neg/
// Concat, the GQA Expand) to their projections, a MatMul or Gemm with a constant weight; the output
// projection after the context. Then the MLPs (a down projection fed through activation ops by one
// projection, or by two for a gated MLP), the norm before each Q projection, the token embedding
// (a Gather on a [vocab, hidden] table indexed by a graph input), the positions added to it, and the
// LM head (a projection from hidden to the vocabulary).
#include "core/llm/onnx_transformer.h"

#include <algorithm>
#include <cctype>
#include <deque>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <unordered_map>

#include "core/llm/numbers.h"
#include "core/onnx/import.h"
#include "core/util/error.h"

namespace partita::llm {

namespace {

using onnx::Graph;
using onnx::Node;
using OpSet = std::set<std::string>;

// The graph with its edges indexed both ways.
class GraphView {
public:
    explicit GraphView(const Graph& g) : g_(g) {
        for (std::size_t i = 0; i < g.nodes.size(); ++i) {
            for (const auto& o : g.nodes[i].outputs)
                if (!o.empty()) producer_[o] = i;
            for (const auto& in : g.nodes[i].inputs)
                if (!in.empty()) consumers_[in].push_back(i);
        }
        for (const auto& in : g.inputs) inputs_.insert(in);
    }
    const Graph& graph() const { return g_; }
    const Node* producer(const std::string& t) const {
        const auto it = producer_.find(t);
        return it == producer_.end() ? nullptr : &g_.nodes[it->second];
    }
    std::vector<const Node*> consumers(const std::string& t) const {
        std::vector<const Node*> out;
        if (const auto it = consumers_.find(t); it != consumers_.end())
            for (const std::size_t i : it->second) out.push_back(&g_.nodes[i]);
        return out;
    }
    bool isGraphInput(const std::string& t) const { return inputs_.count(t) > 0; }
    bool constant(const std::string& t) const {
        const onnx::Tensor* x = g_.tensor(t);
        return x && x->constant;
    }
    // Dims when every size is known, else empty.
    std::vector<std::int64_t> dims(const std::string& t) const {
        const onnx::Tensor* x = g_.tensor(t);
        if (!x) return {};
        for (const std::int64_t d : x->dims)
            if (d <= 0) return {};
        return x->dims;
    }
    std::int64_t last(const std::string& t) const {
        const auto d = dims(t);
        return d.empty() ? 0 : d.back();
    }
    double elements(const std::string& t) const {
        const auto d = dims(t);
        if (d.empty()) return 0;
        double n = 1;
        for (const std::int64_t x : d) n *= static_cast<double>(x);
        return n;
    }
    std::size_t position(const Node& n) const { return static_cast<std::size_t>(&n - g_.nodes.data()); }
    std::vector<std::string> variableInputs(const Node& n) const {
        std::vector<std::string> out;
        for (const auto& in : n.inputs)
            if (!in.empty() && !constant(in)) out.push_back(in);
        return out;
    }
    // The initializer (or Constant's output) a constant tensor is read from, through the ops that
    // keep its data: shared weights and an LM head on the transposed embedding meet here.
    std::string root(std::string t) const {
        static const OpSet keep{"Identity", "Transpose", "Cast", "Reshape", "Squeeze", "Unsqueeze", "Flatten"};
        for (int hops = 0; hops < 16; ++hops) {
            const Node* p = producer(t);
            if (!p || !keep.count(p->op_type) || p->inputs.empty()) break;
            t = p->inputs[0];
        }
        return t;
    }

private:
    const Graph& g_;
    std::unordered_map<std::string, std::size_t> producer_;
    std::unordered_map<std::string, std::vector<std::size_t>> consumers_;
    std::set<std::string> inputs_;
};

std::string inQuotes(const std::string& s) { return "'" + (s.size() <= 80 ? s : s.substr(0, 77) + "...") + "'"; }

[[noreturn]] void refuse(const GraphView& v, const std::string& message) {
    throw InputError(v.graph().source, "", message);
}

// A linear layer: a MatMul or Gemm of an activation by a constant rank-2 weight.
struct Linear {
    const Node* node = nullptr;
    std::int64_t in = 0, out = 0;
    std::string weight;       // the weight's root initializer
    std::string output;       // the output, after the bias when there is one
    const Node* bias = nullptr;  // the bias Add (or the Gemm itself with its C input)
};

bool isProjection(const GraphView& v, const Node& n) {
    if (n.folded || (n.op_type != "MatMul" && n.op_type != "Gemm") || n.inputs.size() < 2) return false;
    if (v.constant(n.inputs[0]) || !v.constant(n.inputs[1]) || v.dims(n.inputs[1]).size() != 2) return false;
    const auto a = n.attributes.find("transA");
    return a == n.attributes.end() || a->second.i.value_or(0) == 0;
}

Linear linear(const GraphView& v, const Node& n) {
    Linear l;
    l.node = &n;
    const auto w = v.dims(n.inputs[1]);
    const auto tb = n.attributes.find("transB");
    const bool transposed = n.op_type == "Gemm" && tb != n.attributes.end() && tb->second.i.value_or(0) == 1;
    l.in = transposed ? w[1] : w[0];
    l.out = transposed ? w[0] : w[1];
    l.weight = v.root(n.inputs[1]);
    l.output = n.outputs.empty() ? "" : n.outputs[0];
    if (n.op_type == "Gemm" && n.inputs.size() > 2 && !n.inputs[2].empty()) {
        l.bias = &n;
    } else {
        const auto users = v.consumers(l.output);
        if (users.size() == 1 && users[0]->op_type == "Add" && v.variableInputs(*users[0]).size() == 1 &&
            !users[0]->outputs.empty()) {
            l.bias = users[0];
            l.output = users[0]->outputs[0];
        }
    }
    return l;
}

// Where a tensor comes from, traced back through `allowed` ops (following variable inputs only) to
// the projections that stop the walk.
struct Trace {
    std::vector<const Node*> projections;
    std::vector<const Node*> passed;  // the allowed nodes walked through
    std::vector<const Node*> dead_ends;  // nodes of other ops (and graph inputs, as nullptr)
    std::set<std::string> tensors;
    OpSet ops;
    bool exhausted = false;  // the walk went beyond its budget
    // The first control-flow node the walk could not pass, and why (its body does more than move data).
    const Node* blocked = nullptr;
    std::string blocked_why;
};

const OpSet kControlFlow{"Loop", "If", "Scan"};

// Why a control-flow node's bodies do more than move the data they read from the enclosing graph, or
// "" when they only move it: torch writes repeat_interleave (GQA's K/V head repeat) as a Loop of
// SequenceAt/Unsqueeze/Expand/Reshape/SequenceInsert when the batch is dynamic. Data is what the
// bodies' inputs and the enclosing graph's non-constant tensors carry, and what is computed from it;
// shape arithmetic on constants is free.
std::string bodyComputes(const GraphView& v, const Node& n) {
    static const OpSet move{"SequenceAt", "SequenceInsert", "SequenceConstruct", "SequenceEmpty", "SequenceErase",
                            "SequenceLength", "SplitToSequence", "ConcatFromSequence", "Identity", "Cast", "Reshape",
                            "Unsqueeze", "Squeeze", "Flatten", "Transpose", "Expand", "Tile", "Concat", "Split",
                            "Slice", "Gather", "Shape", "Size", "Loop", "If", "Scan"};
    static const OpSet projection{"MatMul", "Gemm", "Conv", "ConvTranspose", "Einsum", "MatMulInteger",
                                  "QLinearMatMul", "FusedMatMul"};
    if (!n.subgraphs) return "it has no body";
    std::set<std::string> data(n.subgraphs->inputs.begin(), n.subgraphs->inputs.end());
    for (const auto& c : n.subgraphs->captured)
        if (!v.constant(c)) data.insert(c);
    for (const Node& b : n.subgraphs->nodes) {
        // A nested control-flow node may read data by name alone: its outputs count as data.
        bool reads = kControlFlow.count(b.op_type) > 0;
        for (const auto& in : b.inputs) reads = reads || data.count(in) > 0;
        if (!reads) continue;
        if (projection.count(b.op_type))
            return "its body holds the projection " + inQuotes(b.name) + " (" + b.op_type +
                   "): projections inside control flow are not read";
        if (!move.count(b.op_type) || !b.domain.empty())
            return "its body computes " + inQuotes(b.name) + " (" + b.op_type +
                   ") from the data it reads: only a body that moves heads (repeats, reshapes, gathers) is read through";
        for (const auto& o : b.outputs)
            if (!o.empty()) data.insert(o);
    }
    return "";
}

Trace traceBack(const GraphView& v, const std::string& start, const OpSet& allowed, std::size_t budget) {
    Trace t;
    std::deque<std::string> queue{start};
    t.tensors.insert(start);
    std::set<const Node*> seen;
    while (!queue.empty()) {
        const std::string x = queue.front();
        queue.pop_front();
        const Node* p = v.producer(x);
        if (!p) {
            if (!v.constant(x)) t.dead_ends.push_back(nullptr);
            continue;
        }
        if (!seen.insert(p).second) continue;
        if (seen.size() > budget) {
            t.exhausted = true;
            break;
        }
        if (isProjection(v, *p)) {
            t.projections.push_back(p);
            continue;
        }
        if (!allowed.count(p->op_type)) {
            t.dead_ends.push_back(p);
            continue;
        }
        std::vector<std::string> ins = v.variableInputs(*p);
        if (kControlFlow.count(p->op_type)) {
            if (std::string why = bodyComputes(v, *p); !why.empty()) {
                t.dead_ends.push_back(p);
                if (!t.blocked) {
                    t.blocked = p;
                    t.blocked_why = std::move(why);
                }
                continue;
            }
            for (const auto& c : p->subgraphs->captured)
                if (!v.constant(c)) ins.push_back(c);
        }
        t.passed.push_back(p);
        t.ops.insert(p->op_type);
        for (const auto& in : ins)
            if (t.tensors.insert(in).second) queue.push_back(in);
    }
    return t;
}

// The first node reached forward from `start` through `allowed` ops that satisfies `want`
// (called with the node and the tensor it consumes).
template <class Want>
const Node* findForward(const GraphView& v, const std::string& start, const OpSet& allowed, std::size_t budget, Want want) {
    std::deque<std::string> queue{start};
    std::set<std::string> seen{start};
    std::size_t steps = 0;
    while (!queue.empty() && steps++ < budget) {
        const std::string x = queue.front();
        queue.pop_front();
        for (const Node* c : v.consumers(x)) {
            if (want(*c, x)) return c;
            if (!allowed.count(c->op_type)) continue;
            for (const auto& o : c->outputs)
                if (!o.empty() && seen.insert(o).second) queue.push_back(o);
        }
    }
    return nullptr;
}

bool isActivationMatMul(const GraphView& v, const Node& n) {
    return !n.folded && n.op_type == "MatMul" && n.inputs.size() == 2 && !v.constant(n.inputs[0]) &&
           !v.constant(n.inputs[1]);
}

// One attention block: scores = Q·Kᵀ, Softmax, context = P·V, and the projections around them.
struct Attention {
    const Node* scores = nullptr;
    const Node* softmax = nullptr;
    const Node* context = nullptr;
    Linear q, k, v, o;
    std::int64_t q_width = 0, kv_width = 0, head_dim = 0;
    const Node* split = nullptr;  // the node splitting a fused QKV projection
    std::vector<const Node*> rotary;  // the nodes showing rotary positions (Neg, RotaryEmbedding)
};

const OpSet kScoreOps{"Div", "Mul", "Add", "Sub", "Where", "Cast", "Identity", "Reshape", "Clip", "Max", "Min"};
const OpSet kProbabilityOps{"Dropout", "Cast", "Identity", "Reshape"};
// Between a projection and the attention MatMuls: head layout, the fused QKV split, the score scale,
// rotary positions (q·cos + rotate_half(q)·sin, or com.microsoft's RotaryEmbedding), the GQA repeat
// (Expand or Tile, or a control-flow node whose body only moves heads, with the sequence ops around it).
const OpSet kHeadOps{"Reshape", "Transpose", "Squeeze", "Unsqueeze", "Split", "Slice", "Concat", "Neg",
                     "Mul", "Add", "Sub", "Div", "Cast", "Identity", "Expand", "Tile", "Flatten", "Gather",
                     "RotaryEmbedding", "Loop", "If", "Scan", "SplitToSequence", "ConcatFromSequence",
                     "SequenceConstruct", "SequenceEmpty", "SequenceAt", "SequenceInsert"};
const OpSet kContextOps{"Transpose", "Reshape", "Cast", "Identity", "Flatten", "Squeeze", "Unsqueeze"};

// The width of one of Q, K, V at its projection: the split part of a fused projection, else the whole.
std::int64_t branchWidth(const GraphView& v, const Trace& t, const Linear& l, const Node** split) {
    for (const Node* n : t.passed) {
        if (n->op_type != "Split" && n->op_type != "Slice" && n->op_type != "Gather") continue;
        if (n->inputs.empty() || (n->inputs[0] != l.output && n->inputs[0] != l.node->outputs[0])) continue;
        *split = n;
        const double whole = v.elements(n->inputs[0]);
        for (const auto& o : n->outputs) {
            if (!t.tensors.count(o)) continue;
            const double part = v.elements(o);
            if (whole <= 0 || part <= 0) return 0;
            return static_cast<std::int64_t>(part * static_cast<double>(l.out) / whole);
        }
    }
    return l.out;
}

Linear onlyProjection(const GraphView& v, const Trace& t, const Node& at, const char* what) {
    const std::string place = "the " + std::string(what) + " of the attention at " + inQuotes(at.name);
    // A projection hidden in control flow would leave the one found here a guess: refused either way.
    if (t.blocked)
        refuse(v, place + " pass through " + inQuotes(t.blocked->name) + " (" + t.blocked->op_type + "); " + t.blocked_why +
                      ": export with static shapes");
    std::set<const Node*> distinct(t.projections.begin(), t.projections.end());
    if (distinct.size() != 1) {
        std::string found;
        for (const Node* p : distinct) found += (found.empty() ? "" : ", ") + inQuotes(p->name);
        refuse(v, place + " come from " +
                      (distinct.empty() ? "no projection" : str(static_cast<std::int64_t>(distinct.size())) +
                                                                " projections (" + found + ")") +
                      " (looked back through reshapes, transposes, splits, rotary ops and head repeats, control flow "
                      "included, for a MatMul or Gemm with a constant weight)");
    }
    return linear(v, **distinct.begin());
}

std::optional<Attention> attentionAt(const GraphView& v, const Node& softmax) {
    Attention a;
    a.softmax = &softmax;
    const Trace back = traceBack(v, softmax.inputs.at(0), kScoreOps, 32);
    for (const Node* n : back.dead_ends)
        if (n && isActivationMatMul(v, *n)) {
            a.scores = n;
            break;
        }
    if (!a.scores) return std::nullopt;
    a.context = findForward(v, softmax.outputs.at(0), kProbabilityOps, 16, [&](const Node& n, const std::string& x) {
        return isActivationMatMul(v, n) && n.inputs[0] == x;
    });
    if (!a.context) return std::nullopt;
    const Trace tq = traceBack(v, a.scores->inputs[0], kHeadOps, 512);
    const Trace tk = traceBack(v, a.scores->inputs[1], kHeadOps, 512);
    const Trace tv = traceBack(v, a.context->inputs[1], kHeadOps, 512);
    a.q = onlyProjection(v, tq, *a.scores, "queries");
    a.k = onlyProjection(v, tk, *a.scores, "keys");
    a.v = onlyProjection(v, tv, *a.context, "values");
    if (a.k.node->inputs[0] != a.q.node->inputs[0] || a.v.node->inputs[0] != a.q.node->inputs[0])
        refuse(v, "the attention at " + inQuotes(a.scores->name) + " takes its keys or values from another tensor than its queries "
                  "(cross-attention: encoder-decoder models are not planned)");
    a.q_width = branchWidth(v, tq, a.q, &a.split);
    a.kv_width = branchWidth(v, tk, a.k, &a.split);
    const std::int64_t v_width = branchWidth(v, tv, a.v, &a.split);
    a.head_dim = v.last(a.scores->inputs[0]);
    if (a.q_width <= 0 || a.kv_width <= 0 || a.head_dim <= 0)
        refuse(v, "the widths of the queries and keys at " + inQuotes(a.scores->name) + " are unknown (a shape the import could not resolve)");
    if (v_width != a.kv_width)
        refuse(v, "the attention at " + inQuotes(a.scores->name) + " has keys " + str(a.kv_width) + " wide but values " +
                      str(v_width) + " wide");
    if (a.q_width % a.head_dim != 0 || a.kv_width % a.head_dim != 0)
        refuse(v, "the attention at " + inQuotes(a.scores->name) + ": head size " + str(a.head_dim) +
                      " (the last dim of its queries) does not divide the query width " + str(a.q_width) +
                      " or the key width " + str(a.kv_width));
    for (const Node* n : tq.passed)
        if (n->op_type == "Neg" || n->op_type == "RotaryEmbedding") a.rotary.push_back(n);
    const Node* o = findForward(v, a.context->outputs.at(0), kContextOps, 16, [&](const Node& n, const std::string& x) {
        return isProjection(v, n) && n.inputs[0] == x;
    });
    if (!o)
        refuse(v, "no output projection after the attention context " + inQuotes(a.context->name) +
                      " (looked through transposes and reshapes for a MatMul or Gemm with a constant weight)");
    a.o = linear(v, *o);
    return a;
}

// A feed-forward block: a down projection fed through activation ops by one projection (up) or
// two (gate and up).
struct Mlp {
    Linear down;
    std::vector<Linear> in;  // up, or gate and up
    std::vector<const Node*> activation;
    MlpKind kind = MlpKind::Gelu;
};

const OpSet kActivationOps{"Mul", "Add", "Div", "Sub", "Sigmoid", "Erf", "Tanh", "Pow", "Sqrt", "Gelu", "FastGelu",
                           "BiasGelu", "QuickGelu", "Silu", "Swish", "Cast", "Identity", "Relu", "Softplus", "Clip",
                           "HardSigmoid", "HardSwish", "Mish", "Elu", "Selu", "Celu", "Neg", "Reciprocal"};
const OpSet kGeluOps{"Erf", "Tanh", "Gelu", "FastGelu", "BiasGelu", "QuickGelu", "Sigmoid"};
const OpSet kSwishOps{"Sigmoid", "Silu", "Swish"};

std::optional<Mlp> mlpAt(const GraphView& v, const Node& down, const std::set<const Node*>& attention, std::int64_t hidden) {
    Mlp m;
    m.down = linear(v, down);
    if (m.down.out != hidden) return std::nullopt;
    const Trace t = traceBack(v, down.inputs[0], kActivationOps, 64);
    if (t.exhausted || !t.dead_ends.empty() || t.projections.empty()) return std::nullopt;
    for (const Node* p : std::set<const Node*>(t.projections.begin(), t.projections.end())) {
        if (attention.count(p)) return std::nullopt;
        Linear l = linear(v, *p);
        if (l.in != hidden || l.out != m.down.in) return std::nullopt;
        m.in.push_back(l);
    }
    if (m.in.size() > 2) return std::nullopt;
    std::sort(m.in.begin(), m.in.end(), [&](const Linear& a, const Linear& b) { return v.position(*a.node) < v.position(*b.node); });
    for (const Node* n : t.passed)
        if (kGeluOps.count(n->op_type) || kSwishOps.count(n->op_type) || n->op_type == "Relu") m.activation.push_back(n);
    auto saw = [&](const OpSet& ops) {
        return std::any_of(t.ops.begin(), t.ops.end(), [&](const std::string& op) { return ops.count(op) > 0; });
    };
    const std::string at = inQuotes(down.name);
    if (m.in.size() == 2) {
        if (!saw(kSwishOps))
            refuse(v, "the gated MLP before " + at + " has no SiLU (Sigmoid·x) gate: only SwiGLU gated MLPs are planned");
        m.kind = MlpKind::Swiglu;
    } else {
        if (t.ops.count("Relu"))
            refuse(v, "the MLP before " + at + " uses ReLU: Partita plans GeLU or SwiGLU MLPs");
        if (!saw(kGeluOps))
            refuse(v, "the MLP before " + at + " has no activation recognised as GeLU (Erf, Tanh, Gelu, FastGelu or Sigmoid)");
        m.kind = MlpKind::Gelu;
    }
    return m;
}

// The normalisation producing `t`: one operator (LayerNormalization, com.microsoft's
// SimplifiedLayerNormalization and Skip… forms, RMSNormalization) or the decomposed pattern
// x' / sqrt(mean(x'²) + ε) · gain (+ bias), a LayerNorm when x' = x − mean(x), else an RMSNorm.
struct Norm {
    NormKind kind = NormKind::LayerNorm;
    const Node* node = nullptr;  // the operator, or the pattern's ReduceMean of squares
};

const Node* skipCasts(const GraphView& v, std::string& t) {
    for (int hops = 0; hops < 8; ++hops) {
        const Node* p = v.producer(t);
        if (!p || (p->op_type != "Cast" && p->op_type != "Identity")) return p;
        t = p->inputs.at(0);
    }
    return v.producer(t);
}

// The tensor `op` (a unary producer, casts skipped) takes, or "" when `t` is not made by `op`.
std::string inputOf(const GraphView& v, std::string t, const char* op, const Node** node = nullptr) {
    const Node* p = skipCasts(v, t);
    if (!p || p->op_type != op || p->inputs.empty()) return "";
    if (node) *node = p;
    return p->inputs[0];
}

// The squared tensor under sqrt(mean(x²) + ε): x, or "" when `den` is not that.
std::string squaredUnderRoot(const GraphView& v, const std::string& den, const Node** mean) {
    std::string s = inputOf(v, den, "Sqrt");
    if (s.empty()) return "";
    std::string t = s;
    const Node* p = skipCasts(v, t);
    if (p && p->op_type == "Add" && v.variableInputs(*p).size() == 1) t = v.variableInputs(*p)[0];  // + ε
    std::string sq = inputOf(v, t, "ReduceMean", mean);
    if (sq.empty()) return "";
    std::string u = sq;
    const Node* q = skipCasts(v, u);
    if (!q) return "";
    if (q->op_type == "Pow" && q->inputs.size() == 2 && v.constant(q->inputs[1])) return q->inputs[0];
    if (q->op_type == "Mul" && q->inputs.size() == 2 && q->inputs[0] == q->inputs[1]) return q->inputs[0];
    return "";
}

std::optional<Norm> normBefore(const GraphView& v, std::string t) {
    const Node* p = skipCasts(v, t);
    if (!p) return std::nullopt;
    static const OpSet layer{"LayerNormalization", "SkipLayerNormalization"};
    static const OpSet rms{"SimplifiedLayerNormalization", "SkipSimplifiedLayerNormalization", "RMSNormalization"};
    if (layer.count(p->op_type)) return Norm{NormKind::LayerNorm, p};
    if (rms.count(p->op_type)) return Norm{NormKind::RmsNorm, p};
    // Bias and gain: an Add and a Mul by constants.
    for (const char* op : {"Add", "Mul"}) {
        if (p && p->op_type == op && v.variableInputs(*p).size() == 1 && p->inputs.size() == 2) {
            t = v.variableInputs(*p)[0];
            p = skipCasts(v, t);
        }
    }
    if (!p || p->inputs.size() != 2) return std::nullopt;
    std::string x;
    const Node* mean = nullptr;
    if (p->op_type == "Div") {
        x = p->inputs[0];
        if (squaredUnderRoot(v, p->inputs[1], &mean).empty()) return std::nullopt;
    } else if (p->op_type == "Mul") {
        // x · 1/sqrt(…): Reciprocal, or Div(1, sqrt(…)).
        for (int i = 0; i < 2 && x.empty(); ++i) {
            std::string r = p->inputs[static_cast<std::size_t>(i)];
            const Node* rp = skipCasts(v, r);
            std::string den;
            if (rp && rp->op_type == "Reciprocal") den = rp->inputs.at(0);
            if (rp && rp->op_type == "Div" && rp->inputs.size() == 2 && v.constant(rp->inputs[0])) den = rp->inputs[1];
            if (!den.empty() && !squaredUnderRoot(v, den, &mean).empty()) x = p->inputs[static_cast<std::size_t>(1 - i)];
        }
        if (x.empty()) return std::nullopt;
    } else {
        return std::nullopt;
    }
    // Centred: x' = x − mean(x).
    std::string c = x;
    const Node* sub = skipCasts(v, c);
    const bool centred = sub && sub->op_type == "Sub" && sub->inputs.size() == 2 &&
                         !inputOf(v, sub->inputs[1], "ReduceMean").empty();
    return Norm{centred ? NormKind::LayerNorm : NormKind::RmsNorm, mean};
}

// The graph input a tensor of token ids comes from, through casts and reshapes; "" if none.
std::string idsInput(const GraphView& v, std::string t) {
    static const OpSet pass{"Cast", "Identity", "Reshape", "Unsqueeze", "Squeeze", "Flatten"};
    for (int hops = 0; hops < 8; ++hops) {
        if (v.isGraphInput(t)) return t;
        const Node* p = v.producer(t);
        if (!p || !pass.count(p->op_type) || p->inputs.empty()) return "";
        t = p->inputs[0];
    }
    return "";
}

struct Embedding {
    const Node* gather = nullptr;
    std::string table;  // root initializer
    std::string ids;    // graph input
    std::int64_t vocab = 0;
};

// Positions added to the token embedding: a constant [.., s, hidden] (a folded table slice) or a
// Gather on a [positions, hidden] table not indexed by a token-type input. Returns the node showing it.
const Node* learnedPositions(const GraphView& v, const Embedding& e, std::int64_t hidden) {
    std::string x = e.gather->outputs.at(0);
    for (int hops = 0; hops < 4; ++hops) {
        const auto users = v.consumers(x);
        const Node* add = nullptr;
        for (const Node* u : users)
            if (u->op_type == "Add" || u->op_type == "Mul" || u->op_type == "Cast") add = u;
        if (!add || add->outputs.empty()) return nullptr;
        if (add->op_type == "Add") {
            for (const auto& other : add->inputs) {
                if (other == x || other.empty()) continue;
                const auto d = v.dims(other);
                if (v.constant(other) && d.size() >= 2 && d.back() == hidden) return add;
                std::string t = other;
                static const OpSet pass{"Cast", "Identity", "Reshape", "Unsqueeze", "Squeeze", "Expand"};
                const Node* p = v.producer(t);
                for (int k = 0; k < 8 && p && pass.count(p->op_type); ++k) p = v.producer(t = p->inputs.at(0));
                if (p && p->op_type == "Gather" && p->inputs.size() == 2 && v.constant(p->inputs[0]) &&
                    v.dims(p->inputs[0]).size() == 2 && v.dims(p->inputs[0])[1] == hidden) {
                    std::string ids = idsInput(v, p->inputs[1]);
                    std::transform(ids.begin(), ids.end(), ids.begin(), [](unsigned char c) { return std::tolower(c); });
                    if (ids.find("type") == std::string::npos && ids.find("segment") == std::string::npos) return p;
                }
            }
        }
        x = add->outputs[0];
    }
    return nullptr;
}

std::string names(const std::vector<const Node*>& nodes) {
    std::string s;
    for (const Node* n : nodes) s += (s.empty() ? "" : ", ") + inQuotes(n->name);
    return s;
}

std::string boolText(bool b) { return b ? "true" : "false"; }

}  // namespace

namespace {

OnnxTransformer recognise(const Graph& g) {
    const GraphView v(g);
    // Attention blocks, in graph order.
    std::vector<Attention> blocks;
    for (const Node& n : g.nodes)
        if (n.op_type == "Softmax" && !n.folded)
            if (auto a = attentionAt(v, n)) blocks.push_back(*a);
    if (blocks.empty()) {
        static const OpSet fused{"Attention", "MultiHeadAttention", "GroupQueryAttention", "PackedAttention"};
        std::string hint;
        for (const Node& n : g.nodes)
            if (fused.count(n.op_type)) {
                hint = "; the model uses the fused operator " + inQuotes(n.op_type) + " (node " + inQuotes(n.name) +
                       "), which is not read: export without attention fusion";
                break;
            }
        refuse(v, "no repeated attention block found (looked for MatMul→Softmax→MatMul with Q/K/V projections)" + hint);
    }
    const Attention& first = blocks.front();
    const std::int64_t hidden = first.q.in;
    for (std::size_t i = 0; i < blocks.size(); ++i) {
        const Attention& b = blocks[i];
        if (b.q.in != hidden || b.q_width != first.q_width || b.kv_width != first.kv_width || b.head_dim != first.head_dim ||
            b.o.out != hidden || b.o.in != b.q_width)
            refuse(v, "attention block " + str(static_cast<std::int64_t>(i)) + " at " + inQuotes(b.scores->name) + " (hidden " +
                          str(b.q.in) + ", queries " + str(b.q_width) + ", keys " + str(b.kv_width) + ", output " + str(b.o.in) +
                          " → " + str(b.o.out) + ") differs from block 0 at " + inQuotes(first.scores->name) + " (hidden " +
                          str(hidden) + ", queries " + str(first.q_width) + ", keys " + str(first.kv_width) +
                          "): Partita plans repeated identical blocks");
    }
    std::set<const Node*> attention;
    for (const Attention& b : blocks)
        for (const Linear* l : {&b.q, &b.k, &b.v, &b.o}) attention.insert(l->node);

    // MLPs: one per block, in graph order.
    std::vector<Mlp> mlps;
    for (const Node& n : g.nodes)
        if (isProjection(v, n) && !attention.count(&n))
            if (auto m = mlpAt(v, n, attention, hidden)) mlps.push_back(*m);
    if (mlps.size() != blocks.size())
        refuse(v, "found " + str(static_cast<std::int64_t>(blocks.size())) + " attention blocks but " +
                      str(static_cast<std::int64_t>(mlps.size())) + " MLPs (looked for a projection back to hidden " +
                      str(hidden) + " fed through activation ops by one or two projections from hidden " + str(hidden) + ")");
    for (std::size_t i = 0; i < mlps.size(); ++i)
        if (mlps[i].down.in != mlps[0].down.in || mlps[i].kind != mlps[0].kind || mlps[i].in.size() != mlps[0].in.size())
            refuse(v, "the MLP ending at " + inQuotes(mlps[i].down.node->name) + " differs from the first, ending at " +
                          inQuotes(mlps[0].down.node->name) + ": Partita plans repeated identical blocks");
    std::set<const Node*> mlp_nodes;
    for (const Mlp& m : mlps) {
        mlp_nodes.insert(m.down.node);
        for (const Linear& l : m.in) mlp_nodes.insert(l.node);
    }

    // Norms before each attention and each MLP.
    std::optional<Norm> norm0;
    for (std::size_t i = 0; i < blocks.size(); ++i) {
        const std::pair<const Linear*, const char*> places[] = {{&blocks[i].q, "the Q projection"},
                                                                 {&mlps[i].in.front(), "the MLP's first projection"}};
        for (const auto& [l, what] : places) {
            const auto n = normBefore(v, l->node->inputs[0]);
            if (!n)
                refuse(v, "no normalisation before " + std::string(what) + " " + inQuotes(l->node->name) +
                              " (looked for LayerNormalization, SimplifiedLayerNormalization, RMSNormalization, or "
                              "ReduceMean of a square, Sqrt and Div)");
            if (!norm0) norm0 = n;
            if (n->kind != norm0->kind)
                refuse(v, "the norm " + inQuotes(n->node->name) + " is " + normName(n->kind) + " but " + inQuotes(norm0->node->name) +
                              " is " + normName(norm0->kind));
        }
    }

    // Token embedding: the largest [vocab, hidden] table gathered by a graph input.
    Embedding emb;
    for (const Node& n : g.nodes) {
        if (n.op_type != "Gather" || n.folded || n.inputs.size() != 2 || !v.constant(n.inputs[0])) continue;
        const auto d = v.dims(n.inputs[0]);
        const std::string ids = idsInput(v, n.inputs[1]);
        if (d.size() != 2 || d[1] != hidden || ids.empty()) continue;
        if (d[0] > emb.vocab) emb = {&n, v.root(n.inputs[0]), ids, d[0]};
    }
    if (!emb.gather)
        refuse(v, "no token embedding found (looked for a Gather from a [vocab, " + str(hidden) +
                      "] table indexed by a graph input)");
    const auto ids_dims = v.dims(emb.ids);
    if (ids_dims.size() != 2)
        refuse(v, "the token ids " + inQuotes(emb.ids) + " are not a [batch, sequence] input");

    // LM head: a projection from hidden to the vocabulary, the last in graph order.
    const Node* head = nullptr;
    std::vector<const Node*> others;
    for (const Node& n : g.nodes) {
        if (!isProjection(v, n) || attention.count(&n) || mlp_nodes.count(&n)) continue;
        const Linear l = linear(v, n);
        if (l.in != hidden) continue;
        if (l.out == emb.vocab) head = &n;
        else others.push_back(&n);
    }
    if (!head)
        refuse(v, "no LM head found (looked for a MatMul or Gemm from hidden " + str(hidden) + " to the " + str(emb.vocab) +
                      " rows of the embedding " + inQuotes(emb.table) + ")" +
                      (others.empty() ? "" : "; other projections from hidden: " + names(others)));
    const Linear lm = linear(v, *head);
    const auto final_norm = normBefore(v, head->inputs[0]);

    // Positions.
    const Node* learned = learnedPositions(v, emb, hidden);
    std::vector<const Node*> rotary;
    for (const Attention& b : blocks)
        rotary.insert(rotary.end(), b.rotary.begin(), b.rotary.end());

    const Mlp& m0 = mlps.front();
    const Family family = m0.kind == MlpKind::Swiglu || norm0->kind == NormKind::RmsNorm ? Family::Llama : Family::Gpt;
    OnnxTransformer out;
    out.file = g.source;
    out.ids_input = emb.ids;
    out.embedding_table = emb.table;
    out.head_weight = lm.weight;
    Transformer& m = out.model;
    m = familyDefaults(family);
    m.name = g.name;
    m.provenance = "recognised in " + g.source + " (ONNX)";
    m.layers = static_cast<std::int64_t>(blocks.size());
    m.hidden = hidden;
    m.heads = first.q_width / first.head_dim;
    m.kv_heads = first.kv_width / first.head_dim;
    if (m.heads * first.head_dim != hidden) m.head_dim = first.head_dim;
    m.ffn = m0.down.in;
    m.seq = ids_dims[1];
    m.vocab = emb.vocab;
    m.mlp = m0.kind;
    m.norm = norm0->kind;
    m.position = learned ? Position::Learned : !rotary.empty() ? Position::Rope : Position::None;
    m.tied_embeddings = lm.weight == emb.table;
    m.biases = first.q.bias != nullptr;
    try {
        validate(m);
    } catch (const FieldError& e) {
        refuse(v, std::string("the recognised transformer is outside what Partita plans: ") + e.what());
    }

    auto ev = [&](const char* key, const std::string& value, const std::vector<std::string>& from) {
        std::vector<std::string> distinct;
        for (const auto& f : from)
            if (std::find(distinct.begin(), distinct.end(), f) == distinct.end()) distinct.push_back(f);
        out.evidence.push_back({key, value, distinct});
    };
    std::vector<std::string> softmaxes;
    for (const Attention& b : blocks) softmaxes.push_back(b.softmax->name);
    ev("layers", str(m.layers), softmaxes);
    ev("hidden", str(m.hidden), {first.q.node->name, emb.gather->name});
    std::vector<std::string> qfrom{first.scores->name, first.q.node->name};
    if (first.split) qfrom.push_back(first.split->name);
    ev("heads", str(m.heads), qfrom);
    ev("kv_heads", str(m.kv_heads), {first.k.node->name, first.v.node->name});
    if (m.head_dim > 0) ev("head_dim", str(m.head_dim), {first.scores->name});
    std::vector<std::string> mlp_from;
    for (const Linear& l : m0.in) mlp_from.push_back(l.node->name);
    mlp_from.push_back(m0.down.node->name);
    ev("ffn", str(m.ffn), mlp_from);
    std::vector<std::string> act;
    for (const Node* n : m0.activation) act.push_back(n->name);
    ev("mlp", mlpName(m.mlp), act);
    std::vector<std::string> norm_from{norm0->node->name};
    if (final_norm) norm_from.push_back(final_norm->node->name);
    ev("norm", normName(m.norm), norm_from);
    ev("vocab", str(m.vocab), {emb.gather->name, head->name});
    ev("tied_embeddings", boolText(m.tied_embeddings), {head->name, lm.weight, emb.table});
    ev("seq", str(m.seq), {emb.ids});
    if (learned) ev("position", positionName(m.position), {learned->name});
    else if (!rotary.empty()) ev("position", positionName(m.position), {rotary.front()->name});
    else ev("position", positionName(m.position), {});
    ev("biases", boolText(m.biases), first.q.bias ? std::vector<std::string>{first.q.bias->name} : std::vector<std::string>{});
    return out;
}

}  // namespace

OnnxTransformer recogniseTransformer(const Graph& g) {
    try {
        return recognise(g);
    } catch (const std::out_of_range&) {
        // A node outside the default domain named like a standard one may lack the inputs the walk reads.
        throw InputError(g.source, "", "a node the transformer walk reads lacks an input or output of its operator");
    }
}

bool isOnnxFile(const std::string& path) {
    std::string ext = std::filesystem::path(path).extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
    if (ext == ".onnx") return true;
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) return false;
    std::ifstream in(path, std::ios::binary);
    char c = 0;
    // An ONNX ModelProto starts with field 1 (ir_version, a varint): byte 0x08. JSON never does.
    return in.get(c) && c == '\x08';
}

OnnxTransformer loadOnnxTransformer(const std::string& path, std::int64_t seq) {
    onnx::OnnxModel model = onnx::OnnxModel::read(path);
    // The token ids' sequence axis: dim 1 of a [batch, sequence] integer input left open takes `seq`
    // (shared symbols with it), else the import's default to read the structure.
    std::set<std::string> open;
    onnx::InputDims given;
    for (const onnx::GraphInput& in : model.inputs()) {
        const bool integer = in.dtype == "int64" || in.dtype == "int32";
        if (!integer || !in.rank_known || in.dims.size() != 2 || in.dims[1].fixed()) continue;
        open.insert(in.name);
        if (seq <= 0) continue;
        if (!in.dims[1].symbol.empty()) given.symbols[in.dims[1].symbol] = seq;
        else given.inputs[in.name] = {in.dims[0].fixed() ? in.dims[0].value : 1, seq};
    }
    const onnx::InputDims dims = onnx::withDefaults(model.inputs(), given);
    const Graph g = model.importStructure(dims);
    OnnxTransformer t = recogniseTransformer(g);
    if (!t.model.tied_embeddings) {
        const onnx::Tensor* table = g.tensor(t.embedding_table);
        const onnx::Tensor* head = g.tensor(t.head_weight);
        const bool transposed = table && head && head->dims.size() == 2 && table->dims == std::vector{head->dims[1], head->dims[0]};
        if (model.sameValues(t.embedding_table, t.head_weight, transposed)) {
            t.model.tied_embeddings = true;
            for (auto& e : t.evidence)
                if (e.key == "tied_embeddings") {
                    e.value = "true";
                    e.from.push_back(t.head_weight + (transposed ? " holds the transposed values of " : " holds the values of ") +
                                     t.embedding_table);
                }
        }
    }
    t.seq_static = !open.count(t.ids_input);
    if (!t.seq_static && seq <= 0)
        throw InputError(path, "input " + inQuotes(t.ids_input),
                         "the sequence length (dim 1 of the token ids) is dynamic: give it (--seq S)");
    for (auto& e : t.evidence)
        if (e.key == "seq" && !t.seq_static) e.from = {t.ids_input + " (dynamic; the given sequence length)"};
    return t;
}

std::string onnxSummary(const OnnxTransformer& t) {
    const Transformer& m = t.model;
    std::string s = "model recognised in " + t.file + ": " + str(m.layers) + " layers, hidden " + str(m.hidden) + ", " +
                    str(m.heads) + " heads (" + str(m.kv_heads) + " KV) of " + str(m.headDim()) + ", ffn " + str(m.ffn) +
                    " " + mlpName(m.mlp) + ", " + normName(m.norm) + ", vocab " + str(m.vocab) +
                    (m.tied_embeddings ? " tied" : " untied") + ", seq " + str(m.seq) +
                    (t.seq_static ? "" : " (given)") + ", positions " + positionName(m.position) +
                    (m.biases ? ", biases" : ", no biases");
    return s;
}

}  // namespace partita::llm
