// The sweep table's model (issue 27 item 5): it passes Qt's model tester, keeps exact values in the
// app's one raw role (RawValueRole), sorts an axis of numbers numerically through SweepFilter, and
// its CSV is csvFromModel's: numbers exact, a missing metric and a failed point's run left empty.
#include <cmath>

#include <QAbstractItemModelTester>
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
        // Columns: network, array, method, the four metrics, batch, status, run.
        QCOMPARE(model.headerData(3, Qt::Horizontal).toString(), QString("Step time (s)"));
        QCOMPARE(model.index(0, 3).data(RawValueRole).toDouble(), 0.002);
        QCOMPARE(model.index(0, 5).data().toString(), QString("100 el"));
        QCOMPARE(model.index(0, 5).data(RawValueRole).toDouble(), 100.0);
        QCOMPARE(model.index(0, 7).data(RawValueRole).toDouble(), 10.0);  // a number axis sorts as a number
        QCOMPARE(model.index(0, 9).data(RawValueRole).toLongLong(), qint64(5));
        QCOMPARE(model.index(2, 8).data().toString(), QString("failed: boom"));
    }

    void sortsANumberAxisNumerically() {
        SweepTableModel model;
        model.setTable(smallTable());
        SweepFilter filter;
        filter.setSourceModel(&model);
        filter.sort(7, Qt::AscendingOrder);
        QCOMPARE(filter.index(0, 7).data().toString(), QString("8"));
        QCOMPARE(filter.index(1, 7).data().toString(), QString("9"));
        QCOMPARE(filter.index(2, 7).data().toString(), QString("10"));  // as text "10" would come before "8"
    }

    void csvComesFromTheModel() {
        SweepTableModel model;
        model.setTable(smallTable());
        SweepFilter filter;
        filter.setSourceModel(&model);
        filter.setText("hypar");
        QCOMPARE(toCsv(csvFromModel(filter)),
                 std::string("network,array,method,Step time (s),Energy (J),Communication (elements),"
                             "Speed-up over DP (×),batch,status,run\r\n"
                             "vgg,a,hypar,0.002,,100,2,10,stored,5\r\n"
                             "vgg,a,hypar,0.0015,,80,2.5,9,stored,7\r\n"));
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
