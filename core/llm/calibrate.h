#pragma once
// Least-squares calibration of a profile to measured runs (docs/methods/llm.md#calibrating-on-your-own-runs):
// a handful of parameters, never one per run — efficiency multipliers and the framework's time per layer —
// fitted by minimising the squared log error of the predicted iteration times (Nelder-Mead). A parameter
// no run depends on keeps its value.
#include <string>
#include <vector>

#include "core/llm/validate.h"

namespace partita::llm {

struct FittedParameter {
    std::string name;     // "matrix", "memory", "tier0", "tier1", "overhead"
    std::string what;     // what it scales
    double factor = 1;    // multiplier applied to the input profile (overhead: milliseconds added)
    double value = 0;     // the resulting headline efficiency (overhead: milliseconds per layer)
    bool asked = false;   // named in the fit set
    bool fitted = false;  // asked, and some run depends on it
};

struct CalibrationResult {
    Profile profile;  // the calibrated profile
    std::vector<FittedParameter> parameters;
    int runs_used = 0;
    double mape_before = 0, mape_after = 0;  // %
    double rms_log_before = 0, rms_log_after = 0;
};

// The parameters by name, in the order of `factors` below.
const std::vector<std::string>& calibrationParameterNames();
// The profile with the four multipliers applied (matrix curves; vector and HBM curves; tier 0 and
// tier 1 efficiency), each efficiency clamped to (0, 1]; a fifth entry adds milliseconds to the
// framework time per layer (Device::layer_overhead_s, kept >= 0).
Profile scaledProfile(const Profile& base, const std::vector<double>& factors);
// Fits the parameters named in `fit` (calibrationParameterNames(); empty: the four efficiency
// multipliers). Throws std::invalid_argument when no run has a measured time that the model can
// predict, or for an unknown parameter name.
CalibrationResult calibrate(const std::vector<Run>& runs, const Profile& base, const std::string& fit_set,
                            ModelKind kind = ModelKind::Partita, const std::vector<std::string>& fit = {});

}  // namespace partita::llm
