#pragma once
// Boxes of a 4-D tensor (sample, channel, height, width) with half-open
// intervals: the output piece a task writes and the input piece it reads
// (docs/methods/flexflow.md#the-task-graph: transfers are sized by their intersection).
#include <array>
#include <cstdint>

#include "core/model/network.h"
#include "core/sim/soap.h"

namespace partita::sim {

struct Interval {
    std::int64_t lo = 0, hi = 0;  // [lo, hi)
    std::int64_t size() const { return hi > lo ? hi - lo : 0; }
    bool operator==(const Interval&) const = default;
};
using Box = std::array<Interval, kDims>;

Interval intersect(Interval a, Interval b);
Box intersect(const Box& a, const Box& b);
std::int64_t volume(const Box& box);

// Piece `k` of an operator's output under `config` (equal pieces per dimension).
Box outputBox(const Extent& extent, const OpConfig& config, int k);
// Input positions a sliding window reads to produce outputs [out.lo, out.hi),
// clamped to the input (padding reads nothing): the halo of a spatial split.
Interval windowInput(Interval out, int kernel, int stride, int pad, std::int64_t in_size);
// The box of input `slot` that piece `out` of `op` reads, in the producer's
// output coordinates (the network input for slot producers of -1). Conv and fc
// read every input channel (the reduction); fc reads every input position;
// concat reads only the slot's share of its channels (possibly nothing).
Box inputBox(const Network& net, const Operator& op, int slot, const Box& out);
// The region of a conv's pre-pool output that feeds the post-pool piece `out`.
Box prePoolBox(const Operator& op, const Box& out);

}  // namespace partita::sim
