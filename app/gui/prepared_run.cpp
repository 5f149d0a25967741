#include "app/gui/prepared_run.h"

#include "widgets/simulation/simulation_tables.h"

namespace partita::gui {

std::shared_ptr<const PreparedRun> prepareRun(const Run& run) {
    auto out = std::make_shared<PreparedRun>();
    try {
        if (run.inputs) out->rows = store::runRows(run);
    } catch (const std::exception&) {
        // RunStore::store serialises it again and reports why it cannot be stored
    }
    if (run.simulation) out->simulation = simulationTables(run.simulation);
    return out;
}

}  // namespace partita::gui
