// "llm" in sweeps (docs/guide/sweeps.md#llm-axes): a base read once per spec entry, each point that
// base with its plan fields, GPU count and sequence length set, validated and evaluated.
#include <filesystem>
#include <optional>

#include "core/llm/runs.h"
#include "core/run/method_registry.h"
#include "core/settings/field_json.h"
#include "core/settings/llm_fields.h"
#include "core/util/error.h"
#include "core/util/limits.h"

namespace partita {

namespace {

namespace fs = std::filesystem;

// The two axes that are not plan keys: the GPU count (dp follows from it) and the sequence length.
constexpr const char* kGpus = "gpus";
constexpr const char* kSeq = "seq";

std::string gpusProblem(const Json& v) { return jsonIntegerProblem(v, 1, limits::kLlmGpus); }
std::string seqProblem(const Json& v) { return jsonIntegerProblem(v, 1, limits::kLlmSeq); }

// A preset name stays; a path (a slash or a file extension) is taken from the spec's folder.
std::string fromSpec(const std::string& name, const std::string& base_dir) {
    const bool path = name.find('/') != std::string::npos || name.ends_with(".json") || name.ends_with(".onnx");
    if (!path || base_dir.empty() || fs::path(name).is_absolute()) return name;
    return (fs::path(base_dir) / name).lexically_normal().string();
}

std::int64_t integer(const Json& v) { return v.get<std::int64_t>(); }

class LlmSweep final : public SettingsSweep {
public:
    LlmSweep() {
        for (const Field<llm::Plan>& f : llmPlanFields())
            axes_.push_back({f.key, [&f](const Json& v) { return fieldJsonProblem(f, v); }});
        axes_.push_back({kGpus, gpusProblem});
        axes_.push_back({kSeq, seqProblem});
    }
    const std::vector<SettingsAxis>& axes() const override { return axes_; }

    Json readBase(const Json& given, const std::string& source, const std::string& at,
                  const std::string& base_dir) const override {
        if (!given.is_object()) throw InputError(source, at, "expected an object {\"model\", \"plan\", ...}");
        Fields f(given, at, source);
        LlmSettings s;
        s.model_name = f.string("model");
        const std::int64_t seq = f.has(kSeq) ? f.integerIn(kSeq, 1, limits::kLlmSeq) : 0;
        try {
            s.model = llm::loadTransformer(fromSpec(s.model_name, base_dir), seq);
            if (seq > 0) s.model.seq = seq;
            llm::validate(s.model);
        } catch (const InputError&) {
            throw;
        } catch (const std::exception& e) {
            f.fail("model", e.what());
        }
        s.profile_name = f.string("profile", "a100-sxm4-80gb");
        try {
            s.profile = llm::loadProfile(fromSpec(s.profile_name, base_dir));
        } catch (const InputError&) {
            throw;
        } catch (const std::exception& e) {
            f.fail("profile", e.what());
        }
        try {
            s.kind = llm::parseModelKind(f.string("cost_model", "partita"));
        } catch (const std::invalid_argument& e) {
            f.fail("cost_model", e.what());
        }
        const Json plan = f.has("plan") ? f.raw("plan") : Json::object();
        if (!plan.is_object()) f.fail("plan", "expected an object of plan keys (docs/formats/llm-runs.md)");
        s.plan = llm::readPlan(Fields(plan, f.pointer("plan"), source));
        Json base{{"settings", llmSettingsToJson(s)}, {"schedule_given", plan.contains("schedule")}};
        if (f.has(kGpus)) {
            if (plan.contains("dp")) f.fail(kGpus, "give \"gpus\" or the plan's \"dp\", not both");
            base[kGpus] = f.integerIn(kGpus, 1, limits::kLlmGpus);
        }
        f.finish();
        return base;
    }

    MethodRun run(const Json& base, const std::vector<std::pair<std::string, Json>>& axes) const override {
        LlmSettings s = readLlmSettingsJson(base.at("settings"), "the sweep entry's llm settings");
        std::optional<std::int64_t> gpus;
        if (base.contains(kGpus)) gpus = integer(base.at(kGpus));
        bool dp_given = false, schedule_given = base.at("schedule_given").get<bool>();
        for (const auto& [name, v] : axes) {
            if (name == kGpus) {
                gpus = integer(v);
            } else if (name == kSeq) {
                s.model.seq = integer(v);
            } else if (const Field<llm::Plan>* f = findField(llmPlanFields(), name)) {
                setFieldJson(*f, s.plan, v);
                dp_given = dp_given || name == "dp";
                schedule_given = schedule_given || name == "schedule";
            }
        }
        // As readPlan and the CLI: without a schedule, interleaving chooses the interleaved one.
        if (!schedule_given)
            s.plan.schedule = s.plan.interleave > 1 ? llm::Schedule::Interleaved : llm::Schedule::OneF1B;
        if (gpus) {
            const std::int64_t cells = s.plan.tp * s.plan.pp * s.plan.cp;
            if (dp_given && cells * s.plan.dp != *gpus)
                throw llm::FieldError(kGpus, "gpus = " + std::to_string(*gpus) + " differs from tp x pp x dp x cp = " +
                                                 std::to_string(cells * s.plan.dp));
            if (!dp_given && *gpus % cells != 0)
                throw llm::FieldError(kGpus, "gpus = " + std::to_string(*gpus) + " is not a multiple of tp x pp x cp = " +
                                                 std::to_string(cells));
            s.plan.dp = *gpus / cells;
        }
        llm::validate(s.model);
        return methodRun(s, evaluateLlm(s));
    }

private:
    std::vector<SettingsAxis> axes_;
};

}  // namespace

std::unique_ptr<SettingsSweep> llmSweep() { return std::make_unique<LlmSweep>(); }

}  // namespace partita
