#include "app/cli/sweep_mpi.h"

#include "app/cli/options.h"

#ifdef PARTITA_HAVE_MPI

#include <chrono>
#include <cstdint>
#include <thread>

#include <mpi.h>

#include "core/store/results_db.h"
#include "core/util/data_dir.h"

namespace partita::cli {

namespace {

// Worker -> rank 0: an encoded sweep::Outcome, or nothing (the first request). Rank 0 -> worker:
// a point index to compute, or stop.
constexpr int kTagResult = 1, kTagWork = 2, kTagStop = 3;

// Rank 0's verdict on the spec, broadcast before anything else, so a bad spec ends every rank.
constexpr int kGo = 0, kGiveUp = 1;

int bcast(int value) {
    MPI_Bcast(&value, 1, MPI_INT, 0, MPI_COMM_WORLD);
    return value;
}

// Whether every rank says true.
bool everyone(bool ok) {
    int mine = ok ? 1 : 0, all = 0;
    MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    return all == 1;
}

}  // namespace

MpiSweep::MpiSweep(bool enabled) : enabled_(enabled) {
    if (!enabled_) return;
    int initialised = 0;
    MPI_Initialized(&initialised);
    if (!initialised) MPI_Init(nullptr, nullptr);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
}

MpiSweep::~MpiSweep() {
    if (!enabled_) return;
    if (rank_ == 0 && !announced_) bcast(kGiveUp);
    MPI_Finalize();
}

void MpiSweep::ready() {
    if (!enabled_) return;
    announced_ = true;
    bcast(kGo);
    if (!everyone(true)) throw Error("a worker rank could not read the sweep (see its message above)");
}

int MpiSweep::work(const std::string& spec_path, std::ostream& err) {
    if (bcast(0) != kGo) return 1;  // rank 0 printed why
    std::unique_ptr<sweep::Spec> spec;
    std::unique_ptr<sweep::PointInputs> inputs;
    std::vector<sweep::Point> points;
    bool ok = true;
    try {
        spec = std::make_unique<sweep::Spec>(sweep::loadSpec(spec_path, examplesDir()));
        inputs = std::make_unique<sweep::PointInputs>(*spec);
        points = sweep::expand(*spec);
    } catch (const std::exception& e) {
        err << "partita-cli sweep (MPI rank " << rank_ << "): error: " << e.what() << "\n";
        ok = false;
    }
    if (!everyone(ok)) return 1;
    std::string result;  // empty: the first request
    for (;;) {
        MPI_Send(result.data(), static_cast<int>(result.size()), MPI_BYTE, 0, kTagResult, MPI_COMM_WORLD);
        MPI_Status status;
        MPI_Probe(0, MPI_ANY_TAG, MPI_COMM_WORLD, &status);
        std::uint64_t index = 0;
        if (status.MPI_TAG == kTagStop) {
            MPI_Recv(nullptr, 0, MPI_BYTE, 0, kTagStop, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            return 0;
        }
        MPI_Recv(&index, 1, MPI_UINT64_T, 0, kTagWork, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        // The index is rank 0's; a mismatch would be a different binary or spec, caught by the key.
        result = index < points.size() ? sweep::encode(sweep::compute(*inputs, points[index]))
                                       : sweep::encode(sweep::Outcome{index, "", std::nullopt, "no such point"});
    }
}

sweep::Report MpiSweep::run(const sweep::PointInputs& inputs, const sweep::Plan& plan, ResultsDb& db,
                            const sweep::Options& options,
                            const std::function<void(const sweep::Progress&)>& progress,
                            const std::function<bool()>& stop) {
    using Clock = std::chrono::steady_clock;
    sweep::Writer writer(inputs, plan, db, options);
    std::vector<sweep::Outcome> pending;
    std::exception_ptr failure;
    auto last = Clock::now();
    // Stored in batches: at most kBatch points, or what arrived within 200 ms, per transaction.
    auto flush = [&] {
        last = Clock::now();
        if (pending.empty() || failure) return;
        try {
            writer.store(pending);
            if (progress) progress(writer.progress());
        } catch (...) {
            failure = std::current_exception();
        }
        pending.clear();
    };
    std::size_t next = 0;
    int active = size_ - 1;
    std::string buffer;
    bool stop_seen = false;
    while (active > 0) {
        if (!stop_seen && stop && stop()) {
            // mpirun passes Ctrl+C on as SIGTERM to every rank and soon kills them: store what
            // arrived now, before waiting for the points in flight.
            stop_seen = true;
            flush();
        }
        int arrived = 0;
        MPI_Status status;
        MPI_Iprobe(MPI_ANY_SOURCE, kTagResult, MPI_COMM_WORLD, &arrived, &status);
        if (!arrived) {
            // Polled, not blocked on, so that a stop request is seen while every worker computes.
            if (Clock::now() - last > std::chrono::milliseconds(200)) flush();
            std::this_thread::sleep_for(std::chrono::microseconds(50));
            continue;
        }
        int bytes = 0;
        MPI_Get_count(&status, MPI_BYTE, &bytes);
        buffer.resize(static_cast<std::size_t>(bytes));
        const int source = status.MPI_SOURCE;
        MPI_Recv(buffer.data(), bytes, MPI_BYTE, source, kTagResult, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        // The next index goes out before the result is stored, so the worker computes meanwhile.
        const bool stopping = failure || (stop && stop());
        if (!stopping && next < plan.todo.size()) {
            const std::uint64_t index = plan.todo[next++];
            MPI_Send(&index, 1, MPI_UINT64_T, source, kTagWork, MPI_COMM_WORLD);
        } else {
            MPI_Send(nullptr, 0, MPI_BYTE, source, kTagStop, MPI_COMM_WORLD);
            --active;
        }
        if (bytes == 0 || failure) continue;
        try {
            sweep::Outcome o = sweep::decodeOutcome(buffer);
            if (o.index >= plan.keys.size() || (!o.key.empty() && o.key != plan.keys[o.index]))
                throw Error("MPI rank " + std::to_string(source) + " computed point #" + std::to_string(o.index) +
                            " differently from rank 0: every rank must run the same partita-cli on the same files");
            pending.push_back(std::move(o));
        } catch (...) {
            failure = std::current_exception();
        }
        if (pending.size() >= sweep::kBatch) flush();
    }
    flush();
    if (failure) std::rethrow_exception(failure);
    return writer.finish();
}

}  // namespace partita::cli

#else  // built without MPI

namespace partita::cli {

MpiSweep::MpiSweep(bool enabled) : enabled_(enabled) {
    if (enabled_)
        throw UsageError("this partita-cli was built without MPI (install libopenmpi-dev and rebuild); "
                         "run without --mpi, or split the sweep with --shard i/n");
}
MpiSweep::~MpiSweep() = default;
void MpiSweep::ready() {}
int MpiSweep::work(const std::string&, std::ostream&) { return 0; }
sweep::Report MpiSweep::run(const sweep::PointInputs& inputs, const sweep::Plan& plan, ResultsDb& db,
                            const sweep::Options& options,
                            const std::function<void(const sweep::Progress&)>& progress,
                            const std::function<bool()>& stop) {
    return sweep::run(inputs, plan, db, options, progress, stop);
}

}  // namespace partita::cli

#endif
