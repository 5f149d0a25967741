// The topology editor's tables on item models (issue 27 item 5): both models pass Qt's model tester
// through adds, edits, removals and undo; a cell edited through the model changes the document as
// one undoable edit, a bad value is refused with its reason and changes nothing; the exact SI value
// is in RawValueRole, and the CSV comes from the model in document order whatever the sort.
#include <QAbstractItemModelTester>
#include <QHeaderView>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QSignalSpy>
#include <QTableView>
#include <QtTest>

#include "core/util/format.h"
#include "widgets/common/model_csv.h"
#include "widgets/common/result_table_model.h"
#include "widgets/topology_editor/topology_editor_view.h"

using namespace partita;

namespace {

// A source-model cell by row and column (the tables show them through a sort proxy).
QVariant at(TopologyTableModel* m, int row, int column, int role = Qt::DisplayRole) { return m->index(row, column).data(role); }

}  // namespace

class TopologyTableModelTest : public QObject {
    Q_OBJECT
private slots:
    void bothModelsPassTheModelTester() {
        TopologyEditorView v;
        QAbstractItemModelTester devices(v.devicesModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester links(v.linksModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester sorted(v.devicesTable()->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        v.setDocument(sim::builtinTopology("p100-16"));
        QCOMPARE(v.devicesModel()->rowCount(), v.document().vertexCount());  // devices, then switches
        QCOMPARE(v.linksModel()->rowCount(), static_cast<int>(sim::linkRows(v.document()).size()));
        v.addDevices(2);
        v.addSwitch();
        v.selectVertices({16, 17});
        v.addLink();
        QVERIFY(v.devicesModel()->setData(v.devicesModel()->index(0, 2), "12.5"));
        v.devicesTable()->sortByColumn(2, Qt::DescendingOrder);
        v.removeSelectedVertices();
        v.undoStack().undo();
        v.undoStack().undo();
        v.newTopology();
        QCOMPARE(v.devicesModel()->rowCount(), 0);
    }

    void aDeviceCellEditIsOneUndoableEdit() {
        TopologyEditorView v;
        v.setDocument(sim::builtinTopology("p100-16"));
        TopologyTableModel* m = v.devicesModel();
        const sim::Topology before = v.document();
        QCOMPARE(at(m, 1, 2).toString(), QString("10.6"));                        // Peak TFLOP/s, shown
        QCOMPARE(at(m, 1, 2, RawValueRole).toDouble(), before.devices[1].peak_flops);  // exact FLOP/s
        QVERIFY(m->flags(m->index(1, 2)) & Qt::ItemIsEditable);
        QVERIFY(m->setData(m->index(1, 2), "12.5"));
        QCOMPARE(v.document().devices[1].peak_flops, 12.5e12);
        QCOMPARE(at(m, 1, 2).toString(), QString("12.5"));
        QCOMPARE(v.undoStack().count(), 1);
        QVERIFY(m->setData(m->index(1, 0), "fast"));
        QCOMPARE(v.document().devices[1].name, std::string("fast"));
        QVERIFY(m->setData(m->index(1, 7), "9"));
        QCOMPARE(v.document().devices[1].node, 9);
        QCOMPARE(v.undoStack().count(), 3);
        v.undoStack().undo();
        v.undoStack().undo();
        v.undoStack().undo();
        QVERIFY(v.document() == before);
        QCOMPARE(at(m, 1, 2).toString(), QString("10.6"));
        // Refused: a bad number, a duplicate name; nothing changes and the reason is said.
        QSignalSpy said(&v, &TopologyEditorView::message);
        QVERIFY(!m->setData(m->index(1, 5), "1.5"));
        QVERIFY(!m->setData(m->index(1, 0), "n0.gpu0"));
        QVERIFY(!m->setData(m->index(1, 2), "fast"));
        QVERIFY(v.document() == before);
        QCOMPARE(v.undoStack().count(), 3);
        QCOMPARE(said.size(), 3);
        QCOMPARE(said[0][0].toString(), QString("Efficiency of row 2: Must be above 0 and at most 1"));
        QCOMPARE(said[1][0].toString(), QString("Name of row 2: Another device or switch is named n0.gpu0"));
        // A switch's numbers are not cells to edit.
        v.addSwitch();
        const int sw = v.document().vertexCount() - 1;
        QCOMPARE(at(m, sw, 1).toString(), QString("switch"));
        QCOMPARE(at(m, sw, 3).toString(), QString("—"));
        QVERIFY(!(m->flags(m->index(sw, 3)) & Qt::ItemIsEditable));
        QVERIFY(!m->setData(m->index(sw, 3), "5"));
    }

    void aLinkCellEditChangesBothDirections() {
        TopologyEditorView v;
        v.setDocument(sim::builtinTopology("p100-16"));
        TopologyTableModel* m = v.linksModel();
        const auto rows = sim::linkRows(v.document());
        QVERIFY(rows[0].duplex());
        QCOMPARE(at(m, 0, 2).toString(), QString("⇄"));
        QVERIFY(m->setData(m->index(0, 3), "40"));  // Bandwidth GB/s
        QCOMPARE(v.document().links[static_cast<size_t>(rows[0].forward)].bandwidth_Bps, 40e9);
        QCOMPARE(v.document().links[static_cast<size_t>(rows[0].reverse)].bandwidth_Bps, 40e9);
        QCOMPARE(at(m, 0, 3, RawValueRole).toDouble(), 40e9);
        QVERIFY(m->setData(m->index(0, 1), "n3.gpu3"));  // To, by name
        QCOMPARE(v.document().links[static_cast<size_t>(rows[0].forward)].to, v.document().findVertex("n3.gpu3"));
        QCOMPARE(v.document().links[static_cast<size_t>(rows[0].reverse)].from, v.document().findVertex("n3.gpu3"));
        QVERIFY(!m->setData(m->index(0, 1), "nowhere"));
        QVERIFY(!m->setData(m->index(0, 4), "-1"));
        QCOMPARE(v.undoStack().count(), 2);
        v.undoStack().undo();
        v.undoStack().undo();
        QVERIFY(v.document() == sim::builtinTopology("p100-16"));
    }

    void aCellTypedInTheSortedTableReachesItsDevice() {
        TopologyEditorView v;
        v.setDocument(sim::builtinTopology("p100-16"));
        v.resize(1024, 700);
        v.QWidget::show();
        v.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&v));
        QTableView* t = v.devicesTable();
        t->sortByColumn(0, Qt::DescendingOrder);  // switches (s…) first, then n3.gpu3, …
        const auto* sorted = qobject_cast<QSortFilterProxyModel*>(t->model());
        int row = 0;
        while (sorted->mapToSource(sorted->index(row, 0)).row() >= v.document().deviceCount()) ++row;
        const QModelIndex shown = sorted->index(row, 2);
        const int device = sorted->mapToSource(shown).row();
        QCOMPARE(v.document().devices[static_cast<size_t>(device)].name, std::string("n3.gpu3"));
        t->setCurrentIndex(shown);
        t->edit(shown);
        auto* editor = t->viewport()->findChild<QLineEdit*>();
        QVERIFY(editor);
        QCOMPARE(editor->text(), QString("10.6"));
        editor->setFocus();
        QTest::keyClicks(editor, "\b\b\b\b50");
        QCOMPARE(editor->text(), QString("50"));
        QTest::keyClick(editor, Qt::Key_Return);  // commits through a queued call
        QTRY_COMPARE(v.document().devices[static_cast<size_t>(device)].peak_flops, 50e12);
        QCOMPARE(v.undoStack().count(), 1);
        QCOMPARE(sorted->mapFromSource(v.devicesModel()->index(device, 2)).data().toString(), QString("50"));
        // The view goes with a cell editor open: the tables leave before the document they read.
        t->edit(sorted->index(row, 3));
        QVERIFY(t->viewport()->findChild<QLineEdit*>());
    }

    void theCsvComesFromTheModelInDocumentOrder() {
        TopologyEditorView v;
        v.setDocument(sim::builtinTopology("p100-16"));
        v.addSwitch();
        v.devicesTable()->sortByColumn(0, Qt::DescendingOrder);  // by name, last first
        QVERIFY(v.devicesTable()->model()->index(0, 0).data().toString() != QString("n0.gpu0"));
        const CsvTable csv = v.devicesCsv();
        const int n = v.document().vertexCount();
        QCOMPARE(csv.header, (std::vector<std::string>{"name", "kind", "peak_flops", "mem_bandwidth_Bps", "mem_capacity_B",
                                                        "efficiency", "task_overhead_s", "node"}));
        QCOMPARE(csv.rows.size(), static_cast<std::size_t>(n));
        for (int r = 0; r < n; ++r) QCOMPARE(csv.rows[static_cast<std::size_t>(r)][0], v.document().vertexName(r));
        QCOMPARE(csv.rows[0], (std::vector<std::string>{"n0.gpu0", "p100", formatNumber(10.6e12), formatNumber(732e9), formatNumber(17179869184.0),
                                                         "0.6", "0", "0"}));
        QCOMPARE(csv.rows.back(), (std::vector<std::string>{v.document().vertexName(n - 1), "switch", "", "", "", "", "", ""}));
        const CsvTable links = v.linksCsv();
        // The links file is the document's directed links with their names (a duplex cable is two rows).
        QCOMPARE(links.header, (std::vector<std::string>{"name", "from", "to", "bandwidth_Bps", "latency_s", "kind"}));
        QCOMPARE(links.rows.size(), v.document().links.size());
        const sim::Link& first = v.document().links.front();
        QCOMPARE(links.rows[0], (std::vector<std::string>{first.name, v.document().vertexName(first.from), v.document().vertexName(first.to),
                                                           formatNumber(first.bandwidth_Bps), formatNumber(first.latency_s), first.kind}));
    }
};

QTEST_MAIN(TopologyTableModelTest)
#include "topology_table_model_test.moc"
