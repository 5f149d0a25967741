#pragma once
// The paper's workloads as presets and its reported numbers as a reference
// table (spec mpt-l2s B6/B7, feature L11). Reference rows are what Zou et al.
// report (BookSim2/DSENT, trained masks); they are never engine output.
#include <string>
#include <vector>

#include "core/model/layers.h"

namespace partita::l2s {

struct Preset {
    std::string key;             // "mlp", "lenet", "convnet", "caffenet", "vgg19", "imagenet10-p1", "imagenet10-p3"
    std::string title;           // the paper's name
    std::string network_file;    // under examples/networks/
    std::vector<std::string> grouped;  // the structure-level layers the paper groups (may be empty)
    // What-if SS keep probability for remote blocks [A]: the paper-reported SS
    // traffic rate of Table IV, used as an INPUT so SS's traffic lands near the
    // paper's; 0.5 where the paper has no SS run. Results still come from the engine.
    double ss_keep = 0.5;
    std::string note;            // shape assumptions
};

const std::vector<Preset>& presets();
const Preset& preset(const std::string& key);  // throws std::invalid_argument listing the keys
// The preset's network, loaded from `examples_dir`/networks/<file>.
LayerTable presetLayers(const Preset& p, const std::string& examples_dir);

// One paper-reported row. NaN where the paper gives no value.
struct PaperRow {
    std::string table;     // "Table IV"
    std::string network;   // "MLP", "LeNet", ...
    std::string variant;   // "Baseline", "SS", "SS_Mask", "Parallel#2", "16 cores", ...
    int cores = 16;
    double accuracy = 0, traffic = 0, speedup = 0, energy_reduction = 0;  // fractions, speedup in x
    std::string baseline;  // what the speedup is against
};
const std::vector<PaperRow>& paperReference();
// The row for (preset network title, variant, cores), or nullptr.
const PaperRow* paperRow(const std::string& network, const std::string& variant, int cores = 16);

// Table I: bytes the traditional scheme sends per boundary, 16 cores, as printed ("28K", "2M").
struct PaperTrafficRow {
    std::string network;
    std::vector<std::pair<std::string, std::string>> boundaries;  // column name, printed value
};
const std::vector<PaperTrafficRow>& paperTableI();

}  // namespace partita::l2s
