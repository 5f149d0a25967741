#pragma once
// A Run: the inputs, a strategy and its evaluation (design §2). Workers build
// runs and hand them out as RunPtr; nothing changes a run after that, so the
// GUI, the results database and the exporters can all read one safely.
#include <cstdint>
#include <memory>
#include <string>

#include "core/model/array.h"
#include "core/model/layers.h"
#include "core/model/network.h"
#include "core/search/explore.h"
#include "core/search/methods.h"
#include "core/study/studies.h"

namespace partita {

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
    std::string network_origin;  // file path or "built-in:<file>"; informational
    std::string array_origin;
};
using InputsPtr = std::shared_ptr<const RunInputs>;

// Derives the layer table and checks the inputs HyPar-style methods need
// (a chain of weighted layers, a valid array, a positive batch).
// Throws InputError naming the network (or std::invalid_argument for the array).
InputsPtr makeInputs(Network network, Array array, CostParams params, std::string network_origin = {},
                     std::string array_origin = {});

struct Run {
    std::int64_t id = 0;       // results-database row; 0 until stored
    std::string name;          // shown to the user, renamable
    RunKind kind = RunKind::Search;
    std::string method;        // "hypar", "dp", "mp", "owt", or "user" for a given grid
    InputsPtr inputs;
    Grid grid;                 // the strategy this run evaluates
    Grid reference;            // what an edited grid is compared with (the searched optimum); == grid otherwise
    Assessment assessment;     // grid, DP, MP and OWT evaluated on the same inputs
    Evaluation reference_eval; // the reference grid evaluated (== assessment.eval when grid == reference)
    std::shared_ptr<const ExploreResult> exploration;  // Explore runs only
    std::string created_utc;   // ISO 8601, e.g. "2026-11-23T00:01:02Z"
    std::string app_version;   // PARTITA_VERSION of the program that made it
    double job_ms = 0;         // wall time of the computation

    const Evaluation& eval() const { return assessment.eval; }
    bool edited() const { return !(grid == reference); }
    double perfVsDp() const { return assessment.perfVs(assessment.dp); }
    double energyVsDp() const { return assessment.energyVs(assessment.dp); }
};
using RunPtr = std::shared_ptr<const Run>;

// A method's plan (HyPar searches; the baselines are fixed patterns), assessed.
Run planRun(const InputsPtr& inputs, Method method);
// Any grid, assessed. `reference` defaults to the grid itself.
Run gridRun(const InputsPtr& inputs, const Grid& grid, RunKind kind, const std::string& method,
            const Grid* reference = nullptr);
// An exploration of `request` (cells over the HyPar answer unless request.base is set);
// the run's grid is the fastest point found, its reference HyPar's grid.
Run exploreRun(const InputsPtr& inputs, ExploreRequest request, const ProgressFn& progress = {},
               const CancelFn& cancel = {});

// A default display name, e.g. "HyPar · VGG-A · 16 acc".
std::string defaultRunName(const Run& run);
std::string nowUtc();

}  // namespace partita
