// Sweeps (issue 18): points per second of the analytic example sweep (examples/sweeps/analytic.json,
// 304 HyPar, DP, OWT and AccPar points) with 1 and 2 local jobs into a fresh database, and under
// `mpirun -n K partita-cli sweep --mpi` (K = 2: one computing worker beside rank 0, the writer;
// K = 3: two), started as a process, so the counters are the sweep's own rate as rank 0 reports it
// and the wall-clock rate with MPI's start-up; the same points computed without a database; and the
// database's own cost per point (a run, its levels and its point row stored with the identical-run
// lookup), one point per transaction as a lone store, and as the sweep's writer stores them: rows
// built beforehand (by the workers), 64 points per transaction.
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "core/store/results_db.h"
#include "core/sweep/runner.h"

namespace {

using namespace partita;

const sweep::Spec& analytic() {
    static const sweep::Spec spec =
        sweep::loadSpec(std::string(PARTITA_EXAMPLES_DIR) + "/sweeps/analytic.json", PARTITA_EXAMPLES_DIR);
    return spec;
}

struct FreshDatabase {
    std::string path = (std::filesystem::temp_directory_path() / "partita-bench-sweep.sqlite").string();
    FreshDatabase() { clear(); }
    ~FreshDatabase() { clear(); }
    void clear() const {
        for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(path + suffix);
    }
};

void perPoint(benchmark::State& state, std::size_t points) {
    state.counters["points/s"] =
        benchmark::Counter(static_cast<double>(points * state.iterations()), benchmark::Counter::kIsRate);
    state.counters["points"] = static_cast<double>(points);
}

void BM_SweepAnalytic(benchmark::State& state) {
    const sweep::PointInputs inputs(analytic());
    sweep::Options options;
    options.jobs = static_cast<unsigned>(state.range(0));
    std::size_t points = 0;
    for (auto _ : state) {
        state.PauseTiming();
        const FreshDatabase file;
        {
            ResultsDb db(file.path);
            state.ResumeTiming();
            const sweep::Plan plan = sweep::plan(inputs, db.sweepPointStates(), options);
            points = sweep::run(inputs, plan, db, options).ran;
            state.PauseTiming();
        }
        state.ResumeTiming();
    }
    perPoint(state, points);
}

void BM_SweepComputeOnly(benchmark::State& state) {
    const sweep::PointInputs inputs(analytic());
    const auto points = sweep::expand(analytic());
    for (auto _ : state)
        for (const auto& p : points) benchmark::DoNotOptimize(sweep::runPoint(inputs.prepare(p)));
    perPoint(state, points.size());
}

void BM_SweepDatabasePerPoint(benchmark::State& state) {
    const sweep::PointInputs inputs(analytic());
    std::vector<std::pair<store::SweepPointRow, Run>> stored;
    for (const auto& p : sweep::expand(analytic())) {
        const sweep::Prepared prepared = inputs.prepare(p);
        stored.push_back({{prepared.key, "analytic-levels", p.describe(analytic()).dump(), "", 0},
                          sweep::runPoint(prepared)});
    }
    for (auto _ : state) {
        state.PauseTiming();
        const FreshDatabase file;
        {
            ResultsDb db(file.path);
            state.ResumeTiming();
            for (const auto& [row, run] : stored) benchmark::DoNotOptimize(db.storeSweepPoint(row, &run));
            state.PauseTiming();
        }
        state.ResumeTiming();
    }
    perPoint(state, stored.size());
}

void BM_SweepDatabaseBatchedRows(benchmark::State& state) {
    const sweep::PointInputs inputs(analytic());
    std::vector<sweep::Outcome> outcomes;
    sweep::Plan plan = sweep::plan(inputs, {}, {});
    for (std::size_t i : plan.todo) outcomes.push_back(sweep::compute(inputs, plan.points[i]));
    for (auto _ : state) {
        state.PauseTiming();
        const FreshDatabase file;
        {
            ResultsDb db(file.path);
            sweep::Writer writer(inputs, plan, db, {});
            state.ResumeTiming();
            for (std::size_t i = 0; i < outcomes.size(); i += sweep::kBatch)
                writer.store({outcomes.begin() + static_cast<std::ptrdiff_t>(i),
                              outcomes.begin() + static_cast<std::ptrdiff_t>(std::min(i + sweep::kBatch, outcomes.size()))});
            state.PauseTiming();
        }
        state.ResumeTiming();
    }
    perPoint(state, outcomes.size());
}

#ifdef PARTITA_MPI_BENCH
// The points and the rate rank 0 prints ("Ran 304 points in 0.2 s (1519.71 points/s)"): from the
// plan to the last stored point, without MPI's start-up.
std::pair<double, double> reported(const std::string& output) {
    const auto ran = output.find("Ran ");
    const auto open = output.find('(', ran);
    if (ran == std::string::npos || open == std::string::npos) return {0, 0};
    return {std::stod(output.substr(ran + 4)), std::stod(output.substr(open + 1))};
}

void BM_SweepMpi(benchmark::State& state) {
    const std::string ranks = std::to_string(state.range(0));
    double rate = 0, wall = 0, points = 0;
    std::size_t runs = 0;
    for (auto _ : state) {
        const FreshDatabase file;
        const std::string command = std::string("OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 ") +
                                    partitaTestMpiexec() + " --oversubscribe -n " + ranks + " " + partitaTestCliBinary() +
                                    " sweep " + PARTITA_EXAMPLES_DIR + "/sweeps/analytic.json --mpi --db " + file.path + " 2>/dev/null";
        const auto start = std::chrono::steady_clock::now();
        FILE* pipe = ::popen(command.c_str(), "r");
        std::string output;
        char chunk[512];
        while (pipe && std::fgets(chunk, sizeof chunk, pipe)) output += chunk;
        if (!pipe || ::pclose(pipe) != 0) {
            state.SkipWithError("mpirun failed");
            return;
        }
        wall += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        const auto [n, r] = reported(output);
        points += n;
        rate += r;
        ++runs;
    }
    state.counters["points/s"] = rate / static_cast<double>(runs);
    state.counters["points/s with start-up"] = points / wall;
}
BENCHMARK(BM_SweepMpi)->Arg(2)->Arg(3)->Iterations(5)->UseRealTime()->Unit(benchmark::kMillisecond);
#endif

}  // namespace

BENCHMARK(BM_SweepAnalytic)->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SweepComputeOnly)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SweepDatabasePerPoint)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SweepDatabaseBatchedRows)->Unit(benchmark::kMillisecond);
