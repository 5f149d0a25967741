#pragma once
// The LLM plan's dimensions (llm::Plan, docs/methods/llm.md) as a field table (core/settings/field.h),
// keyed as the plan keys of partita-llm-runs/1 (spec §12): what a sweep varies as its LLM axes.
#include "core/llm/plan.h"
#include "core/settings/field.h"

namespace partita {

// tp, pp, dp, micro_batch, global_batch, interleave, schedule, recompute, sequence_parallel, zero,
// distributed_optimizer.
const FieldTable<llm::Plan>& llmPlanFields();

}  // namespace partita
