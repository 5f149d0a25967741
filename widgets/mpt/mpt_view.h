#pragma once
// MPT as a method (docs/methods/mpt.md): a workload (the Table II layer study
// or a whole network) on 256 NDP workers under one of the paper's six system
// configurations; a choice grid of each layer's cluster shape (N_g, N_c) with
// the objective's value per shape, where a click asks for that shape to be
// forced; compute / weight / tile time per layer beside Winograd data
// parallelism (w_dp); all six configurations side by side with the
// paper-reported figures in their own column, never as engine output; and every
// paper figure beside the engine's under the chosen model options (docs/methods/mpt.md#model-options-and-presets),
// with the ratio and the reason for what remains. The model options (transform
// unit, vector rate, overlap, array, wire width) and their presets are chosen
// here; the "fit" preset always reads "fit (not a reproduction)".
// The view draws an immutable MptOutcome (computed in a worker) and turns the
// user's choices into settingsRequested(); it evaluates nothing itself.
#include <memory>
#include <vector>

#include <QWidget>

#include "core/io/csv.h"
#include "core/run/mpt_outcome.h"

class QComboBox;
class QLabel;
class QTableView;

namespace partita {
class PaperTable;
}

namespace partita {

class ChoiceGrid;
class LayerBars;
class CoreCountChart;

class MptView : public QWidget {
    Q_OBJECT
public:
    explicit MptView(QWidget* parent = nullptr);

    // Shows a computed outcome; the controls follow its settings.
    void setOutcome(std::shared_ptr<const MptOutcome> outcome);
    // A failed request: the message in the summary, the shown outcome (and controls) kept.
    void showError(const QString& message);
    std::shared_ptr<const MptOutcome> outcome() const { return outcome_; }

    // Intents: each emits settingsRequested() with the shown settings changed.
    // Workload keys: "layers" (Table II, 3x3), "layers-5x5", a network file stem under
    // examples/networks ("wrn-40-10", "resnet-34", "fractalnet-4x4"), or the path of any
    // partita-network/1 file (*.json); its network is read by whoever evaluates the request.
    void requestWorkload(const QString& key_or_path);
    void requestScenario(mpt::Scenario scenario);  // a new configuration starts from its own choice
    // Force layer `layer` onto grid `config` (a click); requestClearOverrides() returns to the optimiser.
    void requestGrid(int layer, const mpt::GridConfig& config);
    void requestClearOverrides();

    // The shown outcome's settings (the results database stores these); before any outcome,
    // what the controls say, with no network read yet.
    MptSettings settings() const;
    bool hasEvaluation() const { return outcome_ != nullptr; }
    const mpt::Evaluation& evaluation() const;
    const std::vector<mpt::MptLayer>& layers() const;
    const std::vector<mpt::GridConfig>& gridRows() const;
    QString summaryText() const;
    // What the controls show (the shown outcome's settings once it has arrived).
    QString workloadKey() const;
    mpt::Scenario scenario() const;
    mpt::Objective objective() const;
    int passes() const;
    int arrayDim() const;  // 0 = the study's own
    double vectorFlopsPerCycle() const;
    mpt::ModelOptions modelOptions() const;
    // Sets the preset's model options and asks for them (Custom: nothing).
    void requestPreset(mpt::Preset preset);

    ChoiceGrid* grid() const { return grid_; }
    LayerBars* bars() const { return bars_; }
    CoreCountChart* coreCountChart() const { return sweep_; }  // speed-up over one worker, p = 1 ... 256
    QTableView* compareTable() const { return table_; }
    CsvTable compareCsv() const;
    PaperTable* paperTable() const { return paper_table_; }  // paper figures beside the engine's
    CsvTable paperCsv() const;

signals:
    void settingsRequested(const partita::MptSettings& settings);
    void evaluated();  // an outcome is shown

private:
    MptSettings fromControls(bool keep_overrides) const;
    void showControls(const MptSettings& s);
    std::string paperFigure(mpt::Scenario s) const;
    void fillGrid();
    void fillBars();
    void fillSweep();
    void fillTable();
    void fillPaperTable();

    QComboBox* workload_box_ = nullptr;
    QComboBox* scenario_box_ = nullptr;
    QComboBox* objective_box_ = nullptr;
    QComboBox* passes_box_ = nullptr;
    QComboBox* array_box_ = nullptr;
    QComboBox* vector_box_ = nullptr;
    QComboBox* preset_box_ = nullptr;
    QComboBox* unit_box_ = nullptr;
    QComboBox* overlap_box_ = nullptr;
    QComboBox* wire_box_ = nullptr;
    PaperTable* paper_table_ = nullptr;
    QLabel* summary_ = nullptr;
    ChoiceGrid* grid_ = nullptr;
    LayerBars* bars_ = nullptr;
    CoreCountChart* sweep_ = nullptr;
    QTableView* table_ = nullptr;

    std::shared_ptr<const MptOutcome> outcome_;  // what is drawn
    bool updating_ = false;                      // controls being set from an outcome
};

}  // namespace partita
