#pragma once
// Strategy building, the grouping advisor and the core-count sweep (spec
// docs/methods/l2s.md#grouping-advisor-and-core-sweep, features L3, L7, L8c, L9): the pieces the CLI and a GUI
// share, so each number has one definition.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/l2s/evaluate.h"

namespace partita::l2s {

// What a user asks for, before it is turned into masks for a given core count.
struct StrategySpec {
    Scheme scheme = Scheme::Traditional;      // every layer after the first ("grouped" only where valid)
    std::map<std::string, Scheme> per_layer;  // explicit choices by layer name (must be valid)
    // What-if keep probability per hop-distance class for sparse layers without an
    // imported mask (the engine cannot train). Default = SS_Mask-like: d <= 1 kept.
    std::vector<double> keep = {1, 1, 0};
    std::uint64_t seed = 1;
    bool exact = false;                       // exactMask (kept counts per distance) instead of whatIfMask
    std::map<std::string, Mask> masks;        // imported NZ masks; a layer listed here is sparse
};

// Keep probabilities of the two what-if defaults [A]: SS keeps every remote block
// with one probability p (distance-blind); SS_Mask keeps a block h = 1, 2, 3 hops away with
// hop[h - 1] and prunes farther ones ({1, 0, 0}: the neighbours only, the old default).
std::vector<double> ssKeep(double p);
std::vector<double> ssMaskKeep(const std::vector<double>& hop = {1, 0, 0});
// "0.55,0,0" -> {0.55, 0, 0}: three probabilities in [0, 1]; throws std::invalid_argument.
std::vector<double> parseHopKeep(const std::string& text);
std::string hopKeepText(const std::vector<double>& hop);  // "0.55,0,0"

// Throws std::invalid_argument naming the layer for unknown names, a grouped
// choice that is not valid, or an imported mask of the wrong size.
Strategy buildStrategy(const LayerTable& layers, const Mesh& mesh, const StrategySpec& spec);
// The per-layer list of the CLI: "conv2=grouped,fc1=sparse".
std::map<std::string, Scheme> parsePerLayer(const std::string& text);

struct GroupingAdvice {
    size_t layer = 0;
    std::string name;
    double traditional_B = 0;  // what its input boundary sends with the all-gather
    std::string problem;       // empty when it can be grouped on these cores
    double mac_fraction = 1;   // MACs after grouping / before (1/n when valid)
};
// Layers after the first, busiest input boundary first (ties: network order).
std::vector<GroupingAdvice> groupingAdvice(const Evaluator& ev);
// The names of the k busiest layers that can be grouped.
std::vector<std::string> topGroupable(const Evaluator& ev, size_t k);

struct SweepPoint {
    int cores = 0;
    std::string mesh;  // "4x4"
    Evaluation baseline, variant;
    Versus vs;
};
// One mesh per core count (default shapes), the same spec rebuilt at each n.
std::vector<SweepPoint> coreSweep(const LayerTable& layers, const std::vector<int>& core_counts,
                                  const StrategySpec& spec, const MeshParams& mesh = {}, const CoreParams& core = {});

}  // namespace partita::l2s
