#include "core/store/method_rows.h"

#include <algorithm>
#include <cmath>

#include <sqlite3.h>

#include "core/run/method_registry.h"
#include "core/store/method_codec.h"
#include "core/store/results_db.h"
#include "core/store/run_codec.h"
#include "core/store/sqlite_util.h"
#include "core/util/format.h"

namespace partita::store {

namespace {

// What stands in `arrays` for the hardware the method evaluates on.
MethodHardware hardwareOf(const SettingsCodec& codec, const MethodRun& run) {
    MethodHardware h = codec.hardware(run);
    h.json = Json{{"format", "partita-method-hardware/1"}, {"method", run.method}, {"name", h.name},
                  {"devices", h.devices}}.dump();
    return h;
}

bool same(double a, double b) {
    return a == b || std::abs(a - b) <= 1e-12 * std::max(std::abs(a), std::abs(b));
}

std::string where(const std::string& path, std::int64_t id) { return path + ": run " + std::to_string(id); }

}  // namespace

std::int64_t storeMethodRun(sqlite3* db, const std::string& path, const MethodRun& run) {
    const MethodInfo* info = findMethod(run.method);
    if (!info || !info->settings())
        throw StoreError(path + ": cannot store an evaluation of method '" + run.method + "' (" + settingsMethodList() + ")");
    const SettingsCodec& codec = *info->settings();
    std::string network_name, settings;
    MethodHardware hardware;
    try {
        network_name = codec.networkName(run);
        hardware = hardwareOf(codec, run);
        settings = codec.toJson(run).dump();
    } catch (const std::exception& e) {
        throw StoreError(path + ": cannot store '" + run.name + "': " + e.what());
    }
    const std::string network_json = codec.networkText(run);
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
    const double batch = codec.batch();
    Statement(db, path, R"sql(
INSERT INTO runs (name, kind, method, network_hash, array_hash, params_json, batch, grid_json, reference_json,
                  total_elements, time_step_s, perf_vs_dp, energy_j, created_utc, app_version, job_ms,
                  network_origin, array_origin)
VALUES (?1, 'evaluate', ?2, ?3, ?4, '{}', ?5, ?6, ?6, ?7, ?8, ?9, ?10, ?11, ?12, 0, ?13, ''))sql")
        .bind(1, run.name).bind(2, run.method).bind(3, network_hash).bind(4, hardware_hash).bind(5, batch)
        .bind(6, empty_grid).bind(7, m.traffic_B).bind(8, m.time_s).bind(9, m.speedup).bind(10, m.energy_J)
        .bind(11, run.created_utc).bind(12, run.app_version)
        .bind(13, codec.origin(run)).run();
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
        if (const MethodInfo* info = findMethod(run.method); info && info->settings())
            info->settings()->read(run, settings, source, s.text(2));
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
