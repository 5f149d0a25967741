#pragma once
// A simulated run's results (Simulate and MCMC): summary lines (makespan,
// tasks, traffic, speed-up over DP and OWT on the same topology, the search),
// a table of every compute device and link with its busy time and
// utilisation, and for MCMC a table of the search's starts. Any other run
// shows a note that the view applies to simulated runs only.
#include <memory>

#include <QMap>
#include <QWidget>

#include "core/io/csv.h"
#include "core/run/run.h"

class QCheckBox;
class QLabel;
class QStackedWidget;
class QTableView;

namespace partita {

struct SimulationTables;

class SimulationView : public QWidget {
    Q_OBJECT
public:
    explicit SimulationView(QWidget* parent = nullptr);

    void setRun(RunPtr run);  // nullptr or a run without a simulation: the empty note
    // The tables' rows for a run about to be shown, built in the worker that made it (simulationTables):
    // setRun uses them when the run's simulation is theirs, and builds its own otherwise.
    void usePrepared(std::shared_ptr<const SimulationTables> tables) { prepared_ = std::move(tables); }
    RunPtr run() const { return run_; }
    bool hasSimulation() const { return run_ && run_->isSimulation(); }

    // Shown values by key, as displayed; empty when absent. Tests read these:
    // "makespan" ("12.345 ms"), "tasks", "traffic" ("1.234 GB"), "speedup_vs_dp",
    // "speedup_vs_owt" ("1.234×"), "strategy", "search" (MCMC only), "cancelled" (a cancelled search).
    QString text(const QString& key) const { return texts_.value(key); }
    QTableView* resourcesTable() const { return resources_; }  // idle links only when ticked
    QCheckBox* idleLinksBox() const { return idle_links_; }
    QTableView* startsTable() const { return starts_; }

    CsvTable resourcesCsv() const;  // resource, kind, busy_s, utilisation_percent
    CsvTable startsCsv() const;     // one row per MCMC start (empty for Simulate)
    CsvTable trafficCsv() const;    // device x device bytes

private:
    void showSummary(const Run& run);
    void fillResources();
    void fillStarts();

    RunPtr run_;
    std::shared_ptr<const SimulationTables> tables_;    // the shown run's rows
    std::shared_ptr<const SimulationTables> prepared_;  // usePrepared
    QMap<QString, QString> texts_;
    QStackedWidget* stack_ = nullptr;
    QLabel* empty_ = nullptr;
    QLabel* summary_ = nullptr;
    QLabel* starts_title_ = nullptr;
    QTableView* starts_ = nullptr;
    QTableView* resources_ = nullptr;
    QCheckBox* idle_links_ = nullptr;
};

}  // namespace partita
