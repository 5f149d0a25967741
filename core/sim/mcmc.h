#pragma once
// FlexFlow's MCMC search over SOAP strategies (docs/methods/flexflow.md#mcmc-search,
// docs/methods/flexflow.md#partitas-decisions): Metropolis-Hastings with a proposal that picks
// an operator uniformly and gives it a uniformly random valid configuration
// (or, as FlexFlow's propagation, a neighbour's configuration), accepted with
// probability min(1, exp(beta * (cost(S) - cost(S*)))), cost in ms. Every
// proposal is simulated incrementally (DeltaSimulator: propose, then commit or
// revert). The chain draws its uniform number before the proposal, so it knows
// the makespan above which it will reject, and the simulation stops there
// (early exit; the decisions are the same as without it). As in FlexFlow's
// code, a chain returns to its best strategy every so many iterations. One
// chain per initial strategy; the best over all chains and all starts wins.
// Every start is simulated before the first chain runs, so the result is never
// worse than the best start, even when cancelled. A chain whose best stops
// improving (the stall rule) restarts from a perturbation of its best and runs
// on to the end of its budget, unless stop_on_stall asks it to end there.
#include <chrono>
#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "core/sim/soap.h"
#include "core/sim/task_graph.h"
#include "core/topology/topology.h"
#include "core/util/progress.h"

namespace partita::sim {

struct McmcStart {
    std::string name;  // "dp", "owt", "random", a file name, ...
    SoapStrategy strategy;
};

// The starts a search is asked for by name, in order: "dp", "owt", "mp" and "random" (drawn from one
// generator seeded with `seed`, so the CLI and the application start from the same strategies); any
// other name goes to `other` (e.g. a strategy file). Throws Error for an unknown name without `other`
// and for an empty list.
std::vector<McmcStart> namedStarts(const Network& net, std::int64_t batch, int devices,
                                   const std::vector<std::string>& names, std::uint64_t seed,
                                   const std::function<SoapStrategy(const std::string&)>& other = {});

// Draws a configuration for operator `op`; the default is randomConfig().
// Tests pass a restricted space (e.g. degrees x contiguous blocks) to compare with brute force.
using ProposalFn = std::function<OpConfig(int op, std::mt19937_64& rng)>;

struct McmcOptions {
    double beta = 1.0;            // per ms of makespan
    bool relative_beta = false;   // beta per fraction of the start's initial makespan instead of per ms
    // Budgets for the whole search, shared equally among the starts; 0 = unlimited
    // (at least one must be set). Wall time makes the run non-reproducible. Chain k
    // of n ends (k + 1) / n of the wall-time budget after the search began, so the
    // search ends at its budget whatever the starts' simulations took.
    double budget_s = 0;
    std::int64_t iterations = 0;
    // The stall rule (the paper's): a chain has stalled once its best has not improved
    // for half of its search so far (elapsed >= 2 x time of the last improvement), in
    // seconds with a wall-time budget, in iterations otherwise; checked only after
    // `stall_warmup` of the chain's budget so a chain is never cut at its first steps.
    // A stalled chain restarts (restartStrategy) and the rule applies again from the
    // restart; with stop_on_stall it ends instead.
    bool stop_on_stall = false;
    double stall_warmup = 0.1;
    std::uint64_t seed = 1;       // chain k uses a generator seeded from (seed, k)
    SimOptions sim;
    // true: DeltaSimulator (propose, then commit or revert); false: rebuild and fully
    // simulate every proposal (same makespans; a cross-check and a fallback).
    bool incremental = true;
    bool early_exit = true;       // delta simulation stops once the proposal is sure to be rejected
    // Proposals: `proposal` if set; else, with probability `neighbour_copy`, the
    // operator takes the configuration of a producer or consumer (uniformly
    // among those whose configuration is valid for it and differs), else randomConfig().
    ProposalFn proposal;
    double neighbour_copy = 0.25;
    // Reset to best (FlexFlow r21.03): every `reset_span` iterations a chain that
    // is worse than its best returns to it. 0: clamp(per-chain iterations / 100,
    // 1, 1000), or 1000 with only a wall-time budget; negative: never.
    std::int64_t reset_span = 0;
};

struct McmcProgress {
    double fraction = 0;          // of the whole search, 0..1
    int start = 0;                // chain index
    std::int64_t iteration = 0;   // within the chain
    double current_s = 0, best_s = 0;  // current chain state and best over all chains and starts
    std::int64_t restarts = 0;    // over all chains so far
};
using McmcProgressFn = std::function<void(const McmcProgress&)>;

struct McmcStartSummary {
    std::string name;
    double initial_s = 0, best_s = 0;
    double initial_excess = 0;    // bytes the start needs beyond its devices' capacities (0: fits or unknown)
    std::int64_t iterations = 0, accepted = 0;
    std::int64_t early_exits = 0, resets = 0;  // proposals stopped at their bound; returns to the best
    std::int64_t restarts = 0;    // restarts after a stall
    double elapsed_s = 0;
    std::string stop;             // "budget", "stall" (stop_on_stall), "cancelled"
};

struct McmcResult {
    SoapStrategy best;
    double best_s = 0;            // makespan of `best`
    // Memory (docs/methods/flexflow.md#memory-per-device): when some device has a known capacity,
    // `best` is the fastest strategy found that fits, or, when none fits, the one closest to fitting,
    // with best_excess > 0 the bytes it needs beyond the capacities.
    bool memory_checked = false;
    double best_excess = 0;
    std::vector<McmcStartSummary> starts;
    std::int64_t iterations = 0;  // proposals over all chains
    std::int64_t restarts = 0;    // over all chains
    double acceptance_rate = 0;   // accepted / proposals
    bool cancelled = false;
};

// A stalled chain's next strategy: `best` with min(operators, 2 x restart) distinct operators,
// drawn uniformly, given a new configuration from `propose` (restart = 1 for the first restart).
// The kick grows with each restart of a chain, so a chain that keeps falling back to the same
// optimum is moved further from it.
SoapStrategy restartStrategy(const SoapStrategy& best, std::int64_t restart, std::mt19937_64& rng,
                             const ProposalFn& propose);

// Simulates every start, then runs one chain per start (in order). Throws
// partita::Error for an invalid start or options. Cancellation does not throw:
// when `cancel` returns true the search stops and returns the best found so far
// (never worse than any start) with `cancelled` set (a GUI can still show or store it). `progress` is called every
// few iterations.
McmcResult mcmcSearch(const Network& net, double batch, const Topology& topology, const std::vector<McmcStart>& starts,
                      const McmcOptions& options, const McmcProgressFn& progress = {}, const CancelFn& cancel = {});

}  // namespace partita::sim
