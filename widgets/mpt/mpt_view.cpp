#include "widgets/mpt/mpt_view.h"

#include <algorithm>
#include <cmath>

#include <QComboBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QScrollArea>
#include <QSplitter>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>

#include "core/io/network_io.h"
#include "core/util/format.h"
#include "widgets/common/qt_text.h"
#include "widgets/grid/choice_grid.h"
#include "widgets/charts/layer_bars.h"
#include "widgets/common/method_table.h"
#include "widgets/charts/sweep_chart.h"

namespace partita {

namespace {

QString times(double x) { return std::isfinite(x) ? QString::number(x, 'f', 2) + "×" : QStringLiteral("—"); }

struct Workload {
    const char* key;
    const char* title;
};
const Workload kWorkloads[] = {{"layers", "Layer study, Table II (3×3)"},
                               {"layers-5x5", "Layer study, Table II (5×5)"},
                               {"wrn-40-10", "WRN-40-10 (CIFAR)"},
                               {"resnet-34", "ResNet-34 (ImageNet)"},
                               {"fractalnet-4x4", "FractalNet 4×4 (ImageNet)"}};

}  // namespace

MptView::MptView(QWidget* parent) : QWidget(parent) {
    auto* column = new QVBoxLayout(this);
    workload_box_ = new QComboBox(this);
    workload_box_->setObjectName("mpt-workload");
    for (const Workload& w : kWorkloads) workload_box_->addItem(tr(w.title), QString(w.key));
    scenario_box_ = new QComboBox(this);
    scenario_box_->setObjectName("mpt-scenario");
    for (mpt::Scenario s : mpt::allScenarios()) scenario_box_->addItem(mpt::scenarioName(s), static_cast<int>(s));
    scenario_box_->setCurrentIndex(scenario_box_->findData(static_cast<int>(mpt::Scenario::WMpPlusStar)));
    objective_box_ = new QComboBox(this);
    objective_box_->setObjectName("mpt-objective");
    for (mpt::Objective o : {mpt::Objective::CommTime, mpt::Objective::CommVolume, mpt::Objective::TotalTime})
        objective_box_->addItem(mpt::objectiveName(o), static_cast<int>(o));
    passes_box_ = new QComboBox(this);
    passes_box_->setObjectName("mpt-passes");
    passes_box_->addItem(tr("2 passes (reduce + broadcast)"), 2);
    passes_box_->addItem(tr("1 pass (the paper's formula)"), 1);
    array_box_ = new QComboBox(this);
    array_box_->setObjectName("mpt-array");
    array_box_->addItem(tr("64×64 FP32 (layer study)"), 64.0);
    array_box_->addItem(tr("96×96 FP16 (network study)"), 96.0);
    vector_box_ = new QComboBox(this);
    vector_box_->setObjectName("mpt-vector");
    for (double rate : {64.0, 256.0, 1024.0}) vector_box_->addItem(tr("%1 FLOP/cycle").arg(rate), rate);
    // Three short rows: one long row would set the window's minimum width and squeeze the docks.
    const std::vector<std::pair<QString, QComboBox*>> rows[] = {
        {{tr("Workload"), workload_box_}, {tr("Configuration"), scenario_box_}},
        {{tr("Objective"), objective_box_}, {tr("Weights"), passes_box_}},
        {{tr("Array"), array_box_}, {tr("Transforms"), vector_box_}}};
    for (const auto& row : rows) {
        auto* line = new QHBoxLayout;
        addChoices(line, this, row);
        column->addLayout(line);
    }
    summary_ = makeSummaryLabel(this, "mpt-summary");
    column->addWidget(summary_);

    auto* split = new QSplitter(Qt::Vertical, this);
    // Whole networks have up to ~60 layers: the grid scrolls sideways rather than squeeze.
    auto* scroll = new QScrollArea(split);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    grid_ = new ChoiceGrid(scroll);
    scroll->setWidget(grid_);
    auto* bottom = new QSplitter(Qt::Horizontal, split);
    auto* charts = new QTabWidget(bottom);
    charts->setDocumentMode(true);
    bars_ = new LayerBars(charts);
    sweep_ = new SweepChart(charts);
    charts->addTab(bars_, tr("Per layer"));
    charts->addTab(sweep_, tr("Scaling, 1–256 workers"));
    table_ = makeComparisonTable(bottom, "mpt-compare");
    bottom->setSizes({560, 520});
    split->setSizes({290, 510});
    column->addWidget(split, 1);

    auto rerun = [this] {
        if (!updating_ && have_eval_) evaluate();
    };
    connect(workload_box_, &QComboBox::currentIndexChanged, this, [this] {
        if (!updating_) loadWorkload(workload_box_->currentData().toString());
    });
    connect(scenario_box_, &QComboBox::currentIndexChanged, this, [this, rerun] {
        overrides_.assign(layers_.size(), std::nullopt);  // a new configuration starts from its own choice
        rerun();
    });
    connect(objective_box_, &QComboBox::currentIndexChanged, this, rerun);
    connect(passes_box_, &QComboBox::currentIndexChanged, this, rerun);
    connect(array_box_, &QComboBox::currentIndexChanged, this, rerun);
    connect(vector_box_, &QComboBox::currentIndexChanged, this, rerun);
    connect(grid_, &ChoiceGrid::choiceRequested, this, [this](int row, int col) {
        if (row >= 0 && row < static_cast<int>(rows_.size())) chooseGrid(col, rows_[static_cast<size_t>(row)]);
    });
}

QString MptView::workloadKey() const { return workload_box_->currentData().toString(); }
mpt::Scenario MptView::scenario() const { return static_cast<mpt::Scenario>(scenario_box_->currentData().toInt()); }

mpt::Objective MptView::objective() const { return static_cast<mpt::Objective>(objective_box_->currentData().toInt()); }
int MptView::passes() const { return passes_box_->currentData().toInt(); }
int MptView::arrayDim() const { return array_box_->currentData().toInt(); }
double MptView::vectorFlopsPerCycle() const { return vector_box_->currentData().toDouble(); }

void MptView::setHardware(int array_dim, double vector_flops_per_cycle) {
    for (auto [box, value] : {std::pair{array_box_, double(array_dim)}, std::pair{vector_box_, vector_flops_per_cycle}}) {
        int index = box->findData(value);
        if (index < 0) {  // a stored run's value outside the presets: listed as it is
            box->addItem(QString::number(value), value);
            index = box->count() - 1;
        }
        box->setCurrentIndex(index);
    }
}

mpt::ScenarioParams MptView::params() const {
    MptSettings s;
    s.objective = objective();
    s.passes = passes();
    s.array_dim = arrayDim();
    s.vector_flops_per_cycle = vectorFlopsPerCycle();
    return mptParams(s);
}

MptSettings MptView::settings() const {
    MptSettings s{workloadKey().toStdString(), network_json_, scenario(),  objective(),
                  passes(),                    overrides_,    arrayDim(), vectorFlopsPerCycle()};
    if (std::none_of(overrides_.begin(), overrides_.end(), [](const auto& o) { return o.has_value(); }))
        s.overrides.clear();
    return s;
}

void MptView::showError(const QString& message) { showSummaryError(summary_, message); }

bool MptView::loadWorkload(const QString& given, QString* error) {
    QString key = given;
    const QString file = given.endsWith(".json") ? QFileInfo(given).canonicalFilePath() : QString();
    for (const Workload& w : kWorkloads)  // a built-in workload's file opens as that workload
        if (!file.isEmpty() && file == QFileInfo(examples_dir_ + "/networks/" + w.key + ".json").canonicalFilePath())
            key = w.key;
    try {
        MptSettings s = settings();
        s.workload = key.toStdString();
        s.overrides.clear();
        // The file is read once; the view (and a stored run) evaluate its JSON text from then on.
        const QString path = key.endsWith(".json") ? key : examples_dir_ + "/networks/" + key + ".json";
        s.network_json.clear();
        if (!isMptLayerStudy(s.workload)) s.network_json = writeNetworkJson(loadNetwork(path.toStdString()));
        layers_ = mptLayers(s);
        network_json_ = std::move(s.network_json);
        overrides_.assign(layers_.size(), std::nullopt);
        updating_ = true;
        int index = workload_box_->findData(key);
        if (index < 0) {  // a network file: listed under its name from now on
            workload_box_->addItem(QFileInfo(key).completeBaseName(), key);
            index = workload_box_->count() - 1;
        }
        workload_box_->setCurrentIndex(index);
        updating_ = false;
        evaluate();
        return have_eval_;
    } catch (const std::exception& e) {
        if (error) *error = q(e.what());
        showError(q(e.what()));
        return false;
    }
}

bool MptView::applySettings(const MptSettings& s, QString* error) {
    try {
        evaluateMpt(s);  // checks the settings before anything changes
        std::vector<mpt::MptLayer> layers = mptLayers(s);
        const QString key = q(s.workload);
        updating_ = true;
        int index = workload_box_->findData(key);
        if (index < 0) {
            workload_box_->addItem(QFileInfo(key).completeBaseName(), key);
            index = workload_box_->count() - 1;
        }
        workload_box_->setCurrentIndex(index);
        setScenario(s.scenario);
        setObjective(s.objective);
        setPasses(s.passes);
        setHardware(s.array_dim, s.vector_flops_per_cycle);
        updating_ = false;
        layers_ = std::move(layers);
        network_json_ = s.network_json;
        overrides_ = s.overrides;
        if (overrides_.empty()) overrides_.assign(layers_.size(), std::nullopt);
        evaluate();
        return have_eval_;
    } catch (const std::exception& e) {
        updating_ = false;
        if (error) *error = q(e.what());
        showError(q(e.what()));
        return false;
    }
}

void MptView::setScenario(mpt::Scenario s) { scenario_box_->setCurrentIndex(scenario_box_->findData(static_cast<int>(s))); }
void MptView::setObjective(mpt::Objective o) { objective_box_->setCurrentIndex(objective_box_->findData(static_cast<int>(o))); }
void MptView::setPasses(int passes) { passes_box_->setCurrentIndex(passes_box_->findData(passes)); }

bool MptView::chooseGrid(int layer, const mpt::GridConfig& config, QString* error) {
    if (layer < 0 || layer >= static_cast<int>(layers_.size())) return false;
    const auto previous = overrides_[static_cast<size_t>(layer)];
    overrides_[static_cast<size_t>(layer)] = config;
    try {
        eval_ = mpt::evaluate(layers_, scenario(), params(), overrides_);
    } catch (const std::exception& e) {
        overrides_[static_cast<size_t>(layer)] = previous;
        if (error) *error = q(e.what());
        showError(q(e.what()));
        return false;
    }
    fillGrid();
    fillBars();
    fillTable();
    emit evaluated();
    return true;
}

void MptView::clearOverrides() {
    overrides_.assign(layers_.size(), std::nullopt);
    evaluate();
}

void MptView::evaluate() {
    try {
        const mpt::ScenarioParams p = params();
        eval_ = mpt::evaluate(layers_, scenario(), p, overrides_);
        w_dp_ = mpt::evaluate(layers_, mpt::Scenario::WDp, p);
        rows_ = mpt::allowedConfigs(p.model.p, mpt::ConfigSet::Paper);
        std::sort(rows_.begin(), rows_.end(), [](const auto& a, const auto& b) { return a.n_g > b.n_g; });
        have_eval_ = true;
    } catch (const std::exception& e) {
        showError(q(e.what()));
        return;
    }
    fillGrid();
    fillBars();
    fillTable();
    fillSweep();
    emit evaluated();
}

// Spec M9: the same layers and batch on 1 ... 256 workers; overrides do not apply (they name 256-worker grids).
void MptView::fillSweep() {
    const mpt::Scenario s = scenario();
    const bool reduction = s == mpt::Scenario::WMpPlus || s == mpt::Scenario::WMpPlusStar;
    SweepChartData d;
    d.title = std::string("Speed-up over one worker, batch 256") + (reduction ? ", with prediction" : "");
    d.x_label = "workers p";
    d.y_label = "x one worker";
    try {
        const std::vector<mpt::SweepRow> rows = mpt::sweep(layers_, params(), reduction);
        SweepChartData::Series dp{"w_dp", {}}, fixed{reduction ? "w_mp+ (sqrt p x sqrt p)" : "w_mp (sqrt p x sqrt p)", {}},
            dynamic{reduction ? "w_mp+* (dynamic)" : "w_mp* (dynamic)", {}};
        for (const auto& r : rows) {
            d.x.push_back(r.p);
            dp.y.push_back(r.w_dp_speedup);
            fixed.y.push_back(r.fixed_speedup);
            dynamic.y.push_back(r.dynamic_speedup);
        }
        d.series = {dp, fixed, dynamic};
    } catch (const std::exception& e) {
        d.title += std::string(" — ") + e.what();
    }
    sweep_->setData(std::move(d));
}

void MptView::fillGrid() {
    const mpt::ScenarioParams p = params();
    ChoiceGridData d;
    const bool mpt_scenario = scenario() != mpt::Scenario::DDp && scenario() != mpt::Scenario::WDp;
    d.title = std::string(mpt::scenarioName(scenario())) + ": " + mpt::objectiveName(p.objective) +
              " per layer by cluster shape (N_g, N_c)" + (mpt_scenario ? "" : " — data parallel, no shape to choose");
    d.row_title = "(N_g, N_c)";
    d.unit = p.objective == mpt::Objective::CommVolume ? "B" : "s";
    d.best_label = "dynamic clustering's pick";
    for (const auto& g : rows_) d.rows.push_back(g.label());
    const size_t cols = eval_.layers.size();
    for (const auto& l : eval_.layers) d.columns.push_back(l.name);
    d.values.assign(rows_.size() * cols, NAN);
    d.notes.assign(rows_.size() * cols, {});
    d.chosen.assign(cols, -1);
    d.best.assign(cols, -1);
    // The optimiser's own pick per layer: the same evaluation without overrides under dynamic clustering.
    mpt::Evaluation dynamic;
    if (mpt_scenario) {
        const bool plus = scenario() == mpt::Scenario::WMpPlus || scenario() == mpt::Scenario::WMpPlusStar;
        dynamic = mpt::evaluate(layers_, plus ? mpt::Scenario::WMpPlusStar : mpt::Scenario::WMpStar, p);
    }
    for (size_t c = 0; c < cols; ++c) {
        const mpt::LayerResult& l = eval_.layers[c];
        for (size_t r = 0; r < rows_.size(); ++r)
            for (const mpt::LayerCost& o : l.options)
                if (o.grid == rows_[r]) {
                    const size_t i = r * cols + c;
                    d.values[i] = mpt::objectiveValue(o, p.objective, p.model.bytes_per_element);
                    d.notes[i] = o.f.name() + ": compute " + seconds(o.compute_s) + ", weights " +
                                 seconds(o.weight_comm_s) + ", tiles " + seconds(o.tile_comm_s) + "; layer " +
                                 seconds(o.total_s) + (o.buildable ? "" : " (not buildable on the paper's hardware)");
                    if (l.chosen >= 0 && l.options[static_cast<size_t>(l.chosen)].grid == o.grid) d.chosen[c] = static_cast<int>(r);
                    if (c < dynamic.layers.size() && dynamic.layers[c].chosen >= 0 &&
                        dynamic.layers[c].options[static_cast<size_t>(dynamic.layers[c].chosen)].grid == o.grid)
                        d.best[c] = static_cast<int>(r);
                }
    }
    grid_->setData(std::move(d));
    grid_->setMinimumWidth(grid_->figureSize().width());
    const mpt::Evaluation& e = eval_;
    summary_->setText(tr("<b>%1</b> on 256 NDP workers, batch 256: %2 per iteration = %3× w_dp (%4), %5× one worker; "
                         "communication %6 per worker. Click a cell to force a layer's shape; the dot marks dynamic "
                         "clustering's pick.")
                          .arg(q(mpt::scenarioName(e.scenario)))
                          .arg(q(seconds(e.totals.total_s)))
                          .arg(QString::number(e.speedupVsWdp(), 'f', 2))
                          .arg(q(seconds(e.w_dp_s)))
                          .arg(QString::number(e.speedupVsOne(), 'f', 1))
                          .arg(q(withPrefix(e.totals.comm_bytes, "B"))));
}

void MptView::fillBars() {
    LayerBarsData d;
    d.title = std::string("Time per layer: ") + mpt::scenarioName(eval_.scenario) + " and w_dp";
    d.unit = "s";
    d.parts = {"compute", "weight comm", "tile comm"};
    for (const auto& l : eval_.layers) d.layers.push_back(l.name);
    for (const mpt::Evaluation* e : {&eval_, &w_dp_}) {
        LayerBarsData::Stack s;
        s.name = mpt::scenarioName(e->scenario);
        s.values.assign(3, {});
        for (const auto& l : e->layers) {
            s.values[0].push_back(l.cost.compute_s);
            s.values[1].push_back(l.cost.weight_comm_s);
            s.values[2].push_back(l.cost.tile_comm_s);
        }
        d.stacks.push_back(std::move(s));
    }
    bars_->setData(std::move(d));
}

// The paper's figure beside a configuration on this workload, marked as the paper's (spec A11).
std::string MptView::paperFigure(mpt::Scenario s) const {
    const std::string workload = workloadKey().toStdString();
    const std::string figure = mpt::paperFigure(s, isMptLayerStudy(workload), workload == "layers-5x5");
    return figure.empty() ? figure : figure + " (paper)";
}

CsvTable MptView::compareCsv() const {
    CsvTable t;
    t.header = {"configuration", "time_per_iteration_s", "speedup_vs_w_dp_x", "speedup_vs_one_worker_x",
                "comm_per_worker_B", "energy_J", "paper_reported"};
    if (!have_eval_) return t;
    const mpt::ScenarioParams p = params();
    for (mpt::Scenario s : mpt::allScenarios()) {
        const mpt::Evaluation e = s == eval_.scenario ? eval_ : mpt::evaluate(layers_, s, p);
        t.rows.push_back({mpt::scenarioName(s), formatNumber(e.totals.total_s), formatNumber(e.speedupVsWdp()),
                          formatNumber(e.speedupVsOne()), formatNumber(e.totals.comm_bytes),
                          formatNumber(e.totals.energy.total()), paperFigure(s)});
    }
    return t;
}

void MptView::fillTable() {
    const CsvTable t = compareCsv();
    std::vector<QStringList> rows;
    int bold = -1;
    for (const auto& row : t.rows) {
        if (row[0] == mpt::scenarioName(eval_.scenario)) bold = static_cast<int>(rows.size());
        rows.push_back({q(row[0]), q(seconds(std::stod(row[1]))), times(std::stod(row[2])), times(std::stod(row[3])),
                        q(withPrefix(std::stod(row[4]), "B")), q(joules(std::stod(row[5]))), q(row[6])});
    }
    fillComparisonTable(table_,
                        {tr("configuration"), tr("time / iteration"), tr("vs w_dp"), tr("vs 1 worker"),
                         tr("comm / worker"), tr("energy"), tr("paper-reported")},
                        rows, 6, bold);
    table_->setToolTip(tr("Paper-reported: Hong et al., MICRO 2018 (cycle-accurate BookSim, trained networks), for "
                          "reference; the other columns are this engine's model."));
}

}  // namespace partita
