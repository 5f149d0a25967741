#pragma once
// A Run: the inputs, a strategy and its evaluation (docs/contributing/architecture.md#immutable-runs). Workers build
// runs and hand them out as RunPtr; nothing changes a run after that, so the
// GUI, the results database and the exporters can all read one safely.
#include <cstdint>
#include <memory>
#include <string>

#include "core/accpar/accpar.h"
#include "core/model/array.h"
#include "core/model/layers.h"
#include "core/model/network.h"
#include "core/search/explore.h"
#include "core/search/methods.h"
#include "core/study/studies.h"

namespace partita {

struct SimulationResult;  // core/run/simulation.h
struct MptOutcome;        // core/run/mpt_outcome.h
struct L2sOutcome;        // core/run/l2s_outcome.h

// What produced the grid: a method's plan, an evaluation of a given grid, a
// hand edit of another run's grid, or an exhaustive exploration.
enum class RunKind { Search, Evaluate, Edited, Explore };
const char* runKindName(RunKind kind);            // "search", "evaluate", "edited", "explore"
RunKind parseRunKind(const std::string& name);    // throws std::invalid_argument

// Everything a run's numbers depend on besides the grid.
struct RunInputs {
    Network network;        // propagated
    LayerTable layers;      // weightedLayers(network); a chain
    Array array;
    CostParams params;
    AccParParams accpar;         // AccPar's model; its batch follows params.batch
    std::string network_origin;  // file path or "built-in:<file>"; informational
    std::string array_origin;
    // Why HyPar's model does not apply (a network that is not a chain, or an
    // array of unequal accelerators); empty when it does. AccPar always applies.
    std::string hypar_problem;
    bool hyparApplies() const { return hypar_problem.empty(); }
};
using InputsPtr = std::shared_ptr<const RunInputs>;

// Derives the layer table and checks the inputs (a weighted layer, a valid
// array, a positive batch); records whether HyPar's model applies. Throws
// InputError naming the network (or std::invalid_argument for the array).
InputsPtr makeInputs(Network network, Array array, CostParams params, std::string network_origin = {},
                     std::string array_origin = {}, AccParParams accpar = {});

struct Run {
    std::int64_t id = 0;       // results-database row; 0 until stored
    std::string name;          // shown to the user, renamable
    RunKind kind = RunKind::Search;
    std::string method;        // "hypar", "dp", "mp", "owt", "accpar", "simulate", "mcmc", "mpt", "l2s", or "user" for a given grid
    InputsPtr inputs;
    Grid grid;                 // the strategy this run evaluates
    Grid reference;            // what an edited grid is compared with (the searched optimum); == grid otherwise
    Assessment assessment;     // grid, DP, MP and OWT evaluated on the same inputs
    Evaluation reference_eval; // the reference grid evaluated (== assessment.eval when grid == reference)
    std::shared_ptr<const ExploreResult> exploration;  // Explore runs only
    // AccPar runs (method "accpar"): the plan tree of this grid beside DP, OWT
    // and HyPar under AccPar's model. `assessment` then holds HyPar's model of
    // the same grids when it applies (all zero otherwise).
    std::shared_ptr<const AccParResult> accpar;
    double reference_step_s = 0;  // AccPar runs: the reference grid's step time under AccPar's model
    // AccPar runs: the plan in the shape views draw (see accparEvaluation).
    Evaluation accpar_eval;
    // Simulate and MCMC runs (core/run/simulation_run.h): the simulated strategy on its topology.
    // Their grid is the lowered grid, or empty (0 levels) when the strategy has none.
    std::shared_ptr<const SimulationResult> simulation;
    // MPT and Learn-to-Scale runs (method "mpt" / "l2s", core/run/method_run.h): what their tab
    // shows. Such a run has no inputs, grid or assessment.
    std::shared_ptr<const MptOutcome> mpt;
    std::shared_ptr<const L2sOutcome> l2s;
    std::string created_utc;   // ISO 8601, e.g. "2026-11-23T00:01:02Z"
    std::string app_version;   // PARTITA_VERSION of the program that made it
    double job_ms = 0;         // wall time of the computation

    const Evaluation& eval() const { return assessment.eval; }
    bool edited() const { return !(grid == reference); }
    bool isAccPar() const { return accpar != nullptr; }
    bool isSimulation() const { return simulation != nullptr; }
    // What the grid, charts and comparison show: AccPar's model for AccPar runs, HyPar's otherwise.
    const Evaluation& shown() const { return accpar ? accpar_eval : assessment.eval; }
    // The step time users compare: the simulated makespan for simulated runs, AccPar's model
    // for AccPar runs, HyPar's otherwise; and the speed-up over DP under the same model.
    double stepTime() const;
    double perfVsDp() const;
    double energyVsDp() const { return assessment.energyVs(assessment.dp); }
};
using RunPtr = std::shared_ptr<const Run>;

// A method's plan (HyPar searches; the baselines are fixed patterns), assessed.
// `cancel` (here and in accparRun) is asked between the steps; true throws Cancelled.
Run planRun(const InputsPtr& inputs, Method method, const CancelFn& cancel = {});
// Any grid, assessed. `reference` defaults to the grid itself.
Run gridRun(const InputsPtr& inputs, const Grid& grid, RunKind kind, const std::string& method,
            const Grid* reference = nullptr);
// AccPar's search on the inputs, or with `given` that grid (types and the
// ratio model's balanced ratios) as an edit of `reference`.
Run accparRun(const InputsPtr& inputs, const Grid* given = nullptr, RunKind kind = RunKind::Search,
              const Grid* reference = nullptr, const CancelFn& cancel = {});
// An AccPar plan in Evaluation's shape, for the views: per level the grid
// node's (first node of the depth) elements received by group i, per layer
// its A_intra + s_i A_bnd (all counted as intra), its communication time
// sum_l max_x e Q_x / b_x; total = sum_h 2^h com_h as for HyPar (exact when
// every node of a level has the same row); step time = the plan's docs/methods/accpar.md#step-time
// estimate, of which communication = sum_h level time, compute the rest.
Evaluation accparEvaluation(const PlanTree& plan, double bytes_per_element);
// One of an AccPar run's baselines (DP, OWT, HyPar) as a run of its own, for comparison.
Run accparBaselineRun(const Run& accpar_run, Scheme scheme);
// An exploration of `request` (cells over the HyPar answer unless request.base is set);
// the run's grid is the fastest point found, its reference HyPar's grid.
Run exploreRun(const InputsPtr& inputs, ExploreRequest request, const ProgressFn& progress = {},
               const CancelFn& cancel = {});

// A default display name, e.g. "HyPar · VGG-A · 16 acc".
std::string defaultRunName(const Run& run);
std::string nowUtc();

}  // namespace partita
