#pragma once
// The ranges of the model parameters users set (core/util/limits.h, docs/formats/limits.md), with their
// units, and the one message every surface (command line, files, editors, sweeps) gives for a value
// outside one.
#include <string>

#include "core/util/limits.h"

namespace partita {

struct Range {
    double lo = 0, hi = 0;  // closed
    const char* unit = "";  // " B/s", " pJ", "" (with its leading space)
};

namespace ranges {
inline constexpr Range kOpsPerSecond{limits::kRateMin, limits::kRateMax, " ops/s"};
inline constexpr Range kFlopsPerSecond{limits::kRateMin, limits::kRateMax, " FLOP/s"};
inline constexpr Range kBytesPerSecond{limits::kRateMin, limits::kRateMax, " B/s"};
inline constexpr Range kBitsPerSecond{limits::kRateMin, limits::kRateMax, " b/s"};
inline constexpr Range kEfficiency{limits::kEfficiencyMin, 1, ""};
inline constexpr Range kLevelFactor{limits::kLevelFactorMin, limits::kLevelFactorMax, ""};
inline constexpr Range kEnergyPj{0, limits::kEnergyPjMax, " pJ"};
inline constexpr Range kBytesPerElement{limits::kBytesPerElementMin, limits::kBytesPerElementMax, " B"};
inline constexpr Range kCommWeight{limits::kCommWeightMin, limits::kCommWeightMax, ""};
inline constexpr Range kLatency{0, limits::kLatencyMax, " s"};
inline constexpr Range kMemoryBytes{0, limits::kMemoryBytes, " B"};
inline constexpr Range kMcmcBeta{0, limits::kMcmcBetaMax, ""};
inline constexpr Range kVectorFlopsPerCycle{limits::kVectorFlopsPerCycleMin, limits::kVectorFlopsPerCycleMax,
                                            " FLOP/cycle"};
inline constexpr Range kBurstRate{limits::kBurstRateMin, limits::kBurstRateMax, " flits/cycle"};
inline constexpr Range kFraction{0, 1, ""};
}  // namespace ranges

// "" when lo <= v <= hi, else "must be between LO and HI UNIT, got V" (NaN and infinities too).
std::string rangeProblem(double v, const Range& r);

}  // namespace partita
