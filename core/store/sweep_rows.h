#pragma once
// The results database's rows for sweep points (schema 4): one `sweep_points` row per point key
// (core/sweep/key.h), pointing at the run it stored, or holding the error that made it fail, so a
// rerun of the sweep skips both. Deleting a run deletes its point row: a rerun computes it again.
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

struct sqlite3;

namespace partita::store {

struct SweepPointRow {
    std::string key;         // SHA-256 hex of the point's inputs, method, parameters and app version
    std::string sweep;       // the spec's name
    std::string point_json;  // the point's labels and axis values (Point::describe)
    std::string error;       // non-empty: the point failed
    std::int64_t run_id = 0; // the stored (or identical, re-used) run; 0 for a failed point
};

// A point row with its run's headline numbers (NaN for a failed point), for the sweep view.
struct SweepPointListing {
    std::string key, sweep, point_json, error;
    std::int64_t run_id = 0;
    std::string method = {};  // the run's method key ("" for a failed point)
    double time_step_s = 0, energy_j = 0, total_elements = 0, perf_vs_dp = 0;
};

class StatementCache;  // core/store/sqlite_util.h

// Inside the caller's transaction; replaces an earlier row of the same key (a retried failure).
void putSweepPoint(StatementCache& sql, const SweepPointRow& row);
// Every point row: key -> error ("" for a stored point).
std::unordered_map<std::string, std::string> sweepPointStates(sqlite3* db, const std::string& path);
// Every point row (of `sweep` when not empty) with its run's numbers, oldest row first.
std::vector<SweepPointListing> sweepPointListing(sqlite3* db, const std::string& path, const std::string& sweep);

}  // namespace partita::store
