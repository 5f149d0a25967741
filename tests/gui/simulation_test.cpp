// Simulate and MCMC in the main window, offscreen, as a user drives them: the
// numbers equal the engine's, MCMC reports progress and is stored, Cancel keeps
// the best so far, bad topology files are reported by name, and the analytic
// views step aside for runs without a grid.
#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>
#include <QStatusBar>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

#include "app/gui/action_set.h"
#include "app/gui/main_window.h"
#include "app/gui/plan_views.h"
#include "app/gui/simulation_controller.h"
#include "app/gui/options.h"
#include "core/run/simulation_run.h"
#include "core/llm/profile.h"
#include "core/sim/baselines.h"
#include "core/sim/compute_cost.h"
#include "core/sim/simulator.h"
#include "core/store/results_db.h"
#include "core/util/format.h"
#include "tests/qt_test_util.h"
#include "widgets/compare/compare_view.h"
#include "widgets/compare/sim_compare_view.h"
#include "widgets/settings/sim_params_editor.h"
#include "widgets/grid/grid_view.h"
#include "widgets/grid/metrics_panel.h"
#include "widgets/simulation/simulation_view.h"

using namespace partita;
using namespace partita::gui;

namespace {
const QString kExamples = PARTITA_EXAMPLES_DIR;

void chooseMethod(MainWindow& w, const QString& key) {
    auto* box = w.findChild<QComboBox*>("method");
    const int index = box->findData(key);
    QVERIFY(index >= 0);
    box->setCurrentIndex(index);
    emit box->activated(index);  // what a click on the item does
}

// Simulations and searches wait for Run.
void chooseAndRun(MainWindow& w, const QString& key) {
    chooseMethod(w, key);
    w.actionSet().action("run")->trigger();
}

}  // namespace

class SimulationTest : public QObject {
    Q_OBJECT
private:
    QTemporaryDir dir_;
    Options lenet(const QString& db = "sim.sqlite") const {
        Options o;
        o.network = kExamples + "/networks/lenet-c.json";
        o.db = dir_.filePath(db);
        return o;
    }

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, dir_.filePath("settings"));
    }

    void simulateDpEqualsTheEngine() {
        MainWindow w(lenet());
        w.show();
        QVERIFY(w.jobs().waitForIdle());
        chooseAndRun(w, "simulate");  // DP on p100-16 by default
        QVERIFY(w.jobs().waitForIdle());
        const RunPtr run = w.session().currentRun();
        QVERIFY(run && run->isSimulation());
        QCOMPARE(run->method, std::string("simulate"));
        const Network& net = run->inputs->network;
        const sim::Topology topo = sim::builtinTopology("p100-16");
        const double expect =
            sim::simulate(sim::buildTaskGraph(net, 256, sim::dataParallelStrategy(net, 256, 16), topo)).makespan;
        QCOMPARE(run->simulation->makespan_s, expect);
        QCOMPARE(run->simulation->speedupVsDp(), 1.0);
        QCOMPARE(w.views().get<SimulationView>()->text("makespan"), QString::fromStdString(fixed(expect * 1e3, 3)) + " ms");
        QCOMPARE(w.views().shown(), static_cast<QWidget*>(w.views().get<SimulationView>()));
        QVERIFY(run->id > 0);  // stored like every run
        QCOMPARE(w.runStore().db()->list().front().topology_name, topo.name);
        // Devices first, then only the links that carried data, then the devices' collective streams.
        QAbstractItemModel* table = w.views().get<SimulationView>()->resourcesTable()->model();
        QCOMPARE(table->index(0, 0).data().toString(), QString::fromStdString(topo.devices[0].name));
        const SimulationResult& sim = *run->simulation;
        int busy_links = 0;
        for (int r = 0; r < static_cast<int>(sim.busy_s.size()); ++r)
            busy_links += sim.isLink(r) && sim.busy_s[static_cast<size_t>(r)] > 0;
        QVERIFY(busy_links > 0 && busy_links <= static_cast<int>(topo.links.size()));
        QCOMPARE(sim.streamCount(), 16);
        QCOMPARE(table->rowCount(), 16 + busy_links + 16);
        w.views().get<SimulationView>()->idleLinksBox()->setChecked(true);
        QCOMPARE(table->rowCount(), 16 + static_cast<int>(topo.links.size()) + 16);
        // The analytic views say they do not apply instead of showing zeros.
        QVERIFY(w.views().get<PlanViews>()->gridNotApplicableShown());
        QVERIFY(!w.views().get<GridView>()->run() && !w.views().get<MetricsPanel>()->run());
        QVERIFY(!w.actionSet().action("evaluate")->isEnabled());
        w.actionSet().action("compare")->trigger();
        QCOMPARE(w.views().shown(), static_cast<QWidget*>(w.views().get<SimulationView>()));
        // Its tables export as CSV; the view as a figure.
        for (const QString& target : {QString("simulation"), QString("simulation-traffic")}) {
            const QString path = dir_.filePath(target + ".csv");
            QCOMPARE(w.exports().write(target, path), QString());
            QFile f(path);
            QVERIFY(f.open(QIODevice::ReadOnly));
            const qsizetype rows = target == "simulation" ? 1 + 16 + static_cast<qsizetype>(topo.links.size()) + 16 : 1 + 16;
            QCOMPARE(f.readAll().count('\n'), rows);
        }
        QCOMPARE(w.exports().write("simulation", dir_.filePath("simulation.png")), QString());
        QVERIFY(w.exports().write("simulation-starts", dir_.filePath("s.csv")).contains("not an MCMC search"));
        // Back on HyPar, the grid returns.
        chooseMethod(w, "hypar");
        QVERIFY(w.jobs().waitForIdle());
        QVERIFY(!w.views().get<PlanViews>()->gridNotApplicableShown());
        QVERIFY(!w.views().get<SimulationView>()->hasSimulation());
    }

    void parameterServerSyncIsChosenStoredAndReopened() {
        MainWindow w(lenet("sync.sqlite"));
        w.show();
        QVERIFY(w.jobs().waitForIdle());
        auto* sync = qobject_cast<QComboBox*>(w.views().get<SimParamsEditor>()->field("sync"));
        QVERIFY(sync);
        chooseAndRun(w, "simulate");
        QVERIFY(w.jobs().waitForIdle());
        const double ring = w.session().currentRun()->simulation->makespan_s;
        QCOMPARE(sync->count(), 3);  // all-reduce as collectives (the default) or per hop, or a server
        w.views().get<SimParamsEditor>()->setSync(sim::SyncMode::ParameterServer);
        w.simulation().runSimulation();
        QVERIFY(w.jobs().waitForIdle());
        const RunPtr run = w.session().currentRun();
        QCOMPARE(run->simulation->spec.options.sync, sim::SyncMode::ParameterServer);
        const Network& net = run->inputs->network;
        sim::SimOptions ps;
        ps.sync = sim::SyncMode::ParameterServer;
        const double expect = sim::simulate(sim::buildTaskGraph(net, 256, sim::dataParallelStrategy(net, 256, 16),
                                                                sim::builtinTopology("p100-16"), ps))
                                  .makespan;
        QCOMPARE(run->simulation->makespan_s, expect);
        QVERIFY(expect > ring);  // every gradient goes to GPU 0
        // Re-opened, the run brings its sync mode back into the properties.
        w.views().get<SimParamsEditor>()->setSync(sim::SyncMode::Ring);
        QVERIFY(w.runs().openStoredRun(run->id));
        QVERIFY(w.jobs().waitForIdle());
        QCOMPARE(w.views().get<SimParamsEditor>()->sync(), sim::SyncMode::ParameterServer);
        QCOMPARE(w.session().currentRun()->simulation->makespan_s, expect);
        // Per hop, FlexFlow's model, is chosen, stored and reopened the same way.
        w.views().get<SimParamsEditor>()->setSync(sim::SyncMode::Ring, sim::CollectiveModel::PerHop);
        w.simulation().runSimulation();
        QVERIFY(w.jobs().waitForIdle());
        const RunPtr hop = w.session().currentRun();
        QCOMPARE(hop->simulation->spec.options.collectives, sim::CollectiveModel::PerHop);
        sim::SimOptions per_hop;
        per_hop.collectives = sim::CollectiveModel::PerHop;
        QCOMPARE(hop->simulation->makespan_s,
                 sim::simulate(sim::buildTaskGraph(net, 256, sim::dataParallelStrategy(net, 256, 16),
                                                   sim::builtinTopology("p100-16"), per_hop))
                     .makespan);
        w.views().get<SimParamsEditor>()->setSync(sim::SyncMode::Ring);
        QVERIFY(w.runs().openStoredRun(hop->id));
        QVERIFY(w.jobs().waitForIdle());
        QCOMPARE(w.views().get<SimParamsEditor>()->collectives(), sim::CollectiveModel::PerHop);
        QCOMPARE(w.session().currentRun()->simulation->makespan_s, hop->simulation->makespan_s);
    }

    // Compute priced by an LLM profile's kernel curves: chosen, stored and reopened (docs/methods/flexflow.md#kernel-curves).
    void kernelCurvesAreChosenStoredAndReopened() {
        MainWindow w(lenet("kernels.sqlite"));
        w.show();
        QVERIFY(w.jobs().waitForIdle());
        SimParamsEditor* editor = w.views().get<SimParamsEditor>();
        auto* kernels = qobject_cast<QComboBox*>(editor->field("kernels"));
        QVERIFY(kernels);
        QVERIFY(editor->kernelProfile().empty());  // each device's peak by default
        QVERIFY(editor->field("precision")->isHidden());
        kernels->setCurrentIndex(kernels->findData("h100-sxm5-80gb"));
        emit kernels->activated(kernels->currentIndex());
        QVERIFY(!editor->field("precision")->isHidden());
        QCOMPARE(editor->kernelPrecision(), llm::Dtype::Bf16);  // the profile's own
        chooseAndRun(w, "simulate");
        QVERIFY(w.jobs().waitForIdle());
        const RunPtr run = w.session().currentRun();
        const sim::SimOptions& used = run->simulation->spec.options;
        QVERIFY(used.kernels);
        QCOMPARE(used.kernels->profile, std::string("h100-sxm5-80gb"));
        QCOMPARE(used.element_bytes, 2.0);
        const Network& net = run->inputs->network;
        sim::SimOptions expect_options;
        sim::useKernelCurves(expect_options, llm::profilePreset("h100-sxm5-80gb"), llm::Dtype::Bf16, "h100-sxm5-80gb");
        const double expect = sim::simulate(sim::buildTaskGraph(net, 256, sim::dataParallelStrategy(net, 256, 16),
                                                                sim::builtinTopology("p100-16"), expect_options))
                                  .makespan;
        QCOMPARE(run->simulation->makespan_s, expect);
        editor->setKernels({}, llm::Dtype::Fp32);
        QVERIFY(w.runs().openStoredRun(run->id));
        QVERIFY(w.jobs().waitForIdle());
        QCOMPARE(editor->kernelProfile(), std::string("h100-sxm5-80gb"));
        QCOMPARE(editor->kernelPrecision(), llm::Dtype::Bf16);
        QCOMPARE(w.session().currentRun()->simulation->makespan_s, expect);
    }

    void loweredGridKeepsTheGrid() {
        Options o = lenet();
        o.network = kExamples + "/networks/vgg-a.json";  // HyPar's VGG-A grid lowers (LeNet's fc1 does not)
        MainWindow w(o);
        w.show();
        QVERIFY(w.jobs().waitForIdle());
        const Grid hypar = w.session().currentRun()->grid;
        auto* source = qobject_cast<QComboBox*>(w.views().get<SimParamsEditor>()->field("source"));
        source->setCurrentIndex(source->findData(int(SimSource::Grid)));
        chooseAndRun(w, "simulate");
        QVERIFY(w.jobs().waitForIdle());
        QVERIFY2(w.lastError().isEmpty(), qPrintable(w.lastError()));
        const RunPtr run = w.session().currentRun();
        QVERIFY(run->isSimulation());
        QVERIFY(run->grid == hypar);
        QVERIFY(!w.views().get<PlanViews>()->gridNotApplicableShown());  // the grid tab shows the lowered grid
        QVERIFY(w.views().get<GridView>()->run() && w.views().get<GridView>()->run()->isSimulation());
        const Run direct = simulationRun(run->inputs, run->simulation->spec, hypar);
        QCOMPARE(run->simulation->makespan_s, direct.simulation->makespan_s);
    }

    void mcmcReportsProgressAndIsStored() {
        Options o = lenet("mcmc.sqlite");
        o.method = "mcmc";
        o.topology = "p100-16";
        o.iterations = 400;
        o.seed = 5;
        o.run = true;
        MainWindow w(o);
        QSignalSpy notes(&w.jobs(), &JobRunner::note);
        QSignalSpy cancelled(&w.jobs(), &JobRunner::cancelled);
        w.show();
        QVERIFY(w.jobs().waitForIdle());
        QVERIFY(!notes.isEmpty());
        const QString note = notes.last().at(1).toString();
        QVERIFY2(note.contains("iteration") && note.contains("best") && note.contains("ms"), qPrintable(note));
        const RunPtr run = w.session().currentRun();
        QVERIFY(run && run->isSimulation() && run->simulation->mcmc);
        QCOMPARE(run->method, std::string("mcmc"));
        QVERIFY(!run->simulation->cancelled());
        QVERIFY(run->simulation->mcmc->iterations > 0 && run->simulation->mcmc->iterations <= 400);
        QCOMPARE(run->simulation->spec.mcmc.seed, std::uint64_t{5});
        QVERIFY(run->simulation->makespan_s <= run->simulation->dp_makespan_s);
        QCOMPARE(w.views().get<SimulationView>()->startsTable()->model()->rowCount(), 3);
        QVERIFY(!w.views().get<SimulationView>()->text("search").isEmpty());
        QCOMPARE(w.exports().write("simulation-starts", dir_.filePath("starts.csv")), QString());
        // Stored, and re-opened from the database with its summary (not searched again).
        QVERIFY(run->id > 0);
        const Run back = w.runStore().db()->load(run->id);
        QCOMPARE(back.simulation->makespan_s, run->simulation->makespan_s);
        QVERIFY(back.simulation->strategy == run->simulation->strategy);
        QCOMPARE(back.simulation->mcmc->iterations, run->simulation->mcmc->iterations);
        // An iteration budget and a seed make the search reproducible.
        w.actionSet().action("run")->trigger();
        QVERIFY(w.jobs().waitForIdle());
        QVERIFY(w.session().currentRun() != run);
        QCOMPARE(w.session().currentRun()->simulation->makespan_s, run->simulation->makespan_s);
        QCOMPARE(cancelled.count(), 0);
        // A new session re-opens it with its settings.
        MainWindow again(lenet("mcmc.sqlite"));
        again.show();
        QVERIFY(again.jobs().waitForIdle());
        QVERIFY(again.runs().openStoredRun(run->id));
        QVERIFY(again.jobs().waitForIdle());  // re-simulated in a worker
        QCOMPARE(again.runs().methodKey(), QString("mcmc"));
        QCOMPARE(again.views().get<SimParamsEditor>()->topology(), QString("p100-16"));
        QCOMPARE(again.views().get<SimParamsEditor>()->mcmc().seed, std::uint64_t{5});
        QCOMPARE(again.session().currentRun()->simulation->makespan_s, run->simulation->makespan_s);
        QCOMPARE(again.views().shown(), static_cast<QWidget*>(again.views().get<SimulationView>()));
    }

    // Issue 26 item 16: DP and a seeded MCMC run, stored, then compared from the runs dock (both are
    // simulated again in a worker); Compare with the MCMC run shown puts DP beside it the same way.
    void compareSimulatedDpAndMcmc() {
        Options o = lenet("compare-sim.sqlite");
        o.topology = "p100-16";
        o.iterations = 300;
        o.seed = 7;
        MainWindow w(o);
        w.resize(1280, 800);
        w.show();
        QVERIFY(w.jobs().waitForIdle());
        chooseAndRun(w, "simulate");
        QVERIFY(w.jobs().waitForIdle());
        const RunPtr dp = w.session().currentRun();
        chooseAndRun(w, "mcmc");
        QVERIFY(w.jobs().waitForIdle());
        const RunPtr mcmc = w.session().currentRun();
        QVERIFY(dp->id > 0 && mcmc->id > 0 && dp->isSimulation() && mcmc->simulation->mcmc);
        QVERIFY(w.runs().compareStored({dp->id, mcmc->id}));
        QVERIFY(w.jobs().waitForIdle());
        QCOMPARE(w.views().shown(), static_cast<QWidget*>(w.views().get<CompareView>()));
        QVERIFY(w.views().get<CompareView>()->simulated());
        const SimComparison& c = w.views().get<CompareView>()->simView()->comparison();
        QVERIFY2(c.ok(), c.refusal.c_str());
        QCOMPARE(c.runs[0].makespan_s, dp->simulation->makespan_s);
        QCOMPARE(c.runs[1].makespan_s, mcmc->simulation->makespan_s);
        QCOMPARE(c.runs[1].speedup, mcmc->simulation->speedupVsDp());
        QCOMPARE(c.runs[1].traffic_bytes, mcmc->simulation->trafficBytes());
        QCOMPARE(c.devices.size(), std::size_t(16));
        shoot(w, "compare-sim-window-1280.png");
        w.resize(1024, 700);
        shoot(w, "compare-sim-window-1024.png");
        // The Compare action with the MCMC run shown: DP simulated beside it.
        QVERIFY(w.runs().openStoredRun(mcmc->id));
        QVERIFY(w.jobs().waitForIdle());
        w.actionSet().action("compare")->trigger();
        QVERIFY(w.jobs().waitForIdle());
        QCOMPARE(w.views().shown(), static_cast<QWidget*>(w.views().get<CompareView>()));
        const SimComparison& beside = w.views().get<CompareView>()->simView()->comparison();
        QVERIFY2(beside.ok(), beside.refusal.c_str());
        QCOMPARE(beside.runs[0].strategy, std::string("DP"));
        QCOMPARE(beside.runs[0].makespan_s, mcmc->simulation->dp_makespan_s);
        QCOMPARE(beside.runs[1].makespan_s, mcmc->simulation->makespan_s);
    }

    void cancelKeepsTheBestSoFar() {
        MainWindow w(lenet("cancel.sqlite"));
        w.show();
        QVERIFY(w.jobs().waitForIdle());
        SimParamsEditor* p = w.views().get<SimParamsEditor>();
        type(p->field("budget_s"), "120");  // far longer than the test waits
        type(p->field("iterations"), "0");
        QVERIFY(p->valid());
        QSignalSpy notes(&w.jobs(), &JobRunner::note);
        QSignalSpy cancelled(&w.jobs(), &JobRunner::cancelled);
        chooseAndRun(w, "mcmc");
        QVERIFY(w.jobs().busy());
        QTRY_VERIFY_WITH_TIMEOUT(notes.count() >= 2, 30000);  // live progress, about ten a second
        auto* cancel = w.findChild<QPushButton*>("cancel-button");
        QVERIFY(cancel->isVisible());
        QTest::mouseClick(cancel, Qt::LeftButton);
        QVERIFY(w.jobs().waitForIdle(20000));
        QCOMPARE(cancelled.count(), 0);  // the best so far is kept, not discarded
        const RunPtr run = w.session().currentRun();
        QVERIFY(run && run->isSimulation() && run->simulation->mcmc);
        QVERIFY(run->simulation->cancelled());
        QVERIFY(run->simulation->makespan_s > 0);
        QVERIFY(run->simulation->makespan_s <= run->simulation->dp_makespan_s);
        QVERIFY(QString::fromStdString(run->name).contains("cancelled"));
        QVERIFY(!w.views().get<SimulationView>()->text("cancelled").isEmpty());
        QVERIFY(run->id > 0);
        QCOMPARE(w.runStore().serialisedHere(), 0);  // serialised in the worker, after Cancel too
        QVERIFY(w.runStore().db()->load(run->id).simulation->cancelled());
        QVERIFY(!cancel->isVisible());
    }

    // Issue 26, item 15: while MCMC runs the status bar says what is running (not the hint to press
    // Run) and the progress bar shows the percent and the time left of the budget; afterwards, the result.
    void mcmcRunShowsItsProgressInTheStatusBar() {
        MainWindow w(lenet("status.sqlite"));
        w.show();
        QVERIFY(w.jobs().waitForIdle());
        chooseMethod(w, "mcmc");
        QVERIFY(w.statusBar()->currentMessage().contains("then press Run"));  // the hint, before Run
        SimParamsEditor* p = w.views().get<SimParamsEditor>();
        type(p->field("budget_s"), "300");  // far longer than the test waits; cancelled below
        type(p->field("iterations"), "0");
        QVERIFY(p->valid());
        auto* status = w.findChild<QLabel*>("status-text");
        auto* bar = w.findChild<QProgressBar*>("job-progress");
        QVERIFY(status && bar);
        w.actionSet().action("run")->trigger();
        QVERIFY(w.jobs().busy());
        // What the user reads: the status bar's message when it has one, else the status text.
        const auto shown = [&] {
            const QString message = w.statusBar()->currentMessage();
            return message.isEmpty() && status->isVisible() ? status->text() : message;
        };
        const QRegularExpression note(R"(^MCMC: start \d/3 \((dp|owt|random)\), iteration [\d,]+ · best \d+\.\d{3} ms · )"
                                      R"(current \d+\.\d{3} ms · \d+ restarts?$)");
        QTRY_VERIFY_WITH_TIMEOUT(note.match(shown()).hasMatch(), 30000);
        // 300 s at 1 % or more: the bar says how much is done and how long is left.
        const QRegularExpression left(R"(^\d+% · \d+ (s|min) left$)");
        QTRY_VERIFY2_WITH_TIMEOUT(left.match(bar->text()).hasMatch(), qPrintable(bar->text()), 30000);
        QVERIFY(bar->isVisible() && bar->isTextVisible());
        QVERIFY2(note.match(shown()).hasMatch(), qPrintable(shown()));  // still the search, not the hint
        QTest::mouseClick(w.findChild<QPushButton*>("cancel-button"), Qt::LeftButton);
        QVERIFY(w.jobs().waitForIdle(20000));
        // The result, once the search is over.
        const RunPtr run = w.session().currentRun();
        QVERIFY(run && run->simulation && run->simulation->cancelled());
        QVERIFY(!bar->isVisible());
        QCOMPARE(w.statusBar()->currentMessage(), QString("MCMC cancelled: showing the best strategy found so far"));
        QCOMPARE(status->text(), QString("%1: makespan %2 ms, %3× DP")
                                     .arg(QString::fromStdString(run->name))
                                     .arg(run->stepTime() * 1e3, 0, 'f', 3)
                                     .arg(run->perfVsDp(), 0, 'f', 3));
    }

    // The "stop on stall" setting: off by default, ticked in the properties, stored with the run and
    // brought back when it is re-opened.
    void stopOnStallIsStoredAndReopened() {
        Options o = lenet("stall.sqlite");
        o.iterations = 60;
        o.seed = 3;
        MainWindow w(o);
        w.show();
        QVERIFY(w.jobs().waitForIdle());
        auto* stall = qobject_cast<QCheckBox*>(w.views().get<SimParamsEditor>()->field("stop_on_stall"));
        QVERIFY(stall && !stall->isChecked());
        chooseMethod(w, "mcmc");
        QVERIFY(stall->isVisible());
        stall->click();
        QVERIFY(w.views().get<SimParamsEditor>()->mcmc().stop_on_stall);
        w.actionSet().action("run")->trigger();
        QVERIFY(w.jobs().waitForIdle());
        const RunPtr run = w.session().currentRun();
        QVERIFY(run && run->simulation && run->simulation->mcmc);
        QVERIFY(run->simulation->spec.mcmc.stop_on_stall);
        QVERIFY(w.runStore().db()->load(run->id).simulation->spec.mcmc.stop_on_stall);
        stall->click();
        QVERIFY(!w.views().get<SimParamsEditor>()->mcmc().stop_on_stall);
        QVERIFY(w.runs().openStoredRun(run->id));
        QVERIFY(w.jobs().waitForIdle());
        QVERIFY(stall->isChecked());
        QVERIFY(w.views().get<SimParamsEditor>()->mcmc().stop_on_stall);
    }

    void badTopologyFileIsNamed() {
        MainWindow w(lenet());
        w.show();
        QVERIFY(w.jobs().waitForIdle());
        const RunPtr before = w.session().currentRun();
        const QString path = dir_.filePath("broken-topology.json");
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"format": "partita-topology/1", "name": "x",
  "devices": [{"name": "a", "kind": "gpu", "peak_flops": -1}]})");
        f.close();
        QString error;
        QVERIFY(!w.simulation().loadTopology(path, &error));
        QVERIFY2(error.contains(path), qPrintable(error));
        QVERIFY(w.lastError().contains(path));
        QCOMPARE(w.views().get<SimParamsEditor>()->topology(), QString("p100-16"));  // the choice stays
        QVERIFY(!w.loader().openFile(path, &error));  // recognised as a topology by its format
        QVERIFY2(error.contains(path), qPrintable(error));
        const QString missing = dir_.filePath("no-such-topology.json");
        QVERIFY(!w.simulation().loadTopology(missing, &error));
        QVERIFY2(error.contains(missing), qPrintable(error));
        QVERIFY(w.jobs().waitForIdle());
        QCOMPARE(w.session().currentRun(), before);
        // A good file is added to the list and chosen.
        QVERIFY(w.simulation().loadTopology(kExamples + "/topologies/k80-64.json", &error));
        QVERIFY(w.views().get<SimParamsEditor>()->topologyIsFile());
        QVERIFY(w.jobs().waitForIdle());
    }
};

QTEST_MAIN(SimulationTest)
#include "simulation_test.moc"
