#pragma once
// Everything the Learn-to-Scale tab shows for one L2sSettings, computed in one
// call (in a worker) and never changed afterwards: the view only draws it.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/l2s/evaluate.h"
#include "core/l2s/paper_gap.h"
#include "core/l2s/presets.h"
#include "core/run/l2s_settings.h"
#include "core/util/progress.h"

namespace partita {

struct L2sOutcome {
    L2sSettings settings;  // what was evaluated; schemes = the shown strategy's, one per layer
    std::shared_ptr<const l2s::Evaluator> evaluator;  // the layers and mesh (its queries are const)
    l2s::Preset preset;
    L2sStrategies strategies;
    l2s::Evaluation eval;      // the shown strategy (== evaluateL2s(settings).eval)
    l2s::Evaluation baseline;  // all traditional
    // The choice grid: cells[scheme][layer] is that boundary under that scheme (Scheme's order:
    // traditional, grouped, sparse), or `problem` says why it cannot be.
    struct Cell {
        std::optional<l2s::BoundaryRow> row;
        std::string problem;
    };
    std::vector<std::vector<Cell>> cells;
    // The scenario rebuilt on 4, 8, 16 and 32 cores against the traditional scheme; NaN where it
    // cannot be built (e.g. grouping that does not divide on n cores).
    struct CoreCount {
        int cores = 0;
        double speedup = 0, comm_speedup = 0;
    };
    std::vector<CoreCount> sweep;
    // One per L2sScenario (baseline, SS, SS_Mask, grouped) on this mesh, unedited.
    std::vector<l2s::Evaluation> scenarios;
    // Table IV beside the engine (SS_Mask on 16 cores, with these models, whatever the mesh shown);
    // empty for a network without Table IV figures. Reasons only under the default models.
    std::vector<l2s::PaperGap> paper;
    bool default_models = true;  // l2s::defaultModels with the preset's own hop keep
};

// Throws what evaluateL2s throws, or partita::Cancelled when `cancel` says so (asked between the
// pieces: the evaluations, each row of the grid, each core count, each scenario).
L2sOutcome l2sOutcome(const L2sSettings& settings, const CancelFn& cancel = {});

}  // namespace partita
