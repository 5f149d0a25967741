#include "core/store/sweep_rows.h"

#include <limits>

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

std::vector<SweepPointListing> sweepPointListing(sqlite3* db, const std::string& path, const std::string& sweep) {
    Statement s(db, path, R"sql(
SELECT p.key, p.sweep, p.point_json, coalesce(p.error, ''), coalesce(p.run_id, 0),
       r.time_step_s, r.energy_j, r.total_elements, r.perf_vs_dp, coalesce(r.method, '')
FROM sweep_points p LEFT JOIN runs r ON r.id = p.run_id
WHERE ?1 = '' OR p.sweep = ?1 ORDER BY p.rowid)sql");
    s.bind(1, sweep);
    std::vector<SweepPointListing> out;
    const double nan = std::numeric_limits<double>::quiet_NaN();
    while (s.step()) {
        SweepPointListing p{s.text(0), s.text(1), s.text(2), s.text(3), s.integer(4)};
        const bool has_run = p.run_id != 0;
        p.time_step_s = has_run ? s.real(5) : nan;
        p.energy_j = has_run ? s.real(6) : nan;
        p.total_elements = has_run ? s.real(7) : nan;
        p.perf_vs_dp = has_run ? s.real(8) : nan;
        p.method = s.text(9);
        out.push_back(std::move(p));
    }
    return out;
}

}  // namespace partita::store
