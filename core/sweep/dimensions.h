#pragma once
// The dimensions of a sweep (network, array, topology, method, then the axes) in nesting order,
// each with its values as zip groups and exclude rules name them: shared by validation
// (spec.cpp) and expansion (expand.cpp).
#include <string>
#include <vector>

#include "core/sweep/spec.h"

namespace partita::sweep::detail {

struct Dimension {
    std::string name;
    std::vector<Json> values;
};

std::vector<Dimension> dimensions(const Spec& spec);
int dimensionIndex(const std::vector<Dimension>& dims, const std::string& name);  // -1 when absent

}  // namespace partita::sweep::detail
