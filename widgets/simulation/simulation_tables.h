#pragma once
// The Simulation view's tables and their CSV: every compute device and link
// with busy time and utilisation, an MCMC search's starts, and the device x
// device traffic. Split from the view so each file stays small.
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
// Every compute device and link; the links that carried no data are hidden unless `idle_links`
// (the model, and so the CSV, keeps them).
void fillResourceTable(QTableView* table, const SimulationResult& sim, bool idle_links);
int idleLinks(const SimulationResult& sim);
void fillStartsTable(QTableView* table, const McmcSummary& mcmc);

// nullptr gives the header only.
CsvTable trafficCsv(const SimulationResult* sim);  // "from \ to (bytes)", then one column per device

}  // namespace partita
