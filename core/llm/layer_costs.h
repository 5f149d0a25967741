#pragma once
// Partita's model, cached part: what one layer costs for one micro-batch on one GPU, keyed by the
// few plan choices it depends on (tp, micro-batch, SP, recompute, AG redo, TP tier and overlap), and
// the plan-level assembly that turns those costs into an Evaluation in O(1) (docs/methods/llm.md#search: the search
// evaluates from cached per-(t, b, recompute, SP) costs).
#include <cstdint>

#include "core/llm/evaluate.h"

namespace partita::llm {

// What stays fixed while plans vary: the model, the profile and the compute dtype.
struct CostContext {
    const Transformer* model = nullptr;
    const Profile* profile = nullptr;
    Dtype compute = Dtype::Bf16;
    int element_bytes = 2;
    bool flash_attention = false;
    // Seconds of one kernel pass on this device.
    double passTime(const Kernel& k, const Pass& pass) const;
};
CostContext costContext(const Transformer& m, const Profile& profile, const Plan& plan);

struct LayerKey {
    std::int64_t tp = 1, micro_batch = 1, cp = 1;
    int cp_tier = 0;
    bool sequence_parallel = false;
    Recompute recompute = Recompute::None;
    bool ag_redo = false;
    int tp_tier = 0;
    TpOverlap tp_overlap = TpOverlap::None;
    bool operator==(const LayerKey&) const = default;
};
LayerKey layerKey(const Plan& plan, const Placement& placement);

// Seconds per layer per micro-batch, and bytes per layer per micro-batch.
struct LayerCost {
    double fwd = 0, bwd = 0, recompute = 0;          // compute
    double cp_fwd = 0, cp_bwd = 0;                    // exposed context-parallel K/V ring
    double tp_fwd = 0, tp_bwd = 0, tp_recompute = 0;  // exposed TP communication
    double ag_redo = 0;                               // exposed re-gather of the LN output
    double activation_bytes = 0;                      // stored for backward (with the recompute choice)
    double working_bytes = 0;                         // one layer's full set while it runs backward
    double recompute_flops = 0;                       // per GPU, counted in HFU
    double overhead = 0;                              // framework time (Device::layer_overhead_s)
    double perLayer() const {
        return fwd + bwd + recompute + cp_fwd + cp_bwd + tp_fwd + tp_bwd + tp_recompute + ag_redo + overhead;
    }
};
LayerCost layerCost(const CostContext& ctx, const LayerKey& key);

// Embedding (first stage) and LM head with loss (last stage), per micro-batch.
struct EdgeCost {
    double first_fwd = 0, first_bwd = 0, first_tp = 0;
    double last_fwd = 0, last_bwd = 0, last_tp = 0;
    double first_bytes_per_mb = 0;  // embedding output, mask and ids kept per micro-batch in flight
    double last_bytes = 0;          // LN output and fp32 logits of one micro-batch
};
EdgeCost edgeCost(const CostContext& ctx, const LayerKey& key);

// The plan-level assembly. `detail` fills every stage and the notes; without it only the time
// terms, the peak memory and the verdict are computed (the search's path).
Evaluation assemble(const CostContext& ctx, const Plan& plan, const Placement& placement, const LayerCost& layer,
                    const EdgeCost& edge, bool detail);

}  // namespace partita::llm
