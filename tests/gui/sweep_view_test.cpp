// The Sweep tab as a user drives it: a database a sweep wrote through core loads with one row per
// point; filter, sort and group-by change the table as expected; the Pareto front of a database
// with hand-set numbers is exactly the expected points; clicking a dot or a row opens that run;
// Start sweep completes in the background, and Cancel stops it while the event loop keeps turning.
#include <algorithm>
#include <cmath>
#include <set>

#include <sqlite3.h>
#include <sys/stat.h>

#include <QComboBox>
#include <QFile>
#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStandardItemModel>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <qcustomplot.h>

#include "app/gui/main_window.h"
#include "app/gui/screenshot.h"
#include "app/gui/options.h"
#include "app/gui/sweep_job.h"
#include "app/gui/sweep_tab.h"
#include "core/store/results_db.h"
#include "core/sweep/runner.h"
#include "tests/qt_test_util.h"
#include "widgets/sweep/sweep_model.h"
#include "widgets/sweep/sweep_multiples.h"
#include "widgets/sweep/sweep_scatter.h"
#include "widgets/sweep/sweep_view.h"

using namespace partita;
using namespace partita::gui;

namespace {

// Runs a sweep into `db_path` through core, as partita-cli sweep does.
void sweepThroughCore(const QString& db_path, const std::string& body) {
    ResultsDb db(db_path.toStdString());
    const sweep::Spec spec = sweep::readSpec(R"({"format": "partita-sweep/1", "name": "t", )" + body + "}", "t.json", "",
                                             PARTITA_EXAMPLES_DIR);
    const sweep::PointInputs inputs(spec);
    sweep::run(inputs, sweep::plan(inputs, db.sweepPointStates(), {}), db, {});
}

void exec(const QString& db_path, const std::string& sql) {
    sqlite3* db = nullptr;
    QCOMPARE(sqlite3_open(db_path.toUtf8().constData(), &db), SQLITE_OK);
    char* error = nullptr;
    const int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &error);
    QVERIFY2(rc == SQLITE_OK, error ? error : "");
    sqlite3_close(db);
}

constexpr const char* kSixteen = R"("networks": ["lenet-c", "cifar-c"], "methods": ["hypar", "dp"],
                                    "axes": {"levels": [2, 3, 4, 5]})";

int column(const QAbstractItemModel& m, const QString& header) {
    for (int c = 0; c < m.columnCount(); ++c)
        if (m.headerData(c, Qt::Horizontal).toString().replace(QChar('\n'), QChar(' ')) == header) return c;
    return -1;
}

}  // namespace

class SweepViewTest : public QObject {
    Q_OBJECT
private:
    QTemporaryDir dir_;

    Options options(const QString& db) {
        Options o;
        o.network = QString(PARTITA_EXAMPLES_DIR) + "/networks/lenet-c.json";
        o.db = dir_.filePath(db);
        return o;
    }

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, dir_.filePath("settings"));
    }

    // An LLM sweep (tp x pp of GPT-3 13B on 16 GPUs, tp = 1 does not fit): the varying axes lead the table, then iteration,
    // MFU, peak memory and fits; the figures default to what its points have: the front of iteration
    // and peak memory, and iteration against tp (never the empty speed-up nor the yes/no fits).
    void llmSweepShowsFitsAndChoosesItsFigures() {
        const Options o = options("llm.sqlite");
        sweepThroughCore(o.db, R"("methods": [{"method": "llm", "settings": {"model": "gpt3-13b", "gpus": 16,
                                    "plan": {"global_batch": 64, "recompute": "selective"}}}],
                                   "axes": {"tp": [1, 8], "pp": [1, 2]})");
        MainWindow w(o);
        w.resize(1024, 700);
        w.show();
        QVERIFY(w.jobs().waitForIdle());
        w.showView("sweep");
        SweepView* v = w.views().get<SweepTab>()->view();
        QVERIFY(v->table());
        QAbstractItemModel& m = *v->tableView()->model();
        QCOMPARE(m.rowCount(), 4);
        QCOMPARE(m.headerData(0, Qt::Horizontal).toString(), QString("tp"));
        QCOMPARE(m.headerData(1, Qt::Horizontal).toString(), QString("pp"));
        QCOMPARE(m.headerData(2, Qt::Horizontal).toString(), QString("iteration\n(s)"));  // the unit on a second line
        const int fits = column(m, "fits");
        QCOMPARE(fits, 5);
        QVERIFY(v->tableView()->isColumnHidden(column(m, "method")));
        QCOMPARE(m.index(0, fits).data().toString(), QString("no"));  // tp = 1, pp = 1 holds all of 13B
        QVERIFY(m.index(0, 0).data(Qt::ForegroundRole).isValid());
        QCOMPARE(v->scatter()->xMetric(), sweep::Metric::StepTime);
        QCOMPARE(v->scatter()->yMetric(), sweep::Metric::Communication);  // peak memory
        // Every point is drawn; the front is of the plans that fit (the fastest, tp = 1, pp = 2, does not).
        QCOMPARE(v->scatter()->drawn().size(), std::size_t(4));
        QVERIFY(!v->scatter()->front().empty());
        for (std::size_t r : v->scatter()->front()) QVERIFY(!v->table()->unfit(v->table()->rows[r]));
        QVERIFY(!v->networkBox()->isVisible());  // no network axis: no empty Network box
        QCOMPARE(v->multiples()->metric(), sweep::Metric::StepTime);
        QCOMPARE(v->multiples()->axis(), v->table()->axisIndex("tp"));
        auto* x_items = qobject_cast<QStandardItemModel*>(v->xBox()->model());
        QVERIFY(!x_items->item(v->xBox()->findData(static_cast<int>(sweep::Metric::Speedup)))->isEnabled());
        // At 1024 x 700 the table is wide enough to show every shown column, up to fits, unscrolled.
        QCoreApplication::processEvents();
        QTableView* t = v->tableView();
        QCOMPARE(t->horizontalScrollBar()->value(), 0);
        for (const QString& h : {QString("peak memory (GiB)"), QString("fits")}) {
            const int c = column(m, h);
            QVERIFY2(t->columnViewportPosition(c) + t->columnWidth(c) <= t->viewport()->width(), qPrintable(h));
        }
        QVERIFY(v->scatter()->width() >= 300);
        shoot(w, "sweep-llm-1024x700.png");
    }

    void tableFilterSortAndGroup() {
        const Options o = options("table.sqlite");
        sweepThroughCore(o.db, kSixteen);
        MainWindow w(o);
        w.show();
        QVERIFY(w.jobs().waitForIdle());
        w.showView("sweep");
        SweepView* v = w.views().get<SweepTab>()->view();
        QVERIFY(v->table());
        QCOMPARE(v->tableView()->model()->rowCount(), 16);
        QCOMPARE(v->scatter()->drawn().size(), std::size_t(8));  // the figures show the first network's points
        QCOMPARE(v->multiples()->charts(), 2);  // hypar, dp
        QAbstractItemModel& m = *v->tableView()->model();
        QCOMPARE(m.headerData(0, Qt::Horizontal).toString(), QString("network"));
        QVERIFY(v->tableView()->isColumnHidden(column(m, "array")));  // every point has the same array
        QCOMPARE(m.headerData(2, Qt::Horizontal).toString(), QString("levels"));
        QCOMPARE(m.headerData(3, Qt::Horizontal).toString(), QString("Step time\n(s)"));  // after the varying axes
        v->showFigure(1);
        shoot(*v, "sweep-multiples.png");
        v->showFigure(0);

        type(v->findChild<QLineEdit*>(), "cifar hypar");
        QCOMPARE(m.rowCount(), 4);
        QCOMPARE(v->scatter()->drawn().size(), std::size_t(4));
        for (int r = 0; r < 4; ++r) QCOMPARE(m.index(r, column(m, "method")).data().toString(), QString("hypar"));
        QCOMPARE(v->csv().rows.size(), std::size_t(4));

        // Sorting by step time: ascending, numerically (the shown text has prefixes: ms, µs).
        const int time = column(m, "Step time (s)");
        v->tableView()->sortByColumn(time, Qt::AscendingOrder);
        std::vector<double> times;
        for (int r = 0; r < 4; ++r) times.push_back(m.index(r, time).data(RawValueRole).toDouble());
        QVERIFY(std::is_sorted(times.begin(), times.end()));
        QVERIFY(times.front() < times.back());

        // Grouped by method: two groups of all the points; by levels over the filtered points: four
        // groups of one point each.
        v->setFilterText("");
        v->setGroupAxis("method");
        QCOMPARE(m.rowCount(), 2);
        QCOMPARE(m.headerData(1, Qt::Horizontal).toString(), QString("points"));
        QCOMPARE(m.index(0, 1).data().toLongLong() + m.index(1, 1).data().toLongLong(), 16);
        v->setFilterText("cifar hypar");
        v->setGroupAxis("levels");
        QCOMPARE(m.rowCount(), 4);
        for (int r = 0; r < 4; ++r) QCOMPARE(m.index(r, 1).data().toLongLong(), 1);
        v->setGroupAxis("");
        QCOMPARE(m.rowCount(), 4);
    }

    void paretoOfAHandMadeDatabase() {
        const Options o = options("pareto.sqlite");
        sweepThroughCore(o.db, kSixteen);
        // Hand-set numbers: run ids 1..16 get (time, energy) so that the front is exactly runs 3, 7, 9
        // and 12, with 12 twice (run 14 is the same point) and 5 beaten by 7 at equal energy.
        exec(o.db, "UPDATE runs SET time_step_s = 10, energy_j = 10");
        for (const auto& [id, t, e] : std::vector<std::tuple<int, double, double>>{
                 {3, 1, 9}, {7, 2, 5}, {5, 3, 5}, {9, 4, 2}, {12, 6, 1}, {14, 6, 1}, {2, 7, 3}})
            exec(o.db, "UPDATE runs SET time_step_s = " + std::to_string(t) + ", energy_j = " + std::to_string(e) +
                           " WHERE id = " + std::to_string(id));
        MainWindow w(o);
        w.show();
        QVERIFY(w.jobs().waitForIdle());
        w.showView("sweep");
        SweepView* v = w.views().get<SweepTab>()->view();
        v->setScatterMetrics(sweep::Metric::StepTime, sweep::Metric::Energy);
        v->setNetwork("");  // every network's points: this front crosses them
        std::vector<qint64> front;
        for (std::size_t r : v->scatter()->front()) front.push_back(v->table()->rows[r].run_id);
        QCOMPARE(front, (std::vector<qint64>{3, 7, 9, 12, 14}));
        QVERIFY(!v->scatter()->logX() && !v->scatter()->logY());  // 1 to 10 is not more than a decade
    }

    // Issue 26 item 17: the figures show one network at a time (the first by default, with a selector),
    // so its front is that network's, not the smallest network's points across all of them.
    void figuresShowOneNetworkAtATime() {
        const Options o = options("networks.sqlite");
        sweepThroughCore(o.db, kSixteen);
        MainWindow w(o);
        w.show();
        QVERIFY(w.jobs().waitForIdle());
        w.showView("sweep");
        SweepView* v = w.views().get<SweepTab>()->view();
        QComboBox* box = v->networkBox();
        QCOMPARE(box->count(), 3);
        QCOMPARE(box->itemText(0), QString("lenet-c"));
        QCOMPARE(box->itemText(1), QString("cifar-c"));
        QCOMPARE(box->itemText(2), QString("All networks"));
        QCOMPARE(v->network(), QString("lenet-c"));
        const int net = v->table()->axisIndex("network");
        auto networksOf = [&](const std::vector<std::size_t>& rows) {
            std::set<std::string> names;
            for (std::size_t r : rows) names.insert(v->table()->rows[r].axes[static_cast<std::size_t>(net)]);
            return names;
        };
        QCOMPARE(networksOf(v->scatter()->drawn()), std::set<std::string>{"lenet-c"});
        QCOMPARE(v->scatter()->front(), sweep::paretoFront(*v->table(), v->figureRows(), v->scatter()->xMetric(),
                                                           v->scatter()->yMetric()));
        QVERIFY(v->summary().contains("figures: lenet-c, 8 points"));
        // The user's choice: cifar-c, then every network (one front across both).
        box->setCurrentIndex(1);
        QCOMPARE(networksOf(v->scatter()->drawn()), std::set<std::string>{"cifar-c"});
        for (std::size_t r = 0; r < v->table()->rows.size(); ++r)  // the small multiples show the same points
            QCOMPARE(v->multiples()->pointPosition(r) != QPoint(-1, -1),
                     v->table()->rows[r].axes[static_cast<std::size_t>(net)] == "cifar-c");
        box->setCurrentIndex(2);
        QCOMPARE(v->scatter()->drawn().size(), std::size_t(16));
        QCOMPARE(v->figureRows().size(), std::size_t(16));
        QCOMPARE(v->scatter()->front(), sweep::paretoFront(*v->table(), v->figureRows(), v->scatter()->xMetric(),
                                                           v->scatter()->yMetric()));
        // A filter that keeps one network offers just it.
        box->setCurrentIndex(1);
        v->setFilterText("cifar");
        QCOMPARE(box->count(), 1);
        QCOMPARE(v->network(), QString("cifar-c"));
    }

    // Issue 26 item 17: simulated points have no energy or element count; the scatter's default axes
    // are metrics every shown point has, and the absent ones cannot be chosen.
    void simulatedPointsDefaultToMetricsTheyHave() {
        const Options o = options("simulated.sqlite");
        sweepThroughCore(o.db, R"("networks": ["lenet-c"], "topologies": ["p100-16"],
                                  "methods": [{"method": "simulate", "strategy": "dp"},
                                              {"method": "simulate", "label": "sim-owt", "strategy": "owt"}],
                                  "axes": {"batch": [32, 64]})");
        MainWindow w(o);
        w.show();
        QVERIFY(w.jobs().waitForIdle());
        w.showView("sweep");
        SweepView* v = w.views().get<SweepTab>()->view();
        QCOMPARE(v->table()->rows.size(), std::size_t(4));
        for (const auto& row : v->table()->rows) {
            QVERIFY(row.ok());
            QVERIFY(!row.has(sweep::Metric::Energy) && !row.has(sweep::Metric::Communication));
            QVERIFY(row.has(sweep::Metric::StepTime) && row.has(sweep::Metric::Speedup));
        }
        QCOMPARE(v->scatter()->xMetric(), sweep::Metric::StepTime);
        QCOMPARE(v->scatter()->yMetric(), sweep::Metric::Speedup);
        QCOMPARE(v->scatter()->drawn().size(), std::size_t(4));  // every point drawn, none flat at 0
        auto enabled = [](QComboBox* box, sweep::Metric m) {
            const int i = box->findData(static_cast<int>(m));
            return qobject_cast<QStandardItemModel*>(box->model())->item(i)->isEnabled();
        };
        QVERIFY(!enabled(v->yBox(), sweep::Metric::Energy));
        QVERIFY(!enabled(v->xBox(), sweep::Metric::Communication));
        QVERIFY(enabled(v->yBox(), sweep::Metric::Speedup));
        shoot(*v, "sweep-simulated.png");
    }

    // Issue 26 item 17: the summary names what every point has, and a levels axis decides the
    // generated array's levels, so the array is named by its shape, not by the spec's "levels=4".
    void summaryAgreesWithTheLevelsAxis() {
        const Options o = options("levels.sqlite");
        sweepThroughCore(o.db, kSixteen);
        MainWindow w(o);
        w.show();
        QVERIFY(w.jobs().waitForIdle());
        w.showView("sweep");
        SweepView* v = w.views().get<SweepTab>()->view();
        QVERIFY2(!v->summary().contains("levels=4"), qPrintable(v->summary()));
        QVERIFY2(v->summary().contains("every point has array H-tree"), qPrintable(v->summary()));
        const int levels = v->table()->axisIndex("levels");
        QCOMPARE(sweep::axisValues(*v->table(), levels), (std::vector<std::string>{"2", "3", "4", "5"}));
    }

    void clickingAPointOpensItsRun() {
        const Options o = options("click.sqlite");
        sweepThroughCore(o.db, kSixteen);
        MainWindow w(o);
        w.resize(1280, 800);
        w.show();
        QVERIFY(w.jobs().waitForIdle());
        w.showView("sweep");
        SweepView* v = w.views().get<SweepTab>()->view();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QSignalSpy chosen(v, &SweepView::runChosen);
        const std::size_t row = v->scatter()->front().front();
        const qint64 id = v->table()->rows[row].run_id;
        v->scatter()->plot()->replot(QCustomPlot::rpImmediateRefresh);
        QCOMPARE(v->scatter()->rowAt(v->scatter()->pointPosition(row)), long(row));
        QVERIFY(v->scatter()->pointText(row).contains("on the Pareto front"));
        QTest::mouseClick(v->scatter()->plot(), Qt::LeftButton, {}, v->scatter()->pointPosition(row));
        QCOMPARE(chosen.count(), 1);
        QCOMPARE(chosen[0][0].toLongLong(), id);
        QVERIFY(w.jobs().waitForIdle());
        QVERIFY(w.session().currentRun());
        QCOMPARE(w.session().currentRun()->id, id);
        // A table row does the same.
        w.showView("sweep");
        const QModelIndex cell = v->tableView()->model()->index(5, 0);
        const qint64 row_id = cell.data(SweepTableModel::RunIdRole).toLongLong();
        v->tableView()->scrollTo(cell);
        QTest::mouseClick(v->tableView()->viewport(), Qt::LeftButton, {}, v->tableView()->visualRect(cell).center());
        QCOMPARE(chosen.count(), 2);
        QCOMPARE(chosen[1][0].toLongLong(), row_id);
        QVERIFY(w.jobs().waitForIdle());
        QCOMPARE(w.session().currentRun()->id, row_id);
        // And a dot of the small multiples.
        w.showView("sweep");
        v->showFigure(1);
        v->multiples()->plot()->replot(QCustomPlot::rpImmediateRefresh);
        const QPoint dot = v->multiples()->pointPosition(row);
        QCOMPARE(v->multiples()->rowAt(dot), long(row));
        QTest::mouseClick(v->multiples()->plot(), Qt::LeftButton, {}, dot);
        QCOMPARE(chosen.count(), 3);
        QCOMPARE(chosen[2][0].toLongLong(), id);
    }

    // --db F --db-read-only --view sweep --screenshot, as the application starts (issue 26 items 8, 10):
    // a refused F keeps its own error (the built-in example, computed into a temporary database, must
    // not replace it), and a FIFO is refused without blocking (ctest's time limit guards the test).
    void aRefusedDatabaseKeepsItsOwnErrorOnTheSweepView() {
        const QString garbage = dir_.filePath("garbage.sqlite");
        QFile file(garbage);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QByteArray(200, 'x'));
        file.close();
        const QString fifo = dir_.filePath("fifo.sqlite");
        QCOMPARE(::mkfifo(fifo.toUtf8().constData(), 0600), 0);
        for (const auto& [db, why] : {std::pair{garbage, QString("not a Partita results database")},
                                      std::pair{fifo, QString("it is a FIFO (named pipe), not a regular file")}}) {
            Options o = options("unused.sqlite");
            o.db = db;
            o.db_read_only = true;
            o.view = "sweep";
            o.screenshot = dir_.filePath("refused.png");
            MainWindow w(o);
            w.show();
            QVERIFY(saveScreenshot(w, o.screenshot, o.view));  // application.cpp's screenshot path
            QVERIFY2(w.lastError().startsWith("Runs are not being stored: " + db + ": "), qPrintable(w.lastError()));
            QVERIFY2(w.lastError().contains(why), qPrintable(w.lastError()));
            QVERIFY(!w.runStore().db());
            QVERIFY(!w.views().get<SweepTab>()->view()->table() || w.views().get<SweepTab>()->view()->table()->rows.empty());
        }
    }

    void startSweepCompletesAndCancelStops() {
        const Options o = options("start.sqlite");
        MainWindow w(o);
        w.show();
        QVERIFY(w.jobs().waitForIdle());
        SweepTab* tab = w.views().get<SweepTab>();
        QVERIFY(!tab->startSweep(dir_.filePath("missing.json")).isEmpty());  // said at once, nothing runs
        QVERIFY(!tab->job().running());

        int ticks = 0;
        QTimer ticker;
        connect(&ticker, &QTimer::timeout, [&ticks] { ++ticks; });
        ticker.start(5);
        QSignalSpy finished(&tab->job(), &SweepJob::finished);
        QCOMPARE(tab->startSweep(QString(PARTITA_EXAMPLES_DIR) + "/sweeps/analytic.json"), QString());
        QVERIFY(tab->job().running());
        QVERIFY(tab->job().waitForIdle());
        QCOMPARE(finished.count(), 1);
        QCOMPARE(finished[0][1].toBool(), false);
        QCOMPARE(tab->view()->table()->rows.size(), std::size_t(304));
        QVERIFY(ticks > 0);  // the GUI thread kept turning

        // A slow sweep (MCMC points) cancelled at once: the points in flight finish, the rest waits.
        const QString slow = dir_.filePath("slow.json");
        QFile f(slow);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"format": "partita-sweep/1", "name": "slow", "networks": ["alexnet"], "topologies": ["p100-16"],
                    "methods": [{"method": "mcmc", "iterations": 3000}], "axes": {"seed": [1, 2, 3, 4, 5, 6, 7, 8, 9,
                    10, 11, 12, 13, 14, 15, 16]}})");
        f.close();
        ticks = 0;
        QCOMPARE(tab->startSweep(slow), QString());
        tab->job().cancel();
        QVERIFY(tab->job().waitForIdle(120000));
        QCOMPARE(finished.count(), 2);
        QCOMPARE(finished[1][1].toBool(), true);
        const std::size_t after_cancel = tab->view()->table()->rows.size();
        QVERIFY(after_cancel < 304 + 16);
        QVERIFY(ticks > 0);
        std::set<std::string> keys;
        for (const auto& r : tab->view()->table()->rows) keys.insert(r.key);
        QCOMPARE(keys.size(), after_cancel);  // no point twice
    }
};

QTEST_MAIN(SweepViewTest)
#include "sweep_view_test.moc"
