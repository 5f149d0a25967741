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
#include <QTableView>
#include <QVBoxLayout>

#include "core/util/format.h"
#include "widgets/charts/layer_bars.h"
#include "widgets/charts/core_count_chart.h"
#include "widgets/common/choice_grid.h"
#include "widgets/common/method_table.h"
#include "widgets/common/model_csv.h"
#include "widgets/common/paper_table.h"
#include "widgets/common/qt_text.h"

namespace partita {

namespace {

const mpt::Evaluation kNoEvaluation;

QString scenarioTip(mpt::Scenario s) {
    switch (s) {
        case mpt::Scenario::DDp: return QObject::tr("d_dp: data parallel with direct convolution");
        case mpt::Scenario::WDp: return QObject::tr("w_dp: data parallel with Winograd convolution");
        case mpt::Scenario::WMp: return QObject::tr("w_mp: Winograd tiles over a fixed (16,16) cluster shape");
        case mpt::Scenario::WMpPlus: return QObject::tr("w_mp+: the fixed shape with activation prediction cutting tile traffic");
        case mpt::Scenario::WMpStar: return QObject::tr("w_mp*: dynamic clustering picks each layer's cluster shape");
        case mpt::Scenario::WMpPlusStar: return QObject::tr("w_mp+*: dynamic clustering with activation prediction");
    }
    return {};
}

QString objectiveTip(mpt::Objective o) {
    switch (o) {
        case mpt::Objective::CommTime: return QObject::tr("Communication time per layer (the paper's choice)");
        case mpt::Objective::CommVolume: return QObject::tr("Bytes each worker sends per layer");
        case mpt::Objective::TotalTime: return QObject::tr("Compute and communication time per layer");
    }
    return {};
}

}  // namespace

MptView::MptView(QWidget* parent) : QWidget(parent) {
    auto* column = new QVBoxLayout(this);
    workload_box_ = new QComboBox(this);
    workload_box_->setObjectName("mpt-workload");
    for (const MptWorkload& w : mptWorkloads()) workload_box_->addItem(QString::fromUtf8(w.title), QString(w.key));
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
    // The model options of docs/methods/mpt.md#model-options-and-presets; the preset box names the set they form.
    preset_box_ = new QComboBox(this);
    preset_box_->setObjectName("mpt-preset");
    for (mpt::Preset p : {mpt::Preset::Default, mpt::Preset::Fit, mpt::Preset::A9, mpt::Preset::Custom})
        preset_box_->addItem(mpt::presetLabel(p), static_cast<int>(p));
    setItemTips(preset_box_, {tr("What the paper describes: a dedicated transform unit, double-buffered overlap, "
                                 "the study's own array and wire width"),
                              tr("Tuned to the paper's headline figures (vector unit at 192 FLOP/cycle, one pass, "
                                 "total-time objective, 64×64, 4 B): a calibration, not a reproduction"),
                              tr("The first model (spec A9): transforms on the 64 FLOP/cycle vector unit, phases "
                                 "summed, 64×64, 4 B; runs stored before these options read back as this"),
                              tr("Options set one by one")});
    unit_box_ = new QComboBox(this);
    unit_box_->setObjectName("mpt-transform-unit");
    unit_box_->addItem(tr("dedicated unit"), static_cast<int>(mpt::TransformUnit::Dedicated));
    unit_box_->addItem(tr("vector unit"), static_cast<int>(mpt::TransformUnit::Vector));
    setItemTips(unit_box_, {tr("The transformation unit in the P2P logic (the paper's §VI-C): transforms never limit throughput"),
                            tr("The 64-lane vector unit, at the rate chosen beside")});
    vector_box_ = new QComboBox(this);
    vector_box_->setObjectName("mpt-vector");
    for (double rate : {64.0, 192.0, 256.0, 1024.0}) vector_box_->addItem(tr("%1 FLOP/cycle").arg(rate), rate);
    overlap_box_ = new QComboBox(this);
    overlap_box_->setObjectName("mpt-overlap");
    overlap_box_->addItem(tr("max (double-buffered)"), static_cast<int>(mpt::Overlap::Max));
    overlap_box_->addItem(tr("sum (no overlap)"), static_cast<int>(mpt::Overlap::Sum));
    array_box_ = new QComboBox(this);
    array_box_->setObjectName("mpt-array");
    array_box_->addItem(tr("the study's (64 / 96)"), 0.0);
    array_box_->addItem(tr("64×64 FP32"), 64.0);
    array_box_->addItem(tr("96×96 FP16"), 96.0);
    setItemTips(array_box_, {tr("64×64 FP32 for the layer study, 96×96 FP16 for whole networks, as in the paper"),
                             tr("The layer study's array"), tr("The network study's array (footnote 16)")});
    wire_box_ = new QComboBox(this);
    wire_box_->setObjectName("mpt-wire");
    wire_box_->addItem(tr("the study's (4 / 2 B)"), 0.0);
    wire_box_->addItem(tr("4 B (FP32)"), 4.0);
    wire_box_->addItem(tr("2 B (FP16)"), 2.0);
    setItemTips(wire_box_, {tr("4 B per element for the layer study, 2 B for whole networks: the paper does not say "
                               "what goes on the wire, so this is an assumption"),
                            tr("FP32 values on the wire"), tr("FP16 values on the wire")});
    // The paper's names are terse: each item says what it is.
    for (int i = 0; i < scenario_box_->count(); ++i)
        scenario_box_->setItemData(i, scenarioTip(static_cast<mpt::Scenario>(scenario_box_->itemData(i).toInt())),
                                   Qt::ToolTipRole);
    for (int i = 0; i < objective_box_->count(); ++i)
        objective_box_->setItemData(i, objectiveTip(static_cast<mpt::Objective>(objective_box_->itemData(i).toInt())),
                                    Qt::ToolTipRole);
    setItemTips(passes_box_, {tr("Reduce then broadcast the weight gradients: two passes over the ring"),
                              tr("One pass, as in the paper's volume formula")});
    // Short rows: one long row would set the window's minimum width and squeeze the docks.
    const std::vector<Choice> rows[] = {
        {{tr("Workload"), workload_box_, tr("The layers or network to evaluate: the paper's layer study, a whole network, or a file")},
         {tr("Configuration"), scenario_box_,
          tr("How the 256 workers split the work: data parallel (d_dp, w_dp) or Winograd tiles over clusters (w_mp…)")},
         {tr("Model"), preset_box_, tr("A named set of the model options below; “fit” is a calibration, not a reproduction")}},
        {{tr("Objective"), objective_box_,
          tr("What dynamic clustering minimises per layer: communication time, communication volume or total time")},
         {tr("Weights"), passes_box_, tr("How the weight gradients are exchanged: reduce and broadcast, or the paper's one-pass formula")},
         {tr("Overlap"), overlap_box_,
          tr("Compute and communication within a phase: overlapped (the inputs are double-buffered) or added")}},
        {{tr("Transforms"), unit_box_, tr("Where the Winograd transforms run: a dedicated unit or the vector unit")},
         {tr("Rate"), vector_box_, tr("The vector unit's rate for the transforms, in FLOP per cycle (vector unit only)")}},
        {{tr("Array"), array_box_, tr("Each worker's multiply-accumulate array")},
         {tr("Wire"), wire_box_, tr("Bytes per element on the links (an assumption: the paper does not say)")}}};
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
    sweep_ = new CoreCountChart(charts);
    charts->addTab(bars_, tr("Per layer"));
    charts->addTab(sweep_, tr("Scaling, 1–256 workers"));
    auto* tables = new QTabWidget(bottom);
    tables->setDocumentMode(true);
    table_ = makeComparisonTable(tables, "mpt-compare",
                                 {{tr("configuration"), "configuration", false},
                                  {tr("time / iteration"), "time_per_iteration_s"},
                                  {tr("vs w_dp"), "speedup_vs_w_dp_x"},
                                  {tr("geomean"), "per_layer_geomean_x"},
                                  {tr("mean"), "per_layer_mean_x"},
                                  {tr("vs 1 worker"), "speedup_vs_one_worker_x"},
                                  {tr("comm / worker"), "comm_per_worker_B"},
                                  {tr("energy"), "energy_J"},
                                  {tr("paper-reported"), "paper_reported", false}});
    paper_table_ = new PaperTable(tables);
    paper_table_->setObjectName("mpt-paper");
    tables->addTab(table_, tr("Configurations"));
    tables->addTab(paper_table_, tr("Paper vs engine"));
    tables->setCurrentIndex(1);  // issue 19: the paper's figures and the gaps are what a reader checks first
    bottom->setSizes({450, 630});
    split->setSizes({290, 510});
    column->addWidget(split, 1);

    // The controls ask; the shown outcome changes when the answer arrives.
    auto ask = [this] {
        if (!updating_) emit settingsRequested(fromControls(true));
    };
    connect(workload_box_, &QComboBox::currentIndexChanged, this, [this] {
        if (!updating_) requestWorkload(workload_box_->currentData().toString());
    });
    connect(scenario_box_, &QComboBox::currentIndexChanged, this, [this] {
        if (!updating_) emit settingsRequested(fromControls(false));
    });
    connect(objective_box_, &QComboBox::currentIndexChanged, this, ask);
    connect(passes_box_, &QComboBox::currentIndexChanged, this, ask);
    for (QComboBox* box : {array_box_, vector_box_, unit_box_, overlap_box_, wire_box_})
        connect(box, &QComboBox::currentIndexChanged, this, ask);
    connect(preset_box_, &QComboBox::currentIndexChanged, this, [this] {
        if (!updating_) requestPreset(static_cast<mpt::Preset>(preset_box_->currentData().toInt()));
    });
    connect(grid_, &ChoiceGrid::choiceRequested, this, [this](int row, int col) {
        const auto& rows = gridRows();
        if (row >= 0 && row < static_cast<int>(rows.size())) requestGrid(col, rows[static_cast<size_t>(row)]);
    });
}

QString MptView::workloadKey() const { return workload_box_->currentData().toString(); }
mpt::Scenario MptView::scenario() const { return static_cast<mpt::Scenario>(scenario_box_->currentData().toInt()); }

mpt::Objective MptView::objective() const { return static_cast<mpt::Objective>(objective_box_->currentData().toInt()); }
int MptView::passes() const { return passes_box_->currentData().toInt(); }
int MptView::arrayDim() const { return array_box_->currentData().toInt(); }
double MptView::vectorFlopsPerCycle() const { return vector_box_->currentData().toDouble(); }

mpt::ModelOptions MptView::modelOptions() const {
    mpt::ModelOptions o;
    o.objective = objective();
    o.passes = passes();
    o.transform_unit = static_cast<mpt::TransformUnit>(unit_box_->currentData().toInt());
    o.vector_flops_per_cycle = vectorFlopsPerCycle();
    o.overlap = static_cast<mpt::Overlap>(overlap_box_->currentData().toInt());
    o.array_dim = arrayDim();
    o.bytes_per_element = wire_box_->currentData().toDouble();
    return o;
}

void MptView::requestPreset(mpt::Preset preset) {
    if (preset == mpt::Preset::Custom) return;  // a label for options set one by one, not a set
    MptSettings s = fromControls(true);
    s.model = mpt::presetOptions(preset);
    emit settingsRequested(s);
}

const mpt::Evaluation& MptView::evaluation() const { return outcome_ ? outcome_->eval : kNoEvaluation; }

const std::vector<mpt::MptLayer>& MptView::layers() const {
    static const std::vector<mpt::MptLayer> none;
    return outcome_ ? outcome_->layers : none;
}

const std::vector<mpt::GridConfig>& MptView::gridRows() const {
    static const std::vector<mpt::GridConfig> none;
    return outcome_ ? outcome_->rows : none;
}

QString MptView::summaryText() const { return summary_->text(); }

MptSettings MptView::settings() const { return outcome_ ? outcome_->settings : fromControls(false); }

// The shown settings with the controls' choices (so choices made before an answer arrives add up).
MptSettings MptView::fromControls(bool keep_overrides) const {
    MptSettings s;
    if (outcome_) s = outcome_->settings;
    const std::string key = workloadKey().toStdString();
    if (key != s.workload || !outcome_) {  // a workload chosen but not shown yet: read by the evaluation
        s.workload = key;
        s.network_json.clear();
        s.overrides.clear();
    }
    s.scenario = scenario();
    s.model = modelOptions();
    if (!keep_overrides) s.overrides.clear();
    return s;
}

void MptView::showControls(const MptSettings& s) {
    updating_ = true;
    const QString key = q(s.workload);
    choose(workload_box_, key, QFileInfo(key).completeBaseName());
    scenario_box_->setCurrentIndex(scenario_box_->findData(static_cast<int>(s.scenario)));
    const mpt::ModelOptions& m = s.model;
    objective_box_->setCurrentIndex(objective_box_->findData(static_cast<int>(m.objective)));
    passes_box_->setCurrentIndex(passes_box_->findData(m.passes));
    choose(array_box_, double(m.array_dim), QString::number(m.array_dim));
    choose(vector_box_, m.vector_flops_per_cycle, tr("%1 FLOP/cycle").arg(m.vector_flops_per_cycle));
    choose(wire_box_, m.bytes_per_element, tr("%1 B").arg(m.bytes_per_element));
    unit_box_->setCurrentIndex(unit_box_->findData(static_cast<int>(m.transform_unit)));
    overlap_box_->setCurrentIndex(overlap_box_->findData(static_cast<int>(m.overlap)));
    preset_box_->setCurrentIndex(preset_box_->findData(static_cast<int>(mpt::presetOf(m))));
    vector_box_->setEnabled(m.transform_unit == mpt::TransformUnit::Vector);
    updating_ = false;
}

void MptView::requestWorkload(const QString& key_or_path) {
    MptSettings s = fromControls(false);
    s.workload = key_or_path.toStdString();
    s.network_json.clear();  // read by the evaluation
    emit settingsRequested(s);
}

void MptView::requestScenario(mpt::Scenario scenario) {
    updating_ = true;
    scenario_box_->setCurrentIndex(scenario_box_->findData(static_cast<int>(scenario)));
    updating_ = false;
    emit settingsRequested(fromControls(false));
}

void MptView::requestGrid(int layer, const mpt::GridConfig& config) {
    if (!outcome_ || layer < 0 || layer >= static_cast<int>(outcome_->layers.size())) return;
    MptSettings s = fromControls(true);
    s.overrides.resize(outcome_->layers.size());
    s.overrides[static_cast<size_t>(layer)] = config;
    emit settingsRequested(s);
}

void MptView::requestClearOverrides() { emit settingsRequested(fromControls(false)); }

void MptView::showError(const QString& message) {
    showSummaryError(summary_, message);
    if (outcome_) showControls(outcome_->settings);
}

void MptView::setOutcome(std::shared_ptr<const MptOutcome> outcome) {
    if (!outcome) return;
    outcome_ = std::move(outcome);
    showControls(outcome_->settings);
    fillGrid();
    fillBars();
    fillTable();
    fillPaperTable();
    fillSweep();
    emit evaluated();
}

// The sweep (docs/methods/mpt.md#the-six-configurations): the same layers and batch on 1 ... 256 workers.
void MptView::fillSweep() {
    const bool reduction = outcome_->reduction();
    CoreCountChartData d;
    d.title = std::string("Speed-up over one worker, batch 256") + (reduction ? ", with prediction" : "");
    d.x_label = "workers p";
    d.y_label = "x one worker";
    if (!outcome_->sweep_problem.empty()) d.title += " — " + outcome_->sweep_problem;
    CoreCountChartData::Series dp{"w_dp", {}}, fixed{reduction ? "w_mp+ (sqrt p x sqrt p)" : "w_mp (sqrt p x sqrt p)", {}},
        dynamic{reduction ? "w_mp+* (dynamic)" : "w_mp* (dynamic)", {}};
    for (const auto& r : outcome_->sweep) {
        d.x.push_back(r.p);
        dp.y.push_back(r.w_dp_speedup);
        fixed.y.push_back(r.fixed_speedup);
        dynamic.y.push_back(r.dynamic_speedup);
    }
    if (outcome_->sweep_problem.empty()) d.series = {dp, fixed, dynamic};
    sweep_->setData(std::move(d));
}

void MptView::fillGrid() {
    const MptOutcome& o = *outcome_;
    const mpt::Evaluation& e = o.eval;
    const mpt::ScenarioParams p = mptParams(o.settings);
    ChoiceGridData d;
    const bool mpt_scenario = e.scenario != mpt::Scenario::DDp && e.scenario != mpt::Scenario::WDp;
    d.title = std::string(mpt::scenarioName(e.scenario)) + ": " + mpt::objectiveName(p.objective) +
              " per layer by cluster shape (N_g, N_c)" + (mpt_scenario ? "" : " — data parallel, no shape to choose");
    d.row_title = "(N_g, N_c)";
    d.unit = p.objective == mpt::Objective::CommVolume ? "B" : "s";
    d.best_label = "dynamic clustering's pick";
    for (const auto& g : o.rows) d.rows.push_back(g.label());
    const size_t cols = e.layers.size();
    for (const auto& l : e.layers) d.columns.push_back(l.name);
    d.values.assign(o.rows.size() * cols, NAN);
    d.notes.assign(o.rows.size() * cols, {});
    d.chosen.assign(cols, -1);
    d.best.assign(cols, -1);
    const mpt::Evaluation& dynamic = o.dynamic;  // the optimiser's own pick per layer
    for (size_t c = 0; c < cols; ++c) {
        const mpt::LayerResult& l = e.layers[c];
        for (size_t r = 0; r < o.rows.size(); ++r)
            for (const mpt::LayerCost& option : l.options)
                if (option.grid == o.rows[r]) {
                    const size_t i = r * cols + c;
                    d.values[i] = mpt::objectiveValue(option, p.objective, p.model.bytes_per_element);
                    d.notes[i] = option.f.name() + ": compute " + seconds(option.compute_s) + ", weights " +
                                 seconds(option.weight_comm_s) + ", tiles " + seconds(option.tile_comm_s) + "; layer " +
                                 seconds(option.total_s) +
                                 (option.buildable ? "" : " (not buildable on the paper's hardware)");
                    if (l.chosen >= 0 && l.options[static_cast<size_t>(l.chosen)].grid == option.grid)
                        d.chosen[c] = static_cast<int>(r);
                    if (c < dynamic.layers.size() && dynamic.layers[c].chosen >= 0 &&
                        dynamic.layers[c].options[static_cast<size_t>(dynamic.layers[c].chosen)].grid == option.grid)
                        d.best[c] = static_cast<int>(r);
                }
    }
    grid_->setData(std::move(d));
    grid_->setMinimumWidth(grid_->figureSize().width());
    const mpt::Averages avg = e.vsWdp();
    summary_->setText(tr("<b>%1</b> on 256 NDP workers, batch 256, model <b>%2</b>: %3 per iteration = %4× w_dp (%5; "
                         "per layer: geometric mean %6×, mean %7×), %8× one worker; communication %9 per worker. "
                         "Click a cell to force a layer's shape; the dot marks dynamic clustering's pick.")
                          .arg(q(mpt::scenarioName(e.scenario)))
                          .arg(q(mpt::presetLabel(mpt::presetOf(o.settings.model))).toHtmlEscaped())
                          .arg(q(seconds(e.totals.total_s)))
                          .arg(QString::number(e.speedupVsWdp(), 'f', 2))
                          .arg(q(seconds(e.w_dp_s)))
                          .arg(QString::number(avg.geomean, 'f', 2))
                          .arg(QString::number(avg.mean, 'f', 2))
                          .arg(QString::number(e.speedupVsOne(), 'f', 1))
                          .arg(byteText(e.totals.comm_bytes)));
}

void MptView::fillBars() {
    const mpt::Evaluation& eval = outcome_->eval;
    LayerBarsData d;
    // Busy time per part: under max overlap the parts overlap, so a bar can exceed the layer's time.
    d.title = std::string("Busy time: ") + mpt::scenarioName(eval.scenario) + " and w_dp";
    d.unit = "s";
    d.parts = {"compute", "weight comm", "tile comm"};
    for (const auto& l : eval.layers) d.layers.push_back(l.name);
    for (const mpt::Evaluation* e : {&eval, &outcome_->w_dp}) {
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

// The paper's figure beside a configuration on this workload, marked as the paper's (docs/methods/mpt.md#the-paper-against-the-engine).
std::string MptView::paperFigure(mpt::Scenario s) const {
    const std::string& workload = outcome_->settings.workload;
    const std::string figure = mpt::paperFigure(s, isMptLayerStudy(workload), workload == "layers-5x5");
    return figure.empty() ? figure : figure + " (paper)";
}

CsvTable MptView::compareCsv() const { return csvFromModel(*comparisonModel(table_)); }

void MptView::fillTable() {
    std::vector<ResultTableModel::Row> rows;
    int bold = -1;
    for (const mpt::Evaluation& e : outcome_->scenarios) {
        const std::string name = mpt::scenarioName(e.scenario);
        if (name == mpt::scenarioName(outcome_->eval.scenario)) bold = static_cast<int>(rows.size());
        rows.push_back({textCell(q(name)), numberCell(q(seconds(e.totals.total_s)), e.totals.total_s),
                        numberCell(timesText(e.speedupVsWdp()), e.speedupVsWdp()),
                        numberCell(timesText(e.vsWdp().geomean), e.vsWdp().geomean),
                        numberCell(timesText(e.vsWdp().mean), e.vsWdp().mean),
                        numberCell(timesText(e.speedupVsOne()), e.speedupVsOne()),
                        numberCell(byteText(e.totals.comm_bytes), e.totals.comm_bytes),
                        numberCell(q(joules(e.totals.energy.total())), e.totals.energy.total()),
                        textCell(q(paperFigure(e.scenario)))});
    }
    fillComparisonTable(table_, std::move(rows), 8, bold);
    table_->setToolTip(tr("vs w_dp: total-time ratio; geomean / mean: of the per-layer ratios (the paper's "
                          "\"on average\" is undefined). Paper-reported: Hong et al., MICRO 2018 (cycle-accurate "
                          "BookSim, trained networks), for reference; the other columns are this engine's model."));
}

}  // namespace partita
