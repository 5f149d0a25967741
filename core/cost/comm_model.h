#pragma once
// Communication amounts of one 2-way split (docs/methods/hypar.md#communication-of-one-split, docs/methods/accpar.md#between-layers).
// All amounts are element counts; they are dyadic rationals, exact in double.
#include <span>
#include <vector>

#include "core/model/layers.h"
#include "core/partition/grid.h"

namespace partita {

// Which output size prices Type-II's partial sums (docs/methods/hypar.md#r1-output-sizes-after-pooling).
enum class OutSize { PostPool, PrePool };

struct CommModel {
    double w_intra = 2.0;  // 2 = "cal" (paper-calibrated, default), 1 = "lit" (Tables 1-2 as printed)
    OutSize out_size = OutSize::PostPool;
};

// A layer's sub-problem at the current level: batch, input and output dims.
struct LayerState {
    double b = 0, d_in = 0, d_out = 0;
};

std::vector<LayerState> initialState(const LayerTable& layers, double batch);

// A(W) = A(dW), A(F_l) = A(E_l), A(F_l+1) = A(E_l+1) for the state.
struct Amounts {
    double weights = 0, input = 0, output = 0;
};
Amounts amounts(const WeightedLayer& layer, const LayerState& s, OutSize out_size);

// Elements one group receives inside the layer (Table 1 / docs/methods/accpar.md#inside-a-layer).
double intraAmount(const Amounts& a, Split split);

// Share of the boundary tensor a group with ratio rho receives when the
// producer used `from` and the consumer `to` (docs/methods/accpar.md#the-conversion-rule): 0, (1-rho) or
// 2 rho (1-rho). At rho = 1/2 every non-zero entry is 1/2 (HyPar Table 2).
double interCoefficient(Split from, Split to, double rho = 0.5);

// One level's communication for a row of choices, priced with the consumer's
// input (docs/methods/hypar.md#r3-the-consumer-prices-a-transition). Layer 0 has no inter term. Optional outputs receive the
// per-layer intra (already weighted by w_intra) and inter amounts.
double levelComm(const LayerTable& layers, std::span<const LayerState> state, std::span<const Cell> row,
                 const CommModel& model, double* intra_out = nullptr, double* inter_out = nullptr);

// Sub-problem of the first group after a level (docs/methods/accpar.md#the-hierarchy-over-an-array): Type-I scales b,
// Type-II d_in, Type-III d_out by the cell's ratio (docs/methods/hypar.md#r4-how-tensors-shrink-between-levels at 1/2).
void shrink(std::span<LayerState> state, std::span<const Cell> row);

}  // namespace partita
