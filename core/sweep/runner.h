#pragma once
// Running a sweep on local threads (issue 18 item 2): the points not yet in the results database
// are computed on a WorkerPool; one writer (the calling thread, with the database's one
// connection) stores them as they arrive, each run with its point row, what arrived together in
// one transaction (at most 64 points; a crash loses at most those). A stop
// request lets in-flight points finish and be stored; the rest stays for a rerun.
#include <chrono>
#include <cstddef>
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

#include <optional>
#include <string_view>

#include "core/store/run_rows.h"
#include "core/sweep/point_run.h"
#include "core/sweep/spec.h"

namespace partita {
class ResultsDb;
}

namespace partita::sweep {

struct Options {
    unsigned jobs = 1;                 // worker threads
    std::size_t shard = 0, shards = 1; // run the points whose index % shards == shard
    bool retry_failed = false;         // run again points recorded as failed
};

// What a sweep would do against a database's point rows (ResultsDb::sweepPointStates).
struct Plan {
    std::vector<Point> points;         // the whole sweep
    std::vector<std::string> keys;     // by point
    std::vector<std::string> errors;   // by point: why it cannot be set up ("" when it can)
    std::size_t in_shard = 0;          // points of this shard
    std::size_t stored = 0, failed = 0;  // of those, already in the database
    std::vector<std::size_t> todo;     // indices of the points to run, in order (each key once)
};
Plan plan(const PointInputs& inputs, const std::unordered_map<std::string, std::string>& states,
          const Options& options);

// The counts of a plan without its lists (what --dry-run prints): the points are visited one at a
// time, so a sweep of 10^6 points needs no memory per point beyond one hash of each key it would run.
struct PlanCounts {
    std::size_t points = 0, in_shard = 0, stored = 0, failed = 0, todo = 0;
};
PlanCounts planCounts(const PointInputs& inputs, const std::unordered_map<std::string, std::string>& states,
                      const Options& options);

struct Failure {
    std::size_t index = 0;   // the point's index in the sweep
    std::string point;       // Point::describe as JSON text
    std::string error;
    bool earlier = false;    // recorded by an earlier run of the sweep
};

struct Progress {
    std::size_t done = 0, total = 0, failed = 0;  // of this run's todo list
    double elapsed_s = 0;
};

struct Report {
    std::size_t ran = 0;        // points computed and stored now (failures included)
    std::size_t failed = 0;     // of those, failed
    bool stopped = false;       // `stop` said so before the list was done
    std::vector<Failure> failures;  // by index: this run's and the shard's earlier ones (unless retried)
    double elapsed_s = 0;
};

// One computed point as the writer receives it: from a worker thread, or decoded from an MPI rank.
struct Outcome {
    std::size_t index = 0;                 // the point's index in the sweep
    std::string key;                       // as the computing process keyed it
    std::optional<store::RunRows> rows;    // what storing the run writes; absent when it failed
    std::string error;
};
// runPoint(prepare(point)) as rows; a failure becomes the outcome's error (never throws).
Outcome compute(const PointInputs& inputs, const Point& point);
std::string encode(const Outcome& outcome);
Outcome decodeOutcome(std::string_view bytes);  // throws Error for bytes encode() did not make

// The one writer of a sweep: stores outcomes, each batch in one transaction, and keeps the report
// and progress. Used by run() below and by rank 0 of an MPI sweep (app/cli/sweep_mpi.cpp).
class Writer {
public:
    // Collects the shard's earlier failures (unless retried) for the report.
    Writer(const PointInputs& inputs, const Plan& plan, ResultsDb& db, const Options& options);
    void store(const std::vector<Outcome>& batch);  // throws what the database throws
    const Progress& progress() const { return progress_; }
    Report finish();                                // the report, failures by index

private:
    const PointInputs& inputs_;
    const Plan& plan_;
    ResultsDb& db_;
    Report report_;
    Progress progress_;
    std::chrono::steady_clock::time_point start_;
};

// Points stored in one transaction at most: a crash loses at most these, and progress stays live.
inline constexpr std::size_t kBatch = 64;

// Runs the plan's todo list. `progress` is called on the calling thread after each stored point;
// `stop` is asked (from any thread) before each point is started. A database error stops the
// workers and is rethrown once they have returned.
Report run(const PointInputs& inputs, const Plan& plan, ResultsDb& db, const Options& options,
           const std::function<void(const Progress&)>& progress = {}, const std::function<bool()>& stop = {});

}  // namespace partita::sweep
