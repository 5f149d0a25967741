#pragma once
// Predicted beside measured for runs files (docs/methods/llm.md#validation): each run's iteration time under
// the model, its error, and the mean absolute percentage error over the runs and per source.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/llm/evaluate.h"
#include "core/llm/runs.h"

namespace partita::llm {

struct RunPrediction {
    std::string name, source;
    std::string error;  // non-empty: the run could not be planned (the reason)
    double predicted_s = 0;
    std::optional<double> measured_s;
    std::optional<double> error_pct;  // (predicted - measured) / measured, in %
    double memory_gib = 0;
    bool fits = false;
    Evaluation evaluation;
};

struct ValidationReport {
    std::vector<RunPrediction> runs;
    std::optional<double> mape_pct;               // over runs with a measured time and no error
    std::map<std::string, double> mape_by_source;  // the same per source
};

// The profile a run is predicted on: `override_profile` when given (its cluster overrides still
// apply), else the run's own; throws FieldError or InputError.
Profile runProfile(const Run& run, const Profile* override_profile);
// The run's plan with its precision; FieldError "cluster.gpus" when the degrees do not multiply to it.
Plan runPlan(const Run& run);
// Evaluates one run; errors become RunPrediction::error.
RunPrediction predictRun(const Run& run, const Profile* override_profile, ModelKind kind);
ValidationReport validateRuns(const std::vector<Run>& runs, const Profile* override_profile,
                              ModelKind kind = ModelKind::Partita);

}  // namespace partita::llm
