// HyPar search per built-in network, and exhaustive enumeration throughput
// (Lenet-c full 2^16 space, VGG-A 256-point space) in points per second.
#include <benchmark/benchmark.h>

#include <string>

#include "core/io/network_io.h"
#include "core/search/explore.h"
#include "core/search/methods.h"

namespace {

using namespace partita;

LayerTable load(const std::string& name) {
    return weightedLayers(loadNetwork(std::string(PARTITA_EXAMPLES_DIR) + "/networks/" + name + ".json"));
}

void BM_HyparSearch(benchmark::State& state, const std::string& name) {
    const LayerTable t = load(name);
    const CostParams p;
    for (auto _ : state) benchmark::DoNotOptimize(hyparSearch(t, 4, p));
}

void BM_Explore(benchmark::State& state, const std::string& name, bool full) {
    const LayerTable t = load(name);
    const CostParams p;
    const Array array = defaultArray(4);
    ExploreRequest req;
    req.base = hyparSearch(t, 4, p);
    req.cells = full ? levelCells({0, 1, 2, 3}, static_cast<int>(t.size())) : layerCells({7, 8}, 4);
    req.threads = static_cast<int>(state.range(0));
    std::uint64_t points = 0;
    for (auto _ : state) points += explore(t, array, p, req).size();
    state.counters["points_per_s"] = benchmark::Counter(static_cast<double>(points), benchmark::Counter::kIsRate);
}

}  // namespace

#define PARTITA_SEARCH_BENCH(id, name) BENCHMARK_CAPTURE(BM_HyparSearch, id, std::string(name));
PARTITA_SEARCH_BENCH(sfc, "sfc")
PARTITA_SEARCH_BENCH(sconv, "sconv")
PARTITA_SEARCH_BENCH(lenet_c, "lenet-c")
PARTITA_SEARCH_BENCH(cifar_c, "cifar-c")
PARTITA_SEARCH_BENCH(alexnet, "alexnet")
PARTITA_SEARCH_BENCH(vgg_a, "vgg-a")
PARTITA_SEARCH_BENCH(vgg_b, "vgg-b")
PARTITA_SEARCH_BENCH(vgg_c, "vgg-c")
PARTITA_SEARCH_BENCH(vgg_d, "vgg-d")
PARTITA_SEARCH_BENCH(vgg_e, "vgg-e")
BENCHMARK_CAPTURE(BM_Explore, lenet_full_65536, std::string("lenet-c"), true)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Explore, vgg_a_conv5_2_fc1_256, std::string("vgg-a"), false)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond);
