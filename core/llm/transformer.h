#pragma once
// A dense transformer's dimensions and what follows from them: itemised parameter counts,
// per-layer FLOPs and the kernel catalogue the time model runs (docs/methods/llm.md#derivation).
// Pure functions over plain structs; SI units (FLOP, bytes).
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace partita::llm {

// An input that cannot be planned; `field` names the offending key ("tp", "model.heads").
class FieldError : public std::invalid_argument {
public:
    FieldError(std::string field, const std::string& message)
        : std::invalid_argument(field + ": " + message), field_(std::move(field)) {}
    const std::string& field() const { return field_; }

private:
    std::string field_;
};

enum class Family { Gpt, Llama, Bert };
enum class MlpKind { Gelu, Swiglu };
enum class NormKind { LayerNorm, RmsNorm };
// None: no position signal the model costs (an ONNX model with neither a learned table nor rotary).
enum class Position { Learned, Rope, None };

const char* familyName(Family f);
const char* mlpName(MlpKind m);
const char* normName(NormKind n);
const char* positionName(Position p);
Family parseFamily(const std::string& s);  // throws std::invalid_argument listing the names
MlpKind parseMlp(const std::string& s);
NormKind parseNorm(const std::string& s);
Position parsePosition(const std::string& s);

struct Transformer {
    std::string name = "custom";
    std::string provenance;
    Family family = Family::Gpt;
    std::int64_t layers = 0, hidden = 0, heads = 0, kv_heads = 0, ffn = 0, seq = 0, vocab = 0;
    std::int64_t head_dim = 0;  // 0: hidden / heads (Calculon's lamda and palm use wider heads)
    MlpKind mlp = MlpKind::Gelu;
    NormKind norm = NormKind::LayerNorm;
    Position position = Position::Learned;
    bool tied_embeddings = true;
    bool biases = true;   // linear-layer biases (GPT); LLaMA-style blocks have none
    bool dropout = true;  // dropout masks are stored (GPT training); LLaMA-style runs without
    bool causal = true;   // decoder (GPT, LLaMA) or encoder (BERT); FLOPs count full s² either way

    std::int64_t headDim() const { return head_dim > 0 ? head_dim : hidden / heads; }
    std::int64_t qDim() const { return heads * headDim(); }  // query and attention-output width
    std::int64_t kvDim() const { return kv_heads * headDim(); }
    bool gated() const { return mlp == MlpKind::Swiglu; }
    bool operator==(const Transformer&) const = default;
};

// Family defaults (biases, dropout, norm, position, tied) for a custom model of `family`.
Transformer familyDefaults(Family family);
// Dimensions inside the limits (core/util/limits.h) and consistent (heads | hidden,
// kv_heads | heads); throws FieldError naming "model.<key>".
void validate(const Transformer& m);

// Parameters of one layer, itemised (docs/methods/llm.md#derivation).
struct LayerParameters {
    std::int64_t attention = 0;  // Q, K, V and output projection matrices
    std::int64_t mlp = 0;        // up (and gate) and down matrices
    std::int64_t biases = 0;     // linear-layer biases
    std::int64_t norms = 0;      // LayerNorm gains and biases, or RMSNorm gains
    std::int64_t total() const { return attention + mlp + biases + norms; }
};
LayerParameters layerParameters(const Transformer& m);

// Whole-model parameters (docs/methods/llm.md#derivation): layers, word embedding (and an untied LM head), learned
// positions, final norm.
struct ModelParameters {
    std::int64_t layers = 0, embedding = 0, lm_head = 0, positions = 0, final_norm = 0;
    std::int64_t total() const { return layers + embedding + lm_head + positions + final_norm; }
};
ModelParameters modelParameters(const Transformer& m);

// Forward matrix FLOPs of one whole layer for `batch` sequences (docs/methods/llm.md#derivation; 24bsh² + 4bs²h for
// GPT). Exact below 2^53.
double layerForwardMatrixFlops(const Transformer& m, std::int64_t batch);
// The s² part of it (QKᵀ and ×V: 4bs²h), the work selective recompute repeats.
double attentionCoreFlops(const Transformer& m, std::int64_t batch);
// LM head forward FLOPs for `batch` sequences (2bshV).
double logitFlops(const Transformer& m, std::int64_t batch);
// Model FLOPs of one iteration of `global_batch` sequences [N21]: 72Bslh²(1 + s/6h + V/12lh) for GPT,
// computed from the itemised layer so GQA and gated MLPs count what they do.
double iterationModelFlops(const Transformer& m, std::int64_t global_batch);

// One kernel of a layer as one GPU runs it for one micro-batch.
enum class Engine { Matrix, Vector };
struct Pass {
    double flops = 0;
    double bytes = 0;  // HBM traffic
};
struct Kernel {
    std::string name;
    Engine engine = Engine::Vector;
    Pass fwd, agrad, wgrad;
    bool attention_core = false;  // recomputed by selective recompute
};

// How the kernels are cut (docs/methods/llm.md#derivation): Megatron fuses Q, K, V into one GEMM; flash attention
// runs scores, softmax, dropout and ×V as one kernel that stores no s² tensors.
struct KernelStyle {
    bool fused_qkv = true;
    bool flash_attention = false;
    bool fp8 = false;  // GEMMs in fp8: each GEMM's operands are cast (Transformer Engine)
    int element_bytes = 2;
};
// The kernels of one layer on one GPU of a `tp`-way tensor-parallel group, micro-batch `micro_batch`;
// with sequence parallelism the norms, dropouts and residuals run on s/tp tokens.
// With context parallelism `cp` each GPU holds s/cp of every sequence's tokens; its queries attend
// to all s keys (ring attention), so the s² work is divided by cp too.
std::vector<Kernel> layerKernels(const Transformer& m, std::int64_t micro_batch, std::int64_t tp,
                                 bool sequence_parallel, const KernelStyle& style, std::int64_t cp = 1);

// The kernels outside the layers: the embedding lookup (first stage); the final norm, the LM head
// GEMM and the fp32 cross-entropy over the vocabulary shard (last stage).
std::vector<Kernel> embeddingKernels(const Transformer& m, std::int64_t micro_batch, std::int64_t tp,
                                     const KernelStyle& style, std::int64_t cp = 1);
std::vector<Kernel> headKernels(const Transformer& m, std::int64_t micro_batch, std::int64_t tp,
                                bool sequence_parallel, const KernelStyle& style, std::int64_t cp = 1);

// Built-in models (model_presets.cpp): published dimensions with their provenance.
const std::vector<Transformer>& modelPresets();
const Transformer& modelPreset(const std::string& name);  // throws std::invalid_argument listing names

}  // namespace partita::llm
