#pragma once
// The paper's workloads as presets and its reported numbers as a reference
// table (docs/methods/l2s.md#presets, feature L11). Reference rows are what Zou et al.
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
    // SS_Mask keep probability of a block 1, 2 and 3 hops away [A] (docs/methods/l2s.md#l3-keep-probabilities-per-hop); 0 farther.
    // Chosen so the expected traffic on the 4x4 mesh, (48 p1 + 68 p2 + 64 p3) / 240 of the
    // all-gather, is Table IV's SS_Mask rate. {1, 0, 0} (keep the neighbours) is the old default.
    std::vector<double> hop_keep = {1, 0, 0};
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

// The share of its time the traditional baseline spends communicating, as Table IV implies
// [C] if communication time scales with traffic and compute stays: SS_Mask's speedup S at
// traffic rate t gives c = (1 - 1/S) / (1 - t) (MLP 42 %, LeNet 44 %, ConvNet 37 %, CaffeNet
// 21 %). NaN without an SS_Mask row.
double paperImpliedCommShare(const std::string& network, int cores = 16);
// One line on why the engine's `variant` of `network` (16 cores, default models) differs from
// the paper's figure; empty when there is no paper figure to differ from.
std::string gapReason(const std::string& network, const std::string& variant);

// Table I: bytes the traditional scheme sends per boundary, 16 cores, as printed ("28K", "2M").
struct PaperTrafficRow {
    std::string network;
    std::vector<std::pair<std::string, std::string>> boundaries;  // column name, printed value
};
const std::vector<PaperTrafficRow>& paperTableI();

}  // namespace partita::l2s
