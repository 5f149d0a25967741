#pragma once
// Table IV beside the engine for one preset (issue 19, docs/methods/l2s.md#the-paper-against-the-engine): SS_Mask's
// speedup and traffic rate and the traditional baseline's communication share,
// each with the engine's value, the ratio and one line on why they differ. The
// CLI's --compare and the Learn-to-Scale tab take the figures and reasons from here.
#include <string>
#include <vector>

#include "core/l2s/evaluate.h"

namespace partita::l2s {

// Whether these are the default models the gap reasons were measured with: lane-filling compute,
// the burst NoC at its default rate and the preset's own SS_Mask hop keep.
bool defaultModels(ComputeModel compute, const MeshParams& mesh, const std::vector<double>& hop_keep,
                   const std::vector<double>& preset_hop_keep);

// The share of its cycles the evaluation spends communicating (0 without cycles).
double commShare(const Evaluation& e);

struct PaperGap {
    std::string quantity;  // "SS_Mask speedup", "SS_Mask traffic", "baseline communication share (paper: implied)"
    bool percent = false;  // a fraction (shown in %), else a factor (shown as x)
    double paper = 0;      // paper-reported; the share is paper-implied (paperImpliedCommShare)
    double engine = 0;
    double ratio = 0;      // engine / paper
    std::string reason;    // why they differ; empty unless asked for
};
// Empty without a Table IV SS_Mask row for (network, cores). `reasons`: the models are the
// defaults and cores = 16, where the reasons were measured (elsewhere they may not hold).
std::vector<PaperGap> paperGaps(const std::string& network, int cores, const Evaluation& baseline,
                                const Evaluation& ss_mask, bool reasons);

}  // namespace partita::l2s
