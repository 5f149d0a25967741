#pragma once
// Small ONNX transformers built in the tests (onnx_builder.h), the graphs torch.onnx.export writes for
// a GPT-2 block and a LLaMA block, for the recogniser of core/llm/onnx_transformer.h.
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

#include "onnx_builder.h"

namespace partita::test {

struct TinyTransformer {
    std::int64_t layers = 2, batch = 2, seq = 16, hidden = 32, heads = 4, kv_heads = 4, ffn = 128, vocab = 100;
    bool dynamic_seq = false;  // ids [batch, "seq"], reshape targets from Shape chains
    bool contrib_norm = false;  // LLaMA: com.microsoft's SimplifiedLayerNormalization instead of the pattern
    bool relu = false;          // GPT: a ReLU MLP (refused)
    bool folded_head = false;   // GPT: the LM head on a copy of the embedding's transposed values
    bool no_positions = false;  // GPT: no position table
    bool loop_repeat = false;      // LLaMA: the K/V head repeat as a Loop, as torch writes it with a dynamic batch
    bool loop_projection = false;  // LLaMA: the K projection itself inside a Loop's body (refused)
    std::int64_t headDim() const { return hidden / heads; }
};

class TransformerBuilder {
public:
    TransformerBuilder(int opset, const TinyTransformer& t) : b(opset, "tiny"), t_(t) {}

    OnnxBuilder b;

    std::string n(const std::string& base) { return base + "_" + std::to_string(counter_++); }

    void ids() {
        if (t_.dynamic_seq) b.input("ids", {t_.batch, std::string("seq")}, OnnxBuilder::kInt64);
        else b.input("ids", {t_.batch, t_.seq}, OnnxBuilder::kInt64);
    }

    // x reshaped to [batch, seq, parts...]: a constant target, or with a dynamic sequence the
    // Shape → Gather → Unsqueeze → Concat chain exporters write.
    std::string reshape(const std::string& x, const std::vector<std::int64_t>& parts) {
        const std::string target = n("target");
        if (!t_.dynamic_seq) {
            std::vector<std::int64_t> v{t_.batch, t_.seq};
            v.insert(v.end(), parts.begin(), parts.end());
            b.ints(target, v);
        } else {
            const std::string shape = n("shape"), idx = n("one"), s = n("s"), axes = n("axes"), s1 = n("s1"), rest = n("rest");
            b.node("Shape", {"ids"}, {shape}, n("Shape"));
            b.scalarInt(idx, 1);
            b.node("Gather", {shape, idx}, {s}, n("Gather"));
            b.ints(axes, {0});
            b.node("Unsqueeze", {s, axes}, {s1}, n("Unsqueeze"));
            b.ints(rest, parts);
            const std::string lead = n("lead");
            b.ints(lead, {t_.batch});
            OnnxBuilder::attrInt(b.node("Concat", {lead, s1, rest}, {target}, n("Concat")), "axis", 0);
        }
        const std::string out = n("reshaped");
        b.node("Reshape", {x, target}, {out}, n("Reshape"));
        return out;
    }
    std::string transpose(const std::string& x, const std::vector<std::int64_t>& perm) {
        const std::string out = n("t");
        OnnxBuilder::attrInts(b.node("Transpose", {x}, {out}, n("Transpose")), "perm", perm);
        return out;
    }
    std::string matmul(const std::string& x, const std::string& w, const std::string& name) {
        const std::string out = name + "_out";
        b.node("MatMul", {x, w}, {out}, name);
        return out;
    }
    std::string linear(const std::string& x, std::int64_t in, std::int64_t out, const std::string& name, bool bias) {
        b.weight(name + ".weight", {in, out});
        std::string y = matmul(x, name + ".weight", name);
        if (bias) {
            b.weight(name + ".bias", {out});
            const std::string z = name + "_biased";
            b.node("Add", {name + ".bias", y}, {z}, name + "_bias");
            y = z;
        }
        return y;
    }
    std::string binary(const char* op, const std::string& a, const std::string& c) {
        const std::string out = n(op);
        b.node(op, {a, c}, {out}, out);
        return out;
    }
    std::string unary(const char* op, const std::string& a) {
        const std::string out = n(op);
        b.node(op, {a}, {out}, out);
        return out;
    }
    // A float weight whose element i is seed + i (distinct data, unlike OnnxBuilder::weight's zeros).
    void patterned(const std::string& name, const std::vector<std::int64_t>& dims, float seed) {
        std::vector<float> values(static_cast<std::size_t>(dims[0] * dims[1]));
        for (std::size_t i = 0; i < values.size(); ++i) values[i] = seed + static_cast<float>(i);
        b.floats(name, values, dims);
    }
    std::string scalar(float v) {
        const std::string name = n("c");
        b.floats(name, {v}, {});
        return name;
    }

    // Q·Kᵀ / √d, Softmax, ·V, heads merged: q [b, heads, s, d], kt [b, heads, d, s], v [b, heads, s, d].
    std::string attentionCore(const std::string& q, const std::string& kt, const std::string& v) {
        const std::string scores = matmul(q, kt, n("scores"));
        const std::string scaled = binary("Div", scores, scalar(2.0f));
        const std::string p = n("probs");
        OnnxBuilder::attrInt(b.node("Softmax", {scaled}, {p}, n("Softmax")), "axis", -1);
        const std::string ctx = matmul(p, v, n("context"));
        return reshape(transpose(ctx, {0, 2, 1, 3}), {t_.heads * t_.headDim()});
    }

    // A Loop node over a body built by `fill` (given the body graph and the iteration number; it
    // returns the tensor to append to the sequence the loop carries, empty at first); its output is
    // that sequence concatenated along `axis`.
    template <class Fill>
    std::string loop(std::int64_t trips, std::int64_t axis, Fill fill) {
        const std::string trip = n("trips"), cond = n("cond"), empty = n("empty"), acc = n("acc"), out = n("concat");
        b.scalarInt(trip, trips);
        OnnxBuilder::attrTensor(b.node("Constant", {}, {cond}, cond), "value", ::onnx::TensorProto::BOOL, {}).add_int32_data(1);
        b.node("SequenceEmpty", {}, {empty}, empty);
        auto& node = b.node("Loop", {trip, cond, empty}, {acc}, n("Loop"));
        auto* attr = node.add_attribute();
        attr->set_name("body");
        attr->set_type(::onnx::AttributeProto::GRAPH);
        ::onnx::GraphProto& body = *attr->mutable_g();
        body.set_name(node.name() + "_body");
        const std::string i = n("i"), c = n("c"), seq_in = n("seq_in"), c_out = n("c_out"), seq_out = n("seq_out");
        auto scalar = [](::onnx::ValueInfoProto* v, const std::string& name, int type) {
            v->set_name(name);
            v->mutable_type()->mutable_tensor_type()->set_elem_type(type);
            v->mutable_type()->mutable_tensor_type()->mutable_shape();
        };
        auto sequence = [](::onnx::ValueInfoProto* v, const std::string& name) {
            v->set_name(name);
            v->mutable_type()->mutable_sequence_type()->mutable_elem_type()->mutable_tensor_type()->set_elem_type(OnnxBuilder::kFloat);
        };
        scalar(body.add_input(), i, OnnxBuilder::kInt64);
        scalar(body.add_input(), c, ::onnx::TensorProto::BOOL);
        sequence(body.add_input(), seq_in);
        const std::string item = fill(body, i);
        bodyNode(body, "SequenceInsert", {seq_in, item}, seq_out);
        bodyNode(body, "Identity", {c}, c_out);
        scalar(body.add_output(), c_out, ::onnx::TensorProto::BOOL);
        sequence(body.add_output(), seq_out);
        OnnxBuilder::attrInt(b.node("ConcatFromSequence", {acc}, {out}, n("ConcatFromSequence")), "axis", axis);
        return out;
    }
    static ::onnx::NodeProto& bodyNode(::onnx::GraphProto& g, const std::string& op, const std::vector<std::string>& ins,
                                       const std::string& out) {
        auto* x = g.add_node();
        x->set_op_type(op);
        x->set_name(out);
        for (const auto& in : ins) x->add_input(in);
        x->add_output(out);
        return *x;
    }

    // torch's repeat_interleave on [b, kv, s, d] with a dynamic batch: the heads split into a
    // sequence, a Loop whose body takes head i and expands it rep times, the sequence concatenated.
    std::string loopRepeat(const std::string& in) {
        const std::int64_t rep = t_.heads / t_.kv_heads;
        const std::string heads = n("heads_seq");
        OnnxBuilder::attrInt(b.node("SplitToSequence", {in}, {heads}, n("SplitToSequence")), "axis", 1);
        return loop(t_.kv_heads, 1, [&](::onnx::GraphProto& body, const std::string& i) {
            const std::string head = n("head"), shape = n("rep_shape"), expanded = n("expanded");
            bodyNode(body, "SequenceAt", {heads, i}, head);
            auto* target = body.add_initializer();
            target->set_name(shape);
            target->set_data_type(OnnxBuilder::kInt64);
            target->add_dims(4);
            for (const std::int64_t v : {t_.batch, rep, t_.seq, t_.headDim()}) target->add_int64_data(v);
            bodyNode(body, "Expand", {head, shape}, expanded);
            return expanded;
        });
    }

    // x · W computed inside a Loop's body, W and x read by name from the enclosing graph.
    std::string loopProjection(const std::string& x, std::int64_t in, std::int64_t out, const std::string& name) {
        b.weight(name + ".weight", {in, out});
        return loop(1, 0, [&](::onnx::GraphProto& body, const std::string&) {
            bodyNode(body, "MatMul", {x, name + ".weight"}, name + "_in_loop");
            return name + "_in_loop";
        });
    }

    const TinyTransformer& t_;
    int counter_ = 0;
};

// GPT-2: LayerNormalization (opset 17), fused QKV with biases split in three, GeLU written with Erf,
// learned positions gathered from a table by constant indices, LM head on the transposed embedding.
inline OnnxBuilder gpt2(const TinyTransformer& t) {
    TransformerBuilder tb(17, t);
    OnnxBuilder& b = tb.b;
    const std::int64_t h = t.hidden, d = t.headDim();
    tb.ids();
    tb.patterned("wte", {t.vocab, h}, 0.0f);
    b.weight("wpe", {t.seq + 8, h});
    if (t.dynamic_seq) {
        // arange(ids.shape[1]): Shape → Gather → Range, folded at import.
        b.node("Shape", {"ids"}, {"ids_shape"}, "ids_shape");
        b.scalarInt("one", 1);
        b.scalarInt("zero", 0);
        b.node("Gather", {"ids_shape", "one"}, {"length"}, "length");
        b.node("Range", {"zero", "length", "one"}, {"positions"}, "arange");
    } else {
        std::vector<std::int64_t> positions;
        for (std::int64_t i = 0; i < t.seq; ++i) positions.push_back(i);
        b.ints("positions", positions);
    }
    b.node("Gather", {"wte", "ids"}, {"tok"}, "wte_gather");
    b.node("Gather", {"wpe", "positions"}, {"pos"}, "wpe_gather");
    std::string x = "x0";
    if (t.no_positions) b.node("Identity", {"tok"}, {x}, "embed_identity");
    else b.node("Add", {"tok", "pos"}, {x}, "embed_add");
    auto layerNorm = [&](const std::string& in, const std::string& name) {
        b.weight(name + ".g", {h});
        b.weight(name + ".b", {h});
        const std::string out = name + "_out";
        OnnxBuilder::attrInt(b.node("LayerNormalization", {in, name + ".g", name + ".b"}, {out}, name), "axis", -1);
        return out;
    };
    for (std::int64_t l = 0; l < t.layers; ++l) {
        const std::string p = "h" + std::to_string(l) + ".";
        const std::string qkv = tb.linear(layerNorm(x, p + "ln1"), h, 3 * h, p + "qkv", true);
        b.ints(p + "split", {h, h, h});
        OnnxBuilder::attrInt(b.node("Split", {qkv, p + "split"}, {p + "q", p + "k", p + "v"}, p + "split_qkv"), "axis", 2);
        const std::string q = tb.transpose(tb.reshape(p + "q", {t.heads, d}), {0, 2, 1, 3});
        const std::string kt = tb.transpose(tb.reshape(p + "k", {t.heads, d}), {0, 2, 3, 1});
        const std::string v = tb.transpose(tb.reshape(p + "v", {t.heads, d}), {0, 2, 1, 3});
        const std::string o = tb.linear(tb.attentionCore(q, kt, v), h, h, p + "proj", true);
        x = tb.binary("Add", x, o);
        const std::string up = tb.linear(layerNorm(x, p + "ln2"), h, t.ffn, p + "up", true);
        std::string act;
        if (t.relu) {
            act = tb.unary("Relu", up);
        } else {
            const std::string erf = tb.unary("Erf", tb.binary("Div", up, tb.scalar(1.4142135f)));
            act = tb.binary("Mul", tb.binary("Mul", up, tb.binary("Add", erf, tb.scalar(1.0f))), tb.scalar(0.5f));
        }
        x = tb.binary("Add", x, tb.linear(act, t.ffn, h, p + "down", true));
    }
    if (t.folded_head) {
        // What torch.onnx.export writes for x @ wte.weight.t() with constant folding: a transposed copy.
        std::vector<float> copy(static_cast<std::size_t>(t.vocab * h));
        for (std::int64_t i = 0; i < t.vocab; ++i)
            for (std::int64_t j = 0; j < h; ++j) copy[static_cast<std::size_t>(j * t.vocab + i)] = static_cast<float>(i * h + j);
        b.floats("onnx::MatMul_99", copy, {h, t.vocab});
        b.node("MatMul", {layerNorm(x, "ln_f"), "onnx::MatMul_99"}, {"logits"}, "lm_head");
    } else {
        OnnxBuilder::attrInts(b.node("Transpose", {"wte"}, {"wte_t"}, "wte_transpose"), "perm", {1, 0});
        b.node("MatMul", {layerNorm(x, "ln_f"), "wte_t"}, {"logits"}, "lm_head");
    }
    b.output("logits");
    return std::move(b);
}

// LLaMA: RMSNorm written out (Pow, ReduceMean, Add ε, Sqrt, Div, gain) or as com.microsoft's
// SimplifiedLayerNormalization, separate Q/K/V projections without biases, fewer K/V heads repeated
// by Unsqueeze → Expand → Reshape (or a Loop), rotary positions (q·cos + rotate_half(q)·sin), SwiGLU with
// Sigmoid·x, untied LM head.
inline OnnxBuilder llama(const TinyTransformer& t) {
    TransformerBuilder tb(14, t);
    OnnxBuilder& b = tb.b;
    if (t.contrib_norm) {
        auto* op = b.model.add_opset_import();
        op->set_domain("com.microsoft");
        op->set_version(1);
    }
    const std::int64_t h = t.hidden, d = t.headDim(), rep = t.heads / t.kv_heads;
    tb.ids();
    tb.patterned("embed", {t.vocab, h}, 0.0f);
    std::string x = "x0";
    b.node("Gather", {"embed", "ids"}, {x}, "embed_gather");
    b.weight("cos", {t.seq, d});
    b.weight("sin", {t.seq, d});
    b.ints("half_lo", {0});
    b.ints("half_mid", {d / 2});
    b.ints("half_hi", {d});
    b.ints("last_axis", {3});
    auto rmsNorm = [&](const std::string& in, const std::string& name) {
        b.weight(name + ".g", {h});
        if (t.contrib_norm) {
            const std::string out = name + "_out";
            auto& node = b.node("SimplifiedLayerNormalization", {in, name + ".g"}, {out}, name);
            node.set_domain("com.microsoft");
            OnnxBuilder::attrInt(node, "axis", -1);
            return out;
        }
        const std::string sq = tb.binary("Pow", in, tb.scalar(2.0f));
        const std::string mean = tb.n(name + "_mean");
        auto& rm = b.node("ReduceMean", {sq}, {mean}, mean);
        OnnxBuilder::attrInts(rm, "axes", {-1});
        const std::string root = tb.unary("Sqrt", tb.binary("Add", mean, tb.scalar(1e-6f)));
        return tb.binary("Mul", name + ".g", tb.binary("Div", in, root));
    };
    auto rotary = [&](const std::string& in) {
        const std::string lo = tb.n("lo"), hi = tb.n("hi"), cat = tb.n("rot");
        b.node("Slice", {in, "half_lo", "half_mid", "last_axis"}, {lo}, lo);
        b.node("Slice", {in, "half_mid", "half_hi", "last_axis"}, {hi}, hi);
        OnnxBuilder::attrInt(b.node("Concat", {tb.unary("Neg", hi), lo}, {cat}, cat), "axis", -1);
        return tb.binary("Add", tb.binary("Mul", in, "cos"), tb.binary("Mul", cat, "sin"));
    };
    // [b, kv, s, d] → [b, heads, s, d]: each K/V head repeated rep times.
    auto repeat = [&](const std::string& in) {
        const std::string u = tb.n("u"), e = tb.n("expanded"), axes = tb.n("axes"), shape = tb.n("shape");
        b.ints(axes, {2});
        b.node("Unsqueeze", {in, axes}, {u}, u);
        b.ints(shape, {t.batch, t.kv_heads, rep, t.seq, d});
        b.node("Expand", {u, shape}, {e}, e);
        const std::string target = tb.n("target"), out = tb.n("repeated");
        b.ints(target, {t.batch, t.heads, t.seq, d});
        b.node("Reshape", {e, target}, {out}, out);
        return out;
    };
    auto heads = [&](const std::string& in) { return t.loop_repeat ? tb.loopRepeat(in) : repeat(in); };
    for (std::int64_t l = 0; l < t.layers; ++l) {
        const std::string p = "layers." + std::to_string(l) + ".";
        const std::string n1 = rmsNorm(x, p + "attn_norm");
        const std::string q = rotary(tb.transpose(tb.reshape(tb.linear(n1, h, t.heads * d, p + "q_proj", false), {t.heads, d}), {0, 2, 1, 3}));
        const std::string kp = t.loop_projection ? tb.loopProjection(n1, h, t.kv_heads * d, p + "k_proj")
                                                 : tb.linear(n1, h, t.kv_heads * d, p + "k_proj", false);
        const std::string k = rotary(tb.transpose(tb.reshape(kp, {t.kv_heads, d}), {0, 2, 1, 3}));
        const std::string v = tb.transpose(tb.reshape(tb.linear(n1, h, t.kv_heads * d, p + "v_proj", false), {t.kv_heads, d}), {0, 2, 1, 3});
        const std::string kt = tb.transpose(heads(k), {0, 1, 3, 2});
        const std::string o = tb.linear(tb.attentionCore(q, kt, heads(v)), t.heads * d, h, p + "o_proj", false);
        x = tb.binary("Add", x, o);
        const std::string n2 = rmsNorm(x, p + "mlp_norm");
        const std::string gate = tb.linear(n2, h, t.ffn, p + "gate_proj", false);
        const std::string up = tb.linear(n2, h, t.ffn, p + "up_proj", false);
        const std::string silu = tb.binary("Mul", gate, tb.unary("Sigmoid", gate));
        x = tb.binary("Add", x, tb.linear(tb.binary("Mul", silu, up), t.ffn, h, p + "down_proj", false));
    }
    tb.patterned("lm_head.weight", {h, t.vocab}, 0.5f);  // its own values: untied
    b.node("MatMul", {rmsNorm(x, "norm"), "lm_head.weight"}, {"logits"}, "lm_head");
    b.output("logits");
    return std::move(b);
}

// A model JSON file under the temporary folder, removed when the test binary exits.
inline std::string tempModelJson(const std::string& text) {
    struct Files : std::vector<std::filesystem::path> {
        ~Files() {
            std::error_code ec;
            for (const auto& p : *this) std::filesystem::remove(p, ec);
        }
    };
    static Files files;
    const auto path = std::filesystem::temp_directory_path() / ("partita-llm-model-" + std::to_string(::getpid()) + "-" +
                                                               std::to_string(files.size()) + ".json");
    std::ofstream(path) << text;
    files.push_back(path);
    return path.string();
}

// A small CNN: Conv, Relu, pooling, a classifier Gemm and a Softmax.
inline OnnxBuilder cnn() {
    OnnxBuilder b(13, "cnn");
    b.input("image", {1, 3, 16, 16});
    b.weight("conv.w", {8, 3, 3, 3});
    OnnxBuilder::attrInts(b.node("Conv", {"image", "conv.w"}, {"c"}, "conv"), "pads", {1, 1, 1, 1});
    b.node("Relu", {"c"}, {"r"}, "relu");
    b.node("GlobalAveragePool", {"r"}, {"g"}, "pool");
    b.node("Flatten", {"g"}, {"f"}, "flatten");
    b.weight("fc.w", {10, 8});
    OnnxBuilder::attrInt(b.node("Gemm", {"f", "fc.w"}, {"y"}, "fc"), "transB", 1);
    b.node("Softmax", {"y"}, {"probs"}, "softmax");
    b.output("probs");
    return b;
}

}  // namespace partita::test
