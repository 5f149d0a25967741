#pragma once
// Work of a reduce-split operator (OpConfig::reduce > 1): each task computes a
// partial sum over a slice of the input channels; the piece's partials are
// added as a reduce-scatter (docs/methods/flexflow.md#reduce-splits): task r of
// a piece sums slice r of it (and applies a fused pool, which needs full sums).
#include "core/sim/compute_cost.h"

namespace partita::sim {

// Slice r of `reduce` of an output piece: cut along its longest dimension (the
// sample first on ties), so the sums of a piece are spread over its tasks.
Box reduceSlice(const Box& piece, int r, int reduce);
// One task's share: 1/reduce of the FLOPs, the input and the weights; it
// writes the whole pre-pool piece (its partial sums).
Work partialSumWork(const Network& net, const Operator& op, const Box& out, int reduce, double element_bytes);
// Adding `reduce` partial pre-pool pieces into one, then the fused pool.
Work reductionWork(const Operator& op, const Box& out, int reduce, double element_bytes);
// Backward of the reduction: the fused pool's gradient (a sum's gradient is a copy).
Work unpoolWork(const Operator& op, const Box& out, double element_bytes);

}  // namespace partita::sim
