#pragma once
// The settings JSON the results database keeps for MPT and Learn-to-Scale
// evaluations (schema 3). The network text is not in it: it is stored by
// content hash in `networks`, like every run's network.
//   mpt: {"workload", "scenario": "w_mp+*", "objective": "comm_time", "passes": 2,
//         "overrides": [null, [16, 16], ...]}   (N_g, N_c) per layer; [] = none
//   l2s: {"preset", "cores": 16, "scenario": "ss_mask", "schemes": ["traditional", ...]}
#include <string>

#include "core/io/json_fields.h"
#include "core/run/l2s_settings.h"
#include "core/run/method_run.h"
#include "core/run/mpt_settings.h"

namespace partita::store {

Json mptSettingsToJson(const MptSettings& s);
// Throws InputError naming `source` and the JSON pointer; network_json is left empty.
MptSettings readMptSettingsJson(const Json& json, const std::string& source);

Json l2sSettingsToJson(const L2sSettings& s);
L2sSettings readL2sSettingsJson(const Json& json, const std::string& source);

// Equal for equal settings on equal network text: what "the same evaluation" means when storing.
std::string methodRunKey(const MethodRun& run);

}  // namespace partita::store
