#include "core/store/run_rows.h"

#include <sqlite3.h>

#include "core/io/array_io.h"
#include "core/io/network_io.h"
#include "core/io/params_json.h"
#include "core/run/simulation.h"
#include "core/sim/soap.h"
#include "core/topology/topology.h"
#include "core/store/identical.h"
#include "core/store/results_db.h"
#include "core/store/run_codec.h"
#include "core/store/sim_codec.h"
#include "core/store/sqlite_util.h"
#include "core/util/bytes.h"

namespace partita::store {

RunRows runRows(const Run& run) {
    if (!run.inputs) throw StoreError("cannot store a run without inputs");
    const RunInputs& in = *run.inputs;
    const Evaluation& e = run.eval();
    RunRows r;
    r.network_name = in.network.name;
    r.network_json = writeNetworkJson(in.network);
    r.network_hash = contentHash(r.network_json);
    r.array_name = in.array.name;
    r.array_json = writeArrayJson(in.array);
    r.array_hash = contentHash(r.array_json);
    r.accelerators = in.array.count();
    r.name = run.name;
    r.kind = runKindName(run.kind);
    r.method = run.method;
    // The cost parameters, plus AccPar's options under "accpar" (read back by ResultsDb::load).
    Json params = paramsToJson(in.params);
    params["accpar"] = accparParamsToJson(in.accpar);
    r.params_json = params.dump();
    r.batch = in.params.batch;
    r.grid_json = gridToJson(run.grid).dump();
    r.reference_json = gridToJson(run.reference).dump();
    r.total_elements = e.total_elements;
    r.time_step_s = run.stepTime();
    r.perf_vs_dp = run.perfVsDp();
    r.energy_j = e.energy_j;
    r.created_utc = run.created_utc;
    r.app_version = run.app_version;
    r.job_ms = run.job_ms;
    r.network_origin = in.network_origin;
    r.array_origin = in.array_origin;
    r.level_comm = e.level_comm;
    r.level_time_s = e.level_time_s;
    if (const auto& s = run.simulation) {
        const SimulationSpec& spec = s->spec;
        const bool mcmc = spec.source == SimSource::Mcmc;
        r.simulated = true;
        r.topology_name = spec.topology->name;
        r.topology_json = sim::writeTopologyJson(*spec.topology);
        r.topology_hash = contentHash(r.topology_json);
        r.devices = spec.topology->deviceCount();
        r.sim_source = simSourceName(spec.source);
        r.topology_origin = spec.topology_origin;
        r.strategy_origin = spec.strategy_origin;
        r.strategy_json = sim::writeSoapJson(s->strategy, in.network);
        r.options_json = simOptionsToJson(spec.options, mcmc ? &spec.mcmc : nullptr).dump();
        r.search_json = s->mcmc ? mcmcSummaryToJson(*s->mcmc).dump() : std::string();
        r.makespan_s = s->makespan_s;
    }
    return r;
}

namespace {

// One list of the fields, walked by both directions so they cannot disagree.
template <class Io>
void fields(Io& io, RunRows& r) {
    for (std::string* s : {&r.network_name, &r.network_json, &r.network_hash, &r.array_name, &r.array_json,
                           &r.array_hash, &r.name, &r.kind, &r.method, &r.params_json, &r.grid_json,
                           &r.reference_json, &r.created_utc, &r.app_version, &r.network_origin, &r.array_origin,
                           &r.topology_name, &r.topology_json, &r.topology_hash, &r.sim_source, &r.topology_origin,
                           &r.strategy_origin, &r.strategy_json, &r.options_json, &r.search_json, &r.settings_json})
        io.text(*s);
    for (double* d : {&r.batch, &r.total_elements, &r.time_step_s, &r.perf_vs_dp, &r.energy_j, &r.job_ms,
                      &r.makespan_s})
        io.real(*d);
    for (std::int64_t* i : {&r.accelerators, &r.devices}) io.integer(*i);
    io.reals(r.level_comm);
    io.reals(r.level_time_s);
    std::int64_t simulated = r.simulated;
    io.integer(simulated);
    r.simulated = simulated != 0;
}

struct Out {
    ByteWriter w;
    void text(std::string& s) { w.str(s); }
    void real(double& d) { w.f64(d); }
    void integer(std::int64_t& i) { w.i64(i); }
    void reals(std::vector<double>& v) { w.doubles(v); }
};

struct In {
    ByteReader r;
    void text(std::string& s) { s = r.str(); }
    void real(double& d) { d = r.f64(); }
    void integer(std::int64_t& i) { i = r.i64(); }
    void reals(std::vector<double>& v) { v = r.doubles(); }
};

}  // namespace

std::string encode(const RunRows& rows) {
    Out out;
    RunRows copy = rows;  // fields() walks mutable members for both directions
    fields(out, copy);
    return out.w.take();
}

RunRows decodeRunRows(std::string_view bytes) {
    In in{ByteReader(bytes)};
    RunRows rows;
    fields(in, rows);
    if (!in.r.done()) throw Error("a stored run's bytes are longer than its fields");
    return rows;
}

namespace {

constexpr const char* kNetwork = "INSERT OR IGNORE INTO networks (hash, name, json) VALUES (?1, ?2, ?3)";
constexpr const char* kArray = "INSERT OR IGNORE INTO arrays (hash, name, accelerators, json) VALUES (?1, ?2, ?3, ?4)";
constexpr const char* kRun = R"sql(
INSERT INTO runs (name, kind, method, network_hash, array_hash, params_json, batch, grid_json, reference_json,
                  total_elements, time_step_s, perf_vs_dp, energy_j, created_utc, app_version, job_ms,
                  network_origin, array_origin)
VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18))sql";
constexpr const char* kLevel = "INSERT INTO run_levels (run_id, level, comm_elements, time_s) VALUES (?1, ?2, ?3, ?4)";
constexpr const char* kTopology = "INSERT OR IGNORE INTO topologies (hash, name, devices, json) VALUES (?1, ?2, ?3, ?4)";
constexpr const char* kSimulation = R"sql(
INSERT INTO simulations (run_id, source, topology_hash, topology_origin, strategy_origin, strategy_json,
                         options_json, search_json, makespan_s)
VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9))sql";
constexpr const char* kCandidates = R"sql(
SELECT r.id FROM runs r
WHERE r.kind = ?1 AND r.method = ?2 AND r.network_hash = ?3 AND r.array_hash = ?4 AND r.params_json = ?5
  AND r.grid_json = ?6 AND r.reference_json = ?7
  AND NOT EXISTS (SELECT 1 FROM method_runs m WHERE m.run_id = r.id)
ORDER BY r.id)sql";
constexpr const char* kMethodRun = R"sql(
INSERT INTO method_runs (run_id, settings_json, time_s, speedup, traffic_b, energy_j)
VALUES (?1, ?2, ?3, ?4, ?5, ?6))sql";
constexpr const char* kSameMethodRun = R"sql(
SELECT r.id FROM runs r JOIN method_runs m ON m.run_id = r.id
WHERE r.method = ?1 AND r.network_hash = ?2 AND m.settings_json = ?3 ORDER BY r.id LIMIT 1)sql";
constexpr const char* kStoredSimulation =
    "SELECT source, topology_hash, strategy_json, options_json FROM simulations WHERE run_id = ?1";

bool sameSimulation(StatementCache& sql, std::int64_t id, const RunRows& r) {
    Statement& s = sql(kStoredSimulation);
    s.bind(1, id);
    const bool stored = s.step();
    if (!r.simulated || !stored) return !r.simulated && !stored;
    return s.text(0) == r.sim_source && s.text(1) == r.topology_hash && s.text(2) == r.strategy_json &&
           s.text(3) == r.options_json;
}

}  // namespace

std::int64_t insertRunRows(StatementCache& sql, const RunRows& r) {
    // Identical content means an identical hash, so the first row stands.
    sql(kNetwork).bind(1, r.network_hash).bind(2, r.network_name).bind(3, r.network_json).run();
    sql(kArray).bind(1, r.array_hash).bind(2, r.array_name).bind(3, r.accelerators).bind(4, r.array_json).run();
    sql(kRun).bind(1, r.name).bind(2, r.kind).bind(3, r.method).bind(4, r.network_hash).bind(5, r.array_hash)
        .bind(6, r.params_json).bind(7, r.batch).bind(8, r.grid_json).bind(9, r.reference_json)
        .bind(10, r.total_elements).bind(11, r.time_step_s).bind(12, r.perf_vs_dp).bind(13, r.energy_j)
        .bind(14, r.created_utc).bind(15, r.app_version).bind(16, r.job_ms)
        .bind(17, r.network_origin).bind(18, r.array_origin).run();
    const std::int64_t id = sqlite3_last_insert_rowid(sql.db());
    if (!r.settings_json.empty())
        sql(kMethodRun).bind(1, id).bind(2, r.settings_json).bind(3, r.time_step_s).bind(4, r.perf_vs_dp)
            .bind(5, r.total_elements).bind(6, r.energy_j).run();
    for (size_t h = 0; h < r.level_comm.size(); ++h)
        sql(kLevel).bind(1, id).bind(2, static_cast<int>(h)).bind(3, r.level_comm[h]).bind(4, r.level_time_s.at(h)).run();
    if (!r.simulated) return id;
    sql(kTopology).bind(1, r.topology_hash).bind(2, r.topology_name).bind(3, r.devices).bind(4, r.topology_json).run();
    sql(kSimulation).bind(1, id).bind(2, r.sim_source).bind(3, r.topology_hash).bind(4, r.topology_origin)
        .bind(5, r.strategy_origin).bind(6, r.strategy_json).bind(7, r.options_json).bind(8, r.search_json)
        .bind(9, r.makespan_s).run();
    return id;
}

std::optional<std::int64_t> findIdenticalRows(StatementCache& sql, const RunRows& r, const Run* run) {
    if (!r.settings_json.empty()) {  // the same settings on the same network text evaluate the same
        Statement& same = sql(kSameMethodRun);
        same.bind(1, r.method).bind(2, r.network_hash).bind(3, r.settings_json);
        if (same.step()) return same.integer(0);
        return std::nullopt;
    }
    Statement& s = sql(kCandidates);
    s.bind(1, r.kind).bind(2, r.method).bind(3, r.network_hash).bind(4, r.array_hash).bind(5, r.params_json)
        .bind(6, r.grid_json).bind(7, r.reference_json);
    std::vector<std::int64_t> candidates;
    while (s.step()) candidates.push_back(s.integer(0));
    for (std::int64_t id : candidates)
        if (sameExploration(sql.db(), sql.path(), id, run) && sameSimulation(sql, id, r)) return id;
    return std::nullopt;
}

}  // namespace partita::store
