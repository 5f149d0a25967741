#pragma once
// Cost parameters as a JSON object (stored with every run in the results
// database): {"batch", "w_intra", "out_size": "post"|"pre", "bytes_per_element",
// "include_sram_energy"}. Missing keys take CostParams' defaults; unknown keys
// are errors naming their JSON pointer.
#include <string>

#include "core/accpar/hierarchy.h"
#include "core/cost/evaluate.h"
#include "core/io/json_fields.h"

namespace partita {

Json paramsToJson(const CostParams& params);  // writes every field
// `pointer` is the object's place in the enclosing document ("" for the root).
CostParams readParamsJson(const Json& json, const std::string& source, const std::string& pointer);

// AccPar's model options: {"ratio_model": "E"|"P", "bytes_per_element", "balanced_baselines"}
// (the batch is the cost parameters'; the search space and objective are AccPar's own).
Json accparParamsToJson(const AccParParams& params);
AccParParams readAccParParamsJson(const Json& json, const std::string& source, const std::string& pointer);

}  // namespace partita
