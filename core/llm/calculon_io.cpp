// Calculon's application and execution JSON as a Transformer and a Plan (calculon_model.h).
#include "core/llm/calculon_model.h"
#include "core/llm/json_util.h"
#include "core/util/error.h"
#include "core/util/limits.h"

namespace partita::llm {

Transformer transformerFromCalculon(const Json& application, const Json& execution, const std::string& source) {
    Fields f(application, "", source);
    Transformer m = familyDefaults(Family::Gpt);
    m.name = "calculon";
    m.provenance = "Calculon application " + source;
    m.hidden = f.integerIn("hidden", 1, limits::kLlmHidden);
    m.ffn = f.integerIn("feedforward", 1, limits::kLlmFfn);
    m.seq = f.integerIn("seq_size", 1, limits::kLlmSeq);
    m.heads = f.integerIn("attn_heads", 1, limits::kLlmHidden);
    m.head_dim = f.integerIn("attn_size", 1, limits::kLlmHidden);
    m.layers = f.integerIn("num_blocks", 1, limits::kLlmLayers);
    m.vocab = 51200;  // Calculon counts embeddings with a 51,200 vocabulary
    f.finish();
    m.kv_heads = m.heads;
    if (execution.is_object() && execution.contains("attention_type") &&
        execution.at("attention_type") == "multiquery")
        m.kv_heads = 1;
    return m;
}

Plan planFromCalculon(const Json& execution, const std::string& source) {
    Fields f(execution, "", source);
    Plan p;
    p.tp = f.integerIn("tensor_par", 1, limits::kLlmGpus);
    p.pp = f.integerIn("pipeline_par", 1, limits::kLlmGpus);
    p.dp = f.integerIn("data_par", 1, limits::kLlmGpus);
    const std::int64_t procs = f.integerIn("num_procs", 1, limits::kLlmGpus);
    if (procs != p.tp * p.pp * p.dp) f.fail("num_procs", "must equal tensor_par x pipeline_par x data_par");
    p.tp_tier = static_cast<int>(f.integerIn("tensor_par_net", 0, limits::kLlmTiers - 1));
    p.pp_tier = static_cast<int>(f.integerIn("pipeline_par_net", 0, limits::kLlmTiers - 1));
    p.dp_tier = static_cast<int>(f.integerIn("data_par_net", 0, limits::kLlmTiers - 1));
    p.global_batch = f.integerIn("batch_size", 1, limits::kLlmBatch);
    p.micro_batch = f.integerIn("microbatch_size", 1, limits::kLlmBatch);
    p.precision = parsed(f, "datatype", [](const std::string& s) { return parseDtype(s); });
    p.fused_activation = f.boolean("fused_activation", false);
    const std::string attention = f.string("attention_type");
    if (attention != "multihead" && attention != "multiquery")
        f.fail("attention_type", "expected multihead or multiquery");
    p.recompute = parsed(f, "activation_recompute", [](const std::string& s) { return parseRecompute(s); });
    p.interleave = f.integerIn("pipeline_interleaving", 1, limits::kLlmLayers);
    p.schedule = p.interleave > 1 ? Schedule::Interleaved : Schedule::OneF1B;
    p.distributed_optimizer = f.boolean("optimizer_sharding", false);
    const std::string comm = f.string("tensor_par_comm_type");
    if (comm == "rs_ag") p.sequence_parallel = true;
    else if (comm == "p2p_rs_ag") p.scatter_gather = true;
    else if (comm == "ar") p.scatter_gather = false;
    else f.fail("tensor_par_comm_type", "expected ar, p2p_rs_ag or rs_ag");
    p.tp_overlap = parsed(f, "tensor_par_overlap", [](const std::string& s) { return parseTpOverlap(s); });
    p.ag_redo = f.boolean("seq_par_ag_redo", false);
    p.dp_overlap = f.boolean("data_par_overlap", false);
    p.offload_weights = f.boolean("weight_offload", false);
    p.offload_activations = f.boolean("activations_offload", false);
    p.offload_optimizer = f.boolean("optimizer_offload", false);
    if (!f.boolean("training", true)) f.fail("training", "only training executions are modelled");
    p.uneven_split = true;
    f.finish();
    return p;
}

}  // namespace partita::llm
