#pragma once
// Learn-to-Scale as a method (docs/methods/l2s.md): a preset network on an
// n-core mesh, one strategy per layer boundary (traditional all-gather,
// structure-level grouping, sparse block mask) in a choice grid where a click
// asks for that boundary's strategy; the boundary's traffic matrix and XY link
// loads in the shared heatmap view; compute / communication bars per layer
// beside the traditional baseline; and the scenarios (baseline, SS, SS_Mask,
// grouped) beside the paper-reported numbers, which are never shown as ours; the
// model options of docs/methods/l2s.md#model-options (L2sModelControls); and Table IV's SS_Mask
// figures beside the engine's with ratio and reason ("Paper vs engine").
// The view draws an immutable L2sOutcome (computed in a worker) and turns the
// user's choices into settingsRequested(); choosing the boundary the heatmaps
// show is the view's own.
#include <memory>

#include <QWidget>

#include "core/io/csv.h"
#include "core/run/l2s_outcome.h"

class QComboBox;
class QLabel;
class QTableView;

namespace partita {

class ChoiceGrid;
class CommHeatmap;
class L2sModelControls;
class LayerBars;
class PaperTable;
class CoreCountChart;

class L2sView : public QWidget {
    Q_OBJECT
public:
    using Scenario = L2sScenario;  // Baseline, Ss, SsMask, Grouped
    static constexpr int kSchemes = 3;  // grid rows: traditional, grouped, sparse

    explicit L2sView(QWidget* parent = nullptr);

    // Shows a computed outcome; the controls follow its settings.
    void setOutcome(std::shared_ptr<const L2sOutcome> outcome);
    // A failed request: the message in the summary, the shown outcome (and controls) kept.
    void showError(const QString& message);
    std::shared_ptr<const L2sOutcome> outcome() const { return outcome_; }

    // Intents: each emits settingsRequested() with the shown settings changed.
    // A preset (l2s::presets() keys) or any partita-network/1 file (a path ending in .json; no
    // paper figures, SS keeps remote blocks with probability 1/2), read by whoever evaluates it.
    void requestPreset(const QString& key_or_path);
    // The mesh presets have 4, 8, 16 or 32 cores; another count is refused here (false, shown).
    bool requestCores(int cores);
    void requestScenario(Scenario scenario);
    void requestScheme(int layer, l2s::Scheme scheme);  // the user's pick for one layer (a click)
    void selectBoundary(int layer);  // the heatmaps show this boundary of the shown outcome

    // The shown outcome's settings (the results database stores these); before any outcome,
    // what the controls say, with no network read yet.
    L2sSettings settings() const;
    bool hasEvaluation() const { return outcome_ != nullptr; }
    const l2s::Evaluation& evaluation() const;
    const l2s::Evaluation& baseline() const;
    const l2s::Strategy& strategy() const;
    int selectedBoundary() const { return boundary_; }
    QString summaryText() const;
    // What the controls show (the shown outcome's settings once it has arrived).
    QString presetKey() const;
    int cores() const;
    Scenario scenario() const;

    ChoiceGrid* grid() const { return grid_; }
    CommHeatmap* trafficView() const { return traffic_; }
    CommHeatmap* linkView() const { return links_; }
    LayerBars* bars() const { return bars_; }
    CoreCountChart* coreCountChart() const { return sweep_; }  // the scenario on 4, 8, 16 and 32 cores
    QTableView* compareTable() const { return table_; }
    L2sModelControls* modelControls() const { return models_; }
    PaperTable* paperTable() const { return paper_; }  // Table IV beside the engine (SS_Mask, 16 cores)
    CsvTable compareCsv() const;
    CsvTable paperCsv() const;  // the Paper vs engine rows: exact numbers, fractions as fractions

    // -1: the page's scroll area then sizes the tab by its minimum, not by the word-wrapped summary's
    // preferred height (which would push the charts below the window).
    int heightForWidth(int) const override { return -1; }

signals:
    void settingsRequested(const partita::L2sSettings& settings);
    void evaluated();                  // an outcome is shown
    void boundarySelected(int layer);  // the heatmaps now show this boundary

private:
    L2sSettings fromControls() const;
    void showControls(const L2sSettings& s);
    void fillGrid();
    void fillBars();
    void fillSweep();
    void fillTable();
    void fillSummary();
    void fillPaper();

    QComboBox* preset_box_ = nullptr;
    QComboBox* cores_box_ = nullptr;
    QComboBox* scenario_box_ = nullptr;
    L2sModelControls* models_ = nullptr;
    QLabel* summary_ = nullptr;
    ChoiceGrid* grid_ = nullptr;
    CommHeatmap* traffic_ = nullptr;
    CommHeatmap* links_ = nullptr;
    LayerBars* bars_ = nullptr;
    CoreCountChart* sweep_ = nullptr;
    QTableView* table_ = nullptr;
    PaperTable* paper_ = nullptr;

    std::shared_ptr<const L2sOutcome> outcome_;  // what is drawn
    int boundary_ = 1;       // the boundary the heatmaps show
    bool updating_ = false;  // controls being set from an outcome
};

}  // namespace partita
