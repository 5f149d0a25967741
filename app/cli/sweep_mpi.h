#pragma once
// partita-cli sweep --mpi (issue 18 item 3): one sweep across the ranks of an MPI job. Rank 0
// does what a local sweep does (reads the spec, plans against the database, writes it: the only
// rank that opens it) and hands point indices out one at a time as workers ask (a work queue, so
// long MCMC points do not stall a static split); ranks 1.. compute runPoint(prepare(point)) and
// send back the rows storing it writes (store::RunRows in its byte form), so the database is
// byte-for-byte what a local sweep writes. With one rank, rank 0 computes the points itself.
// Built only where CMake found MPI (PARTITA_HAVE_MPI); otherwise --mpi is a usage error.
#include <functional>
#include <ostream>
#include <string>

#include "core/sweep/runner.h"

namespace partita::cli {

class MpiSweep {
public:
    // With `enabled`, initialises MPI (throws UsageError when this partita-cli has no MPI);
    // without, every member does what a local sweep needs and nothing else.
    explicit MpiSweep(bool enabled);
    ~MpiSweep();  // rank 0 that never reached ready() tells the workers to give up; finalises MPI
    MpiSweep(const MpiSweep&) = delete;
    MpiSweep& operator=(const MpiSweep&) = delete;

    bool enabled() const { return enabled_; }
    bool started() const { return announced_; }  // rank 0: ready() was reached
    bool worker() const { return rank_ > 0; }
    int workers() const { return size_ - 1; }
    // Ranks 1..: waits for rank 0's plan, then computes points until told to stop. Returns the
    // exit status (1 when rank 0 or this rank could not read the sweep; the message is printed).
    int work(const std::string& spec_path, std::ostream& err);
    // Rank 0, once the spec is read and planned: lets the workers start. Throws Error when a
    // worker could not read the sweep (each says why on its standard error).
    void ready();
    // Rank 0 with workers: sweep::run across the ranks (same progress and stop contract).
    sweep::Report run(const sweep::PointInputs& inputs, const sweep::Plan& plan, ResultsDb& db,
                      const sweep::Options& options, const std::function<void(const sweep::Progress&)>& progress,
                      const std::function<bool()>& stop);

private:
    bool enabled_ = false, announced_ = false;
    int rank_ = 0, size_ = 1;
};

}  // namespace partita::cli
