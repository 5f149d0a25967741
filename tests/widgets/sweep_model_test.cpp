// The sweep table's model (issue 27 item 5): it passes Qt's model tester, keeps exact values in the
// app's one raw role (RawValueRole), sorts an axis of numbers numerically through SweepFilter, and
// its CSV is csvFromModel's: numbers exact, a missing metric and a failed point's run left empty.
#include <cmath>

#include <QAbstractItemModelTester>
#include <QColor>
#include <QFont>
#include <QtTest>

#include "core/io/csv.h"
#include "widgets/common/model_csv.h"
#include "widgets/sweep/sweep_model.h"

using namespace partita;

namespace {

// Two stored points with batch 10 and 9, and a failed one.
std::shared_ptr<const sweep::Table> smallTable() {
    auto t = std::make_shared<sweep::Table>();
    t->axes = {"network", "array", "method", "batch"};
    const double nan = std::nan("");
    sweep::TableRow ten{"k10", "s", "", 5, {"vgg", "a", "hypar", "10"}, {0.002, nan, 100, 2}};
    sweep::TableRow nine{"k9", "s", "", 7, {"vgg", "a", "hypar", "9"}, {0.0015, nan, 80, 2.5}};
    sweep::TableRow failed{"kf", "s", "boom", 0, {"vgg", "a", "dp", "8"}, {nan, nan, nan, nan}};
    t->rows = {ten, nine, failed};
    return t;
}

// An LLM sweep's: tp x pp over llm's figures, with its fits verdict in the speed-up's place.
std::shared_ptr<const sweep::Table> llmTable() {
    auto t = std::make_shared<sweep::Table>();
    t->axes = {"method", "tp", "pp"};
    t->columns[0] = {"iteration_s", "iteration (s)", false, SummaryFigure{"iteration", "s", 1, true}};
    t->columns[1] = {"mfu_pct", "MFU (%)", true, SummaryFigure{"MFU", "%", 1, false, true}};
    t->columns[2] = {"peak_memory_gib", "peak memory (GiB)", false, SummaryFigure{"peak memory", "GiB", 1}};
    t->columns[3] = {"fits", "fits", true, std::nullopt, true};
    t->rows = {{"a", "s", "", 1, {"llm", "2", "1"}, {1.5, 40, 60, 1}, "llm"},
               {"b", "s", "", 2, {"llm", "1", "1"}, {1.2, 50, 120, 0}, "llm"},
               {"c", "s", "", 3, {"llm", "1", "2"}, {1.3, 45, 70, 1}, "llm"}};
    return t;
}

}  // namespace

class SweepModelTest : public QObject {
    Q_OBJECT
private slots:
    void passesTheModelTester() {
        SweepTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
        model.setTable(smallTable());
        model.setGroupAxis(2);
        model.setGroupRows({0, 1});
        model.setGroupAxis(-1);
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.columnCount(), 4 + 4 + 2);
    }

    void keepsExactValuesInTheRawRole() {
        SweepTableModel model;
        model.setTable(smallTable());
        // Columns: the varying axes (method, batch), the four metrics, the constant network and array, status, run.
        QCOMPARE(model.headerData(2, Qt::Horizontal).toString(), QString("Step time\n(s)"));
        QCOMPARE(model.index(0, 2).data(RawValueRole).toDouble(), 0.002);
        QCOMPARE(model.index(0, 4).data().toString(), QString("100 el"));
        QCOMPARE(model.index(0, 4).data(RawValueRole).toDouble(), 100.0);
        QCOMPARE(model.index(0, 1).data(RawValueRole).toDouble(), 10.0);  // a number axis sorts as a number
        QCOMPARE(model.index(0, 9).data(RawValueRole).toLongLong(), qint64(5));
        QCOMPARE(model.index(2, 8).data().toString(), QString("failed: boom"));
    }

    // An LLM sweep's table: tp and pp first, then iteration, MFU, peak memory and fits; a plan that does
    // not fit reads "no", is drawn in red and sorts before the ones that fit.
    void marksThePlansThatDoNotFit() {
        SweepTableModel model;
        model.setTable(llmTable());
        QCOMPARE(model.columnCount(), 2 + 4 + 1 + 2);
        QCOMPARE(model.headerData(0, Qt::Horizontal).toString(), QString("tp"));
        QCOMPARE(model.headerData(1, Qt::Horizontal).toString(), QString("pp"));
        QCOMPARE(model.headerData(2, Qt::Horizontal).toString(), QString("iteration\n(s)"));  // the unit on a second line
        QCOMPARE(model.headerData(5, Qt::Horizontal).toString(), QString("fits"));
        QCOMPARE(model.headerData(6, Qt::Horizontal).toString(), QString("method"));
        QCOMPARE(model.headerData(4, Qt::Horizontal, CsvTextRole).toString(), QString("peak memory (GiB)"));
        QCOMPARE(model.index(0, 5).data().toString(), QString("yes"));
        QCOMPARE(model.index(1, 5).data().toString(), QString("no"));
        QVERIFY(!model.index(0, 0).data(Qt::ForegroundRole).isValid());
        QCOMPARE(model.index(1, 0).data(Qt::ForegroundRole).value<QColor>(), QColor(0xb0, 0x1c, 0x1c));
        QCOMPARE(model.index(1, 3).data(Qt::ForegroundRole).value<QColor>(), QColor(0xb0, 0x1c, 0x1c));
        QVERIFY(model.index(1, 5).data(Qt::FontRole).value<QFont>().bold());
        SweepFilter filter;
        filter.setSourceModel(&model);
        filter.sort(5, Qt::AscendingOrder);
        QCOMPARE(filter.index(0, 5).data().toString(), QString("no"));
        QCOMPARE(filter.index(0, 0).data().toString(), QString("1"));
        QCOMPARE(csvFromModel(filter).rows[0][5], std::string("no"));
        // Grouped by tp: the share of each value's plans that fit.
        model.setGroupAxis(1);
        QCOMPARE(model.index(0, 3 + 4 + 3).data().toString(), QString("50 % yes"));  // mean fits of tp = 1
        QCOMPARE(model.index(0, 3 + 3).data().toString(), QString("yes"));          // best
    }

    void sortsANumberAxisNumerically() {
        SweepTableModel model;
        model.setTable(smallTable());
        SweepFilter filter;
        filter.setSourceModel(&model);
        filter.sort(1, Qt::AscendingOrder);
        QCOMPARE(filter.index(0, 1).data().toString(), QString("8"));
        QCOMPARE(filter.index(1, 1).data().toString(), QString("9"));
        QCOMPARE(filter.index(2, 1).data().toString(), QString("10"));  // as text "10" would come before "8"
    }

    void csvComesFromTheModel() {
        SweepTableModel model;
        model.setTable(smallTable());
        SweepFilter filter;
        filter.setSourceModel(&model);
        filter.setText("hypar");
        QCOMPARE(toCsv(csvFromModel(filter)),
                 std::string("method,batch,Step time (s),Energy (J),Communication (elements),"
                             "Speed-up over DP (×),network,array,status,run\r\n"
                             "hypar,10,0.002,,100,2,vgg,a,stored,5\r\n"
                             "hypar,9,0.0015,,80,2.5,vgg,a,stored,7\r\n"));
        // Grouped by method over every point: one row per method, counts as integers.
        model.setGroupAxis(2);
        filter.setText("");
        const CsvTable grouped = csvFromModel(filter);
        QCOMPARE(grouped.rows.size(), std::size_t(2));
        QCOMPARE(grouped.rows[0][0], std::string("dp"));
        QCOMPARE(grouped.rows[0][1], std::string("1"));  // points
        QCOMPARE(grouped.rows[0][2], std::string("1"));  // failed
        QCOMPARE(grouped.rows[1][1], std::string("2"));
    }
};

QTEST_MAIN(SweepModelTest)
#include "sweep_model_test.moc"
