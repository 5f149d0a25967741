// MPT and Learn-to-Scale evaluation speed: what a click in their tabs costs
// (the GUI evaluates on its own thread because these are sub-millisecond).
#include <benchmark/benchmark.h>

#include "core/io/network_io.h"
#include "core/l2s/presets.h"
#include "core/l2s/study.h"
#include "core/mpt/scenario.h"

using namespace partita;

namespace {

std::vector<mpt::MptLayer> mptNetwork(const char* stem) {
    return mpt::layersFromNetwork(loadNetwork(std::string(PARTITA_EXAMPLES_DIR) + "/networks/" + stem + ".json"));
}

void mptEvaluate(benchmark::State& state, std::vector<mpt::MptLayer> layers) {
    const mpt::ScenarioParams params;
    for (auto _ : state) benchmark::DoNotOptimize(mpt::evaluate(layers, mpt::Scenario::WMpPlusStar, params));
    state.counters["layers"] = static_cast<double>(layers.size());
}

void BM_MptLayerStudy(benchmark::State& state) { mptEvaluate(state, mpt::layerStudy(3)); }
void BM_MptFractalNet(benchmark::State& state) { mptEvaluate(state, mptNetwork("fractalnet-4x4")); }
void BM_MptResNet34(benchmark::State& state) { mptEvaluate(state, mptNetwork("resnet-34")); }

l2s::Evaluator l2sEvaluator(const char* key, int cores) {
    l2s::MeshParams mesh;
    mesh.cores = cores;
    return l2s::Evaluator(l2s::presetLayers(l2s::preset(key), PARTITA_EXAMPLES_DIR), l2s::Mesh(mesh));
}

void BM_L2sEvaluateCaffeNet(benchmark::State& state) {
    const l2s::Evaluator ev = l2sEvaluator("caffenet", static_cast<int>(state.range(0)));
    l2s::StrategySpec spec;
    spec.scheme = l2s::Scheme::Sparse;
    const l2s::Strategy strategy = l2s::buildStrategy(ev.layers(), ev.mesh(), spec);
    for (auto _ : state) benchmark::DoNotOptimize(ev.evaluate(strategy));
}

void BM_L2sUpdateOneBoundary(benchmark::State& state) {
    const l2s::Evaluator ev = l2sEvaluator("caffenet", static_cast<int>(state.range(0)));
    const l2s::Evaluation base = ev.evaluate(l2s::traditionalStrategy(ev.layers()));
    for (auto _ : state) benchmark::DoNotOptimize(ev.update(base, 2, {l2s::Scheme::Grouped, {}}));
}

}  // namespace

BENCHMARK(BM_MptLayerStudy)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_MptResNet34)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_MptFractalNet)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_L2sEvaluateCaffeNet)->Arg(16)->Arg(32)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_L2sUpdateOneBoundary)->Arg(16)->Arg(32)->Unit(benchmark::kMicrosecond);
