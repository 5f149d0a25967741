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

}  // namespace partita::llm
