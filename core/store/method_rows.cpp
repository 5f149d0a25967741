#include "core/store/method_rows.h"

#include <algorithm>
#include <cmath>

#include <sqlite3.h>

#include "core/l2s/mesh.h"
#include "core/store/method_codec.h"
#include "core/store/results_db.h"
#include "core/store/run_codec.h"
#include "core/store/sqlite_util.h"
#include "core/util/format.h"

namespace partita::store {

namespace {

// What stands in `arrays` for the hardware the method evaluates on.
struct Hardware {
    std::string name, json;
    int devices = 0;
};

Hardware hardwareOf(const MethodRun& run) {
    Hardware h;
    if (run.method == "mpt") {
        h.devices = mpt::MptParams{}.p;
        h.name = std::to_string(h.devices) + " NDP workers";
    } else {
        l2s::MeshParams p;
        p.cores = run.l2s.cores;
        const l2s::Mesh mesh(p);
        h.devices = mesh.cores();
        h.name = std::to_string(mesh.width()) + "x" + std::to_string(mesh.height()) + " mesh";
    }
    h.json = Json{{"format", "partita-method-hardware/1"}, {"method", run.method}, {"name", h.name},
                  {"devices", h.devices}}.dump();
    return h;
}

// The network text kept in `networks`; the layer studies have none, so a marker names them.
std::string networkText(const MethodRun& run) {
    if (run.method == "l2s") return run.l2s.network_json;
    if (isMptLayerStudy(run.mpt.workload))
        return Json{{"format", "partita-mpt-layer-study/1"}, {"workload", run.mpt.workload}}.dump();
    return run.mpt.network_json;
}

bool same(double a, double b) {
    return a == b || std::abs(a - b) <= 1e-12 * std::max(std::abs(a), std::abs(b));
}

std::string where(const std::string& path, std::int64_t id) { return path + ": run " + std::to_string(id); }

}  // namespace

std::int64_t storeMethodRun(sqlite3* db, const std::string& path, const MethodRun& run) {
    if (run.method != "mpt" && run.method != "l2s")
        throw StoreError(path + ": cannot store an evaluation of method '" + run.method + "' (mpt or l2s)");
    std::string network_name, settings;
    Hardware hardware;
    try {
        network_name = methodNetworkName(run);
        hardware = hardwareOf(run);
        settings = (run.method == "mpt" ? mptSettingsToJson(run.mpt) : l2sSettingsToJson(run.l2s)).dump();
    } catch (const std::exception& e) {
        throw StoreError(path + ": cannot store '" + run.name + "': " + e.what());
    }
    const std::string network_json = networkText(run);
    const std::string network_hash = contentHash(network_json);
    const std::string hardware_hash = contentHash(hardware.json);
    const MethodSummary& m = run.summary;

    Transaction t(db, path);
    Statement(db, path, "INSERT OR IGNORE INTO networks (hash, name, json) VALUES (?1, ?2, ?3)")
        .bind(1, network_hash).bind(2, network_name).bind(3, network_json).run();
    Statement(db, path, "INSERT OR IGNORE INTO arrays (hash, name, accelerators, json) VALUES (?1, ?2, ?3, ?4)")
        .bind(1, hardware_hash).bind(2, hardware.name).bind(3, hardware.devices).bind(4, hardware.json).run();
    // The grid columns hold an empty grid: these methods choose per layer, not on a HyPar grid.
    const std::string empty_grid = gridToJson(Grid{}).dump();
    const double batch = run.method == "mpt" ? mpt::MptParams{}.batch : 1;
    Statement(db, path, R"sql(
INSERT INTO runs (name, kind, method, network_hash, array_hash, params_json, batch, grid_json, reference_json,
                  total_elements, time_step_s, perf_vs_dp, energy_j, created_utc, app_version, job_ms,
                  network_origin, array_origin)
VALUES (?1, 'evaluate', ?2, ?3, ?4, '{}', ?5, ?6, ?6, ?7, ?8, ?9, ?10, ?11, ?12, 0, ?13, ''))sql")
        .bind(1, run.name).bind(2, run.method).bind(3, network_hash).bind(4, hardware_hash).bind(5, batch)
        .bind(6, empty_grid).bind(7, m.traffic_B).bind(8, m.time_s).bind(9, m.speedup).bind(10, m.energy_J)
        .bind(11, run.created_utc).bind(12, run.app_version)
        .bind(13, run.method == "mpt" ? run.mpt.workload : run.l2s.preset).run();
    const std::int64_t id = sqlite3_last_insert_rowid(db);
    Statement(db, path, R"sql(
INSERT INTO method_runs (run_id, settings_json, time_s, speedup, traffic_b, energy_j)
VALUES (?1, ?2, ?3, ?4, ?5, ?6))sql")
        .bind(1, id).bind(2, settings).bind(3, m.time_s).bind(4, m.speedup).bind(5, m.traffic_B)
        .bind(6, m.energy_J).run();
    t.commit();
    return id;
}

bool isMethodRun(sqlite3* db, const std::string& path, std::int64_t id) {
    Statement s(db, path, "SELECT 1 FROM method_runs WHERE run_id = ?1");
    s.bind(1, id);
    return s.step();
}

MethodRun loadMethodRun(sqlite3* db, const std::string& path, std::int64_t id) {
    Statement s(db, path, R"sql(
SELECT r.name, r.method, n.json, m.settings_json, m.time_s, m.speedup, m.traffic_b, m.energy_j, r.created_utc,
       r.app_version
FROM runs r JOIN networks n ON n.hash = r.network_hash JOIN method_runs m ON m.run_id = r.id WHERE r.id = ?1)sql");
    s.bind(1, id);
    if (!s.step()) throw StoreError(where(path, id) + ": there is no MPT or L2S evaluation with this id");
    MethodRun run;
    run.id = id;
    run.name = s.text(0);
    run.method = s.text(1);
    run.summary = {s.real(4), s.real(5), s.real(6), s.real(7)};
    run.created_utc = s.text(8);
    run.app_version = s.text(9);
    MethodSummary again;
    try {
        const std::string source = "stored " + run.method + " settings of run " + std::to_string(id);
        const Json settings = parseJsonText(s.text(3), source);
        if (run.method == "mpt") {
            run.mpt = readMptSettingsJson(settings, source);
            if (!isMptLayerStudy(run.mpt.workload)) run.mpt.network_json = s.text(2);
        } else if (run.method == "l2s") {
            run.l2s = readL2sSettingsJson(settings, source);
            run.l2s.network_json = s.text(2);
        }
        again = recompute(run);
    } catch (const std::exception& e) {
        throw StoreError(where(path, id) + " ('" + run.name + "'): cannot rebuild the evaluation: " + e.what());
    }
    const MethodSummary& m = run.summary;
    if (!same(m.time_s, again.time_s) || !same(m.speedup, again.speedup) || !same(m.traffic_B, again.traffic_B) ||
        !same(m.energy_J, again.energy_J))
        throw StoreError(where(path, id) + " ('" + run.name + "'): stored numbers do not match the engine's "
                         "recomputation (time " + formatNumber(m.time_s) + " vs " + formatNumber(again.time_s) +
                         " s, speed-up " + formatNumber(m.speedup) + " vs " + formatNumber(again.speedup) +
                         ", traffic " + formatNumber(m.traffic_B) + " vs " + formatNumber(again.traffic_B) + " B)");
    return run;
}

}  // namespace partita::store
