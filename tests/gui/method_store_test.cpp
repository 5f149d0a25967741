// MPT and Learn-to-Scale evaluations in the results database through the main
// window: stored by Run (once per settings), listed in the runs dock, re-opened
// with a double-click (same numbers, same chosen cells), renamed and deleted.
// The tabs' evaluations are jobs: each action is followed by waiting for them.
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

#include "app/gui/main_window.h"
#include "app/gui/options.h"
#include "app/gui/runs_dock.h"
#include "widgets/common/choice_grid.h"
#include "widgets/l2s/l2s_view.h"
#include "widgets/mpt/mpt_view.h"

using namespace partita;
using namespace partita::gui;

class MethodStoreTest : public QObject {
    Q_OBJECT
private:
    QTemporaryDir dir_;
    Options options(const char* method, const char* db) const {
        Options o;
        o.db = dir_.filePath(db);
        o.method = method;
        return o;
    }
    static int rowOf(const ChoiceGrid& g, const std::string& name) {
        const auto& rows = g.data().rows;
        return static_cast<int>(std::find(rows.begin(), rows.end(), name) - rows.begin());
    }
    static int count(MainWindow& w, const std::string& method) {
        int n = 0;
        const RunsModel* model = w.views().get<RunsDock>()->model();
        for (int r = 0; r < model->rowCount(); ++r) n += model->summary(r).method == method;
        return n;
    }
    static std::int64_t newest(MainWindow& w, const std::string& method) {
        return w.runStore().db()->list({"", "", method}).at(0).id;
    }
    // A double-click on the run's Method cell in the dock, as a user opens it.
    static void doubleClick(MainWindow& w, std::int64_t id) {
        QTableView* view = w.views().get<RunsDock>()->view();
        for (int r = 0; r < view->model()->rowCount(); ++r) {
            const QModelIndex index = view->model()->index(r, RunsModel::Method);
            if (index.data(RunsModel::IdRole).toLongLong() == id) return emit view->doubleClicked(index);
        }
        QFAIL("the run is not in the dock");
    }

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void readOnlyDatabaseListsRunsAndStoresNothing() {
        size_t stored = 0;
        {
            MainWindow w(options("hypar", "ro.sqlite"));
            QVERIFY(w.jobs().waitForIdle());
            w.runs().runSelected();
            QVERIFY(w.jobs().waitForIdle());
        }
        stored = ResultsDb(dir_.filePath("ro.sqlite").toStdString()).list().size();
        QVERIFY(stored >= 1);
        QFile file(dir_.filePath("ro.sqlite"));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray before = file.readAll();
        file.close();
        {
            Options o = options("dp", "ro.sqlite");
            o.db_read_only = true;
            MainWindow w(o);
            w.show();
            QVERIFY(w.jobs().waitForIdle());
            QVERIFY(w.runStore().db() && w.runStore().db()->readOnly());
            QCOMPARE(static_cast<size_t>(w.views().get<RunsDock>()->model()->rowCount()), stored);
            QVERIFY(w.views().get<RunsDock>()->statusText().contains("read-only"));
        }
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll(), before);
        QCOMPARE(ResultsDb(dir_.filePath("ro.sqlite").toStdString()).list().size(), stored);
    }

    void mptWithAnOverrideIsStoredAndReopened() {
        MainWindow w(options("mpt", "mpt.sqlite"));
        w.show();
        QVERIFY(w.jobs().waitForIdle());
        MptView* v = w.views().get<MptView>();
        QVERIFY(v->hasEvaluation());
        QCOMPARE(count(w, "mpt"), 0);  // shown, not stored before Run
        w.runs().runSelected();
        QVERIFY(w.jobs().waitForIdle());
        QCOMPARE(count(w, "mpt"), 1);

        // Force Early onto (16,16) by a click, then a second click elsewhere: Run stores one run for both.
        const ChoiceGrid& g = *v->grid();
        QTest::mouseClick(v->grid(), Qt::LeftButton, {}, v->grid()->cellRect(rowOf(g, "(16,16)"), 0).center());
        QVERIFY(w.jobs().waitForIdle());
        QTest::mouseClick(v->grid(), Qt::LeftButton, {}, v->grid()->cellRect(rowOf(g, "(4,64)"), 1).center());
        w.runs().runSelected();  // while the second click's job runs: it is stored when it arrives
        QCOMPARE(count(w, "mpt"), 1);
        QVERIFY(w.jobs().waitForIdle());
        QVERIFY(v->evaluation().layers[0].overridden);
        QVERIFY(v->evaluation().layers[1].overridden);
        QCOMPARE(count(w, "mpt"), 2);
        const std::int64_t id = newest(w, "mpt");
        const double total = v->evaluation().totals.total_s;
        const std::vector<int> chosen = v->grid()->data().chosen;
        QCOMPARE(w.views().get<RunsDock>()->model()->summary(w.views().get<RunsDock>()->model()->rowOf(id)).time_step_s, total);

        // Something else is shown; the double-click brings the stored evaluation back.
        v->requestClearOverrides();
        QVERIFY(w.jobs().waitForIdle());
        v->requestScenario(mpt::Scenario::WMp);
        QVERIFY(w.jobs().waitForIdle());
        QCOMPARE(v->evaluation().scenario, mpt::Scenario::WMp);
        w.runs().setMethodKey("hypar");
        QVERIFY(w.jobs().waitForIdle());
        QCOMPARE(count(w, "mpt"), 2);
        doubleClick(w, id);
        QVERIFY(w.jobs().waitForIdle());
        QCOMPARE(w.runs().methodKey(), QString("mpt"));
        QCOMPARE(w.views().shown(), static_cast<QWidget*>(v));
        QCOMPARE(v->workloadKey(), QString("layers"));
        QCOMPARE(v->scenario(), mpt::Scenario::WMpPlusStar);
        QCOMPARE(v->evaluation().totals.total_s, total);
        QCOMPARE(v->grid()->data().chosen, chosen);
        QVERIFY(v->grid()->data().overridden(0));
        w.runs().runSelected();
        QVERIFY(w.jobs().waitForIdle());
        QCOMPARE(count(w, "mpt"), 2);  // Run on the re-opened evaluation stores nothing new

        QVERIFY(w.runStore().rename(id, "Early forced"));
        QCOMPARE(w.views().get<RunsDock>()->model()->summary(w.views().get<RunsDock>()->model()->rowOf(id)).name, std::string("Early forced"));
        QVERIFY(w.runStore().remove({id}));
        QCOMPARE(w.views().get<RunsDock>()->model()->rowOf(id), -1);
        QCOMPARE(count(w, "mpt"), 1);
    }

    void l2sWithAChangedBoundaryReopensInANewSession() {
        std::int64_t id = 0;
        double time = 0, cycles = 0;
        std::vector<int> chosen;
        {
            MainWindow w(options("l2s", "l2s.sqlite"));
            w.show();
            QVERIFY(w.jobs().waitForIdle());
            L2sView* v = w.views().get<L2sView>();
            QVERIFY(v->hasEvaluation());
            QVERIFY(v->requestCores(8));
            QVERIFY(w.jobs().waitForIdle());
            const ChoiceGrid& g = *v->grid();
            QTest::mouseClick(v->grid(), Qt::LeftButton, {}, v->grid()->cellRect(rowOf(g, "traditional"), 2).center());
            QVERIFY(w.jobs().waitForIdle());
            QCOMPARE(v->strategy()[2].scheme, l2s::Scheme::Traditional);
            w.runs().runSelected();
            QVERIFY(w.jobs().waitForIdle());
            id = newest(w, "l2s");
            QCOMPARE(w.views().get<RunsDock>()->model()->summary(w.views().get<RunsDock>()->model()->rowOf(id)).method, std::string("l2s"));
            time = v->evaluation().time_s;
            cycles = v->evaluation().total_cycles;
            chosen = v->grid()->data().chosen;
            v->requestScenario(L2sView::Scenario::Baseline);
            w.runs().runSelected();
            QVERIFY(w.jobs().waitForIdle());
            QCOMPARE(v->scenario(), L2sView::Scenario::Baseline);
        }
        MainWindow w(options("hypar", "l2s.sqlite"));  // a new session on the same database
        w.show();
        QVERIFY(w.jobs().waitForIdle());
        QCOMPARE(count(w, "l2s"), 2);
        doubleClick(w, id);
        QVERIFY(w.jobs().waitForIdle());
        L2sView* v = w.views().get<L2sView>();
        QCOMPARE(w.runs().methodKey(), QString("l2s"));
        QCOMPARE(w.views().shown(), static_cast<QWidget*>(v));
        QCOMPARE(v->presetKey(), QString("convnet"));
        QCOMPARE(v->cores(), 8);
        QCOMPARE(v->scenario(), L2sView::Scenario::SsMask);
        QCOMPARE(v->strategy()[2].scheme, l2s::Scheme::Traditional);
        QCOMPARE(v->evaluation().time_s, time);
        QCOMPARE(v->evaluation().total_cycles, cycles);
        QCOMPARE(v->grid()->data().chosen, chosen);
        QVERIFY(w.lastError().isEmpty());
    }
};

QTEST_MAIN(MethodStoreTest)
#include "method_store_test.moc"
