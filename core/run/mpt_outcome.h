#pragma once
// Everything the MPT tab shows for one MptSettings, computed in one call (in a
// worker) and never changed afterwards: the view only draws it.
#include <string>
#include <vector>

#include "core/mpt/scenario.h"
#include "core/run/mpt_paper.h"
#include "core/run/mpt_settings.h"
#include "core/util/progress.h"

namespace partita {

struct MptOutcome {
    // What was evaluated: network_json filled for networks; overrides one per layer, or empty when none is set.
    MptSettings settings;
    std::vector<mpt::MptLayer> layers;
    mpt::Evaluation eval;   // settings.scenario with the overrides (== evaluateMpt(settings))
    mpt::Evaluation w_dp;   // the same layers under w_dp
    // Dynamic clustering's own pick (w_mp* or w_mp+*, no overrides); no layers for d_dp and w_dp.
    mpt::Evaluation dynamic;
    std::vector<mpt::GridConfig> rows;  // the grid's rows: the allowed shapes, widest N_g first
    std::vector<mpt::SweepRow> sweep;   // p = 1 ... 256, with prediction for w_mp+ and w_mp+*
    std::string sweep_problem;          // why the sweep is empty
    // One per mpt::allScenarios(), in that order; the shown scenario's is `eval` (overrides applied).
    std::vector<mpt::Evaluation> scenarios;
    // The paper's figures beside the engine's under the settings' model options (docs/methods/mpt.md#the-paper-against-the-engine);
    // empty rows when no examples directory was given, paper_problem when the networks failed.
    MptPaperStudy paper;
    std::string paper_problem;

    bool reduction() const;  // the shown scenario predicts tiles (w_mp+, w_mp+*)
};

// Throws what evaluateMpt throws, or partita::Cancelled when `cancel` says so (asked between the
// pieces: each evaluation is microseconds, the sweep and the six scenarios more). With
// `examples_dir`, also the paper study over its networks.
MptOutcome mptOutcome(const MptSettings& settings, const CancelFn& cancel = {}, const std::string& examples_dir = {});

}  // namespace partita
