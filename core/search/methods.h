#pragma once
// HyPar's hierarchical search and the baselines, over the shared grid vocabulary.
#include <string>
#include <vector>

#include "core/cost/evaluate.h"
#include "core/model/layers.h"
#include "core/partition/grid.h"
#include "core/search/chain_dp.h"
#include "core/util/progress.h"

namespace partita {

enum class Method { HyPar, DataParallel, ModelParallel, OneWeirdTrick };
inline constexpr Method kAllMethods[] = {Method::HyPar, Method::DataParallel, Method::ModelParallel,
                                         Method::OneWeirdTrick};

const char* methodName(Method m);             // "hypar", "dp", "mp", "owt"
const char* methodLabel(Method m);            // "HyPar", "DP", "MP", "OWT"
Method parseMethod(const std::string& name);  // throws std::invalid_argument

// Algorithm 1: the cheapest dp/mp row for one level, given the sub-problem state.
ChainSolution hyparLevel(const LayerTable& layers, std::span<const LayerState> state, const CommModel& model);

// Algorithm 2: level-by-level greedy search over `levels` levels (H1 first). `cancel` is asked
// before each level (a level of a 40,000-layer chain is a few milliseconds); true throws Cancelled.
Grid hyparSearch(const LayerTable& layers, int levels, const CostParams& params, const CancelFn& cancel = {});

// DP = all dp, MP = all mp, OWT = conv dp and fc mp, at every level.
Grid baselineGrid(Method m, const LayerTable& layers, int levels);

// The grid a method produces: a search for HyPar, a fixed pattern otherwise.
Grid planFor(Method m, const LayerTable& layers, int levels, const CostParams& params, const CancelFn& cancel = {});

// Throws InputError-like std::invalid_argument when the layers are not a chain.
void requireChain(const LayerTable& layers);

}  // namespace partita
