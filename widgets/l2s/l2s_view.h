#pragma once
// Learn-to-Scale as a method (spec mpt-l2s Part B): a preset network on an
// n-core mesh, one strategy per layer boundary (traditional all-gather,
// structure-level grouping, sparse block mask) in a choice grid where a click
// re-evaluates that boundary at once; the boundary's traffic matrix and XY link
// loads in the shared heatmap view; compute / communication bars per layer
// beside the traditional baseline; and the scenarios (baseline, SS, SS_Mask,
// grouped) beside the paper-reported numbers, which are never shown as ours.
#include <memory>
#include <optional>

#include <QWidget>

#include "core/io/csv.h"
#include "core/l2s/evaluate.h"
#include "core/l2s/presets.h"
#include "core/l2s/study.h"
#include "core/run/l2s_settings.h"

class QComboBox;
class QLabel;
class QTableWidget;

namespace partita {

class ChoiceGrid;
class CommHeatmap;
class LayerBars;
class SweepChart;

class L2sView : public QWidget {
    Q_OBJECT
public:
    using Scenario = L2sScenario;  // Baseline, Ss, SsMask, Grouped
    static constexpr int kSchemes = 3;  // grid rows: traditional, grouped, sparse

    explicit L2sView(QWidget* parent = nullptr);
    void setExamplesDir(const QString& dir) { examples_dir_ = dir; }

    // Loads a preset (l2s::presets() keys) or any partita-network/1 file (a path ending in
    // .json; no paper figures, SS keeps remote blocks with probability 1/2) and evaluates its
    // scenario. On failure the message is returned and shown; the view keeps what it had.
    bool loadPreset(const QString& key, QString* error = nullptr);
    bool setCores(int cores, QString* error = nullptr);
    void setScenario(Scenario scenario);
    // The user's pick for one layer (grid row = scheme); re-evaluates that boundary only.
    bool chooseScheme(int layer, l2s::Scheme scheme, QString* error = nullptr);
    void selectBoundary(int layer);  // the heatmaps show this boundary

    // Everything the shown evaluation depends on (the results database stores this), and the
    // reverse: a stored evaluation shown again from its own network text, not the file.
    L2sSettings settings() const;
    bool applySettings(const L2sSettings& settings, QString* error = nullptr);

    bool hasEvaluation() const { return evaluator_ != nullptr; }
    const l2s::Evaluation& evaluation() const { return eval_; }
    const l2s::Evaluation& baseline() const { return baseline_; }
    const l2s::Strategy& strategy() const { return strategy_; }
    int selectedBoundary() const { return boundary_; }
    QString presetKey() const;
    int cores() const;
    Scenario scenario() const;

    ChoiceGrid* grid() const { return grid_; }
    CommHeatmap* trafficView() const { return traffic_; }
    CommHeatmap* linkView() const { return links_; }
    LayerBars* bars() const { return bars_; }
    SweepChart* sweepChart() const { return sweep_; }  // the scenario on 4, 8, 16 and 32 cores
    QTableWidget* compareTable() const { return table_; }
    CsvTable compareCsv() const;

signals:
    void evaluated();
    void boundarySelected(int layer);  // the heatmaps now show this boundary

private:
    l2s::StrategySpec specFor(Scenario scenario) const;
    void evaluateAll();
    void showStrategies(const L2sStrategies& strategies);  // evaluates them and refreshes
    void refresh();  // grid, heatmaps, bars, table and summary from eval_
    void fillGrid();
    void fillBars();
    void fillSweep();
    void fillTable();
    void showError(const QString& message);

    QString examples_dir_;
    QComboBox* preset_box_ = nullptr;
    QComboBox* cores_box_ = nullptr;
    QComboBox* scenario_box_ = nullptr;
    QLabel* summary_ = nullptr;
    ChoiceGrid* grid_ = nullptr;
    CommHeatmap* traffic_ = nullptr;
    CommHeatmap* links_ = nullptr;
    LayerBars* bars_ = nullptr;
    SweepChart* sweep_ = nullptr;
    QTableWidget* table_ = nullptr;

    const l2s::Preset* preset_ = nullptr;
    l2s::Preset file_preset_;   // preset_ points here
    std::string network_json_;  // the network as evaluated
    std::unique_ptr<l2s::Evaluator> evaluator_;
    l2s::Strategy strategy_, scenario_strategy_, sparse_strategy_;
    l2s::Evaluation eval_, baseline_;
    int boundary_ = 1;
    bool updating_ = false;  // combo boxes being set from code
};

}  // namespace partita
