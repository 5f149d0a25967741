#pragma once
// Simulate and MCMC as Run methods (issue 5, GUI): the run carries a
// SimulationResult; its grid is the lowered grid when there is one (so the
// analytic views can still show it), else empty.
#include <optional>

#include "core/run/method_registry.h"
#include "core/run/run.h"
#include "core/run/simulation.h"
#include "core/util/progress.h"

namespace partita {

// Method "simulate" (kind Evaluate): the strategy spec.source names: DP, OWT
// or MP over every device of the topology, `grid` lowered (HyPar's plan of the
// inputs when `grid` is empty), or the file spec.strategy_origin read for the
// inputs' network. Throws partita::Error (the file, the lowering, the strategy), or
// partita::Cancelled when `cancel` says so.
Run simulationRun(const InputsPtr& inputs, const SimulationSpec& spec, const Grid& grid = {},
                  const CancelFn& cancel = {});

// Method "mcmc" (kind Search): FlexFlow's search from spec.mcmc's starts; the
// run simulates its best strategy. A cancelled search still returns a run with
// the best found so far, marked cancelled.
Run mcmcRun(const InputsPtr& inputs, const SimulationSpec& spec, const sim::McmcProgressFn& progress = {},
            const CancelFn& cancel = {});

// A method's answer lowered to the simulator's strategy (MethodInfo::strategy): the one path of the
// CLI's `simulate --method` and of Simulate's DP, OWT, MP and HyPar-plan strategies. Throws
// std::invalid_argument for a method without a strategy (MPT, L2S, Simulate, MCMC).
sim::SoapStrategy methodStrategy(const MethodInfo& method, const StrategyRequest& request);

// A run of a given strategy (what the two above end with, and how the results
// database re-opens one: the stored strategy simulated again, never searched).
Run simulatedRun(const InputsPtr& inputs, const SimulationSpec& spec, sim::SoapStrategy strategy, const Grid& grid,
                 std::optional<McmcSummary> mcmc = {}, const CancelFn& cancel = {});

}  // namespace partita
