#pragma once
// The Simulation view's tables and their CSV: every compute device and link
// with busy time and utilisation, an MCMC search's starts, and the device x
// device traffic. Split from the view so each file stays small.
#include <QString>

#include "core/io/csv.h"
#include "core/run/simulation.h"

class QTableWidget;
class QWidget;

namespace partita {

// A read-only, sortable table with the look the view's tables share.
QTableWidget* makeSimTable(QWidget* parent, const QString& name);
// Every compute device, and the links (all, or only those that carried data).
void fillResourceTable(QTableWidget* table, const SimulationResult& sim, bool idle_links);
int idleLinks(const SimulationResult& sim);
void fillStartsTable(QTableWidget* table, const McmcSummary& mcmc);

// nullptr gives the header only. Units are in the column names; times in seconds.
CsvTable resourceCsv(const SimulationResult* sim);  // resource, kind, busy_s, utilisation_percent
CsvTable startsCsv(const McmcSummary* mcmc);        // start, initial_makespan_s, best_makespan_s, ...
CsvTable trafficCsv(const SimulationResult* sim);   // "from \ to (bytes)", then one column per device

}  // namespace partita
