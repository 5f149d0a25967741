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

RunRows methodRunRows(const MethodRun& run, const std::string& path) {
    const std::string where = path.empty() ? "" : path + ": ";
    const MethodInfo* info = findMethod(run.method);
    if (!info || !info->settings())
        throw StoreError(where + "cannot store an evaluation of method '" + run.method + "' (" + settingsMethodList() + ")");
    const SettingsCodec& codec = *info->settings();
    RunRows r;
    MethodHardware hardware;
    try {
        r.network_name = codec.networkName(run);
        hardware = hardwareOf(codec, run);
        r.settings_json = codec.toJson(run).dump();
    } catch (const std::exception& e) {
        throw StoreError(where + "cannot store '" + run.name + "': " + e.what());
    }
    r.network_json = codec.networkText(run);
    r.network_hash = contentHash(r.network_json);
    r.array_name = hardware.name;
    r.array_json = hardware.json;
    r.array_hash = contentHash(hardware.json);
    r.accelerators = hardware.devices;
    r.name = run.name;
    r.kind = "evaluate";
    r.method = run.method;
    r.params_json = "{}";
    r.batch = codec.batch();
    // The grid columns hold an empty grid: these methods choose per layer, not on a HyPar grid.
    r.grid_json = r.reference_json = gridToJson(Grid{}).dump();
    const MethodSummary& m = run.summary;
    r.total_elements = m.traffic_B;
    r.time_step_s = m.time_s;
    r.perf_vs_dp = m.speedup;
    r.energy_j = m.energy_J;
    r.created_utc = run.created_utc;
    r.app_version = run.app_version;
    r.network_origin = codec.origin(run);
    return r;
}

std::int64_t storeMethodRun(sqlite3* db, const std::string& path, const MethodRun& run) {
    const RunRows rows = methodRunRows(run, path);
    Transaction t(db, path);
    StatementCache sql(db, path);
    const std::int64_t id = insertRunRows(sql, rows);
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
