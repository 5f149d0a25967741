// The LLM planner as a method of the main window: its knobs re-evaluate the plan and memory views at
// once, an invalid knob is explained under itself, an OOM plan is marked with its cut, the numbers
// shown equal `partita-cli llm evaluate --json` for the same plan, Search runs as a cancellable job and
// loads the best plan, and a stored run re-opens with the same numbers.
#include <sstream>

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QImage>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include "app/cli/cli.h"
#include "app/gui/export_actions.h"
#include "app/gui/job_runner.h"
#include "app/gui/main_window.h"
#include "app/gui/options.h"
#include "app/gui/run_controller.h"
#include "app/gui/run_store.h"
#include "app/gui/view_registry.h"
#include "core/store/results_db.h"
#include "core/llm/numbers.h"
#include "core/llm/search.h"
#include "widgets/llm/llm_settings_panel.h"
#include "widgets/llm/llm_view.h"
#include "widgets/llm/memory_view.h"
#include "widgets/llm/plan_view.h"

using namespace partita;
using namespace partita::gui;

class LlmMethodTest : public QObject {
    Q_OBJECT
private:
    QTemporaryDir dir_;
    Options options() const {
        Options o;
        o.db = dir_.filePath("results.sqlite");
        o.method = "llm";
        return o;
    }
    static LlmView* view(MainWindow& w) { return w.views().get<LlmView>(); }
    template <class T>
    static T* knob(MainWindow& w, const char* key) {
        return view(w)->panel()->findChild<T*>(QString("llm-") + key);
    }
    // `partita-cli llm evaluate --json` for the shown plan, in process.
    static Json cliEvaluate(const LlmSettings& s, const std::vector<std::string>& more = {}) {
        const llm::Plan& p = s.plan;
        std::vector<std::string> args{"llm", "evaluate", "--model", s.model_name, "--profile", s.profile_name,
                                      "--tp", std::to_string(p.tp), "--pp", std::to_string(p.pp), "--dp",
                                      std::to_string(p.dp), "--micro-batch", std::to_string(p.micro_batch),
                                      "--global-batch", std::to_string(p.global_batch), "--interleave",
                                      std::to_string(p.interleave), "--schedule", llm::scheduleName(p.schedule),
                                      "--recompute", llm::recomputeName(p.recompute), "--zero", std::to_string(p.zero),
                                      "--tp-overlap", llm::tpOverlapName(p.tp_overlap), "--json"};
        if (p.sequence_parallel) args.push_back("--sp");
        if (p.distributed_optimizer) args.push_back("--dist-opt");
        if (p.ag_redo) args.insert(args.end(), {"--ag-redo", *p.ag_redo ? "on" : "off"});
        if (p.dp_overlap) args.insert(args.end(), {"--dp-overlap", *p.dp_overlap ? "on" : "off"});
        args.insert(args.end(), more.begin(), more.end());
        std::ostringstream out, err;
        const int status = cli::run(args, out, err);
        if (status != 0) qWarning("%s", err.str().c_str());
        return status == 0 ? Json::parse(out.str()) : Json();
    }

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void theNumbersShownEqualTheClisEvaluate() {
        MainWindow w(options());
        w.show();
        LlmView* v = view(w);
        QVERIFY(v && v->valid());
        const Json cli = cliEvaluate(v->shown().settings);
        QVERIFY(!cli.is_null());
        const llm::Evaluation& e = v->shown().eval;
        QCOMPARE(e.iteration_s, cli["iteration_s"].get<double>());
        QCOMPARE(e.mfu, cli["mfu"].get<double>());
        QCOMPARE(e.tokens_per_s, cli["tokens_per_s"].get<double>());
        QCOMPARE(e.peak_bytes / llm::kGiB, cli["memory_gib"].get<double>());
        QCOMPARE(e.fits, cli["fits"].get<bool>());
        // The memory view's CSV (what its bars draw) stage by stage.
        const CsvTable csv = v->memoryView()->csv();
        QCOMPARE(csv.rows.size(), cli["stages"].size());
        const auto total = std::find(csv.header.begin(), csv.header.end(), "total_gib") - csv.header.begin();
        for (size_t i = 0; i < csv.rows.size(); ++i)
            QCOMPARE(std::stod(csv.rows[i][static_cast<size_t>(total)]), cli["stages"][i]["total_gib"].get<double>());
        // The summary line says them as the CLI's text does.
        QVERIFY2(v->summary().contains(QString("MFU <b>%1 %</b>").arg(100 * cli["mfu"].get<double>(), 0, 'f', 1)),
                 qPrintable(v->summary()));
    }

    // The topology, the overrides and the cost model are knobs, resolved as `llm evaluate` resolves
    // --topology, --gpus-per-node, --inter-node-Gbps and --model calculon.
    void theClusterKnobsEqualTheClisTopologyOverridesAndCostModel() {
        MainWindow w(options());
        w.show();
        LlmView* v = view(w);
        LlmSettingsPanel* panel = v->panel();
        panel->setModel("gpt3-1.3b");
        knob<QSpinBox>(w, "tp")->setValue(2);
        knob<QSpinBox>(w, "pp")->setValue(2);
        knob<QSpinBox>(w, "interleave")->setValue(1);
        knob<QComboBox>(w, "schedule")->setCurrentIndex(1);  // 1f1b
        panel->setGpus(16);
        const QString topology = QString(PARTITA_EXAMPLES_DIR) + "/topologies/p100-16.json";
        panel->setTopology(topology);
        QVERIFY2(v->valid(), qPrintable(panel->errorAt("topology") + panel->errorAt("")));
        const double from_topology = v->shown().eval.iteration_s;
        Json cli = cliEvaluate(v->shown().settings, {"--topology", topology.toStdString()});
        QVERIFY(!cli.is_null());
        QCOMPARE(from_topology, cli["iteration_s"].get<double>());
        // The override knobs show the resolved profile's values until set.
        QCOMPARE(knob<QSpinBox>(w, "gpus_per_node")->specialValueText(), QString("profile: 4"));
        panel->setOverrides(4, 0, 800);
        QVERIFY(v->valid());
        QVERIFY(v->shown().eval.iteration_s != from_topology);
        cli = cliEvaluate(v->shown().settings,
                          {"--topology", topology.toStdString(), "--gpus-per-node", "4", "--inter-node-Gbps", "800"});
        QCOMPARE(v->shown().eval.iteration_s, cli["iteration_s"].get<double>());
        QCOMPARE(v->shown().eval.peak_bytes / llm::kGiB, cli["memory_gib"].get<double>());
        // An unreadable topology is said under its knob; the views keep the last plan.
        panel->setOverrides(0, 0, 0);
        panel->setTopology(dir_.filePath("missing-topology.json"));
        QVERIFY(!v->valid());
        QVERIFY2(panel->errorAt("topology").contains("missing-topology.json"), qPrintable(panel->errorAt("topology")));
        panel->setTopology("");
        QVERIFY(v->valid());
        // Calculon's cost model: the CLI's --model calculon, and stored with the run.
        const double partita_time = v->shown().eval.iteration_s;
        panel->setCostModel(llm::ModelKind::Calculon);
        QVERIFY2(v->valid(), qPrintable(panel->errorAt("")));
        QCOMPARE(v->shown().settings.kind, llm::ModelKind::Calculon);
        QVERIFY(v->shown().eval.iteration_s != partita_time);
        cli = cliEvaluate(v->shown().settings, {"--model", "calculon"});
        QVERIFY(!cli.is_null());
        QCOMPARE(v->shown().eval.iteration_s, cli["iteration_s"].get<double>());
    }

    void changingTpMovesThePlanAndTheMemory() {
        MainWindow w(options());
        w.show();
        LlmView* v = view(w);
        const CsvTable plan_before = v->planView()->csv(), memory_before = v->memoryView()->csv();
        const QString title_before = v->planView()->title();
        knob<QSpinBox>(w, "tp")->setValue(4);  // pp 4: dp 4
        QVERIFY(v->valid());
        QCOMPARE(v->shown().settings.plan.tp, std::int64_t{4});
        QCOMPARE(v->shown().settings.plan.dp, std::int64_t{4});
        QVERIFY(v->planView()->title() != title_before);
        QVERIFY(v->planView()->csv().rows != plan_before.rows);
        QVERIFY(v->memoryView()->csv().rows != memory_before.rows);
        // Recompute full shrinks the activations of every stage.
        const CsvTable selective = v->memoryView()->csv();
        knob<QComboBox>(w, "recompute")->setCurrentIndex(2);
        QCOMPARE(v->shown().settings.plan.recompute, llm::Recompute::Full);
        const auto act = std::find(selective.header.begin(), selective.header.end(), "activations_gib") - selective.header.begin();
        QVERIFY(v->shown().eval.stages[0].activations < std::stod(selective.rows[0][static_cast<size_t>(act)]) * llm::kGiB);
    }

    void anOomPlanIsMarkedWithItsCut() {
        MainWindow w(options());
        w.show();
        LlmView* v = view(w);
        knob<QSpinBox>(w, "interleave")->setValue(1);
        knob<QComboBox>(w, "schedule")->setCurrentIndex(1);  // 1f1b
        knob<QComboBox>(w, "zero")->setCurrentIndex(0);
        knob<QSpinBox>(w, "pp")->setValue(1);  // 175 B on 8-way TP alone
        QVERIFY(v->valid());
        QVERIFY(!v->shown().eval.fits);
        QVERIFY(!v->shown().eval.cut.empty());
        QVERIFY2(v->memoryView()->title().startsWith("Does not fit"), qPrintable(v->memoryView()->title()));
        QVERIFY(v->memoryView()->title().contains(QString::fromStdString(v->shown().eval.cut)));
        QCOMPARE(v->memoryView()->csv().rows.at(0).back(), std::string("no"));
        QVERIFY(v->summary().contains("does not fit"));
    }

    void anInvalidKnobIsExplainedUnderItAndTheViewsKeepTheLastPlan() {
        MainWindow w(options());
        w.show();
        LlmView* v = view(w);
        const double before = v->shown().eval.iteration_s;
        knob<QSpinBox>(w, "interleave")->setValue(5);  // 96 layers on 4 stages: not 5 chunks each
        QVERIFY(!v->valid());
        QVERIFY2(v->panel()->errorAt("interleave").startsWith("interleave:"), qPrintable(v->panel()->errorAt("interleave")));
        QVERIFY(v->panel()->errorAt("tp").isEmpty());
        QVERIFY(v->planView()->stale() && v->memoryView()->stale());
        QCOMPARE(v->shown().eval.iteration_s, before);
        QVERIFY(w.findChildren<QMessageBox*>().isEmpty());
        knob<QSpinBox>(w, "interleave")->setValue(12);
        QVERIFY(v->valid());
        QVERIFY(v->panel()->errorAt("interleave").isEmpty());
        QVERIFY(!v->planView()->stale());
        // GPUs that tp x pp does not divide: said under the GPU count.
        knob<QSpinBox>(w, "gpus")->setValue(60);
        QVERIFY(!v->panel()->errorAt("gpus").isEmpty());
    }

    void searchLoadsTheBestPlanAndStoresIt() {
        MainWindow w(options());
        w.show();
        LlmView* v = view(w);
        knob<QSpinBox>(w, "tp")->setValue(2);
        const LlmSettings s = v->shown().settings;
        llm::SearchOptions o;
        o.gpus = 64;
        o.global_batch = 64;
        const llm::SearchResult want = llm::search(s.model, s.profile, o);
        QVERIFY(want.found);
        v->panel()->findChild<QPushButton*>("llm-search")->click();
        QVERIFY(w.jobs().waitForIdle());
        QCOMPARE(v->shown().settings.plan, want.best.plan);
        QCOMPARE(v->shown().eval.iteration_s, want.best.iteration_s);
        const auto runs = w.runStore().db()->list({"", "", "llm"});
        QVERIFY(!runs.empty());
        const MethodRun stored = w.runStore().db()->loadMethod(runs.at(0).id);
        QVERIFY(stored.llm.searched);
        QCOMPARE(stored.llm.plan, want.best.plan);
    }

    void runSearchInTheMenuSearchesFromAnotherMethod() {
        Options o = options();
        o.method = "hypar";
        o.db = dir_.filePath("menu.sqlite");
        MainWindow w(o);
        w.show();
        QVERIFY(w.jobs().waitForIdle());
        QAction* search = w.findChild<QAction*>("llm-search-action");
        QVERIFY(search && search->parent() == w.findChild<QMenu*>("run"));
        search->trigger();
        QVERIFY(w.jobs().waitForIdle());
        QCOMPARE(w.runs().methodKey(), QString("llm"));
        QVERIFY(view(w)->shown().settings.searched);
        QCOMPARE(w.runStore().db()->list({"", "", "llm"}).size(), size_t{1});
    }

    void searchCancelsWithinASecond() {
        MainWindow w(options());
        w.show();
        LlmView* v = view(w);
        knob<QSpinBox>(w, "gpus")->setValue(1024);
        knob<QSpinBox>(w, "global_batch")->setValue(1024);
        QSignalSpy cancelled(&w.jobs(), &JobRunner::cancelled);
        const llm::Plan before = v->panel()->settings().plan;
        v->panel()->findChild<QPushButton*>("llm-search")->click();
        w.jobs().cancel();
        QTRY_VERIFY_WITH_TIMEOUT(!w.jobs().busy(), 1000);  // the harness guard: cancelled in a second
        QCOMPARE(cancelled.count(), 1);
        QCOMPARE(v->panel()->settings().plan, before);  // the knobs stay as they were
        QVERIFY(v->panel()->findChild<QPushButton*>("llm-search")->isEnabled());
    }

    void aStoredRunReopensWithTheSameNumbers() {
        MainWindow w(options());
        w.show();
        LlmView* v = view(w);
        knob<QSpinBox>(w, "micro_batch")->setValue(1);
        const LlmShown shown = v->shown();
        w.runs().runSelected();
        const std::int64_t id = w.runStore().db()->list({"", "", "llm"}).at(0).id;
        knob<QSpinBox>(w, "tp")->setValue(4);
        QVERIFY(v->shown().eval.iteration_s != shown.eval.iteration_s);
        QVERIFY(w.runs().openStoredRun(id));
        QCOMPARE(v->shown().settings, shown.settings);
        QCOMPARE(v->shown().eval.iteration_s, shown.eval.iteration_s);
        QCOMPARE(v->shown().eval.peak_bytes, shown.eval.peak_bytes);
        QCOMPARE(v->shown().eval.mfu, shown.eval.mfu);
    }

    void bothViewsExport() {
        MainWindow w(options());
        w.show();
        for (const QString target : {"llm-plan", "llm-memory"}) {
            for (const QString ext : {".png", ".svg", ".pdf", ".csv"}) {
                const QString path = dir_.filePath(target + ext);
                QCOMPARE(w.exports().write(target, path), QString());
                QVERIFY(QFile(path).size() > 0);
            }
            QVERIFY(!QImage(dir_.filePath(target + ".png")).isNull());
        }
    }

    void theCommandLineSetsTheInputsAndSearches() {
        Options o = options();
        o.llm_model = "llama2-70b";
        o.llm_profile = "h100-sxm5-80gb";
        o.llm_gpus = 128;
        MainWindow w(o);
        w.show();
        QVERIFY(w.jobs().waitForIdle());
        LlmView* v = view(w);
        QVERIFY(v->valid());
        QCOMPARE(v->shown().settings.model.name, std::string("llama2-70b"));
        QCOMPARE(v->shown().settings.profile_name, std::string("h100-sxm5-80gb"));
        QCOMPARE(v->shown().settings.plan.gpus(), std::int64_t{128});
        QVERIFY(v->shown().settings.searched);
    }
};

QTEST_MAIN(LlmMethodTest)
#include "llm_method_test.moc"
