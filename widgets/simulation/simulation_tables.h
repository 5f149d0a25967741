#pragma once
// The Simulation view's tables and their CSV: every compute device and link
// with busy time and utilisation, an MCMC search's starts, and the device x
// device traffic. Split from the view so each file stays small.
#include <memory>
#include <vector>

#include <QString>

#include "core/io/csv.h"
#include "core/run/simulation.h"
#include "widgets/common/result_table_model.h"

class QTableView;
class QWidget;

namespace partita {

// The resources' and starts' columns: shown headers and CSV names (units in the names; times in seconds).
std::vector<ResultColumn> resourceColumns();  // resource, kind, busy_s, utilisation_percent
std::vector<ResultColumn> startColumns();     // start, initial_makespan_s, best_makespan_s, ... (gain, restarts not exported)
// A read-only, sortable table of `columns` with the look the view's tables share.
QTableView* makeSimTable(QWidget* parent, const QString& name, std::vector<ResultColumn> columns);

// The tables' rows for one result, built where the result was made: on 1,024 GPUs there are thousands
// of devices and links, too many to format on the GUI thread (docs/contributing/architecture.md#jobs-and-threads).
// Immutable once built; any thread may build one.
struct SimulationTables {
    std::shared_ptr<const SimulationResult> of;  // the result these rows show
    std::vector<ResultTableModel::Row> resources;
    std::vector<bool> busy;  // per resource row: shown without "idle links" (a device, or a link that carried data)
    int idle_links = 0;
    std::vector<ResultTableModel::Row> starts;  // an MCMC search's starts (none for Simulate)
};
std::shared_ptr<const SimulationTables> simulationTables(std::shared_ptr<const SimulationResult> sim);

// Every compute device and link; the links that carried no data are hidden unless `idle_links`
// (the model, and so the CSV, keeps them).
void fillResourceTable(QTableView* table, const SimulationTables& tables, bool idle_links);
void fillStartsTable(QTableView* table, const SimulationTables& tables);

// nullptr gives the header only.
CsvTable trafficCsv(const SimulationResult* sim);  // "from \ to (bytes)", then one column per device

}  // namespace partita
