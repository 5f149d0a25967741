#pragma once
// Exhaustive search over training plans (docs/methods/llm.md#search): tp, pp, dp, micro-batch, interleave,
// schedule, recompute, SP, scatter/gather, AG redo, ZeRO stage / distributed optimizer, TP and DP
// overlap, for a model on N GPUs with a fixed global batch. Per-layer costs are cached per
// (tp, micro-batch, SP, recompute, AG redo, TP overlap), so one plan costs O(1); plans whose
// weights and optimizer state alone exceed memory are skipped with every micro-batch and
// recompute choice below them, and a micro-batch that does not fit ends its larger siblings
// (memory never falls as the micro-batch grows).
#include <cstdint>
#include <functional>
#include <vector>

#include "core/llm/evaluate.h"
#include "core/util/progress.h"

namespace partita::llm {

struct SearchOptions {
    ModelKind model = ModelKind::Partita;
    std::int64_t gpus = 1;
    std::int64_t global_batch = 1;
    std::size_t top = 10;  // ranked plans kept
    // The space; every dimension is on by default.
    std::vector<Schedule> schedules = {Schedule::Gpipe, Schedule::OneF1B, Schedule::Interleaved};
    std::vector<Recompute> recomputes = {Recompute::None, Recompute::Selective, Recompute::Full};
    std::vector<int> zero_stages = {0, 1, 2, 3};  // with d > 1
    bool distributed_optimizer = true;            // also try Megatron's distributed optimizer
    bool tp_overlap = true;                       // none, ring, pipe with t > 1
    bool dp_overlap = true;                       // on and off with d > 1
    std::int64_t max_micro_batch = 0;             // 0: up to global_batch / dp
};

struct PlanPoint {
    Plan plan;
    double iteration_s = 0;
    double peak_bytes = 0;
    std::int64_t peak_stage = 0;
    double mfu = 0;
    bool fits = false;
};

struct SearchResult {
    bool found = false;
    PlanPoint best;                 // the fastest plan that fits (ties: less memory, then first found)
    std::vector<PlanPoint> pareto;  // fitting plans no other beats in both time and peak memory, by time
    std::vector<PlanPoint> ranked;  // the `top` fastest fitting plans
    std::int64_t evaluated = 0;     // plans evaluated
    std::int64_t feasible = 0;      // of those, plans that fit
    std::int64_t pruned = 0;        // plans skipped by the memory bounds (never fit)
};

// Every evaluated point (fitting or not), for storage; called from the searching thread.
using PointSink = std::function<void(const PlanPoint&)>;

// Throws Cancelled when `cancel` returns true; `progress` gets 0..1 at most every few thousand plans.
SearchResult search(const Transformer& m, const Profile& profile, const SearchOptions& options,
                    const ProgressFn& progress = {}, const CancelFn& cancel = {}, const PointSink& sink = {});

}  // namespace partita::llm
