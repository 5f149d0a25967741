#include "core/store/sweep_rows.h"

#include "core/run/run.h"
#include "core/store/sqlite_util.h"

namespace partita::store {

void putSweepPoint(StatementCache& sql, const SweepPointRow& row) {
    static constexpr const char* kPut = R"sql(
INSERT OR REPLACE INTO sweep_points (key, run_id, error, sweep, point_json, created_utc, app_version)
VALUES (?1, CASE WHEN ?2 = 0 THEN NULL ELSE ?2 END, CASE WHEN ?3 = '' THEN NULL ELSE ?3 END, ?4, ?5, ?6, ?7))sql";
    sql(kPut).bind(1, row.key).bind(2, row.run_id).bind(3, row.error).bind(4, row.sweep).bind(5, row.point_json)
        .bind(6, nowUtc()).bind(7, std::string(PARTITA_VERSION)).run();
}

std::unordered_map<std::string, std::string> sweepPointStates(sqlite3* db, const std::string& path) {
    Statement s(db, path, "SELECT key, coalesce(error, '') FROM sweep_points");
    std::unordered_map<std::string, std::string> out;
    while (s.step()) out.emplace(s.text(0), s.text(1));
    return out;
}

}  // namespace partita::store
