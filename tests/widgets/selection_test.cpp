// Selection: what the views share. Every set is announced with the view that chose (so it is not told
// back), even when the value is the one held; a device and a link exclude each other.
#include <QSignalSpy>
#include <QtTest>

#include "widgets/common/selection.h"

using namespace partita;

class SelectionTest : public QObject {
    Q_OBJECT
private slots:
    void everySetIsAnnouncedWithItsSource() {
        Selection sel;
        QObject grid;
        QSignalSpy cells(&sel, &Selection::cellChanged);
        sel.setCell(1, 2, &grid);
        sel.setCell(1, 2);  // the same cell again: a view that moved on follows it
        QCOMPARE(cells.count(), 2);
        QCOMPARE(cells[0][0].toInt(), 1);
        QCOMPARE(cells[0][1].toInt(), 2);
        QCOMPARE(cells[0][2].value<QObject*>(), &grid);
        QCOMPARE(cells[1][2].value<QObject*>(), nullptr);
        QCOMPARE(sel.level(), 1);
        QCOMPARE(sel.layer(), 2);
        QSignalSpy ops(&sel, &Selection::operatorChanged);
        sel.setOperator(7);
        QCOMPARE(ops.count(), 1);
        QCOMPARE(sel.op(), 7);
    }

    void aDeviceAndALinkExcludeEachOther() {
        Selection sel;
        QSignalSpy devices(&sel, &Selection::deviceChanged), links(&sel, &Selection::linkChanged);
        sel.setDevice(3);
        QCOMPARE(sel.device(), 3);
        QCOMPARE(sel.link(), -1);
        sel.setLink(5);
        QCOMPARE(sel.link(), 5);
        QCOMPARE(sel.device(), -1);
        sel.setDevice(-1);  // cleared
        QCOMPARE(sel.device(), -1);
        QCOMPARE(sel.link(), -1);
        QCOMPARE(devices.count(), 2);
        QCOMPARE(links.count(), 1);
    }
};

QTEST_MAIN(SelectionTest)
#include "selection_test.moc"
