#pragma once
// What storing a run writes (tables networks, arrays, runs, run_levels, and for a simulated run
// topologies and simulations), computed without a database. A sweep's workers build it beside
// the computation (threads, or MPI ranks that never open the database), so the one writer only
// inserts; encode/decode carry it between processes bit for bit, so a run stored by rank 0 of an
// MPI sweep is byte-identical to one stored locally. An exploration is not part of it
// (ResultsDb::store adds that row itself).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/run/run.h"


namespace partita::store {

struct RunRows {
    std::string network_name, network_json, network_hash;
    std::string array_name, array_json, array_hash;
    std::int64_t accelerators = 0;
    std::string name, kind, method, params_json;
    double batch = 0;
    std::string grid_json, reference_json;
    double total_elements = 0, time_step_s = 0, perf_vs_dp = 0, energy_j = 0;
    std::string created_utc, app_version;
    double job_ms = 0;
    std::string network_origin, array_origin;
    std::vector<double> level_comm, level_time_s;
    // A simulated run (simulated == false: the rest is empty).
    bool simulated = false;
    std::string topology_name, topology_json, topology_hash;
    std::int64_t devices = 0;
    std::string sim_source, topology_origin, strategy_origin, strategy_json, options_json, search_json;
    double makespan_s = 0;
    // A settings method's run (MPT, L2S, LLM; methodRunRows): its settings, kept in `method_runs` with
    // the summary figures (time_step_s, perf_vs_dp, total_elements, energy_j); empty for the others.
    std::string settings_json;
};

// Throws StoreError for a run without inputs.
RunRows runRows(const Run& run);

std::string encode(const RunRows& rows);
// Throws Error for bytes that are not an encoded RunRows.
RunRows decodeRunRows(std::string_view bytes);

class StatementCache;  // core/store/sqlite_util.h

// Inside the caller's transaction; returns the new run's id.
std::int64_t insertRunRows(StatementCache& sql, const RunRows& rows);
// A stored run with the same kind, method, inputs, parameters, grids and simulation, and an
// exploration only when `run` has one equal to it (see ResultsDb::findIdentical).
std::optional<std::int64_t> findIdenticalRows(StatementCache& sql, const RunRows& rows, const Run* run = nullptr);

}  // namespace partita::store
