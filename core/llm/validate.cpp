#include "core/llm/validate.h"

#include <cmath>

#include "core/util/error.h"

namespace partita::llm {

Profile runProfile(const Run& run, const Profile* override_profile) {
    Profile p = override_profile ? *override_profile : loadProfile(run.profile);
    return applyOverrides(std::move(p), run.cluster);
}

Plan runPlan(const Run& run) {
    Plan plan = run.plan;
    if (run.precision) plan.precision = run.precision;
    if (plan.tp * plan.pp * plan.dp * plan.cp != run.gpus)
        throw FieldError("cluster.gpus", "tp x pp x dp x cp = " + std::to_string(plan.tp * plan.pp * plan.dp * plan.cp) +
                                             " but the cluster has " + std::to_string(run.gpus) + " GPUs");
    return plan;
}

RunPrediction predictRun(const Run& run, const Profile* override_profile, ModelKind kind) {
    RunPrediction r;
    r.name = run.name;
    r.source = run.source;
    r.measured_s = measuredIterationSeconds(run);
    try {
        const Profile profile = runProfile(run, override_profile);
        r.evaluation = evaluate(run.model, runPlan(run), profile, kind);
        r.predicted_s = r.evaluation.iteration_s;
        r.memory_gib = r.evaluation.peak_bytes / 1073741824.0;
        r.fits = r.evaluation.fits;
        if (r.measured_s) r.error_pct = 100 * (r.predicted_s - *r.measured_s) / *r.measured_s;
    } catch (const Cancelled&) {
        throw;
    } catch (const std::exception& e) {
        // An impossible plan, or a profile the run names that cannot be read.
        r.error = e.what();
    }
    return r;
}

ValidationReport validateRuns(const std::vector<Run>& runs, const Profile* override_profile, ModelKind kind) {
    ValidationReport rep;
    std::map<std::string, std::pair<double, int>> sums;
    double total = 0;
    int n = 0;
    for (const auto& run : runs) {
        rep.runs.push_back(predictRun(run, override_profile, kind));
        const auto& r = rep.runs.back();
        if (!r.error_pct) continue;
        total += std::abs(*r.error_pct);
        ++n;
        auto& s = sums[r.source];
        s.first += std::abs(*r.error_pct);
        ++s.second;
    }
    if (n > 0) rep.mape_pct = total / n;
    for (const auto& [source, s] : sums) rep.mape_by_source[source] = s.first / s.second;
    return rep;
}

}  // namespace partita::llm
