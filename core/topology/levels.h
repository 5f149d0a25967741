#pragma once
// HyPar/AccPar level bandwidths of any topology by recursive bisection (docs/guide/machines.md#level-bandwidths-of-a-topology), so a drawn or imported machine gets a hierarchical plan.
#include <vector>

#include "core/model/array.h"
#include "core/topology/topology.h"

namespace partita::sim {

// For 2^H devices, H1 first, bytes/s per direction: level k halves every group of level k-1
// (contiguous device ids, the whole machine at H1); a group's figure is the maximum flow, with
// link bandwidths as capacities, from one half to the other (the smaller direction) through the
// whole graph; the level's figure is the smallest over its groups. Throws std::invalid_argument
// unless the device count is a power of two from 2 to 2^Array::kMaxLevels.
std::vector<double> bisectionLevelBandwidths(const Topology& topology);

// A HyPar/AccPar array of the topology's devices: levels, per-level bandwidths from
// bisectionLevelBandwidths, and the first device's kind and peak (all devices must be alike).
Array arrayFromTopology(const Topology& topology);

}  // namespace partita::sim
