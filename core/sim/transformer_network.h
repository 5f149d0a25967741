#pragma once
// A transformer of the LLM planner as a SOAP network, one token per sample, and Megatron's tensor ×
// data parallelism as a SOAP strategy for it (docs/methods/flexflow.md#megatron-tensor-parallelism-on-gpt-blocks):
// what lets the simulator and the planner be compared on the same model and plan.
#include <cstdint>
#include <vector>

#include "core/llm/transformer.h"
#include "core/model/network.h"
#include "core/sim/soap.h"

namespace partita::sim {

// How Megatron splits an operator of the network: by tokens over the whole group (norms, residuals:
// sequence parallelism), by output channels (column-parallel), or by the reduction (row-parallel).
enum class MegatronSplit { Tokens, Column, Row };

struct TransformerNetwork {
    Network network;
    std::vector<MegatronSplit> splits;  // one per operator, indexed like network.ops
};

// Per layer: norm, fused QKV (head by head), the attention core, the output projection, a residual,
// norm, the MLP (up, or gate and up with SwiGLU; activation; down), a residual. With `head`, the final
// norm, the LM head over the vocabulary and the loss. `layers` 0 = the model's. Input: the embedded
// tokens (hidden channels); the embedding lookup itself is not a task. Throws std::invalid_argument for
// grouped-query attention (its fused K and V are narrower than Q).
// Layers beyond what limits::kOperators allows are refused.
TransformerNetwork transformerNetwork(const llm::Transformer& m, std::int64_t layers = 0, bool head = true);

// Megatron with sequence parallelism as SOAP, replica s's tensor-parallel group on devices t·s .. t·s + t − 1:
// QKV, the attention core, the MLP's up (and gate) and activation, the LM head and the loss split by
// channel {"sample": d, "channel": t}; the output projection and the MLP's down split by reduction
// {"sample": d, "reduce": t} on the same devices; norms and residuals {"sample": t·d}. `tokens` is the
// batch in samples (sequences × sequence length).
// Throws std::invalid_argument when tp·dp exceeds limits::kTopologyDevices or does not divide the tokens.
SoapStrategy megatronStrategy(const TransformerNetwork& t, std::int64_t tokens, int tp, int dp);

}  // namespace partita::sim
