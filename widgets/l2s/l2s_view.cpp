#include "widgets/l2s/l2s_view.h"

#include <algorithm>
#include <cmath>

#include <QComboBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QSplitter>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>

#include "core/io/network_io.h"
#include "core/l2s/study.h"
#include "core/util/format.h"
#include "widgets/common/qt_text.h"
#include "widgets/grid/choice_grid.h"
#include "widgets/heatmap/comm_heatmap_view.h"
#include "widgets/charts/layer_bars.h"
#include "widgets/common/method_table.h"
#include "widgets/charts/sweep_chart.h"

namespace partita {

namespace {

const l2s::Scheme kRows[L2sView::kSchemes] = {l2s::Scheme::Traditional, l2s::Scheme::Grouped, l2s::Scheme::Sparse};
const char* const kScenarioNames[] = {"Baseline (traditional)", "SS (what-if mask)", "SS_Mask (what-if mask)",
                                      "Grouped (preset layers)"};
const char* const kPaperVariant[] = {"Baseline", "SS", "SS_Mask", ""};

QString percent(double fraction) { return QString::number(fraction * 100, 'f', 1) + " %"; }
QString times(double x) { return std::isfinite(x) ? QString::number(x, 'f', 2) + "×" : QStringLiteral("—"); }

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
    addChoices(controls, this,
               {{tr("Network"), preset_box_}, {tr("Mesh"), cores_box_}, {tr("Scenario"), scenario_box_}});
    column->addLayout(controls);
    summary_ = makeSummaryLabel(this, "l2s-summary");
    column->addWidget(summary_);

    // Left: the choice grid over the scenario table; right: the boundary's traffic and link loads; below: the bars.
    auto* split = new QSplitter(Qt::Vertical, this);
    auto* top = new QSplitter(Qt::Horizontal, split);
    auto* left = new QSplitter(Qt::Vertical, top);
    grid_ = new ChoiceGrid(left);
    table_ = makeComparisonTable(left, "l2s-compare");
    left->setSizes({300, 200});
    auto* maps = new QSplitter(Qt::Vertical, top);
    traffic_ = new CommHeatmap(maps);
    links_ = new CommHeatmap(maps);
    top->setSizes({640, 420});
    // Explicit minimums below the parts' own hints: the tab must not set the window's minimum width.
    grid_->setMinimumWidth(280);
    table_->setMinimumWidth(200);
    traffic_->setMinimumWidth(200);
    links_->setMinimumWidth(200);
    auto* charts = new QTabWidget(split);
    charts->setDocumentMode(true);
    bars_ = new LayerBars(charts);
    sweep_ = new SweepChart(charts);
    charts->addTab(bars_, tr("Per layer"));
    charts->addTab(sweep_, tr("Core count"));
    split->setSizes({560, 240});
    column->addWidget(split, 1);

    connect(preset_box_, &QComboBox::currentIndexChanged, this, [this] {
        if (!updating_) loadPreset(preset_box_->currentData().toString());
    });
    connect(cores_box_, &QComboBox::currentIndexChanged, this, [this] {
        if (!updating_) setCores(cores_box_->currentData().toInt());
    });
    connect(scenario_box_, &QComboBox::currentIndexChanged, this, [this] {
        if (!updating_) setScenario(static_cast<Scenario>(scenario_box_->currentData().toInt()));
    });
    connect(grid_, &ChoiceGrid::choiceRequested, this, [this](int row, int col) {
        chooseScheme(col, kRows[row]);
        selectBoundary(col);
    });
}

QString L2sView::presetKey() const { return preset_box_->currentData().toString(); }
int L2sView::cores() const { return cores_box_->currentData().toInt(); }
L2sView::Scenario L2sView::scenario() const { return static_cast<Scenario>(scenario_box_->currentData().toInt()); }

void L2sView::showError(const QString& message) { showSummaryError(summary_, message); }

bool L2sView::loadPreset(const QString& given, QString* error) {
    QString key = given;
    const QString file = given.endsWith(".json") ? QFileInfo(given).canonicalFilePath() : QString();
    for (const l2s::Preset& p : l2s::presets())  // a preset's own file opens as that preset (paper columns)
        if (!file.isEmpty() && file == QFileInfo(examples_dir_ + "/networks/" + q(p.network_file)).canonicalFilePath())
            key = q(p.key);
    try {
        // The file is read once; the view (and a stored run) evaluate its JSON text from then on.
        const std::string path = key.endsWith(".json") ? key.toStdString()
                                                       : examples_dir_.toStdString() + "/networks/" +
                                                             l2s::preset(key.toStdString()).network_file;
        L2sSettings s{key.toStdString(), writeNetworkJson(loadNetwork(path)), cores(), scenario(), {}};
        auto evaluator = l2sEvaluator(s);
        file_preset_ = l2sPreset(s.preset, evaluator->layers());
        preset_ = &file_preset_;
        network_json_ = std::move(s.network_json);
        evaluator_ = std::move(evaluator);
        updating_ = true;
        int index = preset_box_->findData(key);
        if (index < 0) {
            preset_box_->addItem(q(preset_->title), key);
            index = preset_box_->count() - 1;
        }
        preset_box_->setCurrentIndex(index);
        updating_ = false;
        evaluateAll();
        return true;
    } catch (const std::exception& e) {
        if (error) *error = q(e.what());
        showError(q(e.what()));
        return false;
    }
}

bool L2sView::setCores(int n, QString* error) {
    const int index = cores_box_->findData(n);
    if (index < 0) {
        const QString message = tr("%1 cores: the mesh presets have 4, 8, 16 or 32").arg(n);
        if (error) *error = message;
        showError(message);
        return false;
    }
    updating_ = true;
    cores_box_->setCurrentIndex(index);
    updating_ = false;
    return loadPreset(presetKey(), error);
}

void L2sView::setScenario(Scenario scenario) {
    updating_ = true;
    scenario_box_->setCurrentIndex(static_cast<int>(scenario));
    updating_ = false;
    if (evaluator_) evaluateAll();
}

l2s::StrategySpec L2sView::specFor(Scenario scenario) const { return l2sScenarioSpec(*evaluator_, *preset_, scenario); }

L2sSettings L2sView::settings() const {
    return {presetKey().toStdString(), network_json_, cores(), scenario(), schemesOf(strategy_)};
}

bool L2sView::applySettings(const L2sSettings& s, QString* error) {
    try {
        const int cores_index = cores_box_->findData(s.cores);
        if (cores_index < 0)
            throw std::invalid_argument(std::to_string(s.cores) + " cores: the mesh has 4, 8, 16 or 32");
        auto evaluator = l2sEvaluator(s);
        l2s::Preset preset = l2sPreset(s.preset, evaluator->layers());
        const L2sStrategies strategies = l2sStrategies(*evaluator, preset, s.scenario, s.schemes);
        evaluator->evaluate(strategies.shown);  // checks the strategy before anything changes
        evaluator_ = std::move(evaluator);
        file_preset_ = std::move(preset);
        preset_ = &file_preset_;
        network_json_ = s.network_json;
        updating_ = true;
        int index = preset_box_->findData(q(s.preset));
        if (index < 0) {
            preset_box_->addItem(q(preset_->title), q(s.preset));
            index = preset_box_->count() - 1;
        }
        preset_box_->setCurrentIndex(index);
        cores_box_->setCurrentIndex(cores_index);
        scenario_box_->setCurrentIndex(static_cast<int>(s.scenario));
        updating_ = false;
        showStrategies(strategies);
        return true;
    } catch (const std::exception& e) {
        if (error) *error = q(e.what());
        showError(q(e.what()));
        return false;
    }
}

void L2sView::evaluateAll() { showStrategies(l2sStrategies(*evaluator_, *preset_, scenario())); }

void L2sView::showStrategies(const L2sStrategies& strategies) {
    scenario_strategy_ = strategies.scenario;
    sparse_strategy_ = strategies.sparse;
    strategy_ = strategies.shown;
    baseline_ = evaluator_->evaluate(l2s::traditionalStrategy(evaluator_->layers()));
    eval_ = evaluator_->evaluate(strategy_);
    boundary_ = std::min<int>(std::max(boundary_, 1), static_cast<int>(evaluator_->layers().size()) - 1);
    if (evaluator_->layers().size() < 2) boundary_ = 0;
    fillSweep();
    refresh();
}

// Spec L9 (Tables V/VI): the scenario rebuilt on each mesh; a core count it cannot use is a gap.
void L2sView::fillSweep() {
    SweepChartData d;
    d.title = "Scenario against the traditional scheme by core count";
    d.x_label = "cores";
    d.y_label = "x traditional";
    SweepChartData::Series speed{"speed-up", {}}, comm{"communication speed-up", {}};
    for (int n : {4, 8, 16, 32}) {
        d.x.push_back(n);
        double s = NAN, c = NAN;
        try {
            l2s::MeshParams mesh;
            mesh.cores = n;
            const l2s::Evaluator at(evaluator_->layers(), l2s::Mesh(mesh), evaluator_->core());
            const auto points = l2s::coreSweep(evaluator_->layers(), {n}, l2sScenarioSpec(at, *preset_, scenario()),
                                                    l2s::MeshParams{}, evaluator_->core());
            s = points.at(0).vs.speedup;
            c = points.at(0).vs.comm_speedup;
        } catch (const std::exception&) {
            // e.g. grouping that does not divide on n cores: no point there
        }
        speed.y.push_back(s);
        comm.y.push_back(c);
    }
    d.series = {speed, comm};
    sweep_->setData(std::move(d));
}

bool L2sView::chooseScheme(int layer, l2s::Scheme scheme, QString* error) {
    if (!evaluator_ || layer < 0 || layer >= static_cast<int>(strategy_.size())) return false;
    const auto l = static_cast<size_t>(layer);
    const l2s::LayerChoice choice = l2sChoice(sparse_strategy_, l, scheme);
    try {
        eval_ = evaluator_->update(eval_, l, choice);
        strategy_[l] = choice;
    } catch (const std::exception& e) {
        if (error) *error = q(e.what());
        showError(q(e.what()));
        return false;
    }
    refresh();
    return true;
}

void L2sView::selectBoundary(int layer) {
    if (!evaluator_ || layer < 0 || layer >= static_cast<int>(eval_.rows.size())) return;
    boundary_ = layer;
    const l2s::BoundaryRow& row = eval_.rows[static_cast<size_t>(layer)];
    const QString into = layer > 0 ? QStringLiteral("%1 → %2").arg(q(eval_.rows[static_cast<size_t>(layer) - 1].layer),
                                                                   q(row.layer))
                                   : q(row.layer) + tr(" (reads the image)");
    traffic_->setMatrix(l2s::trafficCommMatrix(row), tr("%1 traffic (%2)").arg(into, q(l2s::schemeName(row.scheme))));
    links_->setMatrix(l2s::linkLoadCommMatrix(row), tr("%1 XY link loads").arg(into));
    emit boundarySelected(layer);
}

void L2sView::refresh() {
    fillGrid();
    selectBoundary(boundary_);
    fillBars();
    fillTable();
    const l2s::Versus v = l2s::versus(baseline_, eval_);
    summary_->setToolTip({});
    summary_->setText(
        tr("<b>%1</b> on %2 cores (%3×%4 mesh, XY routing): %5 per image, %6× vs traditional; NoC traffic %7 "
           "(%8 of traditional), %9 byte-hops, NoC energy %10 (−%11). Click a cell to change a boundary.")
            .arg(q(preset_->title))
            .arg(evaluator_->mesh().cores())
            .arg(evaluator_->mesh().width())
            .arg(evaluator_->mesh().height())
            .arg(q(seconds(eval_.time_s)))
            .arg(QString::number(v.speedup, 'f', 2))
            .arg(q(withPrefix(eval_.volume_B, "B")))
            .arg(percent(v.traffic_rate))
            .arg(q(withCommas(eval_.byte_hops)))
            .arg(q(joules(eval_.energy_J)))
            .arg(percent(v.energy_reduction)));
    emit evaluated();
}

void L2sView::fillGrid() {
    ChoiceGridData d;
    d.title = preset_->title + ": time per boundary by strategy";
    d.row_title = "strategy";
    d.unit = "s";
    d.best_label = "scenario's choice";
    for (l2s::Scheme s : kRows) d.rows.push_back(l2s::schemeName(s));
    for (const auto& w : evaluator_->layers().layers) d.columns.push_back(w.name);
    const size_t layers = d.columns.size();
    d.values.assign(kSchemes * layers, NAN);
    d.notes.assign(kSchemes * layers, {});
    const double clock = evaluator_->mesh().params().clock_hz;
    for (size_t l = 0; l < layers; ++l)
        for (int r = 0; r < kSchemes; ++r) {
            const l2s::LayerChoice choice = l2sChoice(sparse_strategy_, l, kRows[r]);
            const size_t i = static_cast<size_t>(r) * layers + l;
            if (l == 0 && kRows[r] != l2s::Scheme::Traditional) {
                d.notes[i] = "the first layer reads the image from memory: no boundary to change";
                continue;
            }
            try {
                const l2s::BoundaryRow row = evaluator_->evaluateLayer(l, choice);
                d.values[i] = row.cycles() / clock;
                d.notes[i] = "compute " + withCommas(row.compute_cycles) + " cycles, communication " +
                             withCommas(row.comm_cycles) + " cycles; " + withPrefix(row.volume_B, "B") + ", " +
                             withCommas(row.byte_hops) + " byte-hops";
            } catch (const std::exception& e) {
                d.notes[i] = e.what();
            }
        }
    for (size_t l = 0; l < layers; ++l) {
        d.chosen.push_back(static_cast<int>(strategy_[l].scheme));
        d.best.push_back(static_cast<int>(scenario_strategy_[l].scheme));
    }
    grid_->setData(std::move(d));
}

void L2sView::fillBars() {
    LayerBarsData d;
    d.title = "Cycles per layer: shown and traditional";
    d.unit = "cycles";
    d.parts = {"compute", "communication"};
    for (const auto& r : eval_.rows) d.layers.push_back(r.layer);
    for (const auto* e : {&eval_, &baseline_}) {
        LayerBarsData::Stack s;
        s.name = e == &eval_ ? "shown" : "traditional";
        s.values.assign(2, {});
        for (const auto& r : e->rows) {
            s.values[0].push_back(r.compute_cycles);
            s.values[1].push_back(r.comm_cycles);
        }
        d.stacks.push_back(std::move(s));
    }
    bars_->setData(std::move(d));
}

CsvTable L2sView::compareCsv() const {
    CsvTable t;
    t.header = {"scenario", "time_s", "speedup_x", "traffic_fraction", "byte_hops", "noc_energy_J",
                "energy_reduction_fraction", "paper_speedup_x", "paper_traffic_fraction", "paper_energy_reduction_fraction"};
    if (!evaluator_) return t;
    for (int s = 0; s <= 4; ++s) {
        l2s::Evaluation e = eval_;
        std::string name = "shown (edited)";
        if (s < 4) {
            e = evaluator_->evaluate(s == static_cast<int>(scenario()) ? scenario_strategy_
                                                                        : l2s::buildStrategy(evaluator_->layers(),
                                                                                             evaluator_->mesh(),
                                                                                             specFor(static_cast<Scenario>(s))));
            name = kScenarioNames[s];
        }
        const l2s::Versus v = l2s::versus(baseline_, e);
        const l2s::PaperRow* paper = s < 3 ? l2s::paperRow(preset_->title, kPaperVariant[s], evaluator_->mesh().cores())
                                           : nullptr;
        auto num = [](double x) { return std::isfinite(x) ? formatNumber(x) : std::string(); };
        t.rows.push_back({name, formatNumber(e.time_s), num(v.speedup), formatNumber(v.traffic_rate),
                          formatNumber(e.byte_hops), formatNumber(e.energy_J), formatNumber(v.energy_reduction),
                          paper ? num(paper->speedup) : "", paper ? num(paper->traffic) : "",
                          paper ? num(paper->energy_reduction) : ""});
    }
    return t;
}

void L2sView::fillTable() {
    const CsvTable t = compareCsv();
    std::vector<QStringList> rows;
    for (const auto& row : t.rows) {
        auto num = [&](size_t i) { return row[i].empty() ? NAN : std::stod(row[i]); };
        auto paper = [&](size_t i, bool ratio) {
            return row[i].empty() ? QString() : ratio ? times(num(i)) : percent(num(i));
        };
        rows.push_back({q(row[0]), q(seconds(num(1))), times(num(2)), percent(num(3)), q(withCommas(num(4))),
                        percent(num(6)), paper(7, true), paper(8, false), paper(9, false)});
    }
    fillComparisonTable(table_,
                        {tr("scenario"), tr("time / image"), tr("speedup"), tr("NoC traffic"), tr("byte-hops"),
                         tr("NoC energy −"), tr("paper: speedup"), tr("paper: traffic"), tr("paper: energy −")},
                        rows, 6, static_cast<int>(scenario()));
    table_->setToolTip(tr("Paper columns: Zou et al., Tables IV and VI (trained masks, BookSim2/DSENT), shown for "
                          "reference; the engine's what-if masks are seeded, not trained."));
}

}  // namespace partita
