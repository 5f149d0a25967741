#pragma once
// The cost parameters (CostParams, stored with every run) and AccPar's model options (AccParParams)
// as field tables (core/settings/field.h), keyed as in their JSON (core/io/params_json.h).
#include "core/accpar/hierarchy.h"
#include "core/cost/evaluate.h"
#include "core/settings/field.h"

namespace partita {

// batch, w_intra, out_size, bytes_per_element, include_sram_energy.
const FieldTable<CostParams>& costFields();
// ratio_model, balanced_baselines, bytes_per_element (the batch is the cost parameters';
// the search space and objective are AccPar's own and not settings of a file).
const FieldTable<AccParParams>& accparFields();

}  // namespace partita
