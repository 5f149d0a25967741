#include "core/settings/llm_fields.h"

#include "core/util/limits.h"

namespace partita {

const FieldTable<llm::Plan>& llmPlanFields() {
    using namespace fields;
    using P = llm::Plan;
    constexpr Range kDegree{1, static_cast<double>(limits::kLlmGpus), ""};
    constexpr Range kBatch{1, static_cast<double>(limits::kLlmBatch), ""};
    // The choices in the enums' order (Schedule, Recompute): a choice is stored as its index.
    static const FieldTable<P> table{
        integer<P>("tp", "Tensor parallel", "", kDegree, "Tensor-parallel degree: GPUs splitting each layer.",
                   [](P& p) -> auto& { return p.tp; }),
        integer<P>("pp", "Pipeline stages", "", kDegree, "Pipeline-parallel degree: stages the layers are cut into.",
                   [](P& p) -> auto& { return p.pp; }),
        integer<P>("dp", "Data parallel", "", kDegree, "Data-parallel degree: replicas of each stage.",
                   [](P& p) -> auto& { return p.dp; }),
        integer<P>("micro_batch", "Micro-batch", "sequences", kBatch, "Sequences per micro-batch on one replica.",
                   [](P& p) -> auto& { return p.micro_batch; }),
        integer<P>("global_batch", "Global batch", "sequences", kBatch, "Sequences per iteration over all replicas.",
                   [](P& p) -> auto& { return p.global_batch; }),
        integer<P>("interleave", "Interleave", "", Range{1, static_cast<double>(limits::kLlmLayers), ""},
                   "Virtual stages per GPU (v) of the interleaved schedule; 1 without interleaving.",
                   [](P& p) -> auto& { return p.interleave; }),
        choice<P>("schedule", "Schedule", {{"gpipe", "GPipe"}, {"1f1b", "1F1B"}, {"interleaved", "interleaved 1F1B"}},
                  "Pipeline schedule.", [](P& p) -> auto& { return p.schedule; }),
        choice<P>("recompute", "Recompute", {{"none", "none"}, {"selective", "selective"}, {"full", "full"}},
                  "Activation recompute: none, the attention core (selective), or whole layers (full).",
                  [](P& p) -> auto& { return p.recompute; }),
        flag<P>("sequence_parallel", "Sequence parallel",
                "Megatron sequence parallelism: LayerNorm and dropout activations split over tp.",
                [](P& p) -> auto& { return p.sequence_parallel; }),
        integer<P>("zero", "ZeRO stage", "", Range{0, 3, ""},
                   "ZeRO stage: 1 shards the optimizer state, 2 also gradients, 3 also weights, over dp.",
                   [](P& p) -> auto& { return p.zero; }),
        flag<P>("distributed_optimizer", "Distributed optimizer",
                "Megatron's distributed optimizer: optimizer state sharded over dp (not with ZeRO).",
                [](P& p) -> auto& { return p.distributed_optimizer; }),
    };
    return table;
}

}  // namespace partita
