#pragma once
// MPT as a method (spec mpt-l2s Part A): a workload (the Table II layer study
// or a whole network) on 256 NDP workers under one of the paper's six system
// configurations; a choice grid of each layer's cluster shape (N_g, N_c) with
// the objective's value per shape, where a click forces that shape and the run
// re-evaluates at once; compute / weight / tile time per layer beside Winograd
// data parallelism (w_dp); and all six configurations side by side with the
// paper-reported figures in their own column, never as engine output.
#include <optional>
#include <vector>

#include <QWidget>

#include "core/io/csv.h"
#include "core/mpt/layers.h"
#include "core/mpt/scenario.h"
#include "core/run/mpt_settings.h"

class QComboBox;
class QLabel;
class QTableWidget;

namespace partita {

class ChoiceGrid;
class LayerBars;
class SweepChart;

class MptView : public QWidget {
    Q_OBJECT
public:
    explicit MptView(QWidget* parent = nullptr);
    void setExamplesDir(const QString& dir) { examples_dir_ = dir; }

    // Workload keys: "layers" (Table II, 3x3), "layers-5x5", a network file stem under
    // examples/networks ("wrn-40-10", "resnet-34", "fractalnet-4x4"), or the path of any
    // partita-network/1 file (*.json). Evaluates at once; on failure returns and shows the
    // message and keeps what it had.
    bool loadWorkload(const QString& key, QString* error = nullptr);
    void setScenario(mpt::Scenario scenario);
    void setObjective(mpt::Objective objective);
    void setPasses(int passes);
    // Force layer `layer` onto grid `config` (a click); clearOverrides() returns to the optimiser.
    bool chooseGrid(int layer, const mpt::GridConfig& config, QString* error = nullptr);
    void clearOverrides();

    // Everything the shown evaluation depends on (the results database stores this), and the
    // reverse: a stored evaluation shown again from its own network text, not the file.
    MptSettings settings() const;
    bool applySettings(const MptSettings& settings, QString* error = nullptr);

    bool hasEvaluation() const { return have_eval_; }
    const mpt::Evaluation& evaluation() const { return eval_; }
    const std::vector<mpt::MptLayer>& layers() const { return layers_; }
    const std::vector<mpt::GridConfig>& gridRows() const { return rows_; }
    QString workloadKey() const;
    mpt::Scenario scenario() const;
    mpt::Objective objective() const;
    int passes() const;
    int arrayDim() const;
    double vectorFlopsPerCycle() const;
    void setHardware(int array_dim, double vector_flops_per_cycle);

    ChoiceGrid* grid() const { return grid_; }
    LayerBars* bars() const { return bars_; }
    SweepChart* sweepChart() const { return sweep_; }  // speed-up over one worker, p = 1 ... 256
    QTableWidget* compareTable() const { return table_; }
    CsvTable compareCsv() const;

signals:
    void evaluated();

private:
    mpt::ScenarioParams params() const;
    std::string paperFigure(mpt::Scenario s) const;
    void evaluate();
    void fillGrid();
    void fillBars();
    void fillSweep();
    void fillTable();
    void showError(const QString& message);

    QString examples_dir_;
    QComboBox* workload_box_ = nullptr;
    QComboBox* scenario_box_ = nullptr;
    QComboBox* objective_box_ = nullptr;
    QComboBox* passes_box_ = nullptr;
    QComboBox* array_box_ = nullptr;
    QComboBox* vector_box_ = nullptr;
    QLabel* summary_ = nullptr;
    ChoiceGrid* grid_ = nullptr;
    LayerBars* bars_ = nullptr;
    SweepChart* sweep_ = nullptr;
    QTableWidget* table_ = nullptr;

    std::vector<mpt::MptLayer> layers_;
    std::string network_json_;  // the workload's network as evaluated (empty for the layer studies)
    std::vector<std::optional<mpt::GridConfig>> overrides_;
    std::vector<mpt::GridConfig> rows_;  // the grid's rows: the allowed shapes
    mpt::Evaluation eval_, w_dp_;
    bool have_eval_ = false;
    bool updating_ = false;
};

}  // namespace partita
