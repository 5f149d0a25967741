#include "core/llm/evaluate.h"

#include "core/llm/calculon_model.h"
#include "core/llm/layer_costs.h"

namespace partita::llm {

Evaluation evaluate(const Transformer& m, const Plan& plan, const Profile& profile, ModelKind kind) {
    validate(m, plan, profile, kind);
    if (kind == ModelKind::Calculon) return calculonEvaluate(m, plan, profile);
    const Placement pl = placement(plan, profile);
    const CostContext ctx = costContext(m, profile, plan);
    const LayerKey key = layerKey(plan, pl);
    return assemble(ctx, plan, pl, layerCost(ctx, key), edgeCost(ctx, key), true);
}

std::vector<NamedTerm> namedTerms(const TimeTerms& t) {
    return {{"fwd", "forward", t.fwd},
            {"bwd", "backward", t.bwd},
            {"recompute", "recompute", t.recompute},
            {"cp_exposed", "CP exposed", t.cp_exposed},
            {"tp_exposed", "TP exposed", t.tp_exposed},
            {"ag_redo", "AG redo", t.ag_redo},
            {"pp_p2p", "PP p2p", t.pp_p2p},
            {"overhead", "framework", t.overhead},
            {"bubble", "bubble", t.bubble},
            {"dp_exposed", "DP exposed", t.dp_exposed},
            {"optimizer", "optimizer", t.optimizer},
            {"offload", "offload", t.offload}};
}

std::vector<NamedBytes> namedMemory(const StageMemory& s) {
    return {{"weights", "weights", s.weights},         {"grads", "gradients", s.grads},
            {"optimizer", "optimizer", s.optimizer},   {"activations", "activations", s.activations},
            {"extras", "extras", s.extras},            {"working", "working", s.working},
            {"reserved", "reserved", s.reserved}};
}

}  // namespace partita::llm
