#pragma once
// The Compare tab for simulated runs (issue 26 item 16; core/run/sim_compare.h): what the runs are of,
// a table of makespan, speed-up over the first run, devices used and traffic (total and per link kind),
// then two pages: each device's utilisation in every run (paired bars, gathered into nodes or runs of
// devices beyond 32, beside a per-device table that scrolls) and the operators whose configurations
// differ. Runs that cannot be compared show the reason instead.
#include <vector>

#include <QWidget>

#include "core/io/csv.h"
#include "core/run/sim_compare.h"

class QCPBarsGroup;
class QCustomPlot;
class QLabel;
class QStackedWidget;
class QTabWidget;
class QTableView;

namespace partita {

class ResultTableModel;

class SimCompareView : public QWidget {
    Q_OBJECT
public:
    static constexpr int kMaxBars = 32;  // bars per run in the utilisation chart

    explicit SimCompareView(QWidget* parent = nullptr);
    void setRuns(const std::vector<RunPtr>& runs);
    const SimComparison& comparison() const { return comparison_; }

    QLabel* summary() const { return summary_; }
    QTableView* runsTable() const { return runs_; }
    QTableView* devicesTable() const { return devices_; }
    QTableView* differencesTable() const { return differences_; }
    QCustomPlot* utilisationChart() const { return chart_; }
    QTabWidget* pages() const { return pages_; }
    int chartBars() const { return static_cast<int>(groups_.size()); }  // per run

    CsvTable runsCsv() const;         // run, strategy, makespan_s, speedup_x, devices_used, traffic_B, <kind>_B
    CsvTable devicesCsv() const;      // device, node, one utilisation column per run (percent)
    CsvTable differencesCsv() const;  // operator, one configuration column per run

private:
    void fillRuns();
    void fillChart();
    void fillDevices();
    void fillDifferences();
    QString runLabel(int i) const;  // "#2 MCMC"

    SimComparison comparison_;
    std::vector<DeviceGroup> groups_;
    QLabel* summary_ = nullptr;
    QStackedWidget* body_ = nullptr;  // the comparison, or nothing under a refusal
    ResultTableModel* runs_model_ = nullptr;
    ResultTableModel* devices_model_ = nullptr;
    ResultTableModel* differences_model_ = nullptr;
    QTableView* runs_ = nullptr;
    QTabWidget* pages_ = nullptr;
    QCustomPlot* chart_ = nullptr;
    QCPBarsGroup* bars_group_ = nullptr;  // owned by chart_
    QTableView* devices_ = nullptr;
    QLabel* differences_note_ = nullptr;
    QTableView* differences_ = nullptr;
};

}  // namespace partita
