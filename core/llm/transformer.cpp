#include "core/llm/transformer.h"

#include "core/llm/numbers.h"
#include "core/util/checked.h"
#include "core/util/enum_names.h"
#include "core/util/limits.h"

namespace partita::llm {

namespace {

constexpr EnumName<Family> kFamilies[] = {{Family::Gpt, "gpt"}, {Family::Llama, "llama"}, {Family::Bert, "bert"}};
constexpr EnumName<MlpKind> kMlps[] = {{MlpKind::Gelu, "gelu"}, {MlpKind::Swiglu, "swiglu"}};
constexpr EnumName<NormKind> kNorms[] = {{NormKind::LayerNorm, "layernorm"}, {NormKind::RmsNorm, "rmsnorm"}};
constexpr EnumName<Position> kPositions[] = {
    {Position::Learned, "learned"}, {Position::Rope, "rope"}, {Position::None, "none"}};


void inRange(std::int64_t v, std::int64_t hi, const char* key) {
    if (v < 1) throw FieldError(std::string("model.") + key, "must be a positive integer, got " + std::to_string(v));
    if (v > hi)
        throw FieldError(std::string("model.") + key,
                         std::to_string(v) + " exceeds the limit of " + std::to_string(hi));
}


}  // namespace

const char* familyName(Family f) { return enumName(kFamilies, f); }
const char* mlpName(MlpKind m) { return enumName(kMlps, m); }
const char* normName(NormKind n) { return enumName(kNorms, n); }
const char* positionName(Position p) { return enumName(kPositions, p); }
Family parseFamily(const std::string& s) { return parseEnumOrThrow(kFamilies, s, "family"); }
MlpKind parseMlp(const std::string& s) { return parseEnumOrThrow(kMlps, s, "mlp"); }
NormKind parseNorm(const std::string& s) { return parseEnumOrThrow(kNorms, s, "norm"); }
Position parsePosition(const std::string& s) { return parseEnumOrThrow(kPositions, s, "position"); }

Transformer familyDefaults(Family family) {
    Transformer m;
    m.family = family;
    if (family == Family::Llama) {
        m.mlp = MlpKind::Swiglu;
        m.norm = NormKind::RmsNorm;
        m.position = Position::Rope;
        m.tied_embeddings = false;
        m.biases = false;
        m.dropout = false;
    }
    if (family == Family::Bert) m.causal = false;
    return m;
}

void validate(const Transformer& m) {
    inRange(m.layers, limits::kLlmLayers, "layers");
    inRange(m.hidden, limits::kLlmHidden, "hidden");
    inRange(m.heads, m.hidden, "heads");
    inRange(m.kv_heads, m.heads, "kv_heads");
    inRange(m.ffn, limits::kLlmFfn, "ffn");
    inRange(m.seq, limits::kLlmSeq, "seq");
    inRange(m.vocab, limits::kLlmVocab, "vocab");
    if (m.head_dim < 0 || m.head_dim > limits::kLlmHidden)
        throw FieldError("model.head_dim", "must be between 1 and " + std::to_string(limits::kLlmHidden) +
                                               " (or absent: hidden / heads)");
    if (m.head_dim == 0 && m.hidden % m.heads != 0)
        throw FieldError("model.heads", "heads = " + std::to_string(m.heads) + " must divide hidden = " +
                                            std::to_string(m.hidden));
    if (m.heads % m.kv_heads != 0)
        throw FieldError("model.kv_heads", "kv_heads = " + std::to_string(m.kv_heads) + " must divide heads = " +
                                               std::to_string(m.heads));
}

LayerParameters layerParameters(const Transformer& m) {
    const std::int64_t h = m.hidden, f = m.ffn, q = m.qDim(), kv = m.kvDim();
    LayerParameters p;
    // Q and output projection h x q each, K and V h x kv each (q = kv = h for multi-head attention).
    p.attention = checkedAdd(checkedMul(2 * h, q), checkedMul(2 * h, kv));
    p.mlp = checkedMul(m.gated() ? 3 * h : 2 * h, f);
    if (m.biases) p.biases = q + 2 * kv + h + (m.gated() ? 2 * f : f) + h;  // QKV, proj, up (gate), down
    p.norms = m.norm == NormKind::LayerNorm ? 4 * h : 2 * h;
    return p;
}

ModelParameters modelParameters(const Transformer& m) {
    ModelParameters p;
    p.layers = checkedMul(m.layers, layerParameters(m).total());
    p.embedding = checkedMul(m.vocab, m.hidden);
    p.lm_head = m.tied_embeddings ? 0 : p.embedding;
    p.positions = m.position == Position::Learned ? checkedMul(m.seq, m.hidden) : 0;
    p.final_norm = m.norm == NormKind::LayerNorm ? 2 * m.hidden : m.hidden;
    return p;
}

double attentionCoreFlops(const Transformer& m, std::int64_t batch) {
    // QKᵀ and scores x V, each 2bs²(a·d_h) = 2bs²h.
    return 4.0 * d(batch) * d(m.seq) * d(m.seq) * d(m.qDim());
}

double layerForwardMatrixFlops(const Transformer& m, std::int64_t batch) {
    const double tokens = d(batch) * d(m.seq), h = d(m.hidden), q = d(m.qDim());
    const double qkv = 2 * tokens * h * (q + 2 * d(m.kvDim()));
    const double proj = 2 * tokens * q * h;
    const double mlp = 2 * tokens * h * d(m.ffn) * (m.gated() ? 3 : 2);
    return qkv + proj + mlp + attentionCoreFlops(m, batch);
}

double logitFlops(const Transformer& m, std::int64_t batch) {
    return 2.0 * d(batch) * d(m.seq) * d(m.hidden) * d(m.vocab);
}

double iterationModelFlops(const Transformer& m, std::int64_t global_batch) {
    return 3.0 * (d(m.layers) * layerForwardMatrixFlops(m, global_batch) + logitFlops(m, global_batch));
}

namespace {

// A GEMM of [rows x inner] · [inner x cols] with the weight in the second operand (docs/methods/llm.md#derivation: forward
// reads input and weight and writes output; activation-gradient reads weight, saved input and
// output gradient; weight-gradient the same with the weight gradient).
Kernel gemm(std::string name, double rows, double inner, double cols, double e) {
    Kernel k;
    k.name = std::move(name);
    k.engine = Engine::Matrix;
    const double flops = 2 * rows * inner * cols;
    const double bytes = e * (rows * inner + rows * cols + inner * cols);
    k.fwd = {flops, bytes};
    k.agrad = {flops, bytes};
    k.wgrad = {flops, bytes};
    return k;
}

// `batch` independent [m x n]·[n x k] products without weights (attention scores, context).
Kernel batched(std::string name, double batch, double m, double n, double k, double e) {
    Kernel kr;
    kr.name = std::move(name);
    kr.engine = Engine::Matrix;
    kr.attention_core = true;
    const double flops = 2 * batch * m * n * k;
    const double bytes = e * batch * (m * n + n * k + m * k);
    kr.fwd = {flops, bytes};
    kr.agrad = {2 * flops, 2 * bytes};  // gradients of both operands
    return kr;
}

// An element-wise kernel over `elements`: flops per element forward and backward, tensors read and
// written (in units of `elements`), plus `extra_bytes` (masks, weights).
Kernel vector(std::string name, double elements, double fwd_per, double bwd_per, double fwd_tensors,
              double bwd_tensors, double e, double extra_bytes = 0) {
    Kernel k;
    k.name = std::move(name);
    k.engine = Engine::Vector;
    k.fwd = {fwd_per * elements, fwd_tensors * elements * e + extra_bytes};
    k.agrad = {bwd_per * elements, bwd_tensors * elements * e + extra_bytes};
    return k;
}

}  // namespace

std::vector<Kernel> layerKernels(const Transformer& m, std::int64_t micro_batch, std::int64_t tp,
                                 bool sequence_parallel, const KernelStyle& style, std::int64_t cp) {
    const double e = style.element_bytes, t = d(tp);
    const double tokens = d(micro_batch) * d(m.seq) / d(cp);
    const double queries = d(m.seq) / d(cp);  // per sequence, on this GPU
    const double h = d(m.hidden), dh = d(m.headDim()), s = d(m.seq);
    const double q = d(m.qDim()) / t;  // query (and attention output) width per GPU
    // K and V heads are split when tp divides them, else each GPU keeps one replicated head.
    const double kv = m.kv_heads % tp == 0 ? d(m.kvDim()) / t : dh;
    const double f = d(m.ffn) / t;
    const double heads = d(m.heads) / t;
    const double scores = d(micro_batch) * heads * queries * s;  // elements of the score maps
    const double act = sequence_parallel ? tokens * h / t : tokens * h;  // norms, dropouts, residuals
    const double norm_per = m.norm == NormKind::LayerNorm ? 9 : 5;
    const double norm_w = (m.norm == NormKind::LayerNorm ? 2 : 1) * h * e;
    std::vector<Kernel> out;
    out.reserve(16);
    auto norm = [&](const char* name) {
        Kernel k = vector(name, act, norm_per, norm_per + 5, 2, 3, e, norm_w);
        k.wgrad = {norm_per - 2 > 0 ? (norm_per - 2) * act : act, 2 * act * e + norm_w};
        return k;
    };
    auto dropoutAdd = [&](const char* name) {
        // Bias, dropout and residual add fused (Megatron): reads output and residual, writes the sum
        // and the 1-byte mask.
        const double mask = m.dropout ? act : 0;
        return vector(name, act, m.dropout ? 3 : 1, m.dropout ? 2 : 1, 3, 2, e, mask);
    };
    out.push_back(norm("norm1"));
    if (style.fused_qkv) {
        out.push_back(gemm("qkv", tokens, h, q + 2 * kv, e));
    } else {
        out.push_back(gemm("q", tokens, h, q, e));
        out.push_back(gemm("k", tokens, h, kv, e));
        out.push_back(gemm("v", tokens, h, kv, e));
    }
    if (m.position == Position::Rope) out.push_back(vector("rope", tokens * (q + kv), 6, 6, 2, 2, e));
    if (style.flash_attention) {
        // One kernel: QKᵀ and ×V forward; backward recomputes the scores (5 products for 2).
        Kernel k;
        k.name = "flash_attention";
        k.engine = Engine::Matrix;
        k.attention_core = true;
        const double flops = 4 * d(micro_batch) * heads * queries * s * dh;
        const double io = e * tokens * (2 * q + 2 * kv);
        k.fwd = {flops, io};
        k.agrad = {2.5 * flops, 2 * io};
        out.push_back(k);
    } else {
        out.push_back(batched("scores", d(micro_batch) * heads, queries, dh, s, e));
        Kernel softmax = vector("softmax", scores, 5, 8, 2, 2, e);
        softmax.attention_core = true;
        out.push_back(softmax);
        if (m.dropout) {
            Kernel drop = vector("attention_dropout", scores, 1, 1, 2, 2, e, scores);
            drop.attention_core = true;
            out.push_back(drop);
        }
        out.push_back(batched("context", d(micro_batch) * heads, queries, s, dh, e));
    }
    out.push_back(gemm("proj", tokens, q, h, e));
    out.push_back(dropoutAdd("dropout_add1"));
    out.push_back(norm("norm2"));
    out.push_back(gemm("mlp_up", tokens, h, m.gated() ? 2 * f : f, e));
    // GeLU: 8 FLOPs forward, 13 backward per element (Calculon's constants); SwiGLU reads two inputs.
    out.push_back(m.gated() ? vector("swiglu", tokens * f, 8, 13, 3, 5, e)
                            : vector("gelu", tokens * f, 8, 13, 2, 3, e));
    out.push_back(gemm("mlp_down", tokens, f, h, e));
    out.push_back(dropoutAdd("dropout_add2"));
    if (style.fp8) {
        // Transformer Engine casts each GEMM's inputs to fp8 (amax, scale, convert: read 16 bit, write
        // 8 bit) forward, and the output gradients backward.
        std::vector<Kernel> casts;
        for (const auto& k : out) {
            if (k.engine != Engine::Matrix || k.attention_core) continue;
            const double in = k.fwd.bytes / e;  // elements of input, output and weight
            Kernel c = vector(k.name + "_fp8_cast", in, 2, 2, 1.5, 1.5, e);
            casts.push_back(c);
        }
        out.insert(out.end(), casts.begin(), casts.end());
    }
    return out;
}

std::vector<Kernel> embeddingKernels(const Transformer& m, std::int64_t micro_batch, std::int64_t tp,
                                     const KernelStyle& style, std::int64_t cp) {
    const double e = style.element_bytes, tokens = d(micro_batch) * d(m.seq) / d(cp), h = d(m.hidden);
    // Gather rows (and add positions) forward; scatter-add into the fp32 gradient shard backward.
    Kernel k = vector("embedding", tokens * h, 1, 1, 3, 2, e);
    k.agrad.bytes += tokens * h * 4 / d(tp);
    return {k};
}

std::vector<Kernel> headKernels(const Transformer& m, std::int64_t micro_batch, std::int64_t tp,
                                bool sequence_parallel, const KernelStyle& style, std::int64_t cp) {
    const double e = style.element_bytes, t = d(tp);
    const double tokens = d(micro_batch) * d(m.seq) / d(cp), h = d(m.hidden), v = d(m.vocab) / t;
    const double act = sequence_parallel ? tokens * h / t : tokens * h;
    std::vector<Kernel> out;
    Kernel norm = vector("final_norm", act, 9, 14, 2, 3, e);
    out.push_back(norm);
    out.push_back(gemm("lm_head", tokens, h, v, e));
    // Cross-entropy on fp32 logits: max, exp, sum, log forward; softmax minus one-hot backward.
    out.push_back(vector("cross_entropy", tokens * v, 5, 2, 4.0 / e * 2, 4.0 / e * 2, e));
    return out;
}

}  // namespace partita::llm
