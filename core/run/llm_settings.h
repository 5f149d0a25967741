#pragma once
// What fully determines an LLM planner evaluation (docs/methods/llm.md), so the results database can
// keep it and evaluate it again on load: the model's dimensions and the hardware profile as resolved
// (cluster overrides applied), the plan (global batch in it, sequence length in the model) and the
// model kind. A searched run keeps the best plan the search found.
#include <memory>
#include <string>

#include "core/io/json_fields.h"
#include "core/llm/evaluate.h"
#include "core/llm/runs.h"

namespace partita {

struct LlmSettings {
    std::string model_name;    // preset name or file, as given
    llm::Transformer model;
    std::string profile_name;  // preset name or file, as given
    llm::Profile profile;      // with the cluster overrides applied
    llm::Plan plan;
    llm::ModelKind kind = llm::ModelKind::Partita;
    bool searched = false;     // the plan is the best of `llm search`
    bool operator==(const LlmSettings&) const = default;
};

Json llmSettingsToJson(const LlmSettings& s);
// Throws InputError naming `source` and the JSON pointer of a bad key.
LlmSettings readLlmSettingsJson(const Json& json, const std::string& source);
llm::Evaluation evaluateLlm(const LlmSettings& s);
// What a measured run is predicted from (its model's dimensions, its profile with its cluster
// overrides, its plan), as settings: evaluateLlm gives `llm validate`'s prediction
// (docs/methods/llm.md#views).
LlmSettings llmSettingsOfRun(const llm::Run& run);

}  // namespace partita

namespace partita {
class SettingsSweep;
// How "llm" runs in sweeps (docs/guide/sweeps.md#llm-axes): the plan fields of llmPlanFields() and
// gpus and seq as axes, over an entry's base {"model", "profile", "seq", "cost_model", "gpus", "plan"}.
std::unique_ptr<SettingsSweep> llmSweep();
}  // namespace partita
