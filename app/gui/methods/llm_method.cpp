// The LLM planner (core/llm): its own tab whose knobs re-evaluate on the GUI thread at every edit (an
// evaluation takes microseconds); Run stores the shown plan; Search runs llm::search as a job (progress,
// Cancel), stores the best plan and loads it into the knobs. Views of the plan are pages of the tab:
// one more is a page (LlmView::addView) and a ViewEntry here.
#include <algorithm>
#include <functional>
#include <memory>
#include <vector>

#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <QAction>
#include <QMenu>

#include "app/gui/export_entries.h"
#include "app/gui/input_files.h"
#include "app/gui/job_runner.h"
#include "app/gui/methods/registry.h"
#include "app/gui/options.h"
#include "app/gui/run_controller.h"
#include "app/gui/run_store.h"
#include "app/gui/view_registry.h"
#include "app/gui/window_services.h"
#include "core/llm/runs.h"
#include "core/llm/search.h"
#include "core/llm/validate.h"
#include "core/run/method_run.h"
#include "widgets/common/figure_export.h"
#include "widgets/common/qt_text.h"
#include "core/store/results_db.h"
#include "widgets/llm/llm_compare_view.h"
#include "widgets/llm/llm_settings_panel.h"
#include "widgets/llm/llm_view.h"
#include "widgets/llm/measured_view.h"
#include "widgets/llm/memory_view.h"
#include "widgets/llm/pipeline_timeline_view.h"
#include "widgets/llm/plan_view.h"
#include "widgets/llm/tradeoff_view.h"
#include "core/sim/llm_lowering.h"
#include "core/util/error.h"
#include "core/util/format.h"
#include "widgets/geometry/gantt_model.h"
#include "widgets/timeline/gantt_view.h"
#include <QLineEdit>

namespace partita::gui {

namespace {

// A search's points kept for the trade-off view; a larger search keeps its first this many (a point is
// about 150 bytes).
constexpr std::size_t kMaxTradeoffPoints = 1'000'000;

class LlmMethod : public GuiMethod {
public:
    QString key() const override { return "llm"; }
    Settings settings() const override { return Settings::OwnTab; }
    QString mainView() const override { return "llm-plan"; }

    void start(RunController& runs, bool store) const override {
        WindowServices& window = runs.services();
        window.showView(mainView());
        if (!store) return;
        if (!view_->valid())
            return window.showStatus(QObject::tr("LLM: nothing stored, the inputs are invalid (see the knobs)"));
        window.runStore().storeMethod(methodRun(view_->shown().settings, view_->shown().eval));
    }

    void buildViews(RunController& runs) override {
        WindowServices& window = runs.services();
        view_ = new LlmView();
        view_->setObjectName("llm-view");
        window.addMethodTab(view_, QObject::tr("LLM"));
        QObject::connect(view_, &LlmView::searchRequested, view_,
                         [this, &window](const LlmSettings& s) { startSearch(window, s, true); });
        QObject::connect(&window.jobs(), &JobRunner::failed, view_, [this](quint64 generation, const QString& message) {
            if (generation != search_.generation) return;
            view_->panel()->showError("", message);
            endSearch();
        });
        QObject::connect(&window.jobs(), &JobRunner::cancelled, view_, [this, &window](quint64 generation) {
            if (generation != search_.generation) return;
            endSearch();
            window.showStatus(QObject::tr("LLM search cancelled: the knobs are as they were"));
        });
        LlmView* v = view_;
        const ReadyFn ready = [v] {
            return v->hasEvaluation() ? QString() : QObject::tr("Nothing to export: no LLM plan evaluates (see the knobs)");
        };
        // A view of the plan: a page of the tab, its --view name and its export targets (the tab offers
        // every page's).
        // `fill` (may be empty) fills the page before a screenshot or an export, as a user would.
        const auto addView = [&](const QString& name, QWidget* page, std::vector<ExportEntry> exports,
                                 std::function<void()> fill = {}) {
            window.views().add({name, v, [v, page] {
                                    v->showPage(page);
                                    return static_cast<QWidget*>(v);
                                },
                                [this, &window, fill] {
                                    window.showView(mainView());
                                    if (fill) fill();
                                },
                                std::move(exports)});
        };
        addView("llm-plan", v->planView(),
                {figureTarget("llm-plan", QObject::tr("LLM plan (GPU grid)"), v->planView(),
                              [v] { return v->planView()->csv(); }, ready)});
        addView("llm-memory", v->memoryView(),
                {figureTarget("llm-memory", QObject::tr("LLM memory per stage"), v->memoryView(),
                              [v] { return v->memoryView()->csv(); }, ready)});
        // Built first (each adds its page), then registered with its widget.
        std::vector<ExportEntry> timeline = buildTimeline(ready), tradeoff = buildTradeoff(window),
                                 measured = buildMeasured(window), compare = buildCompare();
        addView("llm-timeline", timeline_, std::move(timeline));
        buildSimulation(window);
        // An empty simulation runs the shown plan on the default topology, as Simulate would.
        addView("llm-simulation", sim_page_, {}, [this, &window] {
            if (sim_gantt_has_input_ || !view_->valid()) return;
            simulate(window);
            window.jobs().waitForIdle();
        });
        // An empty trade-off searches the shown plan's inputs; an empty predicted-vs-measured opens a
        // built-in runs file.
        addView("llm-tradeoff", tradeoff_, std::move(tradeoff), [this, &window] {
            if (!tradeoff_->points().empty() || !view_->valid()) return;
            startSearch(window, view_->shown().settings, false);
            window.jobs().waitForIdle();
        });
        addView("llm-measured", measured_page_, std::move(measured), [this, &window] {
            if (runs_.empty()) openRuns(window, examplesDir() + "/llm/measured/narayanan-sc21.json");
        });
        // An empty comparison compares the newest stored LLM runs (2 to 4), as selecting them would.
        addView("llm-compare", compare_, std::move(compare), [this, &runs, &window] {
            const ResultsDb* db = window.runStore().db();
            if (!compare_->empty() || !db) return;
            std::vector<std::int64_t> ids;
            for (const auto& row : db->list({"", "", "llm"}))
                if (ids.size() < 4) ids.push_back(row.id);
            std::sort(ids.begin(), ids.end());  // the oldest is the baseline
            if (ids.size() >= 2) runs.compareStored(ids);
        });
    }

    void addRunActions(RunController& runs, QMenu* run) override {
        if (!run) return;
        auto* search = new QAction(QObject::tr("Search LLM &plan"), run);
        search->setObjectName("llm-search-action");
        search->setToolTip(QObject::tr("The LLM tab's fastest plan that fits its GPUs and global batch: searched, "
                                       "stored and loaded into the knobs"));
        QObject::connect(search, &QAction::triggered, view_, [this, &runs] {
            runs.chooseMethod(key());
            view_->requestSearch();
        });
        run->addSeparator();
        run->addAction(search);
    }

    // --llm-model, --llm-profile, --llm-gpus: the inputs set, then the best plan searched (not stored).
    void applyOptions(RunController& runs, const Options& o) override {
        if (!o.llm_runs.isEmpty()) openRuns(runs.services(), o.llm_runs);
        if (o.llm_model.isEmpty() && o.llm_profile.isEmpty() && o.llm_gpus <= 0 && o.llm_global_batch <= 0) return;
        LlmSettingsPanel* panel = view_->panel();
        if (!o.llm_model.isEmpty()) panel->setModel(o.llm_model);
        if (!o.llm_profile.isEmpty()) panel->setProfile(o.llm_profile);
        if (o.llm_gpus > 0) panel->setGpus(o.llm_gpus);
        if (o.llm_global_batch > 0) panel->setGlobalBatch(o.llm_global_batch);
        try {
            startSearch(runs.services(), panel->settings(), false);
        } catch (const llm::FieldError& e) {
            panel->showError(e.field(), q(e.what()));
        }
    }

    bool takeRun(RunController& runs, quint64 generation, const RunPtr&) override {
        if (generation != 0 && generation == sim_.generation) {
            const auto done = sim_;
            sim_ = {};
            sim_button_->setEnabled(true);
            sim_summary_->setText(q(*done.summary));
            sim_gantt_->setInput(done.input);
            sim_gantt_has_input_ = true;
            sim_gantt_->fitAll();
            return true;
        }
        if (generation != search_.generation || !search_.result) return false;
        WindowServices& window = runs.services();
        const auto result = search_.result;
        LlmSettings s = search_.settings;
        const bool store = search_.store;
        tradeoff_settings_ = s;
        tradeoff_->setSearch(std::move(*search_.points), *result, s.profile.device.hbm_bytes, s.model.seq);
        endSearch();
        if (!result->found) {
            view_->panel()->showError("gpus", QObject::tr("No plan of %1 GPUs fits (%2 evaluated)")
                                                  .arg(s.plan.gpus())
                                                  .arg(result->evaluated));
            return true;
        }
        s.plan = result->best.plan;
        s.searched = true;
        view_->setSettings(s);
        window.showView(mainView());
        window.showStatus(QObject::tr("LLM search: %1 plans evaluated, %2 fit; the best is in the knobs")
                              .arg(result->evaluated)
                              .arg(result->feasible));
        if (store && view_->valid()) window.runStore().storeMethod(methodRun(view_->shown().settings, view_->shown().eval));
        return true;
    }

    void openStored(RunController& runs, const MethodRun& run) override {
        runs.services().showView(mainView());
        view_->setSettings(run.llm);
    }

    bool compareStored(RunController& runs, const std::vector<MethodRun>& records) override {
        std::vector<LlmComparedRun> compared;
        for (const MethodRun& r : records) compared.push_back({r.id, r.name, {r.llm, evaluateLlm(r.llm)}});
        compare_->setRuns(std::move(compared));
        runs.services().showView(mainView());
        view_->showPage(compare_);
        return true;
    }

    LlmView* view() const { return view_; }

private:
    struct Search {
        quint64 generation = 0;  // 0: none running
        bool store = false;
        LlmSettings settings;
        std::shared_ptr<llm::SearchResult> result;
        std::shared_ptr<std::vector<llm::PlanPoint>> points;  // every evaluated plan, for the trade-off view
    };

    // The pipeline timeline of the shown plan; exports as a figure, CSV of its blocks and a Chrome trace.
    std::vector<ExportEntry> buildTimeline(const ReadyFn& ready) {
        timeline_ = new PipelineTimelineView();
        timeline_->setObjectName("llm-timeline");
        view_->addView(timeline_, QObject::tr("Timeline"));
        const auto follow = [this](const LlmShown& s) {
            try {
                timeline_->setPlan(s.settings.model, s.settings.plan, s.settings.profile, s.eval);
            } catch (const std::exception& e) {
                timeline_->clear();
                view_->panel()->showError("", QObject::tr("Timeline: %1").arg(q(e.what())));
            }
        };
        QObject::connect(view_, &LlmView::shownChanged, timeline_, follow);
        if (view_->hasEvaluation()) follow(view_->shown());
        PipelineTimelineView* t = timeline_;
        return {figureTarget("llm-timeline", QObject::tr("LLM pipeline timeline"), t, [t] { return t->csv(); }, ready),
                 {"llm-trace", QObject::tr("LLM pipeline timeline (Chrome trace)"),
                  [t, ready](const QString& path, bool csv) {
                      if (const QString why = ready(); !why.isEmpty()) return why;
                      if (csv) return exportCsv(t->csv(), path);
                      if (QFileInfo(path).suffix().toLower() != "json")
                          return QObject::tr("%1: the Chrome trace is written as .json (or the blocks as .csv)").arg(path);
                      return t->exportChromeTrace(path);
                  },
                  {"json"}}};
    }

    // The shown plan lowered onto a topology and simulated (docs/methods/llm.md#on-the-simulator): a
    // topology file or preset, Simulate on topology, a one-line summary and the simulated timeline.
    void buildSimulation(WindowServices& window) {
        auto* page = sim_page_ = new QWidget();
        page->setObjectName("llm-simulation");
        auto* column = new QVBoxLayout(page);
        column->setContentsMargins(0, 4, 0, 0);
        auto* row = new QHBoxLayout();
        sim_topology_ = new QLineEdit(QStringLiteral("k80-64"));
        sim_topology_->setObjectName("llm-sim-topology");
        sim_topology_->setPlaceholderText(QObject::tr("topology file or preset (p100-16, k80-64)"));
        sim_topology_->setToolTip(QObject::tr("The machine the plan runs on: ranks in Megatron's order (tp, cp, dp, "
                                              "pp) on devices 0..N-1; it needs at least the plan's GPUs"));
        auto* browse = new QPushButton(QObject::tr("Browse…"));
        sim_button_ = new QPushButton(QObject::tr("Simulate on topology"));
        sim_button_->setObjectName("llm-simulate");
        sim_button_->setToolTip(QObject::tr("Lower the shown plan to the task graph on this topology and simulate it; "
                                            "compare with the analytic iteration time"));
        row->addWidget(new QLabel(QObject::tr("Topology:")));
        row->addWidget(sim_topology_, 1);
        row->addWidget(browse);
        row->addWidget(sim_button_);
        column->addLayout(row);
        sim_summary_ = new QLabel(QObject::tr("Not simulated yet: choose a topology and Simulate on topology."));
        sim_summary_->setObjectName("llm-sim-summary");
        sim_summary_->setWordWrap(true);
        sim_summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
        column->addWidget(sim_summary_);
        sim_gantt_ = new GanttView();
        // Its toolbar is wider than the tab's page at 1024 x 700; the Gantt scrolls, the page must not grow.
        sim_gantt_->setMinimumSize(160, 120);
        column->addWidget(sim_gantt_, 1);
        view_->addView(page, QObject::tr("On topology"));
        QObject::connect(browse, &QPushButton::clicked, page, [this, page] {
            const QString path = QFileDialog::getOpenFileName(page, QObject::tr("Topology"), QString(),
                                                              QObject::tr("Topologies (*.json *.yml *.yaml)"));
            if (!path.isEmpty()) sim_topology_->setText(path);
        });
        QObject::connect(sim_button_, &QPushButton::clicked, page, [this, &window] { simulate(window); });
        QObject::connect(&window.jobs(), &JobRunner::failed, page, [this](quint64 generation, const QString& message) {
            if (generation == 0 || generation != sim_.generation) return;
            sim_ = {};
            sim_button_->setEnabled(true);
            sim_summary_->setText(QObject::tr("Not simulated: %1").arg(message));
        });
        QObject::connect(&window.jobs(), &JobRunner::cancelled, page, [this](quint64 generation) {
            if (generation == 0 || generation != sim_.generation) return;
            sim_ = {};
            sim_button_->setEnabled(true);
            sim_summary_->setText(QObject::tr("Simulation cancelled."));
        });
    }

    void simulate(WindowServices& window) {
        if (!view_->valid()) {
            sim_summary_->setText(QObject::tr("Not simulated: the knobs give no plan (see their messages)."));
            return;
        }
        const LlmSettings s = view_->shown().settings;
        if (s.kind != llm::ModelKind::Partita) {
            sim_summary_->setText(QObject::tr("Not simulated: the simulator lowers Partita's cost model, not Calculon's."));
            return;
        }
        const std::string name = sim_topology_->text().trimmed().toStdString();
        auto input = std::make_shared<view::GanttInput>();
        auto summary = std::make_shared<std::string>();
        sim_button_->setEnabled(false);
        sim_summary_->setText(QObject::tr("Simulating on %1…").arg(q(name)));
        sim_ = {0, input, summary};
        sim_.generation = window.jobs().start(QObject::tr("LLM simulation"), [s, name, input, summary](const ProgressFn&,
                                                                                                       const CancelFn&) {
            if (name.empty()) throw Error("no topology: give a file or a preset (p100-16, k80-64)");
            const auto presets = sim::builtinTopologyNames();
            const sim::Topology topo = std::find(presets.begin(), presets.end(), name) != presets.end()
                                           ? sim::builtinTopology(name)
                                           : sim::loadTopology(name);
            const sim::LlmSimulation r = sim::simulateLlmPlan(s.model, s.plan, s.profile, topo);
            *input = view::ganttInput(r.graph, r.result, topo);
            const double ratio = r.analytic_s > 0 ? r.simulated_s / r.analytic_s : 0;
            *summary = "Simulated " + fixed(r.simulated_s, 3) + " s vs analytic " + fixed(r.analytic_s, 3) + " s (" +
                       (ratio >= 1 ? "+" : "") + fixed(100 * (ratio - 1), 1) + " %) on " + topo.name + ", " +
                       withCommas(static_cast<double>(r.graph.taskCount())) + " tasks: " +
                       (r.reasons.empty() ? std::string("no difference beyond 0.1 % (uniform devices and tiers, no contention)")
                                          : r.reasons.front());
            Run run;
            run.name = "LLM simulation " + s.model.name;
            run.method = "llm";
            return run;
        });
    }

    // Every plan of the last search; a point or a ranked row chosen loads that plan into the knobs.
    std::vector<ExportEntry> buildTradeoff(WindowServices& window) {
        tradeoff_ = new TradeoffView();
        tradeoff_->setObjectName("llm-tradeoff");
        view_->addView(tradeoff_, QObject::tr("Trade-off"));
        QObject::connect(tradeoff_, &TradeoffView::planChosen, view_, [this, &window](const llm::Plan& plan) {
            LlmSettings s = tradeoff_settings_;  // the search's inputs, whatever the knobs say now
            s.plan = plan;
            s.searched = false;
            view_->setSettings(s);
            window.showStatus(QObject::tr("LLM: the chosen plan is in the knobs and the other views"));
        });
        TradeoffView* t = tradeoff_;
        const ReadyFn searched = [t] {
            return t->points().empty() ? QObject::tr("Nothing to export: no search yet (Search in the LLM tab)") : QString();
        };
        return {figureTarget("llm-tradeoff", QObject::tr("LLM trade-off (every searched plan)"), t,
                             [t] { return t->pointsCsv(); }, searched)};
    }

    // Predicted against measured for a runs file; a run chosen loads its plan.
    std::vector<ExportEntry> buildMeasured(WindowServices& window) {
        auto* page = measured_page_ = new QWidget();
        page->setObjectName("llm-measured");
        auto* column = new QVBoxLayout(page);
        column->setContentsMargins(0, 4, 0, 0);
        auto* row = new QHBoxLayout();
        auto* open = new QPushButton(QObject::tr("Open runs file…"));
        open->setObjectName("llm-open-runs");
        open->setToolTip(QObject::tr("A partita-llm-runs/1 file: each run predicted beside its measured time"));
        runs_label_ = new QLabel(QObject::tr("No runs file: open one (examples/llm/measured/ has published runs)."));
        runs_label_->setWordWrap(true);
        row->addWidget(open);
        row->addWidget(runs_label_, 1);
        column->addLayout(row);
        measured_ = new MeasuredView();
        column->addWidget(measured_, 1);
        view_->addView(page, QObject::tr("Predicted vs measured"));
        QObject::connect(open, &QPushButton::clicked, page, [this, &window, page] {
            const QString path = QFileDialog::getOpenFileName(page, QObject::tr("Open LLM runs"), QString(),
                                                              QObject::tr("LLM runs (*.json)"));
            if (!path.isEmpty()) openRuns(window, path);
        });
        QObject::connect(measured_, &MeasuredView::runChosen, view_, [this, &window](int i) {
            if (i < 0 || static_cast<std::size_t>(i) >= runs_.size()) return;
            try {
                view_->setSettings(llmSettingsOfRun(runs_[static_cast<std::size_t>(i)]));
                window.showView(mainView());
            } catch (const std::exception& e) {
                window.showStatus(QObject::tr("%1: %2").arg(q(runs_[static_cast<std::size_t>(i)].name), q(e.what())));
            }
        });
        MeasuredView* m = measured_;
        const ReadyFn loaded = [m] {
            return m->report().runs.empty() ? QObject::tr("Nothing to export: no runs file is open") : QString();
        };
        return {figureTarget("llm-measured", QObject::tr("LLM predicted vs measured"), m, [m] { return m->csv(); },
                             loaded)};
    }

    // 2-4 stored runs side by side (RunController::compareStored hands them over); the table and the
    // chart export, the CSV is the comparison's.
    std::vector<ExportEntry> buildCompare() {
        compare_ = new LlmCompareView();
        compare_->setObjectName("llm-compare");
        view_->addView(compare_, QObject::tr("Compare"));
        LlmCompareView* c = compare_;
        const ReadyFn compared = [c] {
            return c->empty() ? QObject::tr("Nothing to export: no LLM runs compared (select 2-4 in the Runs dock, "
                                            "then Compare)")
                              : QString();
        };
        return {widgetTarget("llm-compare", QObject::tr("LLM runs compared"), [c] { return static_cast<QWidget*>(c); },
                             [c] { return c->csv(); }, compared),
                widgetTarget("llm-compare-chart", QObject::tr("LLM runs compared: time per term chart"),
                             [c] { return static_cast<QWidget*>(c->chart()); }, [c] { return c->csv(); }, compared)};
    }

    void openRuns(WindowServices& window, const QString& path) {
        try {
            std::vector<llm::Run> runs = llm::loadRuns(path.toStdString());
            measured_->setReport(llm::validateRuns(runs, nullptr));
            runs_ = std::move(runs);
            runs_label_->setText(QObject::tr("%1 — %2 runs; click a point to load its plan").arg(path).arg(runs_.size()));
        } catch (const std::exception& e) {
            window.reportError(q(e.what()));
        }
    }

    void startSearch(WindowServices& window, const LlmSettings& s, bool store) {
        auto result = std::make_shared<llm::SearchResult>();
        llm::SearchOptions o;
        o.model = s.kind;
        o.gpus = s.plan.gpus();
        o.global_batch = s.plan.global_batch;
        const QString label =
            QObject::tr("Searching plans of %1 on %2 GPUs").arg(q(s.model.name)).arg(o.gpus);
        auto points = std::make_shared<std::vector<llm::PlanPoint>>();
        view_->panel()->setSearching(true);
        search_ = {0, store, s, result, points};
        search_.generation = window.jobs().start(label, [s, o, result, points](const ProgressFn& progress,
                                                                               const CancelFn& cancel) {
            const auto keep = [points](const llm::PlanPoint& p) {
                if (points->size() < kMaxTradeoffPoints) points->push_back(p);
            };
            *result = llm::search(s.model, s.profile, o, progress, cancel, keep);
            Run run;
            run.name = "LLM search " + s.model.name;
            run.method = "llm";
            return run;
        });
    }

    void endSearch() {
        search_ = {};
        view_->panel()->setSearching(false);
    }

    struct Simulation {
        quint64 generation = 0;  // 0: none running
        std::shared_ptr<view::GanttInput> input;
        std::shared_ptr<std::string> summary;
    };

    LlmView* view_ = nullptr;
    Search search_;
    Simulation sim_;
    QWidget* sim_page_ = nullptr;
    QLineEdit* sim_topology_ = nullptr;
    QPushButton* sim_button_ = nullptr;
    QLabel* sim_summary_ = nullptr;
    GanttView* sim_gantt_ = nullptr;
    bool sim_gantt_has_input_ = false;
    PipelineTimelineView* timeline_ = nullptr;
    TradeoffView* tradeoff_ = nullptr;
    LlmSettings tradeoff_settings_;  // the inputs of the search the trade-off view shows
    QWidget* measured_page_ = nullptr;  // the runs file's row above the measured view
    MeasuredView* measured_ = nullptr;
    LlmCompareView* compare_ = nullptr;
    QLabel* runs_label_ = nullptr;
    std::vector<llm::Run> runs_;  // the open runs file's, in the measured view's order
};

}  // namespace

std::unique_ptr<GuiMethod> llmMethod() { return std::make_unique<LlmMethod>(); }

}  // namespace partita::gui
