// What the GUI does on every grid click: flip one cell and re-assess the run
// (the grid, DP, MP, OWT and the searched reference), and storing a run.
#include <benchmark/benchmark.h>

#include <filesystem>
#include <string>

#include "core/io/network_io.h"
#include "core/run/run.h"
#include "core/store/results_db.h"

namespace {

using namespace partita;

InputsPtr inputsFor(const std::string& name) {
    return makeInputs(loadNetwork(std::string(PARTITA_EXAMPLES_DIR) + "/networks/" + name + ".json"),
                      defaultArray(4), CostParams{});
}

void BM_EditReevaluate(benchmark::State& state, const std::string& name) {
    const InputsPtr inputs = inputsFor(name);
    const Run searched = planRun(inputs, Method::HyPar);
    Grid grid = searched.grid;
    int flip = 0;
    for (auto _ : state) {
        Cell& cell = grid.at(flip % grid.levels(), flip % grid.layers());
        cell.split = cell.split == Split::Batch ? Split::Input : Split::Batch;
        ++flip;
        benchmark::DoNotOptimize(gridRun(inputs, grid, RunKind::Edited, "user", &searched.grid));
    }
}

void BM_StoreRun(benchmark::State& state) {
    const auto path = std::filesystem::temp_directory_path() / "partita-bench-store.sqlite";
    std::filesystem::remove(path);
    {
        ResultsDb db(path.string());
        const Run run = planRun(inputsFor("vgg-e"), Method::HyPar);
        for (auto _ : state) benchmark::DoNotOptimize(db.store(run));
    }
    for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(path.string() + suffix);
}

}  // namespace

BENCHMARK_CAPTURE(BM_EditReevaluate, lenet_c, std::string("lenet-c"))->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_EditReevaluate, vgg_e, std::string("vgg-e"))->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_StoreRun)->Unit(benchmark::kMicrosecond);
