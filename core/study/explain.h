#pragma once
// What one grid cell means, for the teaching view: at one level, how layer l's
// tensors are laid out over the two groups, and what moves in each phase
// (docs/methods/hypar.md#communication-of-one-split, docs/methods/accpar.md#three-partition-types). The amounts are those the cost model
// charges, per receiving group.
#include <string>
#include <vector>

#include "core/cost/evaluate.h"

namespace partita {

// How a (batch x features) tensor is held by the two groups of a split.
enum class Layout { Rows, Cols, Full };
const char* layoutName(Layout l);  // "rows", "columns", "full"

Layout outputLayout(Split t);  // F_l+1 after the intra-layer exchange: I rows, II full, III cols
Layout inputLayout(Split t);   // F_l as the layer needs it: I rows, II cols, III full
// Share of a tensor a group with ratio rho receives to turn layout `from` into `to`.
double conversionShare(Layout from, Layout to, double rho);
// Forward (F) and backward (E) parts of the transition producer -> consumer.
double forwardShare(Split from, Split to, double rho);
double backwardShare(Split from, Split to, double rho);

enum class Phase { Forward, Backward, Gradient };
const char* phaseName(Phase p);

struct TensorView {
    std::string name;        // "F_l", "W_l", "F_l+1", "E_l+1", "E_l", "dW_l"
    double elements = 0;     // whole tensor at this level's sub-problem
    Layout layout = Layout::Full;  // how the first group holds it
    bool partial_sum = false;      // each group holds a full-size partial sum
};

struct Transfer {
    Phase phase = Phase::Forward;
    std::string tensor;      // what moves
    std::string reason;      // e.g. "partial sums of F_l+1 (intra-layer)"
    std::string formula;     // e.g. "A(F_l+1) = b * C_out * H * W"
    double elements = 0;     // received by one group (w_intra applied for intra)
};

struct CellExplanation {
    std::string layer;
    int level = 0;
    Cell cell;
    LayerState state;        // sub-problem at this level
    std::string previous;    // producer layer, empty for layer 0
    Split previous_split = Split::Batch;
    std::vector<TensorView> tensors;
    std::vector<Transfer> transfers;
    double intra = 0, inter = 0;  // sums of the transfers
};

// Throws std::out_of_range for a cell outside the grid.
CellExplanation explainCell(const LayerTable& layers, const Grid& grid, const CostParams& params, int level, int layer);

}  // namespace partita
