#include "core/run/method_run.h"

#include <chrono>
#include <type_traits>

#include "core/io/network_io.h"
#include "core/run/l2s_outcome.h"
#include "core/run/method_registry.h"
#include "core/run/mpt_outcome.h"
#include "core/run/run.h"
#include "core/util/error.h"

namespace partita {

MethodSummary summarize(const mpt::Evaluation& e) {
    return {e.totals.total_s, e.speedupVsWdp(), e.totals.comm_bytes, e.totals.energy.total()};
}

MethodSummary summarize(const L2sResult& r) {
    return {r.eval.time_s, l2s::versus(r.baseline, r.eval).speedup, r.eval.volume_B, r.eval.energy_J};
}

MethodSummary summarize(const llm::Evaluation& e) { return {e.iteration_s, e.fits ? 1.0 : 0.0, e.peak_bytes, e.mfu}; }

namespace {

MethodRun dated(MethodRun run) {
    run.created_utc = nowUtc();
    run.app_version = PARTITA_VERSION;
    return run;
}

}  // namespace

std::string methodNetworkName(const MethodRun& run) { return settingsCodec(run.method).networkName(run); }

MethodRun methodRun(const MptSettings& s, const mpt::Evaluation& e) {
    MethodRun run;
    run.method = "mpt";
    run.mpt = s;
    run.summary = summarize(e);
    bool edited = false;
    for (const auto& o : s.overrides) edited = edited || o.has_value();
    run.name = std::string("MPT ") + mpt::scenarioName(s.scenario) + (edited ? " (edited)" : "") + " · " +
               methodNetworkName(run);
    return dated(std::move(run));
}

MethodRun methodRun(const L2sSettings& s, const L2sResult& r) {
    MethodRun run;
    run.method = "l2s";
    run.l2s = s;
    run.summary = summarize(r);
    run.name = std::string("L2S ") + l2sScenarioName(s.scenario) + " · " + methodNetworkName(run) + " · " +
               std::to_string(s.cores) + " cores";
    return dated(std::move(run));
}

MethodRun methodRun(const LlmSettings& s, const llm::Evaluation& e) {
    MethodRun run;
    run.method = "llm";
    run.llm = s;
    run.summary = summarize(e);
    const llm::Plan& p = s.plan;
    run.name = std::string("LLM ") + (s.searched ? "search best " : "") + "tp" + std::to_string(p.tp) + " pp" +
               std::to_string(p.pp) + " dp" + std::to_string(p.dp) + " · " + methodNetworkName(run) + " · " +
               s.profile_name;
    return dated(std::move(run));
}

MethodRun methodRun(const MptOutcome& o) { return methodRun(o.settings, o.eval); }
MethodRun methodRun(const L2sOutcome& o) { return methodRun(o.settings, {o.eval, o.baseline}); }

namespace {

// The outcome in a Run named and dated like its MethodRun, timed from `start`.
template <class Outcome>
Run outcomeRun(std::shared_ptr<const Outcome> outcome, std::chrono::steady_clock::time_point start) {
    const MethodRun m = methodRun(*outcome);
    Run run;
    run.kind = RunKind::Evaluate;
    run.method = m.method;
    run.name = m.name;
    run.created_utc = m.created_utc;
    run.app_version = m.app_version;
    if constexpr (std::is_same_v<Outcome, MptOutcome>) run.mpt = std::move(outcome);
    else run.l2s = std::move(outcome);
    run.job_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return run;
}

}  // namespace

Run mptRun(const MptSettings& s, const std::string& examples_dir, const CancelFn& cancel) {
    const auto start = std::chrono::steady_clock::now();
    auto outcome = std::make_shared<const MptOutcome>(mptOutcome(withMptNetwork(s, examples_dir), cancel, examples_dir));
    return outcomeRun(std::move(outcome), start);
}

Run l2sRun(const L2sSettings& s, const std::string& examples_dir, const CancelFn& cancel) {
    const auto start = std::chrono::steady_clock::now();
    auto outcome = std::make_shared<const L2sOutcome>(l2sOutcome(withL2sNetwork(s, examples_dir), cancel));
    return outcomeRun(std::move(outcome), start);
}

MethodSummary recompute(const MethodRun& run) {
    if (const MethodInfo* m = findMethod(run.method); m && m->settings()) return m->settings()->recompute(run);
    throw Error("unknown evaluation method '" + run.method + "' (" + settingsMethodList() + ")");
}

}  // namespace partita
