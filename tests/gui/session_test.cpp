// The window's Session without a window: inputs, the searched and shown runs, grid edits with
// undo, keeping an edit in the results database, and the signals views follow.
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include "app/gui/run_store.h"
#include "app/gui/session.h"
#include "core/io/network_io.h"
#include "core/store/results_db.h"

using namespace partita;
using namespace partita::gui;

class SessionTest : public QObject {
    Q_OBJECT

    static InputsPtr lenet(int levels = 4) {
        const Network net = loadNetwork(std::string(PARTITA_EXAMPLES_DIR) + "/networks/lenet-c.json");
        return makeInputs(net, defaultArray(levels), CostParams{});
    }

private slots:
    void inputsSayWhetherTheirShapeChanged() {
        RunStore store;
        Session session(store);
        QSignalSpy changed(&session, &Session::inputsChanged);
        session.setInputs(lenet());
        session.setInputs(lenet());       // the same network and levels
        session.setInputs(lenet(3));      // one level fewer
        QCOMPARE(changed.count(), 3);
        QCOMPARE(changed.at(0).at(0).toBool(), true);
        QCOMPARE(changed.at(1).at(0).toBool(), false);
        QCOMPARE(changed.at(2).at(0).toBool(), true);
        QCOMPARE(session.inputs()->array.levels, 3);
    }

    void aToggledCellIsAnUndoableUnkeptEdit() {
        RunStore store;
        Session session(store);
        session.setInputs(lenet());
        const RunPtr searched = std::make_shared<const Run>(planRun(session.inputs(), Method::HyPar));
        QSignalSpy shown(&session, &Session::runChanged);
        session.arrive(searched);
        QCOMPARE(session.searchedRun(), searched);
        QCOMPARE(session.currentRun(), searched);
        QCOMPARE(shown.count(), 1);

        const Split before = searched->grid.at(0, 0).split;
        session.toggleCell(0, 0);
        QCOMPARE(session.gridEdits().count(), 1);
        QVERIFY(session.currentRun() != searched);
        QCOMPARE(session.currentRun()->kind, RunKind::Edited);
        QVERIFY(session.currentRun()->grid.at(0, 0).split != before);
        QCOMPARE(session.pendingRun(), session.currentRun());
        QCOMPARE(session.gridToLower(), session.currentRun()->grid);
        QCOMPARE(shown.count(), 2);

        session.gridEdits().undo();  // back to the searched run itself: nothing left to keep
        QCOMPARE(session.currentRun(), searched);
        QCOMPARE(session.pendingRun(), RunPtr());

        session.toggleCell(0, 0);
        session.resetGrid();  // an edit of its own, undoable like the flip
        QCOMPARE(session.currentRun(), searched);
        QCOMPARE(session.gridEdits().count(), 2);
        session.toggleCell(99, 0);  // no such level: nothing happens
        QCOMPARE(session.gridEdits().count(), 2);

        const RunPtr dp = std::make_shared<const Run>(planRun(session.inputs(), Method::DataParallel));
        session.arrive(dp);
        QCOMPARE(session.gridEdits().count(), 0);  // edits referred to the previous answer
        QCOMPARE(session.searchedRun(), dp);       // a baseline's plan is what its edits refer to
    }

    void keepStoresTheEditOnce() {
        QTemporaryDir dir;
        RunStore store;
        QVERIFY(store.open(dir.filePath("runs.sqlite"), false).isEmpty());
        Session session(store);
        session.setInputs(lenet());
        session.arrive(std::make_shared<const Run>(planRun(session.inputs(), Method::HyPar)));
        session.toggleCell(1, 1);
        const RunPtr edited = session.currentRun();
        QSignalSpy stored(&session, &Session::runStored);
        session.keep();
        QCOMPARE(stored.count(), 1);
        QCOMPARE(session.pendingRun(), RunPtr());
        QVERIFY(session.currentRun() != edited);  // the stored copy, with its id
        QVERIFY(session.currentRun()->id > 0);
        QCOMPARE(session.currentRun()->grid, edited->grid);
        session.keep();  // nothing left to keep
        QCOMPARE(stored.count(), 1);
        QCOMPARE(store.db()->list().size(), size_t{1});
    }
};

QTEST_MAIN(SessionTest)
#include "session_test.moc"
