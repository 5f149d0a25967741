#pragma once
// The results database's rows for simulated runs (schema 2): the topology
// once per content hash in `topologies`, and per run in `simulations` the
// strategy, the options, the MCMC summary and the makespan (written by
// store::insertRunRows, core/store/run_rows.h).
#include <cstdint>
#include <optional>
#include <string>

#include "core/run/run.h"
#include "core/util/progress.h"

struct sqlite3;

namespace partita::store {

// Run `id` rebuilt when it is simulated: the stored strategy on the stored
// topology simulated again (deterministic, so the numbers match; a search is
// never repeated). nullopt when the run has no simulation row.
std::optional<Run> loadSimulatedRun(sqlite3* db, const std::string& path, std::int64_t id, const InputsPtr& inputs,
                                    const Grid& grid, const CancelFn& cancel = {});

}  // namespace partita::store
