// ResultTableModel, its sort proxy and the CSV writer (issue 27 item 5): the model passes Qt's
// model tester, keeps exact values in RawValueRole, sorts by number rather than text, and
// csvFromModel quotes as RFC 4180 asks and writes exact numbers.
#include <cmath>

#include <QAbstractItemModelTester>
#include <QTableView>
#include <QtTest>

#include "core/io/csv.h"
#include "widgets/common/model_csv.h"
#include "widgets/common/result_table_model.h"

using namespace partita;

namespace {

std::vector<ResultColumn> columns() {
    return {{"Name", "name", false, "who"}, {"Time (ms)", "time_s", true, {}}, {"Count", "count", true, {}},
            {"Hidden", {}, true, {}}};
}

ResultTableModel::Row row(const QString& name, double seconds, qint64 count) {
    return {textCell(name), numberCell(QString::number(seconds * 1e3, 'f', 1), seconds),
            countCell(QString::number(count), count), numberCell("x", 0)};
}

}  // namespace

class ResultTableModelTest : public QObject {
    Q_OBJECT
private slots:
    void passesTheModelTester() {
        ResultTableModel model(columns());
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setRows({row("a", 0.1, 9), row("b", 0.2, 10)});
        model.setRows({});
        model.setColumns(columns());
        model.setRows({row("c", 1, 1)});
        ResultSortModel sorted;
        QAbstractItemModelTester proxy_tester(&sorted, QAbstractItemModelTester::FailureReportingMode::QtTest);
        sorted.setSourceModel(&model);
        sorted.sort(1, Qt::DescendingOrder);
        sorted.setRowFilter([](int) { return false; });
        QCOMPARE(sorted.rowCount(), 0);
    }

    // ResultSortModel compares numbers in place (fast for thousands of rows): the order is the one
    // Qt's own comparison of the raw values gives, ties, NaN and big counts included.
    void sortsInTheOrderOfQtsComparison() {
        ResultTableModel model(columns());
        std::vector<ResultTableModel::Row> rows;
        for (int i = 0; i < 300; ++i) {
            const double t = i % 17 == 0 ? std::nan("") : (i * 7919 % 101) / 8.0;  // ties and NaN
            const qint64 n = i % 5 == 0 ? 9007199254740993 - i % 3 : (i * 31 % 13) - 6;
            rows.push_back(row(QString("r%1").arg(i * 37 % 300), t, n));
        }
        model.setRows(rows);
        ResultSortModel fast;
        fast.setSourceModel(&model);
        QSortFilterProxyModel qt;
        qt.setSortRole(RawValueRole);
        qt.setSourceModel(&model);
        for (int column : {0, 1, 2})
            for (Qt::SortOrder order : {Qt::AscendingOrder, Qt::DescendingOrder}) {
                fast.sort(column, order);
                qt.sort(column, order);
                for (int r = 0; r < model.rowCount(); ++r)
                    QCOMPARE(fast.mapToSource(fast.index(r, 0)).row(), qt.mapToSource(qt.index(r, 0)).row());
            }
    }

    void keepsExactValuesInTheRawRole() {
        ResultTableModel model(columns());
        const double exact = 0.1 + 0.2;  // 0.30000000000000004: shown "300.0", kept exact
        const qint64 big = 9007199254740993;  // not representable as a double
        model.setRows({row("a", exact, big)});
        QCOMPARE(model.index(0, 1).data().toString(), QString("300.0"));
        QCOMPARE(model.index(0, 1).data(RawValueRole).toDouble(), exact);
        QCOMPARE(model.index(0, 2).data(RawValueRole).toLongLong(), big);
        QCOMPARE(model.index(0, 1).data(Qt::TextAlignmentRole).value<Qt::Alignment>(), Qt::AlignRight | Qt::AlignVCenter);
        QCOMPARE(model.index(0, 0).data(Qt::TextAlignmentRole).value<Qt::Alignment>(), Qt::AlignLeft | Qt::AlignVCenter);
        QCOMPARE(model.headerData(0, Qt::Horizontal, Qt::ToolTipRole).toString(), QString("who"));
        const CsvTable csv = csvFromModel(model);
        QCOMPARE(csv.rows[0][1], std::string("0.30000000000000004"));
        QCOMPARE(csv.rows[0][2], std::string("9007199254740993"));
    }

    void sortsByNumberNotText() {
        auto* model = new ResultTableModel(columns());
        model->setRows({row("ten", 0.010, 10), row("nine", 0.009, 9), row("hundred", 0.1, 100)});
        QTableView* view = makeResultView(nullptr, "t", model);
        view->setSortingEnabled(true);
        view->sortByColumn(2, Qt::AscendingOrder);
        QCOMPARE(view->model()->index(0, 0).data().toString(), QString("nine"));
        QCOMPARE(view->model()->index(1, 0).data().toString(), QString("ten"));  // text would put "10" before "9"
        QCOMPARE(view->model()->index(2, 0).data().toString(), QString("hundred"));
        view->sortByColumn(1, Qt::DescendingOrder);
        QCOMPARE(view->model()->index(0, 0).data().toString(), QString("hundred"));
        QCOMPARE(resultModelOf(view), model);
        // The CSV reads the source: its order, whatever the view's sort.
        QCOMPARE(csvFromModel(*model).rows[0][0], std::string("ten"));
        delete view;
    }

    void csvQuotesAndLeavesOutUnexportedColumns() {
        ResultTableModel model(columns());
        ResultCell named = textCell("ignored");
        named.csv = "a, \"b\"\nc";
        model.setRows({{named, numberCell("1", 1e-9), countCell("-3", -3), numberCell("x", 1)}});
        const CsvTable csv = csvFromModel(model);
        QCOMPARE(csv.header, (std::vector<std::string>{"name", "time_s", "count"}));
        QCOMPARE(toCsv(csv), std::string("name,time_s,count\r\n\"a, \"\"b\"\"\nc\",1e-09,-3\r\n"));
    }
};

QTEST_MAIN(ResultTableModelTest)
#include "result_table_model_test.moc"
