#pragma once
// What the GUI thread would otherwise derive from a finished run before it shows and stores it, built
// in the worker that made the run (docs/contributing/architecture.md#jobs-and-threads): the rows storing
// writes, and a simulated run's tables. On 1,024 GPUs each takes tens of milliseconds; the GUI thread
// only swaps them in. Immutable once the job ends.
#include <memory>
#include <optional>

#include "core/run/run.h"
#include "core/store/run_rows.h"

namespace partita {
struct SimulationTables;
}

namespace partita::gui {

struct PreparedRun {
    std::optional<store::RunRows> rows;                  // store::runRows(run); none when it cannot be
    std::shared_ptr<const SimulationTables> simulation;  // a simulated run's tables (SimulationView)
};

// Never throws: what cannot be prepared is left out, and the store reports the problem when it stores.
std::shared_ptr<const PreparedRun> prepareRun(const Run& run);

}  // namespace partita::gui
