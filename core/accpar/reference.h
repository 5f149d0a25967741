#pragma once
// Reference-compatible mode (docs/methods/accpar.md#reference-compatible-mode; Oracle E): the AccPar authors' program, reproduced from
// its described behaviour, for regression. alpha = 1/2, communication only (element counts), one DP per
// level over the shared sub-problem, whose chosen type then halves that dimension of each layer.
// ResNets follow the program's built-in construction (referenceResNet) and shortcut handling: the
// source type taken greedily from back-pointers, the II/III-swapped block table, and the tt = I seeding
// quirk. The principled multi-path engine is core/accpar/multipath.h.
#include <span>
#include <string>
#include <vector>

#include "core/cost/comm_model.h"
#include "core/model/layers.h"
#include "core/partition/grid.h"

namespace partita {

enum class ReferenceNetworkKind { Plain, ResNet18, ResNet34, ResNet50 };

const char* referenceKindName(ReferenceNetworkKind kind);  // "plain", "resnet-18", ...
ReferenceNetworkKind referenceResNetKind(int depth);       // 18, 34, 50; throws std::invalid_argument

// The program's ResNet-18/34/50 as a chain of weighted layers: conv1, the stage convs, fc. No projection
// convs; every conv of a stage reads the stage's channel count C and feature map (56, 28, 14, 7);
// ResNet-50's blocks are 1x1 C->C, 3x3 C->C, 1x1 C->4C; fc is 2048 -> 1000 for every depth.
LayerTable referenceResNet(int depth);

// The layer the program adds a shortcut into (0-based): 18/34 l > 2 and odd; 50 l > 3 and l % 3 == 1.
bool referenceShortcutEnters(ReferenceNetworkKind kind, int layer);

struct ReferenceOptions {
    int levels = 7;
    double batch = 512;
    bool hypar_types_only = false;  // types {I, II}; the program then adds no shortcut terms
    bool quirk = true;              // the tt = I candidate never pays its shortcut (the program's seeding)
};

struct ReferenceResult {
    Grid grid;                       // level 0 = H1, ratios 1/2
    std::vector<std::string> rows;   // "00000121" per level, H1 first
    std::vector<double> level_cost;  // elements per level (DP value of the chosen row)
};

ReferenceResult referencePlan(const LayerTable& layers, ReferenceNetworkKind kind, const ReferenceOptions& options);
ReferenceResult referencePlan(const LayerTable& layers, ReferenceNetworkKind kind, int levels = 7,
                              double batch = 512, bool hypar_types_only = false);

// One level's cost of a fixed row in the same model; for the chosen row it equals the DP value. The block
// term of a shortcut layer is paid unless (with the quirk) its predecessor is Type-I.
double referenceLevelCost(const LayerTable& layers, ReferenceNetworkKind kind, std::span<const LayerState> state,
                          std::span<const Cell> row, const ReferenceOptions& options = {});

// Per-level costs of a fixed grid (e.g. the DP and OWT baselines), shrinking by each row.
std::vector<double> referenceCosts(const LayerTable& layers, ReferenceNetworkKind kind, const Grid& grid,
                                   const ReferenceOptions& options = {});

}  // namespace partita
