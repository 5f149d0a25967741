// The run workflow without a window: RunController acts through WindowServices only (here a stub
// that records what it is asked to show), on a Session, a JobRunner and a RunStore of its own.
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QWidget>
#include <QtTest>

#include "app/gui/job_runner.h"
#include "app/gui/run_controller.h"
#include "app/gui/run_store.h"
#include "app/gui/session.h"
#include "app/gui/simulation_controller.h"
#include "app/gui/view_registry.h"
#include "app/gui/window_services.h"
#include "core/io/network_io.h"
#include "core/store/results_db.h"
#include "widgets/settings/sim_params_editor.h"

using namespace partita;
using namespace partita::gui;

namespace {

class StubServices : public WindowServices {
public:
    Session& session() override { return session_; }
    JobRunner& jobs() override { return jobs_; }
    RunStore& runStore() override { return store_; }
    void showStatus(const QString& text) override { status = text; }
    void showMessage(const QString&, int) override {}
    void reportError(const QString& message) override { errors << message; }
    void reportNotice(const QString&, const QString&, const QStringList&) override {}
    void addRecentFile(const QString&) override {}
    quint64 startStored(const QString& label, JobRunner::NotedWork work, JobRunner::OnCancel on_cancel) override {
        return runs->startStored(label, std::move(work), on_cancel);
    }
    QWidget* dialogParent() override { return &parent_; }
    SimulationController& simulation() override { return simulator_; }
    ViewRegistry& views() override { return views_; }
    void showView(const QString& name) override { shown << name; }
    void addMethodTab(QWidget*, const QString&) override {}
    bool releaseViews() override { return true; }

    RunController* runs = nullptr;
    QString status;
    QStringList errors, shown;

private:
    RunStore store_;
    Session session_{store_};
    JobRunner jobs_;
    ViewRegistry views_;
    QWidget parent_;
    SimParamsEditor sim_params_;
    SimulationController simulator_{*this, &sim_params_};
};

InputsPtr inputsOf(const char* network) {
    const Network net = loadNetwork(std::string(PARTITA_EXAMPLES_DIR) + "/networks/" + network + ".json");
    return makeInputs(net, defaultArray(4), CostParams{});
}

// Services storing into a fresh database, with LeNet-C's inputs.
struct StoringWindow {
    StoringWindow() {
        services.runs = &runs;
        const QString error = services.runStore().open(dir.filePath("runs.sqlite"), false);
        if (!error.isEmpty()) qFatal("cannot open the test database: %s", qPrintable(error));
        services.session().setInputs(inputsOf("lenet-c"));
    }
    QTemporaryDir dir;
    StubServices services;
    RunController runs{services};
};

}  // namespace

class RunControllerTest : public QObject {
    Q_OBJECT

private slots:
    void runStoresThePlanOnceItArrives() {
        StoringWindow window;
        StubServices& services = window.services;
        RunController& runs = window.runs;
        runs.plan("hypar", true);
        QVERIFY(services.jobs().busy());
        QVERIFY(!services.session().currentRun());
        QVERIFY(services.jobs().waitForIdle());
        const RunPtr run = services.session().currentRun();
        QVERIFY(run && run->method == "hypar");
        QVERIFY(run->id > 0);
        QCOMPARE(services.runStore().db()->list().size(), size_t{1});
        QVERIFY(services.errors.isEmpty());
    }

    // The GUI thread only stores what the worker serialised (docs/contributing/architecture.md#jobs-and-threads):
    // a Simulate run on 1,024 GPUs takes tens of milliseconds to serialise. The stored rows are the
    // run's own: serialised again here, they find the stored run identical.
    void aStoredRunArrivesSerialisedByItsWorker() {
        StoringWindow window;
        StubServices& services = window.services;
        RunController& runs = window.runs;
        runs.plan("hypar", true);
        QVERIFY(services.jobs().waitForIdle());
        services.simulation().runSimulation();  // DP on p100-16
        QVERIFY(services.jobs().waitForIdle());
        runs.planAccPar(true);
        QVERIFY(services.jobs().waitForIdle());
        QVERIFY(services.errors.isEmpty());
        QCOMPARE(services.runStore().db()->list().size(), size_t{3});
        QCOMPARE(services.runStore().serialisedHere(), 0);
        for (const RunSummary& s : services.runStore().db()->list()) {
            const Run stored = services.runStore().db()->load(s.id);
            QCOMPARE(services.runStore().db()->findIdentical(stored), std::optional<std::int64_t>(s.id));
        }
        // A run stored without its rows (a kept grid edit) is serialised on the GUI thread, once.
        QVERIFY(services.session().store(services.session().currentRun()));
        QCOMPARE(services.runStore().serialisedHere(), 1);
    }

    void theBaselinesArriveFromTheJobRunner() {
        StubServices services;
        RunController runs(services);
        services.runs = &runs;
        services.session().setInputs(inputsOf("lenet-c"));
        runs.plan("hypar", false);
        QVERIFY(services.jobs().waitForIdle());
        QSignalSpy compared(&runs, &RunController::compared);
        runs.compareWithBaselines();
        QVERIFY(services.jobs().busy());
        QCOMPARE(compared.count(), 0);
        QVERIFY(services.jobs().waitForIdle());
        QCOMPARE(compared.count(), 1);
        const auto list = compared.at(0).at(0).value<std::vector<RunPtr>>();
        QCOMPARE(list.size(), size_t{4});
        QCOMPARE(list[0]->method, std::string("hypar"));
        QCOMPARE(list[1]->method, std::string("dp"));
        QCOMPARE(list[2]->method, std::string("mp"));
        QCOMPARE(list[3]->method, std::string("owt"));
        // The shown run stays the searched one: the baselines only go to Compare.
        QCOMPARE(services.session().currentRun()->method, std::string("hypar"));
    }

    void aNetworkHyparCannotPlanIsRefusedAndAccParOffered() {
        StubServices services;
        RunController runs(services);
        services.runs = &runs;
        QSignalSpy note(&runs, &RunController::cannotPlan);
        QSignalSpy refusal(&runs, &RunController::methodRefusalChanged);
        services.session().setInputs(inputsOf("resnet-18"));
        runs.chooseMethod("hypar");
        QVERIFY(services.jobs().waitForIdle());
        QCOMPARE(note.count(), 1);
        QVERIFY(runs.methodRefusal().contains("method:accpar"));
        QCOMPARE(refusal.last().at(0).toString(), runs.methodRefusal());
        QCOMPARE(services.shown, QStringList{"grid"});
        QVERIFY(services.status.startsWith("HyPar cannot plan"));
        QVERIFY(!services.session().currentRun());
        runs.chooseMethod("accpar");
        QVERIFY(services.jobs().waitForIdle());
        QVERIFY(runs.methodRefusal().isEmpty());
        QVERIFY(services.session().currentRun() && services.session().currentRun()->isAccPar());
    }

    void choosingAMethodSignalsOnlyAChange() {
        StubServices services;
        RunController runs(services);
        services.runs = &runs;
        QSignalSpy changed(&runs, &RunController::methodChanged);
        QCOMPARE(runs.methodKey(), QString("hypar"));  // the selector's first
        runs.setMethodKey("dp");
        runs.setMethodKey("dp");
        runs.setMethodKey("no-such-method");
        QCOMPARE(changed.count(), 1);
        QCOMPARE(runs.methodKey(), QString("dp"));
        QVERIFY(runs.isChosen(runs.method()));
        runs.setMethodKey("mcmc");
        QVERIFY(runs.simulationMethod());
    }
};

QTEST_MAIN(RunControllerTest)
#include "run_controller_test.moc"
