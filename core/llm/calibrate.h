#pragma once
// Least-squares calibration of a profile to measured runs (issue 28 item 5): a handful of
// efficiency multipliers, never one per run, fitted by minimising the squared log error of the
// predicted iteration times (Nelder-Mead). A parameter no run depends on keeps its value.
#include <string>
#include <vector>

#include "core/llm/validate.h"

namespace partita::llm {

struct FittedParameter {
    std::string name;     // "matrix", "memory", "tier0", "tier1"
    std::string what;     // what it scales
    double factor = 1;    // multiplier applied to the input profile
    double value = 0;     // the resulting headline efficiency
    bool fitted = false;  // false: no run depends on it
};

struct CalibrationResult {
    Profile profile;  // the calibrated profile
    std::vector<FittedParameter> parameters;
    int runs_used = 0;
    double mape_before = 0, mape_after = 0;  // %
    double rms_log_before = 0, rms_log_after = 0;
};

// The profile with the four multipliers applied (matrix curves; vector and HBM curves; tier 0 and
// tier 1 efficiency), each efficiency clamped to (0, 1].
Profile scaledProfile(const Profile& base, const std::vector<double>& factors);
// Throws std::invalid_argument when no run has a measured time that the model can predict.
CalibrationResult calibrate(const std::vector<Run>& runs, const Profile& base, const std::string& fit_set,
                            ModelKind kind = ModelKind::Partita);

}  // namespace partita::llm
