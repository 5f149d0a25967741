#pragma once
// What fully determines a Learn-to-Scale evaluation (the GUI's L2S tab),
// Qt-free: the view and the results database build strategies here, so a
// stored run recomputes exactly the numbers the view showed.
#include <memory>
#include <string>
#include <vector>

#include "core/l2s/evaluate.h"
#include "core/l2s/presets.h"
#include "core/l2s/study.h"

namespace partita {

enum class L2sScenario { Baseline, Ss, SsMask, Grouped };
const char* l2sScenarioName(L2sScenario s);          // "baseline", "ss", "ss_mask", "grouped"
L2sScenario parseL2sScenario(const std::string& name);  // throws std::invalid_argument

struct L2sSettings {
    std::string preset = "convnet";  // an l2s::presets() key, or a network file path (*.json)
    // partita-network/1 text of the evaluated network (a preset's file too): read instead of the file.
    std::string network_json;
    int cores = 16;
    L2sScenario scenario = L2sScenario::SsMask;
    std::vector<l2s::Scheme> schemes;  // the shown scheme per layer; empty = the scenario's own
    // The model options of docs/methods/l2s.md#model-options (defaults = the new models). A run stored before they
    // existed reads back as channel-only / ideal / {1, 0, 0} (method_codec), as it was computed.
    l2s::ComputeModel compute = l2s::ComputeModel::LaneFilling;
    l2s::CommModel comm = l2s::CommModel::Burst;
    double burst_rate = 0.4;     // flits/cycle/node under burst
    std::vector<double> hop_keep;  // SS_Mask keep at 1, 2, 3 hops; empty = the preset's
};

// A preset's own file (examples_dir/networks/<its file>) names that preset's key (its paper columns
// apply); any other key or path is returned as it is. Looks at paths only.
std::string l2sPresetKey(const std::string& key_or_path, const std::string& examples_dir);
// `s` with its network text read when network_json is empty (a path ending in .json, else the
// preset's file under examples_dir/networks). Throws InputError / std::invalid_argument (unknown key).
L2sSettings withL2sNetwork(L2sSettings s, const std::string& examples_dir);

// The preset by key; for a file, one without paper figures (SS keeps remote blocks with p = 1/2).
l2s::Preset l2sPreset(const std::string& key, const LayerTable& layers);
// The same with the settings' hop_keep (when given) in place of the preset's.
l2s::Preset l2sPreset(const L2sSettings& s, const LayerTable& layers);
// The SS_Mask keep probabilities `s` evaluates with: its own, else its preset's ({1, 0, 0} for a
// file). Needs no network text.
std::vector<double> l2sHopKeep(const L2sSettings& s);
// From network_json on a default mesh of `cores`. Throws InputError / Error / std::invalid_argument.
std::unique_ptr<l2s::Evaluator> l2sEvaluator(const L2sSettings& s);

l2s::StrategySpec l2sScenarioSpec(const l2s::Evaluator& ev, const l2s::Preset& p, L2sScenario s);

struct L2sStrategies {
    l2s::Strategy scenario;  // the scenario's own choice per layer
    l2s::Strategy sparse;    // the mask a "sparse" pick uses per layer (SS for SS, else SS_Mask)
    l2s::Strategy shown;     // `schemes` applied over the scenario (the scenario's own when empty)
};
// Throws std::invalid_argument for a scheme list of the wrong length.
L2sStrategies l2sStrategies(const l2s::Evaluator& ev, const l2s::Preset& p, L2sScenario s,
                            const std::vector<l2s::Scheme>& schemes = {});
// The choice a pick of `scheme` for layer l means (sparse: that layer's mask).
l2s::LayerChoice l2sChoice(const l2s::Strategy& sparse, size_t layer, l2s::Scheme scheme);
std::vector<l2s::Scheme> schemesOf(const l2s::Strategy& strategy);

struct L2sResult {
    l2s::Evaluation eval, baseline;  // the shown strategy and all-traditional
};
L2sResult evaluateL2s(const L2sSettings& s);

}  // namespace partita
