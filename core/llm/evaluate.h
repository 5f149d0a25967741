#pragma once
// One plan -> iteration time by term, per-stage per-GPU memory, OOM verdict, MFU/HFU and tokens/s
// (docs/methods/llm.md#derivation). Two models: Partita's own and the Calculon reimplementation.
#include <cstdint>
#include <string>
#include <vector>

#include "core/llm/plan.h"
#include "core/llm/profile.h"
#include "core/llm/transformer.h"

namespace partita::llm {

// Seconds of one iteration, by term (the GPU on the slowest stage).
struct TimeTerms {
    double fwd = 0, bwd = 0, recompute = 0;
    double cp_exposed = 0;  // context-parallel K/V ring not hidden behind attention
    double tp_exposed = 0, ag_redo = 0, pp_p2p = 0, bubble = 0, dp_exposed = 0, optimizer = 0;
    double offload = 0;  // host transfers not hidden behind compute (Calculon model)
    double overhead = 0;  // the profile's framework time per layer per micro-batch (Partita model)
    double total() const {
        return fwd + bwd + recompute + cp_exposed + tp_exposed + ag_redo + pp_p2p + bubble + dp_exposed + optimizer +
               offload + overhead;
    }
};

// The terms with their JSON key and label, in the order reports list them.
struct NamedTerm {
    const char* key;    // "tp_exposed"
    const char* label;  // "TP exposed"
    double seconds;
};
std::vector<NamedTerm> namedTerms(const TimeTerms& t);

// Bytes one GPU of a stage holds at its peak.
struct StageMemory {
    std::int64_t stage = 0, layers = 0;
    double params = 0;  // parameters the GPU holds (after TP/PP sharding, before ZeRO)
    double weights = 0, grads = 0, optimizer = 0, activations = 0, extras = 0, working = 0, reserved = 0;
    double host = 0;  // offloaded to host memory (not in the total)
    double total() const { return weights + grads + optimizer + activations + extras + working + reserved; }
};

// The terms of StageMemory::total() with their JSON key ("grads": "grads_gib") and label, in the
// order reports list them and the memory view stacks them (bottom first).
struct NamedBytes {
    const char* key;    // "grads"
    const char* label;  // "gradients"
    double bytes;
};
std::vector<NamedBytes> namedMemory(const StageMemory& s);

struct Evaluation {
    ModelKind model = ModelKind::Partita;
    TimeTerms time;
    double iteration_s = 0;
    std::vector<double> stage_time_s;  // one micro-batch forward + backward per stage (Partita)
    std::vector<StageMemory> stages;   // every stage (Calculon: the first only)
    std::int64_t peak_stage = 0;
    double peak_bytes = 0, capacity_bytes = 0;
    bool fits = true;
    std::string cut;  // when it does not fit: the largest term of the peak stage, and what reduces it
    double model_flops = 0, hardware_flops = 0;  // per iteration, all GPUs
    double mfu = 0, hfu = 0, tokens_per_s = 0;
    std::int64_t micro_batches = 0;
    Placement placement;
    std::vector<std::string> notes;
};

// Validates (throws FieldError) and evaluates.
Evaluation evaluate(const Transformer& m, const Plan& plan, const Profile& profile,
                    ModelKind kind = ModelKind::Partita);

// Activation bytes of one layer for one micro-batch [K22], itemised (docs/methods/llm.md#derivation).
struct ActivationOptions {
    std::int64_t tp = 1;
    std::int64_t cp = 1;  // context parallelism: each GPU keeps s/cp tokens
    bool sequence_parallel = false;
    Recompute recompute = Recompute::None;
    bool flash_attention = false;
    bool sharded_ln_input = true;  // with SP, keep the LN output sharded (re-gathered in backward)
    bool fp8 = false;              // GEMM inputs are kept as their fp8 casts (Transformer Engine)
};
double layerActivationBytes(const Transformer& m, std::int64_t micro_batch, const ActivationOptions& o);
// Micro-batches (in units of the stage's layers) the given stage holds at its peak (docs/methods/llm.md#derivation).
double inFlight(Schedule schedule, std::int64_t pp, std::int64_t interleave, std::int64_t micro_batches,
                std::int64_t stage);
// Bytes per parameter of weights, gradients and optimizer state (docs/methods/llm.md#derivation).
struct BytesPerParam {
    double weights = 0, grads = 0, optimizer = 0;
    double total() const { return weights + grads + optimizer; }
};
BytesPerParam bytesPerParam(const Precision& precision, int zero, bool distributed_optimizer, std::int64_t dp);
// Ring bytes one GPU sends for a collective on S bytes among n peers (docs/methods/llm.md#derivation).
double ringBytes(Op op, double bytes, std::int64_t peers);
// Ring bytes one GPU sends for tensor parallelism, per layer per micro-batch (docs/methods/llm.md#derivation, W19).
struct TpVolume {
    double fwd = 0, bwd = 0, recompute = 0;  // recompute: AG redo or full recompute's forward again
};
TpVolume tpLayerBytes(const Transformer& m, const Plan& plan);
// Bytes one GPU sends point-to-point per iteration (docs/methods/llm.md#derivation, W20): 2·v·m messages.
double ppIterationBytes(const Transformer& m, const Plan& plan);
double ppMessageBytes(const Transformer& m, const Plan& plan);
// Bytes one GPU of `stage` sends for data parallelism per iteration (docs/methods/llm.md#derivation, W21): gradients
// reduced (all-reduce or reduce-scatter) and parameters gathered.
struct DpVolume {
    double reduce = 0, gather = 0;
};
DpVolume dpIterationBytes(const Transformer& m, const Plan& plan, const Precision& precision, std::int64_t stage);
// Share of the iteration the pipeline bubble takes with equal stages (docs/methods/llm.md#derivation): (p-1)/(m+p-1),
// interleaved (p-1)/(v·m+p-1); and relative to ideal compute, (p-1)/m and (p-1)/(v·m).
double bubbleShare(Schedule schedule, std::int64_t pp, std::int64_t interleave, std::int64_t micro_batches);
double bubbleOverIdeal(Schedule schedule, std::int64_t pp, std::int64_t interleave, std::int64_t micro_batches);
// Parameters one GPU of `stage` holds (docs/methods/llm.md#derivation: layers / tp, embedding on the first stage, a tied
// copy or the LM head on the last, positions on the first).
double stageParams(const Transformer& m, const Plan& plan, std::int64_t stage);

}  // namespace partita::llm
