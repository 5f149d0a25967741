// LLM plan search speed (issue 28): GPT-3 175B on 64 A100-80GB over the whole space (target <= 30 s
// on one core and >= 1e5 plan evaluations/s), and Megatron 1T on 3,072 GPUs; one evaluation of the
// spec's example for scale.
#include <benchmark/benchmark.h>

#include "core/llm/search.h"

using namespace partita::llm;

namespace {

void runSearch(benchmark::State& state, const char* model, std::int64_t gpus, std::int64_t batch) {
    const Profile profile = profilePreset("a100-sxm4-80gb");
    SearchOptions o;
    o.gpus = gpus;
    o.global_batch = batch;
    SearchResult r;
    std::int64_t evaluated = 0;
    for (auto _ : state) {
        r = search(modelPreset(model), profile, o);
        evaluated += r.evaluated;
    }
    state.counters["evaluated"] = static_cast<double>(r.evaluated);
    state.counters["feasible"] = static_cast<double>(r.feasible);
    state.counters["pruned"] = static_cast<double>(r.pruned);
    state.counters["evaluations_per_s"] = benchmark::Counter(static_cast<double>(evaluated), benchmark::Counter::kIsRate);
}

void BM_LlmSearch(benchmark::State& state) { runSearch(state, "gpt3-175b", 64, 1536); }
void BM_LlmSearch1T(benchmark::State& state) { runSearch(state, "megatron-1t", 3072, 3072); }

void BM_LlmEvaluate(benchmark::State& state) {
    const Profile profile = profilePreset("a100-sxm4-80gb");
    Plan p;
    p.tp = 8;
    p.pp = 8;
    p.global_batch = 64;
    p.sequence_parallel = true;
    p.recompute = Recompute::Selective;
    for (auto _ : state) benchmark::DoNotOptimize(evaluate(modelPreset("gpt3-175b"), p, profile));
}

}  // namespace

BENCHMARK(BM_LlmSearch)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_LlmSearch1T)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_LlmEvaluate)->Unit(benchmark::kMicrosecond);
