#pragma once
// The JSON the results database keeps for a simulated run besides the
// topology (partita-topology/1) and the strategy (partita-soap/1):
//   options: {"training", "sync": "ring"|"ps", "collectives": "algorithm"|"per-hop"
//             (absent: per-hop, as runs were simulated before), "collective_algorithm" (absent: the fastest),
//             "element_bytes", "allow_shared_devices", "optimizer_states"
//             (absent: 1, SGD with momentum),
//             "mcmc": {"budget_s", "iterations", "seed", "beta", "starts": [...], "stop_on_stall"}}
//            ("mcmc" for MCMC runs; without "stop_on_stall", a run stored before it existed: true)
//   search:  {"iterations", "acceptance_rate", "cancelled", "restarts",
//             "starts": [{"name", "initial_s", "best_s", "iterations", "accepted", "elapsed_s", "stop",
//                         "restarts"}]}  ("restarts" absent before they existed: 0)
// Doubles round-trip exactly. A measured-cost table is not stored (runs made
// from the GUI have none).
#include <string>

#include "core/io/json_fields.h"
#include "core/run/simulation.h"

namespace partita::store {

Json simOptionsToJson(const sim::SimOptions& options, const McmcSettings* mcmc);
// Reads the options and, when present, the MCMC settings into *mcmc. Throws InputError.
sim::SimOptions readSimOptionsJson(const Json& json, const std::string& source, McmcSettings* mcmc);

Json mcmcSummaryToJson(const McmcSummary& summary);
McmcSummary readMcmcSummaryJson(const Json& json, const std::string& source);

}  // namespace partita::store
