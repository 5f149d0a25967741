#include "core/run/method_run.h"

#include "core/io/network_io.h"
#include "core/run/run.h"
#include "core/util/error.h"

namespace partita {

MethodSummary summarize(const mpt::Evaluation& e) {
    return {e.totals.total_s, e.speedupVsWdp(), e.totals.comm_bytes, e.totals.energy.total()};
}

MethodSummary summarize(const L2sResult& r) {
    return {r.eval.time_s, l2s::versus(r.baseline, r.eval).speedup, r.eval.volume_B, r.eval.energy_J};
}

namespace {

std::string networkName(const std::string& json, const std::string& key) {
    return readNetworkJson(json, "network of '" + key + "'").name;
}

MethodRun dated(MethodRun run) {
    run.created_utc = nowUtc();
    run.app_version = PARTITA_VERSION;
    return run;
}

}  // namespace

std::string methodNetworkName(const MethodRun& run) {
    if (run.method == "l2s") return networkName(run.l2s.network_json, run.l2s.preset);
    if (run.mpt.workload == "layers") return "Table II layers 3x3";
    if (run.mpt.workload == "layers-5x5") return "Table II layers 5x5";
    return networkName(run.mpt.network_json, run.mpt.workload);
}

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

MethodSummary recompute(const MethodRun& run) {
    if (run.method == "mpt") return summarize(evaluateMpt(run.mpt));
    if (run.method == "l2s") return summarize(evaluateL2s(run.l2s));
    throw Error("unknown evaluation method '" + run.method + "' (mpt or l2s)");
}

}  // namespace partita
