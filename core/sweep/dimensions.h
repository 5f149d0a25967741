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

// A value as a hash key under nlohmann's == (2 and 2.0 are one value), so that finding repeats and
// matching exclude rules is linear in the lists' lengths.
std::string valueKey(const Json& value);

}  // namespace partita::sweep::detail
