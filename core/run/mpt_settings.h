#pragma once
// What fully determines an MPT evaluation (the GUI's MPT tab), Qt-free, so the
// results database can store it and recompute the same numbers on load.
#include <optional>
#include <string>
#include <vector>

#include "core/mpt/layers.h"
#include "core/mpt/options.h"
#include "core/mpt/scenario.h"

namespace partita {

struct MptSettings {
    // "layers" / "layers-5x5" (Table II), a network stem under examples/networks, or a file path.
    std::string workload = "layers";
    // partita-network/1 text of the workload's network; empty for the layer studies. The evaluation
    // reads this text, never the file, so a changed file does not change a stored run.
    std::string network_json;
    mpt::Scenario scenario = mpt::Scenario::WMpPlusStar;
    std::vector<std::optional<mpt::GridConfig>> overrides;  // one per layer; empty = none
    // The model options (docs/methods/mpt.md#model-options-and-presets defaults: dedicated transform unit, max overlap, the study's
    // own array and wire width). A run stored before they existed reads back as the a9 preset
    // (vector unit at its stored rate, sum, 64x64, 4 B) with its stored objective and passes.
    mpt::ModelOptions model;
};

bool isMptLayerStudy(const std::string& workload);  // "layers" or "layers-5x5"

// The built-in workloads in the order the GUI lists them: the layer studies, then networks under examples.
struct MptWorkload {
    const char* key;
    const char* title;
};
const std::vector<MptWorkload>& mptWorkloads();
// A built-in network's file (examples_dir/networks/<key>.json) names that workload's key, so it
// shows as the built-in; any other key or path is returned as it is. Looks at paths only.
std::string mptWorkloadKey(const std::string& key_or_path, const std::string& examples_dir);
// `s` with its workload's network text read when network_json is empty (a path ending in .json,
// else examples_dir/networks/<key>.json); the layer studies read nothing. Throws InputError / Error.
MptSettings withMptNetwork(MptSettings s, const std::string& examples_dir);
// The layer study by key, else the layers of network_json. Throws InputError / Error.
std::vector<mpt::MptLayer> mptLayers(const MptSettings& s);
mpt::ScenarioParams mptParams(const MptSettings& s);
// Throws for an override list of the wrong length or an invalid override.
mpt::Evaluation evaluateMpt(const MptSettings& s);

}  // namespace partita
