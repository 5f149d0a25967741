// CompareView: grid diffs against the first run, the metrics table, the two
// charts, the CSV tables, and screenshots at 1280x800 to look at.
#include <QDir>
#include <QLabel>
#include <QTableWidget>
#include <QtTest>

#include <qcustomplot.h>

#include "core/io/network_io.h"
#include "core/run/run.h"
#include "tests/qt_test_util.h"
#include "widgets/compare/compare_view.h"
#include "widgets/grid/grid_view.h"

using namespace partita;

namespace {

InputsPtr inputsFor(const char* network, int levels = 4) {
    const std::string path = std::string(PARTITA_EXAMPLES_DIR) + "/networks/" + network + ".json";
    return makeInputs(loadNetwork(path), defaultArray(levels), CostParams{}, path);
}

RunPtr planned(const InputsPtr& inputs, Method method) { return std::make_shared<const Run>(planRun(inputs, method)); }

}  // namespace

class CompareViewTest : public QObject {
    Q_OBJECT
private slots:
    void emptyView();
    void hyparVersusDp();
    void differentCostModelsAreSaid();
    void shapeMismatchIsNotDiffed();
    void csvTables();
    void fourRunsOnVggE();
};

void CompareViewTest::emptyView() {
    CompareView view;
    view.setRuns({});
    QCOMPARE(view.metricsTable()->rowCount(), 0);
    QCOMPARE(view.levelChart()->plottableCount(), 0);
    QCOMPARE(view.gridView(0), nullptr);
    QCOMPARE(view.differingCells(1), 0);
    view.resize(1280, 800);
    shoot(view, QStringLiteral("compare-empty.png"));
}

void CompareViewTest::differentCostModelsAreSaid() {
    const InputsPtr in = inputsFor("lenet-c");
    CompareView view;
    view.setRuns({planned(in, Method::HyPar), planned(in, Method::DataParallel)});
    QVERIFY(view.modelNote().isEmpty());
    QVERIFY(!view.findChild<QLabel*>("model-note")->isVisibleTo(&view));
    view.setRuns({planned(in, Method::HyPar), std::make_shared<const Run>(accparRun(in))});
    const QString note = view.modelNote();
    QVERIFY2(note.contains("#1 HyPar's model, 4 B/element") && note.contains("#2 AccPar's model, 2 B/element"),
             qPrintable(note));
    QVERIFY(view.findChild<QLabel*>("model-note")->isVisibleTo(&view));
}

void CompareViewTest::hyparVersusDp() {
    const InputsPtr in = inputsFor("lenet-c");
    const RunPtr hypar = planned(in, Method::HyPar), dp = planned(in, Method::DataParallel);
    int expected = 0;
    for (int h = 0; h < hypar->grid.levels(); ++h)
        for (int l = 0; l < hypar->grid.layers(); ++l) expected += hypar->grid.split(h, l) != dp->grid.split(h, l);
    QVERIFY(expected > 0);

    CompareView view;
    view.setRuns({hypar, dp});
    QCOMPARE(view.differingCells(0), 0);
    QCOMPARE(view.differingCells(1), expected);
    QCOMPARE(view.metricsTable()->rowCount(), 2);
    QCOMPARE(view.levelChart()->plottableCount(), 2);
    for (int i = 0; i < 2; ++i) QVERIFY(qobject_cast<QCPBars*>(view.levelChart()->plottable(i)));
    QCOMPARE(view.timeChart()->plottableCount(), 2);  // compute + communication, stacked

    // The second grid is read-only, compact and marks exactly the differing cells.
    GridView* second = view.gridView(1);
    QVERIFY(second);
    QVERIFY(!second->editable());
    int marked = 0;
    for (int h = 0; h < 4; ++h)
        for (int l = 0; l < 4; ++l) marked += second->cellDiffers(h, l);
    QCOMPARE(marked, expected);
    QCOMPARE(view.metricsTable()->item(1, 1)->text(), QString::fromStdString(withCommas(dp->eval().total_elements)));
    QCOMPARE(view.metricsTable()->item(0, 7)->text(), QString::fromStdString(fixed(hypar->perfVsDp(), 2)) + " x");

    view.resize(1280, 800);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    shoot(view, QStringLiteral("compare-lenet-1280.png"));
}

void CompareViewTest::shapeMismatchIsNotDiffed() {
    const RunPtr lenet = planned(inputsFor("lenet-c"), Method::HyPar);
    const RunPtr alex = planned(inputsFor("alexnet", 3), Method::DataParallel);
    CompareView view;
    view.setRuns({lenet, alex});
    QCOMPARE(view.differingCells(1), 0);
    QVERIFY(!view.gridView(1)->cellDiffers(0, 0));
    QCOMPARE(view.levelChart()->plottableCount(), 2);
}

void CompareViewTest::csvTables() {
    const InputsPtr in = inputsFor("lenet-c");
    CompareView view;
    view.setRuns({planned(in, Method::HyPar), planned(in, Method::ModelParallel), planned(in, Method::OneWeirdTrick)});
    const CsvTable m = view.metricsCsv();
    QCOMPARE(static_cast<int>(m.rows.size()), 3);
    for (const char* column : {"total_elements", "total_GB", "step_time_s", "energy_J", "perf_vs_dp_x"})
        QVERIFY2(std::find(m.header.begin(), m.header.end(), column) != m.header.end(), column);
    const CsvTable l = view.levelCommCsv();
    QCOMPARE(static_cast<int>(l.rows.size()), 3 * 4);
    QCOMPARE(l.rows[5][1], std::string("H2"));
    QCOMPARE(l.rows[5][2], formatNumber(view.runs()[1]->eval().level_comm[1]));
}

void CompareViewTest::fourRunsOnVggE() {
    const InputsPtr in = inputsFor("vgg-e");
    std::vector<RunPtr> runs;
    for (Method m : kAllMethods) runs.push_back(planned(in, m));
    CompareView view;
    view.setRuns(runs);
    QCOMPARE(view.metricsTable()->rowCount(), 4);
    QCOMPARE(view.levelChart()->plottableCount(), 4);
    view.resize(1280, 800);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    shoot(view, QStringLiteral("compare-vgge-1280.png"));
    shoot(*view.gridView(1), QStringLiteral("compare-vgge-grid1.png"));
}

QTEST_MAIN(CompareViewTest)
#include "compare_view_test.moc"
