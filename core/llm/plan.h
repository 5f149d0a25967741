#pragma once
// One parallel training plan (docs/methods/llm.md#what-is-modelled): degrees, batching, schedule,
// recompute, ZeRO / distributed optimizer, overlap switches and tier placement, with the rules
// that make it valid. The JSON codec of the plan keys is shared by runs files and the CLI.
#include <cstdint>
#include <optional>
#include <string>

#include "core/io/json_fields.h"
#include "core/llm/profile.h"
#include "core/llm/transformer.h"

namespace partita::llm {

enum class Schedule { Gpipe, OneF1B, Interleaved };
enum class Recompute { None, Selective, Full };
enum class TpOverlap { None, Ring, Pipe };

const char* scheduleName(Schedule s);
const char* recomputeName(Recompute r);
const char* tpOverlapName(TpOverlap o);
Schedule parseSchedule(const std::string& s);
Recompute parseRecompute(const std::string& s);
TpOverlap parseTpOverlap(const std::string& s);

struct Plan {
    // The partita-llm-runs/1 plan keys.
    std::int64_t tp = 1, pp = 1, dp = 1, cp = 1;
    std::int64_t micro_batch = 1, global_batch = 1;
    bool sequence_parallel = false;
    std::int64_t interleave = 1;
    Schedule schedule = Schedule::OneF1B;
    Recompute recompute = Recompute::None;
    int zero = 0;
    bool distributed_optimizer = false;
    // Options beyond the runs format (evaluate and search; defaults follow Megatron-LM).
    std::optional<Dtype> precision;        // compute and parameter dtype; unset: the profile's
    std::optional<bool> ag_redo;           // re-gather the sharded LN output in backward; unset: SP + selective
    bool scatter_gather = true;            // without SP, PP sends P/tp and all-gathers on the fast tier
    TpOverlap tp_overlap = TpOverlap::None;
    std::optional<bool> dp_overlap;        // overlap gradient reduction; unset: on with the distributed optimizer
    bool pp_overlap = false;               // hide PP p2p behind the next micro-batch
    bool fused_activation = false;         // GeLU fused into the GEMM (Calculon's option)
    bool uneven_split = false;             // allow pp not dividing layers (first stages take one more)
    // Offload to the host tier, per layer (Calculon's model only; Partita's is phase 2).
    bool offload_weights = false, offload_activations = false, offload_optimizer = false;
    bool offloads() const { return offload_weights || offload_activations || offload_optimizer; }
    int tp_tier = -1, pp_tier = -1, dp_tier = -1;  // -1: placed by Megatron's rank order tp, cp, dp, pp

    std::int64_t gpus() const;          // tp·pp·dp·cp (call after validate)
    std::int64_t microBatches() const;  // global_batch / (dp·micro_batch)
    std::int64_t gradientGroup() const { return dp * cp; }  // GPUs holding the same parameters
    bool agRedo() const { return ag_redo.value_or(sequence_parallel && recompute == Recompute::Selective); }
    bool dpOverlap() const { return dp_overlap.value_or(distributed_optimizer); }
    bool shardsOptimizer() const { return distributed_optimizer || zero > 0; }
    bool operator==(const Plan&) const = default;
};

// Which model evaluates the plan: Partita's own (default) or the Calculon reimplementation.
enum class ModelKind { Partita, Calculon };
const char* modelKindName(ModelKind k);
ModelKind parseModelKind(const std::string& s);

// Throws FieldError naming the offending key ("tp", "interleave", ...) when the plan cannot run the
// model on the profile (docs/methods/llm.md#what-is-modelled and the limits in core/util/limits.h).
void validate(const Transformer& m, const Plan& plan, const Profile& profile, ModelKind kind = ModelKind::Partita);

// Tier of each parallel dimension (index into Profile::tiers) and, for a data-parallel group that
// spans tiers, the members sharing tier 0 (hierarchical reduction).
struct Placement {
    int tp = 0, pp = 0, dp = 0, cp = 0;
    std::int64_t dp_local = 1;  // peers of the gradient group (dp x cp) inside one tier-0 island (1: flat)
    bool operator==(const Placement&) const = default;
};
Placement placement(const Plan& plan, const Profile& profile);

// Layers on each stage: the first (layers mod pp) stages take one more when uneven.
std::int64_t stageLayers(const Transformer& m, const Plan& plan, std::int64_t stage);

// The plan keys of docs/formats/llm-runs.md (and the options above when not default).
Json planToJson(const Plan& plan);
// Reads the plan keys from `f` (null or absent keys take the defaults); the extra options are
// accepted by name too. Unknown keys are errors.
Plan readPlan(Fields f);

}  // namespace partita::llm
