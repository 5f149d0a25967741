#pragma once
// The results database (docs/formats/results-database.md): every run with its inputs, parameters,
// grid and per-level metrics, in one SQLite file. Networks and arrays are
// stored once per content hash so runs on identical inputs group together.
// Schema versioned with PRAGMA user_version and migrated forward; a file from
// a newer Partita is refused and left untouched.
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/run/method_run.h"
#include "core/run/run.h"
#include "core/store/sweep_rows.h"
#include "core/util/error.h"
#include "core/util/progress.h"

struct sqlite3;

namespace partita::store {
struct RunRows;
}

namespace partita {

// Every problem with the database file; the message names the file.
class StoreError : public Error {
public:
    using Error::Error;
};

namespace store {
// A row the database refuses (a constraint fails, a number to store is not finite): the database is
// fine and the row alone is not stored.
class RowError : public StoreError {
public:
    using StoreError::StoreError;
};
}  // namespace store

// One row of the runs list (no inputs loaded).
struct RunSummary {
    std::int64_t id = 0;
    std::string name;
    RunKind kind = RunKind::Search;
    std::string method;
    std::string network_name, network_hash;
    std::string array_name, array_hash;
    int accelerators = 0;
    std::string topology_name;  // simulated runs: the topology they ran on (empty otherwise)
    int devices = 0;            // simulated runs: its compute devices
    double batch = 0;
    double total_elements = 0;
    double time_step_s = 0;
    double perf_vs_dp = 0;
    double energy_j = 0;  // a settings method's fourth figure (its SummaryLabels say what it is)
    std::string created_utc;
    std::string app_version;
};

// Empty fields match anything.
struct RunFilter {
    std::string network_name;
    std::string array_name;
    std::string method;
};

class ResultsDb {
public:
    static constexpr int kSchemaVersion = 4;  // 2: simulated runs; 3: MPT and L2S evaluations; 4: sweep points

    // Opens (creating it and its folder if absent) and migrates. Throws StoreError for a corrupt
    // file, a file that is not a database, or one with a newer schema.
    // With `read_only` (or a file this process may not write) nothing is ever written: listing and
    // re-opening work, storing, renaming and deleting throw StoreError.
    explicit ResultsDb(const std::string& path, bool read_only = false);
    ~ResultsDb();
    ResultsDb(const ResultsDb&) = delete;
    ResultsDb& operator=(const ResultsDb&) = delete;

    const std::string& path() const { return path_; }
    bool readOnly() const { return read_only_; }

    // Stores the run in one transaction and returns its id.
    std::int64_t store(const Run& run);
    // The same with `rows` = store::runRows(run) already built, e.g. by the worker that made the run
    // (serialising a large simulated run takes long: docs/contributing/architecture.md#jobs-and-threads).
    std::int64_t store(const Run& run, const store::RunRows& rows);
    std::vector<RunSummary> list(const RunFilter& filter = {}) const;
    // A stored run with the same inputs, method, parameters and grid (and, for an exploration or
    // a simulation, the same request or strategy, topology and options): storing `run` again
    // would only duplicate it, so callers re-select this one instead. Name and time do not count.
    std::optional<std::int64_t> findIdentical(const Run& run) const;
    std::optional<std::int64_t> findIdentical(const Run& run, const store::RunRows& rows) const;  // rows as store()
    // Rebuilds the run: inputs from the stored JSON, grid, exploration data,
    // a simulated run's strategy simulated again on its stored topology,
    // and the evaluation recomputed by the engine (which must match the stored
    // metrics; a mismatch is a StoreError). Throws StoreError for an unknown id; the
    // re-simulation stops with partita::Cancelled when `cancel` says so.
    Run load(std::int64_t id, const CancelFn& cancel = {}) const;
    bool hasSimulation(std::int64_t id) const;  // a Simulate or MCMC run (load() re-simulates it)

    // MPT and Learn-to-Scale evaluations: listed, renamed and deleted like any run (method "mpt" or
    // "l2s", kind evaluate), but stored and re-opened as settings. loadMethod() evaluates the stored
    // settings again; numbers that differ from the stored ones are a StoreError naming the run.
    std::int64_t storeMethod(const MethodRun& run);
    MethodRun loadMethod(std::int64_t id) const;
    bool isMethodRun(std::int64_t id) const;  // load() refuses these
    void rename(std::int64_t id, const std::string& name);
    void remove(std::int64_t id);

    // Sweep points (schema 4, core/sweep): in one transaction, `run` stored (or an identical stored run
    // re-used, as findIdentical) and the point row `row` pointing at it; with `run` null, the point
    // recorded as failed with row.error. Returns the run id (0 for a failure).
    std::int64_t storeSweepPoint(store::SweepPointRow row, const Run* run);
    // Several points in one transaction (a sweep's writer stores what has arrived meanwhile); ids in order.
    using SweepPoint = std::pair<store::SweepPointRow, const Run*>;
    std::vector<std::int64_t> storeSweepPoints(const std::vector<SweepPoint>& points);
    // The same with each run given as the rows it stores (store::runRows, built by a sweep's workers
    // or received from an MPI rank); null for a failed point.
    // A run the database refuses (store::RowError: a constraint, a number that is not finite) is not
    // stored; its point is recorded as failed with the reason, also given in `refused` (by point, ""
    // for the others), and the rest are stored.
    using SweepRows = std::pair<store::SweepPointRow, const store::RunRows*>;
    std::vector<std::int64_t> storeSweepRows(const std::vector<SweepRows>& points,
                                             std::vector<std::string>* refused = nullptr);
    // Every sweep point's key -> its error ("" for a stored point).
    std::unordered_map<std::string, std::string> sweepPointStates() const;
    // Every point row (of `sweep` when given) with its run's numbers (core/sweep/table.h reads these).
    std::vector<store::SweepPointListing> sweepPoints(const std::string& sweep = {}) const;

    // Runs, their inputs and sweep points of the database at `in_path` added in one transaction,
    // leaving out runs identical to one already here (same inputs, method, parameters, grid, and
    // exploration, simulation or settings; see mergeIdentity). `in_path` is opened read-only and must have
    // this schema version; anything else is a StoreError naming it, and nothing here changes.
    struct MergeCount {
        std::int64_t runs_added = 0, runs_skipped = 0, points_added = 0, points_skipped = 0;
    };
    MergeCount merge(const std::string& in_path);
    // Every check merge() makes of `in_path` before it writes, made without opening `out_path` (so a
    // merge-db can refuse any of its inputs before the output is migrated or touched).
    static void checkMergeInput(const std::string& in_path, const std::string& out_path);

    // Distinct values for the runs dock's filters.
    std::vector<std::string> networkNames() const;
    std::vector<std::string> arrayNames() const;
    std::vector<std::string> methods() const;

private:
    void requireWritable() const;
    std::string path_;
    bool read_only_ = false;
    sqlite3* db_ = nullptr;
};

// SHA-256 of the text, lower-case hex (OpenSSL).
std::string contentHash(const std::string& text);

}  // namespace partita
