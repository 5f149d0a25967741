#pragma once
// The numbers of one run: total communication (elements and GB), step time
// (compute + communication), energy, and the ratios against DP, MP and OWT;
// for an edited grid, the change against the searched optimum.
#include <QMap>
#include <QWidget>

#include "core/io/csv.h"
#include "core/run/run.h"
#include "widgets/common/result_table_model.h"

class QTableView;
class QLabel;

namespace partita {

class MetricsPanel : public QWidget {
    Q_OBJECT
public:
    explicit MetricsPanel(QWidget* parent = nullptr);

    void setRun(RunPtr run);  // nullptr clears
    RunPtr run() const { return run_; }
    // The values shown, by stable key, as displayed text; empty when absent. Tests read this.
    //   total_elements, total_gb, step_time_s, compute_time_s, comm_time_s,
    //   energy_j, compute_energy_j, comm_energy_j, sram_energy_j (only with the SRAM term),
    //   perf_vs_dp, perf_vs_mp, perf_vs_owt, energy_vs_dp, energy_vs_mp, energy_vs_owt;
    // for an edited run, the change against the searched optimum (reference grid):
    //   total_elements_vs_optimum ("+123,456 elements (+3.2 %)"), total_gb_vs_optimum,
    //   step_time_s_vs_optimum, comm_time_s_vs_optimum, energy_j_vs_optimum,
    //   perf_vs_optimum (T_optimum / T_run, "0.970×").
    // "headline" is the headline's plain text.
    QString text(const QString& key) const;
    CsvTable csv() const;  // metric, value, unit

private:
    void clear();
    void showRows();  // puts rows_ in the table
    void addHeading(const QString& title);
    // One table row, its text(key) entry and its CSV row (raw number, unit).
    void addHyparRows(const Run& run);   // HyPar's model (communication, time, energy)
    void addAccParRows(const Run& run);  // AccPar's model; defined in metrics_accpar.cpp
    void addRow(const QString& key, const QString& label, const QString& text, double raw, const char* unit);
    // A method that refused the inputs: "refused: <reason>", no number (the CSV says "refused").
    void addRefusal(const QString& key, const QString& label, const QString& reason);

    RunPtr run_;
    QMap<QString, QString> texts_;
    std::vector<ResultTableModel::Row> rows_;  // built by the add* functions, then shown
    QLabel* headline_ = nullptr;
    ResultTableModel* model_ = nullptr;
    QTableView* table_ = nullptr;
};

}  // namespace partita
