#pragma once
// An MPT or Learn-to-Scale evaluation as the results database keeps it: the
// settings that determine it and the headline numbers, which a load checks
// against the engine's recomputation from the settings.
#include <cstdint>
#include <string>

#include "core/run/l2s_settings.h"
#include "core/run/llm_settings.h"
#include "core/run/mpt_settings.h"
#include "core/util/progress.h"

namespace partita {

struct MptOutcome;
struct L2sOutcome;
struct Run;

struct MethodSummary {
    double time_s = 0;     // MPT, LLM: per iteration; L2S: per image
    double speedup = 0;    // MPT: vs w_dp; L2S: vs the traditional all-gather; LLM: 1 if it fits, else 0
    double traffic_B = 0;  // MPT: communication per worker; L2S: NoC traffic; LLM: peak memory per GPU
    double energy_J = 0;   // MPT: total; L2S: NoC; LLM: MFU
};
MethodSummary summarize(const mpt::Evaluation& e);
MethodSummary summarize(const L2sResult& r);
MethodSummary summarize(const llm::Evaluation& e);

struct MethodRun {
    std::int64_t id = 0;  // results-database row; 0 until stored
    std::string name;
    std::string method;   // "mpt", "l2s" or "llm": which settings below apply
    MptSettings mpt;
    L2sSettings l2s;
    LlmSettings llm;
    MethodSummary summary;
    std::string created_utc, app_version;
};

// Named ("MPT w_mp+* · WRN-40-10"), dated and summarised from the evaluation shown.
MethodRun methodRun(const MptSettings& s, const mpt::Evaluation& e);
MethodRun methodRun(const L2sSettings& s, const L2sResult& r);
MethodRun methodRun(const LlmSettings& s, const llm::Evaluation& e);
MethodRun methodRun(const MptOutcome& o);  // its settings and evaluation
MethodRun methodRun(const L2sOutcome& o);
// MPT and L2S as job results: `s` (its network read first when network_json is empty: withMptNetwork,
// withL2sNetwork) made into an outcome, in a Run named and dated like its MethodRun. Throws what the
// outcome functions throw (partita::Cancelled when `cancel` says so).
Run mptRun(const MptSettings& s, const std::string& examples_dir, const CancelFn& cancel = {});
Run l2sRun(const L2sSettings& s, const std::string& examples_dir, const CancelFn& cancel = {});
// The settings evaluated again by the engine.
MethodSummary recompute(const MethodRun& run);
// The evaluated network's name (MPT layer studies: "Table II layers 3x3").
std::string methodNetworkName(const MethodRun& run);

}  // namespace partita
