#pragma once
// `--model calculon`: a reimplementation of the model of Calculon (Isaev et al., SC'23; code at
// caa4b11) from its description and behaviour, for side-by-side trust (docs/methods/llm.md#what-is-modelled).
// It keeps Calculon's choices where they differ from Partita's: per-op layer accounting of memory,
// three separate Q, K, V GEMMs, no embeddings or LM head, one latency per collective, 16-bit
// gradients, the last stage's bubble shortening for uneven splits, its DP-overlap windows.
#include "core/llm/evaluate.h"

namespace partita::llm {

// The caller validated the plan (validate(..., ModelKind::Calculon)).
Evaluation calculonEvaluate(const Transformer& m, const Plan& plan, const Profile& profile);
// Forward FLOPs of one layer on one GPU as Calculon counts them: matrix and vector ops (W2).
double calculonLayerForwardFlops(const Transformer& m, const Plan& plan);

}  // namespace partita::llm

namespace partita::llm {

// Calculon's application JSON ("hidden", "feedforward", "seq_size", "attn_heads", "attn_size",
// "num_blocks") and execution JSON (its 23 keys), mapped field by field; `source` names the file in
// errors. Inference executions are refused (not modelled).
Transformer transformerFromCalculon(const Json& application, const Json& execution, const std::string& source);
Plan planFromCalculon(const Json& execution, const std::string& source);

}  // namespace partita::llm
