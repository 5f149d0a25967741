#include "widgets/l2s/l2s_view.h"

#include <algorithm>
#include <cmath>

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
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
#include "widgets/heatmap/comm_heatmap_view.h"
#include "widgets/l2s/l2s_models.h"

namespace partita {

namespace {

const l2s::Scheme kRows[L2sView::kSchemes] = {l2s::Scheme::Traditional, l2s::Scheme::Grouped, l2s::Scheme::Sparse};
const char* const kScenarioNames[] = {"Baseline (traditional)", "SS (what-if mask)", "SS_Mask (what-if mask)",
                                      "Grouped (preset layers)"};
const char* const kPaperVariant[] = {"Baseline", "SS", "SS_Mask", ""};

QString l2sPercent(double fraction) { return QString::number(fraction * 100, 'f', 1) + " %"; }

}  // namespace

L2sView::L2sView(QWidget* parent) : QWidget(parent) {
    auto* column = new QVBoxLayout(this);
    auto* controls = new QHBoxLayout;
    preset_box_ = new QComboBox(this);
    preset_box_->setObjectName("l2s-preset");
    for (const l2s::Preset& p : l2s::presets()) preset_box_->addItem(q(p.title), q(p.key));
    cores_box_ = new QComboBox(this);
    cores_box_->setObjectName("l2s-cores");
    for (int n : {4, 8, 16, 32}) cores_box_->addItem(QStringLiteral("%1 cores").arg(n), n);
    cores_box_->setCurrentIndex(2);
    scenario_box_ = new QComboBox(this);
    scenario_box_->setObjectName("l2s-scenario");
    for (int s = 0; s < 4; ++s) scenario_box_->addItem(tr(kScenarioNames[s]), s);
    scenario_box_->setCurrentIndex(2);
    setItemTips(scenario_box_, {tr("Every layer all-gathers the previous layer's output (no pruning)"),
                                tr("SS: a seeded mask keeps remote blocks with one probability, whatever the distance"),
                                tr("SS_Mask: a seeded mask keeps neighbouring cores' blocks and drops farther ones"),
                                tr("The preset's layers run grouped, with no traffic at their input")});
    addChoices(controls, this,
               {{tr("Network"), preset_box_, tr("The network to partition over the mesh: one of the paper's, or a file")},
                {tr("Mesh"), cores_box_, tr("How many cores the 2D mesh has; each layer's kernels are split among them")},
                {tr("Scenario"), scenario_box_,
                 tr("How layers read the previous layer's output: all-gather, a what-if sparsity mask, or grouped")}});
    column->addLayout(controls);
    // The model row needs ~940 px; an explicit minimum below that keeps the tab from setting the
    // window's minimum width (narrower than 1024 px its right end is cut, as the other parts are).
    models_ = new L2sModelControls(this);
    models_->setMinimumWidth(400);
    column->addWidget(models_);
    summary_ = makeSummaryLabel(this, "l2s-summary");
    column->addWidget(summary_);

    // Left: the choice grid over the scenario table; right: the boundary's traffic and link loads (one tab
    // each: stacked they would need 860 px); below: the bars.
    auto* split = new QSplitter(Qt::Vertical, this);
    auto* top = new QSplitter(Qt::Horizontal, split);
    auto* left = new QSplitter(Qt::Vertical, top);
    grid_ = new ChoiceGrid(left);
    // The NoC energy is the CSV's; the table shows its reduction.
    table_ = makeComparisonTable(left, "l2s-compare",
                                 {{tr("scenario"), "scenario", false},
                                  {tr("time / image"), "time_s"},
                                  {tr("speedup"), "speedup_x"},
                                  {tr("NoC traffic"), "traffic_fraction"},
                                  {tr("byte-hops"), "byte_hops"},
                                  {tr("NoC energy"), "noc_energy_J"},
                                  {tr("NoC energy −"), "energy_reduction_fraction"},
                                  {tr("paper: speedup"), "paper_speedup_x", false},
                                  {tr("paper: traffic"), "paper_traffic_fraction", false},
                                  {tr("paper: energy −"), "paper_energy_reduction_fraction", false}});
    left->setSizes({300, 200});
    auto* maps = new QTabWidget(top);
    maps->setDocumentMode(true);
    traffic_ = new CommHeatmap(maps);
    links_ = new CommHeatmap(maps);
    maps->addTab(traffic_, tr("Traffic"));
    maps->setTabToolTip(0, tr("Bytes each core sends each other core at the selected boundary"));
    maps->addTab(links_, tr("Link loads"));
    maps->setTabToolTip(1, tr("Bytes over each mesh link at the selected boundary, with XY routing"));
    top->setSizes({640, 420});
    // Explicit minimums below the parts' own hints: the tab must not set the window's minimum width.
    grid_->setMinimumWidth(280);
    table_->setMinimumWidth(200);
    traffic_->setMinimumWidth(200);
    links_->setMinimumWidth(200);
    auto* charts = new QTabWidget(split);
    charts->setDocumentMode(true);
    bars_ = new LayerBars(charts);
    sweep_ = new CoreCountChart(charts);
    charts->addTab(bars_, tr("Per layer"));
    charts->addTab(sweep_, tr("Core count"));
    // The whole width, so the reasons read in a line or two.
    paper_ = new PaperTable(charts);
    paper_->setObjectName("l2s-paper");
    charts->addTab(paper_, tr("Paper vs engine"));
    charts->setTabToolTip(2, tr("Table IV's SS_Mask figures (16 cores) beside the engine's under the models above, "
                                "with the ratio and why they differ"));
    split->setSizes({560, 240});
    column->addWidget(split, 1);

    // The controls ask; the shown outcome changes when the answer arrives.
    connect(preset_box_, &QComboBox::currentIndexChanged, this, [this] {
        if (!updating_) requestPreset(presetKey());
    });
    auto ask = [this] {
        if (!updating_) emit settingsRequested(fromControls());
    };
    connect(cores_box_, &QComboBox::currentIndexChanged, this, ask);
    connect(scenario_box_, &QComboBox::currentIndexChanged, this, ask);
    connect(models_, &L2sModelControls::changed, this, ask);
    connect(models_, &L2sModelControls::defaultsRequested, this, [this] {
        L2sSettings s = fromControls();
        const L2sSettings defaults;
        s.compute = defaults.compute;
        s.comm = defaults.comm;
        s.burst_rate = defaults.burst_rate;
        s.hop_keep.clear();  // the preset's
        emit settingsRequested(s);
    });
    connect(grid_, &ChoiceGrid::choiceRequested, this, [this](int row, int col) {
        selectBoundary(col);
        requestScheme(col, kRows[row]);
    });
}

QString L2sView::presetKey() const { return preset_box_->currentData().toString(); }
int L2sView::cores() const { return cores_box_->currentData().toInt(); }
L2sView::Scenario L2sView::scenario() const { return static_cast<Scenario>(scenario_box_->currentData().toInt()); }
QString L2sView::summaryText() const { return summary_->text(); }

const l2s::Evaluation& L2sView::evaluation() const {
    static const l2s::Evaluation none;
    return outcome_ ? outcome_->eval : none;
}

const l2s::Evaluation& L2sView::baseline() const {
    static const l2s::Evaluation none;
    return outcome_ ? outcome_->baseline : none;
}

const l2s::Strategy& L2sView::strategy() const {
    static const l2s::Strategy none;
    return outcome_ ? outcome_->strategies.shown : none;
}

L2sSettings L2sView::settings() const { return outcome_ ? outcome_->settings : fromControls(); }

// The shown settings with the controls' choices (so choices made before an answer arrives add up);
// a new network, mesh or scenario starts from its own strategy.
L2sSettings L2sView::fromControls() const {
    L2sSettings s;
    if (outcome_) s = outcome_->settings;
    const std::string key = presetKey().toStdString();
    if (key != s.preset || !outcome_) {  // a network chosen but not shown yet: read by the evaluation
        s.preset = key;
        s.network_json.clear();
    }
    s.schemes.clear();
    s.cores = cores();
    s.scenario = scenario();
    models_->applyTo(s);
    if (!outcome_ || key != outcome_->settings.preset) s.hop_keep.clear();  // a new network: its own keep
    return s;
}

void L2sView::showControls(const L2sSettings& s) {
    updating_ = true;
    choose(preset_box_, q(s.preset), outcome_ ? q(outcome_->preset.title) : q(s.preset));
    choose(cores_box_, s.cores, QStringLiteral("%1 cores").arg(s.cores));
    scenario_box_->setCurrentIndex(static_cast<int>(s.scenario));
    models_->show(s, outcome_ ? outcome_->preset.hop_keep : l2sHopKeep(s));
    updating_ = false;
}

void L2sView::requestPreset(const QString& key_or_path) {
    L2sSettings s = fromControls();
    s.preset = key_or_path.toStdString();
    s.network_json.clear();  // read by the evaluation
    emit settingsRequested(s);
}

bool L2sView::requestCores(int n) {
    const int index = cores_box_->findData(n);
    if (index < 0) {
        showError(tr("%1 cores: the mesh presets have 4, 8, 16 or 32").arg(n));
        return false;
    }
    updating_ = true;
    cores_box_->setCurrentIndex(index);
    updating_ = false;
    emit settingsRequested(fromControls());
    return true;
}

void L2sView::requestScenario(Scenario scenario) {
    updating_ = true;
    scenario_box_->setCurrentIndex(static_cast<int>(scenario));
    updating_ = false;
    emit settingsRequested(fromControls());
}

void L2sView::requestScheme(int layer, l2s::Scheme scheme) {
    if (!outcome_ || layer < 0 || layer >= static_cast<int>(outcome_->settings.schemes.size())) return;
    L2sSettings s = outcome_->settings;  // the pick edits the strategy shown
    s.schemes[static_cast<size_t>(layer)] = scheme;
    emit settingsRequested(s);
}

void L2sView::showError(const QString& message) {
    showSummaryError(summary_, message);
    if (outcome_) showControls(outcome_->settings);
}

void L2sView::setOutcome(std::shared_ptr<const L2sOutcome> outcome) {
    if (!outcome) return;
    outcome_ = std::move(outcome);
    showControls(outcome_->settings);
    const int layers = static_cast<int>(outcome_->eval.rows.size());
    boundary_ = layers < 2 ? 0 : std::min(std::max(boundary_, 1), layers - 1);
    fillGrid();
    selectBoundary(boundary_);
    fillBars();
    fillTable();
    fillPaper();
    fillSweep();
    fillSummary();
    emit evaluated();
}

// docs/methods/l2s.md#grouping-advisor-and-core-sweep (Tables V/VI): the scenario rebuilt on each mesh; a core count it cannot use is a gap.
void L2sView::fillSweep() {
    CoreCountChartData d;
    d.title = "Scenario against the traditional scheme by core count";
    d.x_label = "cores";
    d.y_label = "x traditional";
    CoreCountChartData::Series speed{"speed-up", {}}, comm{"communication speed-up", {}};
    for (const L2sOutcome::CoreCount& point : outcome_->sweep) {
        d.x.push_back(point.cores);
        speed.y.push_back(point.speedup);
        comm.y.push_back(point.comm_speedup);
    }
    d.series = {speed, comm};
    sweep_->setData(std::move(d));
}

void L2sView::selectBoundary(int layer) {
    if (!outcome_ || layer < 0 || layer >= static_cast<int>(outcome_->eval.rows.size())) return;
    boundary_ = layer;
    const std::vector<l2s::BoundaryRow>& rows = outcome_->eval.rows;
    const l2s::BoundaryRow& row = rows[static_cast<size_t>(layer)];
    const QString into = layer > 0 ? QStringLiteral("%1 → %2").arg(q(rows[static_cast<size_t>(layer) - 1].layer),
                                                                   q(row.layer))
                                   : q(row.layer) + tr(" (reads the image)");
    traffic_->setMatrix(l2s::trafficCommMatrix(row), tr("%1 traffic (%2)").arg(into, q(l2s::schemeName(row.scheme))));
    links_->setMatrix(l2s::linkLoadCommMatrix(row), tr("%1 XY link loads").arg(into));
    emit boundarySelected(layer);
}

void L2sView::fillSummary() {
    const l2s::Evaluation& e = outcome_->eval;
    const l2s::Mesh& mesh = outcome_->evaluator->mesh();
    const l2s::Versus v = l2s::versus(outcome_->baseline, e);
    summary_->setToolTip({});
    summary_->setText(
        tr("<b>%1</b> on %2 cores (%3×%4 mesh, XY routing): %5 per image, %6× vs traditional; NoC traffic %7 "
           "(%8 of traditional), %9 byte-hops, NoC energy %10 (−%11). Click a cell to change a boundary.")
            .arg(q(outcome_->preset.title))
            .arg(mesh.cores())
            .arg(mesh.width())
            .arg(mesh.height())
            .arg(q(seconds(e.time_s)))
            .arg(QString::number(v.speedup, 'f', 2))
            .arg(byteText(e.volume_B))
            .arg(l2sPercent(v.traffic_rate))
            .arg(q(withCommas(e.byte_hops)))
            .arg(q(joules(e.energy_J)))
            .arg(l2sPercent(v.energy_reduction)));
}

void L2sView::fillGrid() {
    const L2sOutcome& o = *outcome_;
    ChoiceGridData d;
    d.title = o.preset.title + ": time per boundary by strategy";
    d.row_title = "strategy";
    d.unit = "s";
    d.best_label = "scenario's choice";
    for (l2s::Scheme s : kRows) d.rows.push_back(l2s::schemeName(s));
    for (const auto& w : o.evaluator->layers().layers) d.columns.push_back(w.name);
    const size_t layers = d.columns.size();
    d.values.assign(kSchemes * layers, NAN);
    d.notes.assign(kSchemes * layers, {});
    const double clock = o.evaluator->mesh().params().clock_hz;
    for (int r = 0; r < kSchemes; ++r)
        for (size_t l = 0; l < layers; ++l) {
            const L2sOutcome::Cell& cell = o.cells[static_cast<size_t>(kRows[r])][l];
            const size_t i = static_cast<size_t>(r) * layers + l;
            if (!cell.row) {
                d.notes[i] = cell.problem;
                continue;
            }
            const l2s::BoundaryRow& row = *cell.row;
            d.values[i] = row.cycles() / clock;
            d.notes[i] = "compute " + withCommas(row.compute_cycles) + " cycles, communication " +
                         withCommas(row.comm_cycles) + " cycles; " + withPrefix(row.volume_B, "B") + ", " +
                         withCommas(row.byte_hops) + " byte-hops";
        }
    for (size_t l = 0; l < layers; ++l) {
        d.chosen.push_back(static_cast<int>(o.strategies.shown[l].scheme));
        d.best.push_back(static_cast<int>(o.strategies.scenario[l].scheme));
    }
    grid_->setData(std::move(d));
}

void L2sView::fillBars() {
    const l2s::Evaluation& eval = outcome_->eval;
    LayerBarsData d;
    d.title = "Cycles per layer: shown and traditional";
    d.unit = "cycles";
    d.parts = {"compute", "communication"};
    for (const auto& r : eval.rows) d.layers.push_back(r.layer);
    for (const auto* e : {&eval, &outcome_->baseline}) {
        LayerBarsData::Stack s;
        s.name = e == &eval ? "shown" : "traditional";
        s.values.assign(2, {});
        for (const auto& r : e->rows) {
            s.values[0].push_back(r.compute_cycles);
            s.values[1].push_back(r.comm_cycles);
        }
        d.stacks.push_back(std::move(s));
    }
    bars_->setData(std::move(d));
}

CsvTable L2sView::paperCsv() const {
    CsvTable t;
    t.header = {"quantity", "unit", "paper", "engine", "engine_over_paper", "network", "cores_compared", "why_it_differs"};
    if (!outcome_) return t;
    for (const l2s::PaperGap& g : outcome_->paper)
        t.rows.push_back({g.quantity, g.percent ? "fraction" : "x", formatNumber(g.paper), formatNumber(g.engine),
                          formatNumber(g.ratio), outcome_->preset.title, "16", g.reason});
    return t;
}

CsvTable L2sView::compareCsv() const { return csvFromModel(*comparisonModel(table_)); }

void L2sView::fillTable() {
    const L2sOutcome& o = *outcome_;
    // A number the CSV leaves empty when it is not finite (or the paper has none); shown as "—" or blank.
    auto cell = [](const QString& text, double x) {
        ResultCell c = numberCell(text, x);
        if (!std::isfinite(x)) c.csv = "";
        return c;
    };
    auto paperCell = [](const l2s::PaperRow* paper, double l2s::PaperRow::*field, bool ratio) {
        if (!paper || !std::isfinite(paper->*field)) return textCell(QString());
        return numberCell(ratio ? timesText(paper->*field) : l2sPercent(paper->*field), paper->*field);
    };
    std::vector<ResultTableModel::Row> rows;
    for (size_t s = 0; s <= o.scenarios.size(); ++s) {
        const bool shown = s == o.scenarios.size();
        const l2s::Evaluation& e = shown ? o.eval : o.scenarios[s];
        const l2s::Versus v = l2s::versus(o.baseline, e);
        const l2s::PaperRow* paper = s < 3 ? l2s::paperRow(o.preset.title, kPaperVariant[s], o.evaluator->mesh().cores())
                                           : nullptr;
        rows.push_back({textCell(q(shown ? "shown (edited)" : kScenarioNames[s])), numberCell(q(seconds(e.time_s)), e.time_s),
                        cell(timesText(v.speedup), v.speedup), numberCell(l2sPercent(v.traffic_rate), v.traffic_rate),
                        numberCell(q(withCommas(e.byte_hops)), e.byte_hops), numberCell(q(joules(e.energy_J)), e.energy_J),
                        numberCell(l2sPercent(v.energy_reduction), v.energy_reduction),
                        paperCell(paper, &l2s::PaperRow::speedup, true), paperCell(paper, &l2s::PaperRow::traffic, false),
                        paperCell(paper, &l2s::PaperRow::energy_reduction, false)});
    }
    fillComparisonTable(table_, std::move(rows), 7, static_cast<int>(outcome_->settings.scenario), {5});
    table_->setToolTip(tr("Paper columns: Zou et al., Tables IV and VI (trained masks, BookSim2/DSENT), shown for "
                          "reference; the engine's what-if masks are seeded, not trained."));
}

void L2sView::fillPaper() {
    const L2sOutcome& o = *outcome_;
    std::vector<PaperTableRow> rows;
    for (const l2s::PaperGap& g : o.paper) {
        auto text = [&](double x) { return g.percent ? l2sPercent(x) : timesText(x); };
        rows.push_back({q(g.quantity), text(g.paper), text(g.engine), g.ratio, q(g.reason), {}});
    }
    if (rows.empty()) {
        paper_->setRows(rows, tr("Table IV has figures for MLP, LeNet, ConvNet and CaffeNet only."));
        return;
    }
    const L2sSettings& s = o.settings;
    const QString noc = s.comm == l2s::CommModel::Burst ? tr("burst NoC at %1 flits/cycle/node").arg(s.burst_rate)
                                                        : tr("ideal NoC");
    QString note = tr("Table IV (16 cores, trained masks, BookSim2/DSENT) beside the engine's SS_Mask on 16 cores "
                      "under %1 compute, %2, hop keep %3.")
                       .arg(q(l2s::computeModelName(s.compute)), noc, q(l2s::hopKeepText(o.preset.hop_keep)));
    if (o.evaluator->mesh().cores() != 16) note += tr(" The mesh shown has %1 cores.").arg(o.evaluator->mesh().cores());
    const QString warning = o.default_models ? QString()
                                             : tr("Not the default models: the paper figures are compared against "
                                                  "non-default settings; the reasons, measured on the defaults, are "
                                                  "left out.");
    paper_->setRows(rows, note, warning);
}

}  // namespace partita
