#include "core/run/llm_settings.h"

#include "core/llm/runs.h"
#include "core/llm/validate.h"

namespace partita {

Json llmSettingsToJson(const LlmSettings& s) {
    return Json{{"model_name", s.model_name},
                {"model", llm::transformerToJson(s.model)},
                {"profile_name", s.profile_name},
                {"profile", llm::profileToJson(s.profile)},
                {"plan", llm::planToJson(s.plan)},
                {"kind", llm::modelKindName(s.kind)},
                {"searched", s.searched}};
}

LlmSettings readLlmSettingsJson(const Json& json, const std::string& source) {
    Fields f(json, "", source);
    LlmSettings s;
    s.model_name = f.string("model_name");
    s.model = llm::readTransformer(Fields(f.raw("model"), f.pointer("model"), source));
    s.profile_name = f.string("profile_name");
    s.profile = llm::readProfileJson(f.raw("profile").dump(), source + " " + f.pointer("profile"));
    s.plan = llm::readPlan(Fields(f.raw("plan"), f.pointer("plan"), source));
    try {
        s.kind = llm::parseModelKind(f.string("kind"));
    } catch (const std::invalid_argument& e) {
        f.fail("kind", e.what());
    }
    s.searched = f.boolean("searched", false);
    f.finish();
    return s;
}

llm::Evaluation evaluateLlm(const LlmSettings& s) { return llm::evaluate(s.model, s.plan, s.profile, s.kind); }

LlmSettings llmSettingsOfRun(const llm::Run& run) {
    LlmSettings s;
    s.model_name = "custom";
    s.model = run.model;
    s.profile_name = run.profile;
    s.profile = llm::runProfile(run, nullptr);
    s.plan = llm::runPlan(run);
    return s;
}

}  // namespace partita
