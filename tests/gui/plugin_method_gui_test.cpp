// The application side of the method registry's proof (docs/contributing/adding-a-method.md):
// Stripes, registered only by this test (tests/stripes_method.h), is in the method selector with its
// label and tool tip, plans when chosen, is stored by Run, is listed in the runs dock by its label,
// and a double-click re-opens it with the same grid and step time.
#include <QComboBox>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

#include "app/gui/main_window.h"
#include "app/gui/options.h"
#include "app/gui/runs_dock.h"
#include "tests/stripes_method.h"

using namespace partita;
using namespace partita::gui;

class PluginMethodGuiTest : public QObject {
    Q_OBJECT
private:
    QTemporaryDir dir_;

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void aRegisteredMethodIsChosenStoredListedAndReopened() {
        const test::StripesRegistered stripes;
        Options o;
        o.db = dir_.filePath("stripes.sqlite");
        o.method = "stripes";
        MainWindow w(o);
        w.show();
        QVERIFY(w.jobs().waitForIdle());

        auto* box = w.findChild<QComboBox*>("method");
        QVERIFY(box);
        const int index = box->findData("stripes");
        QVERIFY(index >= 0);
        QCOMPARE(box->itemText(index), QString("Stripes"));
        QCOMPARE(box->itemData(index, Qt::ToolTipRole).toString(), QString("dp on even layers, mp on odd ones (a test's method)"));
        QCOMPARE(w.runs().methodKey(), QString("stripes"));

        // Chosen at start: its plan is shown, not stored; Run stores it once.
        QVERIFY(w.session().currentRun());
        QCOMPARE(w.session().currentRun()->method, std::string("stripes"));
        const Grid grid = w.session().currentRun()->grid;
        for (int l = 0; l < grid.layers(); ++l) QCOMPARE(grid.split(0, l), l % 2 ? Split::Input : Split::Batch);
        const double step = w.session().currentRun()->stepTime();
        QCOMPARE(w.views().get<RunsDock>()->model()->rowCount(), 0);
        w.runs().runSelected();
        QVERIFY(w.jobs().waitForIdle());
        const RunsModel* model = w.views().get<RunsDock>()->model();
        QCOMPARE(model->rowCount(), 1);
        QCOMPARE(model->summary(0).method, std::string("stripes"));
        QCOMPARE(model->index(0, RunsModel::Method).data().toString(), QString("Stripes"));
        const std::int64_t id = model->summary(0).id;

        // Another method shown, then the stored run double-clicked: the same plan again.
        box->setCurrentIndex(box->findData("dp"));  // as a user picks it
        emit box->activated(box->currentIndex());
        QVERIFY(w.jobs().waitForIdle());
        QCOMPARE(w.session().currentRun()->method, std::string("dp"));
        QTableView* view = w.views().get<RunsDock>()->view();
        const QModelIndex cell = view->model()->index(0, RunsModel::Method);
        QCOMPARE(cell.data(RunsModel::IdRole).toLongLong(), static_cast<qlonglong>(id));
        emit view->doubleClicked(cell);
        QVERIFY(w.jobs().waitForIdle());
        QCOMPARE(w.session().currentRun()->method, std::string("stripes"));
        QCOMPARE(w.session().currentRun()->id, id);
        QVERIFY(w.session().currentRun()->grid == grid);
        QCOMPARE(w.session().currentRun()->stepTime(), step);
    }

    // --method takes what the selector offers: a registered method too, and the error lists them all.
    void theMethodOptionFollowsTheRegistry() {
        Options o;
        QString error;
        QVERIFY(!parseOptions({"partita", "--method", "stripes"}, &o, &error));
        QVERIFY2(error.startsWith("--method must be one of hypar, dp, mp, owt, accpar, simulate, mpt, l2s, llm, mcmc"),
                 qPrintable(error));
        QVERIFY(error.endsWith(", got 'stripes'"));
        const test::StripesRegistered stripes;
        QVERIFY2(parseOptions({"partita", "--method", "stripes"}, &o, &error), qPrintable(error));
        QCOMPARE(o.method, QString("stripes"));
        QVERIFY(parseOptions({"partita", "--method", "l2s"}, &o, &error));
    }
};

QTEST_MAIN(PluginMethodGuiTest)
#include "plugin_method_gui_test.moc"
