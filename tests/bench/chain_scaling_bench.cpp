// Search time against network length (issue 13): a chain of fully connected layers with widths drawn
// from 256..4096, 7 levels, batch 512, from building the network to the last baseline. Linear means
// each doubling of the layers about doubles the time (acceptance: 40k layers <= 2.2 x 20k).
// tests/bench/fc_chain.py writes the same chains as AccPar text files for the command-line timings.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>

#include "core/accpar/accpar.h"
#include "core/accpar/reference.h"
#include "core/model/array.h"
#include "core/model/groups.h"
#include "core/model/layers.h"
#include "core/model/network.h"
#include "core/search/methods.h"
#include "core/study/studies.h"

namespace {

using namespace partita;

constexpr int kLevels = 7;
constexpr double kBatch = 512;

// The same 64-bit LCG as fc_chain.py, so both give the same widths for a seed.
struct Widths {
    std::uint64_t state;
    std::int64_t next() {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        return 256 + static_cast<std::int64_t>((state >> 33) % (4096 - 256 + 1));
    }
};

Network makeFcChain(int layers, std::uint64_t seed = 42) {
    Widths w{seed};
    Network net;
    net.name = "fc-chain-" + std::to_string(layers);
    net.input = Shape{w.next(), 1, 1};
    for (int i = 0; i < layers; ++i) {
        Operator op;
        op.name = "fc" + std::to_string(i + 1);
        op.type = OpType::FullyConnected;
        op.out_channels = w.next();
        net.ops.push_back(std::move(op));
    }
    return net;
}

LayerTable chainTable(int layers) {
    Network net = makeFcChain(layers);
    propagate(net, "bench");
    return weightedLayers(net);
}

// `partita-cli hypar --mode lit`: HyPar's search, then the plan and DP/MP/OWT assessed.
void BM_ChainScalingHyparLit(benchmark::State& state) {
    const int layers = static_cast<int>(state.range(0));
    CostParams params;
    params.batch = kBatch;
    params.comm.w_intra = 1.0;
    const Array array = defaultArray(kLevels);
    for (auto _ : state) {
        const LayerTable table = chainTable(layers);
        const Grid grid = hyparSearch(table, kLevels, params);
        benchmark::DoNotOptimize(assess(table, array, params, grid));
    }
    state.counters["layers"] = layers;
}

// `partita-cli accpar --reference-compatible`: the authors' program's AccPar and HyPar, DP and OWT costs.
void BM_ChainScalingAccparReference(benchmark::State& state) {
    const int layers = static_cast<int>(state.range(0));
    ReferenceOptions o;
    o.levels = kLevels;
    o.batch = kBatch;
    ReferenceOptions hypar = o;
    hypar.hypar_types_only = true;
    for (auto _ : state) {
        const LayerTable table = chainTable(layers);
        benchmark::DoNotOptimize(referencePlan(table, ReferenceNetworkKind::Plain, o));
        benchmark::DoNotOptimize(referencePlan(table, ReferenceNetworkKind::Plain, hypar));
        for (Method m : {Method::DataParallel, Method::OneWeirdTrick})
            benchmark::DoNotOptimize(
                referenceCosts(table, ReferenceNetworkKind::Plain, baselineGrid(m, table, kLevels), o));
    }
    state.counters["layers"] = layers;
}

// `partita-cli accpar --levels 7`: AccPar's time model on 2^7 TPU-v3 beside DP, OWT and HyPar.
void BM_ChainScalingAccparTime(benchmark::State& state) {
    const int layers = static_cast<int>(state.range(0));
    Array array;
    array.name = "128 TPU-v3";
    array.groups = {tpuV3(1 << kLevels)};
    deriveFromGroups(array);
    AccParParams params;
    params.batch = kBatch;
    for (auto _ : state) benchmark::DoNotOptimize(runAccPar(chainTable(layers), array, params));
    state.counters["layers"] = layers;
}

}  // namespace

#define PARTITA_CHAIN_SIZES ->Arg(2500)->Arg(5000)->Arg(10000)->Arg(20000)->Arg(40000)->Unit(benchmark::kMillisecond)
BENCHMARK(BM_ChainScalingHyparLit) PARTITA_CHAIN_SIZES;
BENCHMARK(BM_ChainScalingAccparReference) PARTITA_CHAIN_SIZES;
BENCHMARK(BM_ChainScalingAccparTime) PARTITA_CHAIN_SIZES;
