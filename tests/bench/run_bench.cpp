// What the GUI does on every grid click: flip one cell and re-assess the run
// (the grid, DP, MP, OWT and the searched reference), storing a run, and
// storing and re-opening a large exploration.
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

// A database file in the temporary folder, removed (with its -wal and -shm) before and after.
struct TempDatabase {
    std::string path;
    explicit TempDatabase(const std::string& name)
        : path((std::filesystem::temp_directory_path() / name).string()) { clear(); }
    ~TempDatabase() { clear(); }
    void clear() const {
        for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(path + suffix);
    }
};

void BM_StoreRun(benchmark::State& state) {
    const TempDatabase file("partita-bench-store.sqlite");
    ResultsDb db(file.path);
    const Run run = planRun(inputsFor("vgg-e"), Method::HyPar);
    for (auto _ : state) benchmark::DoNotOptimize(db.store(run));
}

// 2^16 explored grids (every cell of lenet-c's four levels) stored and read back.
void BM_StoreLoadExploration(benchmark::State& state) {
    const TempDatabase file("partita-bench-exploration.sqlite");
    ResultsDb db(file.path);
    ExploreRequest request;
    request.cells = levelCells({0, 1, 2, 3}, 4);
    request.threads = 2;
    const Run run = exploreRun(inputsFor("lenet-c"), request);
    for (auto _ : state) benchmark::DoNotOptimize(db.load(db.store(run)));
}

}  // namespace

BENCHMARK_CAPTURE(BM_EditReevaluate, lenet_c, std::string("lenet-c"))->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_EditReevaluate, vgg_e, std::string("vgg-e"))->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_StoreRun)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_StoreLoadExploration)->Unit(benchmark::kMillisecond);
