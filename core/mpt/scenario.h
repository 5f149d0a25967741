#pragma once
// Dynamic clustering and the six system configurations of docs/methods/mpt.md#dynamic-clustering
// (d_dp, w_dp, w_mp, w_mp+, w_mp*, w_mp+*) over a layer list, with per-layer
// options for every allowed grid and an optional per-layer override.
#include <optional>
#include <string>
#include <vector>

#include "core/mpt/cost.h"

namespace partita::mpt {

enum class Scenario { DDp, WDp, WMp, WMpPlus, WMpStar, WMpPlusStar };
enum class Objective { CommVolume, CommTime, TotalTime };
enum class ConfigSet { Paper, Extended };
enum class TransformRule { PerConfig, PaperFormula };  // PaperFormula: F(2,r) everywhere (Oracle MPT-1)

const char* scenarioName(Scenario s);  // exact paper names: "d_dp", "w_mp+*", ...
Scenario parseScenario(const std::string& name);  // throws std::invalid_argument listing the names
std::vector<Scenario> allScenarios();
const char* objectiveName(Objective o);
Objective parseObjective(const std::string& name);

struct ScenarioParams {
    MptParams model;
    Objective objective = Objective::CommTime;
    ConfigSet configs = ConfigSet::Paper;
    TransformRule transform = TransformRule::PerConfig;
};

// The allowed grids for p (paper's set or every divisor pair).
std::vector<GridConfig> allowedConfigs(int p, ConfigSet set);
double objectiveValue(const LayerCost& c, Objective o, double bytes_per_element);
WinogradSize transformFor(const GridConfig& g, int r, TransformRule rule);

struct LayerResult {
    std::string name;
    bool mpt = false;                // evaluated on a grid (Winograd-eligible, MPT scenario)
    std::vector<LayerCost> options;  // every allowed, valid grid (MPT scenarios)
    int chosen = -1;                 // index into options, -1 when not an MPT layer
    bool overridden = false;
    LayerCost cost;                  // the cost used in the totals
};

struct Totals {
    double compute_s = 0, weight_comm_s = 0, tile_comm_s = 0, total_s = 0;
    double comm_bytes = 0;  // per worker
    Energy energy;
};

// docs/methods/mpt.md#three-averages: the paper's "on average" is undefined, so three readings stand side by side.
struct Averages {
    double total = 0;    // sum of baseline times / sum of times (the default)
    double geomean = 0;  // geometric mean of the per-item ratios
    double mean = 0;     // arithmetic mean of the per-item ratios
};
// From (baseline time, time) pairs, one per layer or network; zeros for none.
Averages averages(const std::vector<std::pair<double, double>>& base_and_time);

struct Evaluation {
    Scenario scenario = Scenario::WDp;
    std::vector<LayerResult> layers;
    Totals totals;
    double w_dp_s = 0;        // the same layers under w_dp
    double one_worker_s = 0;  // w_dp on one worker (no communication)
    std::vector<double> w_dp_layer_s, one_worker_layer_s;  // the same per layer
    double speedupVsWdp() const { return w_dp_s / totals.total_s; }
    double speedupVsOne() const { return one_worker_s / totals.total_s; }
    Averages vsWdp() const;  // total = speedupVsWdp()
    Averages vsOne() const;
};

// overrides: one optional grid per layer (empty vector = none); a set entry forces that grid
// for that MPT layer. Throws std::invalid_argument naming the layer for invalid overrides.
Evaluation evaluate(const std::vector<MptLayer>& layers, Scenario s, const ScenarioParams& params,
                    const std::vector<std::optional<GridConfig>>& overrides = {});

// Scaling sweep (M9): per-worker comm and speedup vs one worker at each p.
struct SweepRow {
    int p = 1;
    GridConfig fixed;                 // N_g = N_c = sqrt(p) (largest divisor <= sqrt p)
    double w_dp_bytes = 0, fixed_bytes = 0, dynamic_bytes = 0;  // per worker
    double w_dp_speedup = 0, fixed_speedup = 0, dynamic_speedup = 0;  // vs one worker
};
std::vector<SweepRow> sweep(const std::vector<MptLayer>& layers, const ScenarioParams& params, bool reduction,
                            const std::vector<int>& ps = {1, 4, 16, 64, 256});

// Paper-reported numbers (docs/methods/mpt.md#the-paper-against-the-engine) with their baselines; never engine output.
struct PaperNumber {
    std::string id, quantity;
    double value = 0;
    std::string unit, baseline;
};
const std::vector<PaperNumber>& paperNumbers();
// The paper's figures that stand beside scenario `s` in a comparison (from paperNumbers(), short
// baselines): "2.74x vs w_dp (5-layer avg)" for the Table II study, "2.7x vs w_dp; 191x vs 1 worker"
// for whole networks; empty when the paper reports none for it.
std::string paperFigure(Scenario s, bool layer_study, bool five_by_five);

}  // namespace partita::mpt
