#pragma once
// The AccPar entry points the CLI and the GUI call: AccPar's plan beside DP,
// OWT and HyPar under one model (docs/methods/accpar.md#baselines-under-accpars-model), and the
// multi-network study with geometric means (docs/methods/accpar.md#presets-and-the-study).
#include <string>
#include <vector>

#include "core/accpar/hierarchy.h"
#include "core/util/progress.h"

namespace partita {

struct AccParResult {
    PlanTree accpar, dp, owt, hypar;
    // Why HyPar, the method, refuses the network (its search plans chains only), or empty. A summary
    // of this one network then shows HyPar as refused with this reason, never as a ratio. `hypar`
    // is still planned (types I and II under AccPar's model) for the study (docs/methods/accpar.md#presets-and-the-study), which compares on
    // the paper's ResNets as the AccPar authors did.
    std::string hypar_refused;

    // T_baseline / T_AccPar with the step times of docs/methods/accpar.md#step-time.
    double speedupOver(const PlanTree& baseline) const { return baseline.step_time_s / accpar.step_time_s; }
    double speedupVsDp() const { return speedupOver(dp); }
    double speedupVsOwt() const { return speedupOver(owt); }
    double speedupVsHypar() const { return speedupOver(hypar); }
};

// AccPar's search and the three baselines on the same inputs. With `given`,
// the "accpar" plan is that grid evaluated instead (a hand-edited grid; its
// ratios follow `given_ratios`). `cancel` is asked before each of the four plans; true throws Cancelled.
AccParResult runAccPar(const LayerTable& layers, const Array& array, const AccParParams& params,
                       const Grid* given = nullptr, RatioPolicy given_ratios = RatioPolicy::Balanced,
                       const CancelFn& cancel = {});

// One network of the study: speedups over DP (x).
struct StudyRow {
    std::string network;
    double owt = 0, hypar = 0, accpar = 0;
    double step_dp_s = 0, step_accpar_s = 0;
};
struct AccParStudy {
    std::vector<StudyRow> rows;
    double geo_owt = 0, geo_hypar = 0, geo_accpar = 0;  // geometric means over the rows
};

AccParStudy accparStudy(const std::vector<LayerTable>& networks, const Array& array, const AccParParams& params);

}  // namespace partita
