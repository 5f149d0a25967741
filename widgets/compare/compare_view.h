#pragma once
// Side-by-side comparison of 2-4 runs: their grids aligned (cells differing
// from the first run highlighted), a metrics table, and QCustomPlot bar charts
// of communication per level and of step time (compute + communication).
// Simulated runs get their own page (SimCompareView): makespans, utilisation,
// traffic and the strategies' differences, or why they cannot be compared.
#include <vector>

#include <QStringList>
#include <QWidget>

#include "core/run/run.h"
#include "widgets/common/figure_export.h"
#include "widgets/compare/compare_chart_style.h"

class QCPBarsGroup;
class QLabel;
class QCustomPlot;
class QSplitter;
class QStackedWidget;
class QTableView;

namespace partita {

class ResultTableModel;

class GridView;
class SimCompareView;

class CompareView : public QWidget {
    Q_OBJECT
public:
    explicit CompareView(QWidget* parent = nullptr);

    // 0 to 4 runs; the first is the baseline the others are compared with.
    // Runs need not share inputs, but grids are only diffed when their shapes match.
    // `refused`: methods that were asked for but refused these inputs, each "HyPar: <reason>"; said
    // above the grids instead of being compared.
    void setRuns(std::vector<RunPtr> runs, QStringList refused = {});
    const std::vector<RunPtr>& runs() const { return runs_; }

    // True when a run is simulated: the simulated runs' page is shown (a mix is refused there).
    bool simulated() const { return simulated_; }
    SimCompareView* simView() const { return sim_; }

    // Cells of run i that differ from run 0 (0 for run 0 or a shape mismatch).
    int differingCells(int i) const;

    QTableView* metricsTable() const { return metrics_; }
    QCustomPlot* levelChart() const { return level_chart_; }
    QCustomPlot* timeChart() const { return time_chart_; }
    GridView* gridView(int i) const;

    // Empty when every run is priced by the same model and bytes per element; otherwise the
    // sentence above the grids that says how they differ.
    QString modelNote() const;
    const QStringList& refused() const { return refused_; }

    CsvTable metricsCsv() const;    // one row per run, units in the header (SimCompareView::runsCsv when simulated)
    CsvTable levelCommCsv() const;  // one row per (run, level)

protected:
    void showEvent(QShowEvent* event) override;

private:
    void rebuild();
    void rebuildGrids();
    void fillMetrics();
    void fillLevelChart();
    void fillTimeChart();
    QString shortLabel(int i) const;  // "#1 HyPar", for chart ticks and legends
    void fitSplitter();               // grids and table as tall as their content, charts the rest

    static QString modelOf(const Run& run);  // "HyPar's model, 4 B/element"
    std::vector<RunPtr> runs_;
    QStringList refused_;
    bool simulated_ = false;
    QStackedWidget* stack_ = nullptr;
    SimCompareView* sim_ = nullptr;
    QLabel* note_ = nullptr;
    std::vector<GridView*> grids_;
    QSplitter* splitter_ = nullptr;
    QWidget* grid_area_ = nullptr;
    ResultTableModel* metrics_model_ = nullptr;
    QTableView* metrics_ = nullptr;
    QCustomPlot* level_chart_ = nullptr;
    QCustomPlot* time_chart_ = nullptr;
    QCPBarsGroup* level_group_ = nullptr;  // owned by level_chart_
    bool shown_once_ = false;
};

}  // namespace partita
