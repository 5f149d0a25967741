// Sweeps (issue 18): points per second of the analytic example sweep (examples/sweeps/analytic.json,
// 304 HyPar, DP, OWT and AccPar points) with 1 and 2 local jobs into a fresh database; the same
// points computed without a database; and the database's own cost per point (a run, its levels
// and its point row stored in one transaction, the identical-run lookup included).
#include <benchmark/benchmark.h>

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

}  // namespace

BENCHMARK(BM_SweepAnalytic)->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SweepComputeOnly)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SweepDatabasePerPoint)->Unit(benchmark::kMillisecond);
