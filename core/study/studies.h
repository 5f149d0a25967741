#pragma once
// The paper's studies as data: method comparison per network (HyPar Figs. 6-8
// and 12) and the accelerator-count sweep (Fig. 11).
#include <string>
#include <vector>

#include "core/cost/evaluate.h"
#include "core/search/methods.h"
#include "core/util/finite.h"

namespace partita {

struct MethodResult {
    Method method;
    Grid grid;
    Evaluation eval;
};

struct Comparison {
    std::string network;
    std::vector<MethodResult> results;  // in kAllMethods order
    Evaluation hypar_torus;             // HyPar's grid on the torus of the same size (Fig. 12)

    const MethodResult& get(Method m) const;
    double perfVsDp(Method m) const;    // T_step(DP) / T_step(m)
    double energyVsDp(Method m) const;  // E(DP) / E(m)
    double torusPerfVsDp() const;       // T_step(DP on H-tree) / T_step(HyPar on torus)
};

// `array` gives the hardware (its topology is used for the main results; the
// torus column always uses a torus of the same size and parameters).
Comparison compareMethods(const LayerTable& layers, const Array& array, const CostParams& params);

struct ScalePoint {
    int levels = 0;
    int accelerators = 1;
    double dp_gain = 1, hypar_gain = 1;  // speed over one accelerator
    double dp_total_gb = 0, hypar_total_gb = 0;
};

// Levels 0..max_levels (1 to 2^max accelerators), HyPar re-searched at each size.
std::vector<ScalePoint> scaleSweep(const LayerTable& layers, const Array& array, const CostParams& params,
                                   int max_levels);

double geometricMean(const std::vector<double>& values);

}  // namespace partita

namespace partita {

// A grid's evaluation beside the three baselines on the same inputs. The baselines are
// compared by their totals, so they carry no per-layer arrays (EvalDetail::Totals).
struct Assessment {
    Evaluation eval, dp, mp, owt;
    double perfVs(const Evaluation& baseline) const { return ratioOf(baseline.time_step_s, eval.time_step_s); }
    double energyVs(const Evaluation& baseline) const { return ratioOf(baseline.energy_j, eval.energy_j); }
};

Assessment assess(const LayerTable& layers, const Array& array, const CostParams& params, const Grid& grid);

}  // namespace partita
