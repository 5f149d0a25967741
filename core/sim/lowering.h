#pragma once
// Lowering HyPar/AccPar hierarchical grids to SOAP strategies so the simulator
// can time them. Level h (H1 first) splits every group's piece of a weighted
// layer in two: Type-I (Batch) halves the sample range, Type-III (Output) halves
// the output channels, Type-II (Input, HyPar's model parallelism) halves the
// input channels (OpConfig::reduce; the partial sums are added by reduction
// tasks). Group 0 at each level takes the lower half of the device range, so
// device = sum over levels of bit_h * 2^(H-1-h) and 2^H devices are used.
//
// Not lowered (partita::Error with the layer and level): ratios other than 1/2
// (SOAP pieces are equal), and AccPar plans whose nodes of one depth differ
// (unequal accelerators), which no single configuration per operator expresses.
//
// Operators without weights (pool, add, concat) take their first producer's
// output pieces when they are valid for them, else data parallelism over the
// 2^H devices (largest divisor of the batch).
#include <cstdint>

#include "core/model/layers.h"
#include "core/accpar/hierarchy.h"
#include "core/partition/grid.h"
#include "core/sim/soap.h"

namespace partita::sim {

SoapStrategy lowerGrid(const Network& net, const LayerTable& layers, const Grid& grid, std::int64_t batch,
                       int devices);
// An AccPar plan: its grid when every node of a depth shares its row.
SoapStrategy lowerPlan(const Network& net, const LayerTable& layers, const PlanTree& plan, std::int64_t batch,
                       int devices);

}  // namespace partita::sim
