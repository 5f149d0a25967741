// Memory arithmetic of docs/methods/llm.md#derivation: activations per layer [K22], micro-batches
// in flight per schedule, bytes per parameter per optimizer scheme, ring volumes, parameters per stage.
#include <algorithm>

#include "core/llm/evaluate.h"
#include "core/llm/numbers.h"

namespace partita::llm {

double layerActivationBytes(const Transformer& m, std::int64_t micro_batch, const ActivationOptions& o) {
    const double t = d(o.tp), keys = d(m.seq), b = d(micro_batch);
    const double s = keys / d(o.cp);  // tokens of a sequence on this GPU
    const double sbh = s * b * d(m.hidden);
    const double split = o.sequence_parallel ? 1 / t : 1;  // tensors outside the TP region
    if (o.recompute == Recompute::Full) return 2 * sbh * split;  // the layer's input, its checkpoint
    const double kv = m.kv_heads % o.tp == 0 ? d(m.kvDim()) / t : d(m.headDim());
    const double q = d(m.qDim()) / t, f = d(m.ffn) / t, heads = d(m.heads) / t;
    const double mask = m.dropout ? 1 : 0;
    const double ln_in = o.sequence_parallel && o.sharded_ln_input ? 1 / t : 1;
    const double gemm_in = o.fp8 ? 1 : 2;  // bytes per element of a saved GEMM input
    // Attention: LN output, Q, K, V, projection input, output dropout mask.
    double attention = gemm_in * sbh * ln_in + 2 * s * b * (q + 2 * kv) + gemm_in * s * b * q + mask * sbh * split;
    // Scores: softmax output, its dropout mask and dropout output (2as²b + as²b + 2as²b) unless
    // recomputed or never materialised (flash attention keeps fp32 row statistics).
    const double scores = heads * s * keys * b;
    if (o.flash_attention) attention += 4 * heads * s * b;
    else if (o.recompute != Recompute::Selective) attention += 2 * scores + mask * 3 * scores;
    // MLP: input, activation input (two with a gate), activation output, dropout mask.
    const double mlp = gemm_in * sbh * ln_in + 2 * s * b * f * (m.gated() ? 2 : 1) + gemm_in * s * b * f + mask * sbh * split;
    const double norms = 4 * sbh * split;  // inputs of the two norms
    return attention + mlp + norms;
}

double inFlight(Schedule schedule, std::int64_t pp, std::int64_t interleave, std::int64_t micro_batches,
                std::int64_t stage) {
    switch (schedule) {
    case Schedule::Gpipe: return d(micro_batches);
    case Schedule::OneF1B: return d(std::min(micro_batches, pp - stage));
    case Schedule::Interleaved: {
        // Megatron's interleaved warm-up: 2(p - i - 1) + (v - 1)p chunk steps, plus the one in flight.
        const std::int64_t chunks = 2 * (pp - stage - 1) + (interleave - 1) * pp + 1;
        return d(std::min(micro_batches * interleave, chunks)) / d(interleave);
    }
    }
    return d(micro_batches);
}

BytesPerParam bytesPerParam(const Precision& pr, int zero, bool distributed_optimizer, std::int64_t dp) {
    const double pb = dtypeBytes(pr.param), gb = dtypeBytes(pr.grad_accum), ob = dtypeBytes(pr.optimizer);
    const double master = pb < ob ? ob : 0;
    const double optimizer = master + 2 * ob;  // fp32 master copy and Adam's two moments
    const double n = d(dp);
    BytesPerParam r;
    if (zero > 0) {
        // DeepSpeed ZeRO [Z20]: gradients in the parameter dtype, partitioned from stage 2.
        r.weights = zero >= 3 ? pb / n : pb;
        r.grads = zero >= 2 ? pb / n : pb;
        r.optimizer = optimizer / n;
        return r;
    }
    // Megatron-LM: fp32 main gradients (fp16 keeps its 16-bit gradients too); the distributed
    // optimizer shards the optimizer state only.
    r.weights = pb;
    r.grads = gb + (pr.param == Dtype::Fp16 && gb > pb ? pb : 0);
    r.optimizer = distributed_optimizer ? optimizer / n : optimizer;
    return r;
}

double stageParams(const Transformer& m, const Plan& plan, std::int64_t stage) {
    const double t = d(plan.tp);
    double params = d(stageLayers(m, plan, stage)) * d(layerParameters(m).total()) / t;
    const double embedding = d(m.vocab) * d(m.hidden) / t;
    const bool first = stage == 0, last = stage == plan.pp - 1;
    if (first) {
        params += embedding;
        if (m.position == Position::Learned) params += d(m.seq) * d(m.hidden);
    }
    if (last) {
        // Megatron keeps a tied copy of the embedding for the LM head when the stages differ.
        if (!m.tied_embeddings || plan.pp > 1) params += embedding;
        params += d(m.norm == NormKind::LayerNorm ? 2 * m.hidden : m.hidden);
    }
    return params;
}

}  // namespace partita::llm
