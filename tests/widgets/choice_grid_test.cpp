// The per-layer choice grid: shape checks, clicks and keys report the picked
// option (never a disallowed one), overrides are marked, and the CSV and the
// stacked bars' CSV carry every number shown.
#include <QSignalSpy>
#include <QtTest>

#include "widgets/charts/layer_bars.h"
#include "widgets/common/choice_grid.h"

using namespace partita;

class ChoiceGridTest : public QObject {
    Q_OBJECT
private:
    static ChoiceGridData sample() {
        ChoiceGridData d;
        d.title = "sample";
        d.rows = {"a", "b"};
        d.columns = {"l0", "l1", "l2"};
        d.values = {1e-6, 2e-6, NAN, 3e-6, 1e-6, 5e-6};
        d.unit = "s";
        d.chosen = {0, 1, 1};
        d.best = {0, 1, 0};  // l2 was overridden onto b (a is not allowed there)
        return d;
    }

private slots:
    void rejectsMismatchedShapes() {
        ChoiceGrid g;
        ChoiceGridData d = sample();
        d.values.pop_back();
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, g.setData(d));
        d = sample();
        d.chosen = {0};
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, g.setData(d));
    }

    void clicksAndKeysReportAllowedCells() {
        ChoiceGrid g;
        g.resize(600, 260);
        g.setData(sample());
        g.show();
        QVERIFY(QTest::qWaitForWindowExposed(&g));
        QSignalSpy spy(&g, &ChoiceGrid::choiceRequested);
        QTest::mouseClick(&g, Qt::LeftButton, {}, g.cellRect(1, 0).center());
        QCOMPARE(spy.count(), 1);
        QCOMPARE(spy.at(0).at(0).toInt(), 1);
        QCOMPARE(spy.at(0).at(1).toInt(), 0);
        QTest::mouseClick(&g, Qt::LeftButton, {}, g.cellRect(0, 2).center());  // not allowed: nothing
        QCOMPARE(spy.count(), 1);
        QTest::keyClick(&g, Qt::Key_Left);   // to (0, 1)
        QTest::keyClick(&g, Qt::Key_Space);
        QCOMPARE(spy.count(), 2);
        QCOMPARE(spy.at(1).at(0).toInt(), 0);
        QCOMPARE(spy.at(1).at(1).toInt(), 1);
        QVERIFY(g.cellText(0, 2).contains("not allowed"));
        QVERIFY(g.cellText(1, 0).contains("3 us"));
    }

    void overridesAndCsv() {
        ChoiceGrid g;
        g.setData(sample());
        QVERIFY(!g.data().overridden(0));
        QVERIFY(g.data().overridden(2));
        const CsvTable t = g.csv();
        QCOMPARE(t.header.size(), size_t{5});
        QCOMPARE(t.rows.size(), size_t{3});
        QCOMPARE(t.rows[2][1], std::string());  // not allowed: empty
        QCOMPARE(t.rows[2][2], std::string("5e-06"));
        QCOMPARE(t.rows[2][3], std::string("b"));
        QCOMPARE(t.rows[2][4], std::string("a"));
        QVERIFY(!g.figureSize().isEmpty());
    }

    void layerBarsStackParts() {
        LayerBars bars;
        LayerBarsData d;
        d.unit = "s";
        d.layers = {"x", "y"};
        d.parts = {"compute", "comm"};
        d.stacks = {{"shown", {{1, 2}, {3, 4}}}, {"base", {{5, 6}, {7, 8}}}};
        bars.setData(d);
        const CsvTable t = bars.csv();
        QCOMPARE(t.rows.size(), size_t{4});
        QCOMPARE(t.rows[1], (std::vector<std::string>{"shown", "y", "2", "4", "6"}));
        QCOMPARE(t.rows[2][4], std::string("12"));
        d.stacks[0].values[0].pop_back();
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, bars.setData(d));
    }
};

QTEST_MAIN(ChoiceGridTest)
#include "choice_grid_test.moc"
