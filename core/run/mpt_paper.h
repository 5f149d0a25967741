#pragma once
// The paper's figures (docs/methods/mpt.md#the-paper-against-the-engine) beside this engine's under one set of model options
// (docs/methods/mpt.md#model-options-and-presets): the Table II layer studies (3x3, 5x5) and the three networks of Table I,
// each figure with the engine's three averages (M5), the ratio and, under the default
// options, a one-line reason for what remains. One function, so the CLI's --compare --paper,
// the MPT tab and docs/methods/mpt.md#the-paper-against-the-engine are the same numbers.
#include <string>
#include <vector>

#include "core/mpt/options.h"
#include "core/util/progress.h"

namespace partita {

struct MptPaperRow {
    std::string id;          // mpt::paperNumbers() id
    // What is compared, short: "w_mp+* over w_dp, networks". Mid / Late layers = Mid-1, Mid-2 /
    // Late-1, Late-2 over the whole iteration (the paper's "forward+backward"; its backward pass holds
    // updateGrad); energy per whole iteration; networks = WRN-40-10, ResNet-34, FractalNet 4x4.
    std::string figure;
    double paper = 0;        // paper-reported
    std::string unit;        // "x"
    bool modelled = true;    // false: the engine has nothing to set beside it (engine zeros)
    mpt::Averages engine;    // engine.total is the default reading
    std::string reason;      // why the engine differs; empty when no reason was measured for these options
    double ratio() const { return modelled ? engine.total / paper : 0; }  // engine / paper
};

struct MptNetworkRow {
    std::string name;
    double w_dp_vs_one = 0, wmp_star_vs_w_dp = 0, wmp_plus_vs_w_dp = 0, wmp_plus_star_vs_w_dp = 0,
           wmp_plus_star_vs_one = 0;
};

struct MptPaperStudy {
    mpt::ModelOptions options;
    mpt::Preset preset = mpt::Preset::Default;
    std::vector<MptPaperRow> rows;
    std::vector<MptNetworkRow> networks;  // WRN-40-10, ResNet-34, FractalNet 4x4
};

// The networks are read from examples_dir/networks. Throws InputError / Error, or Cancelled.
MptPaperStudy mptPaperStudy(const mpt::ModelOptions& options, const std::string& examples_dir,
                            const CancelFn& cancel = {});

}  // namespace partita
