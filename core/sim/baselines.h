#pragma once
// Baseline SOAP strategies (docs/methods/baselines.md#in-the-simulator Table 1): data parallelism,
// Krizhevsky's "one weird trick", model parallelism and seeded random ones.
// These are the MCMC search's starts and what `partita-cli simulate --method`
// runs for dp, owt and mp.
#include <cstdint>
#include <random>

#include "core/model/network.h"
#include "core/sim/soap.h"

namespace partita::sim {

// The largest divisor of n that is at most cap (at least 1).
int largestDivisorUpTo(std::int64_t n, int cap);

// Data parallelism: every operator split along the sample into d pieces, piece
// i on device i, where d is the largest divisor of the batch that is <= devices
// (so a batch of 6 on 4 devices uses 3; the unused devices stay idle).
SoapStrategy dataParallelStrategy(const Network& net, std::int64_t batch, int devices);

// "One weird trick": conv, pool, add and concat are data parallel as above; fully
// connected operators are split along their output features (the parameter
// dimension) into the largest divisor of out-features <= devices, on devices 0..k-1.
SoapStrategy oneWeirdTrickStrategy(const Network& net, std::int64_t batch, int devices);

// Model parallelism: every operator split along its channel dimension (the
// parameter dimension of conv and fc; pool/add/concat follow their producers'
// channel split) into the largest divisor of its channels <= devices.
SoapStrategy modelParallelStrategy(const Network& net, std::int64_t batch, int devices);

// One randomConfig() per operator (uniform valid degrees; contiguous, strided or
// random device sets), reproducible for a given generator state.
SoapStrategy randomStrategy(const Network& net, std::int64_t batch, int devices, std::mt19937_64& rng);

}  // namespace partita::sim
