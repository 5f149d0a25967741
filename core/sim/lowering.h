#pragma once
// Lowering HyPar/AccPar hierarchical grids to SOAP strategies so the simulator
// can time them. Level h (H1 first) splits every group's piece of a weighted
// layer in two: Type-I (Batch) halves the sample range, Type-III (Output) halves
// the output channels. Group 0 at each level takes the lower half of the
// device range, so device = sum over levels of bit_h * 2^(H-1-h) and 2^H
// devices are used.
//
// Not lowered (partita::Error with the layer and level): Type-II (Input) cells,
// which split the input dimension and leave partial sums that a reduction
// adds; SOAP partitions outputs only, so there is no equivalent configuration
// without a reduction operator. Ratios other than 1/2 (SOAP splits are equal).
//
// Operators without weights (pool, add, concat) take their first producer's
// configuration when it is valid for them, else data parallelism over the 2^H
// devices (largest divisor of the batch).
#include <cstdint>

#include "core/model/layers.h"
#include "core/partition/grid.h"
#include "core/sim/soap.h"

namespace partita::sim {

SoapStrategy lowerGrid(const Network& net, const LayerTable& layers, const Grid& grid, std::int64_t batch,
                       int devices);

}  // namespace partita::sim
