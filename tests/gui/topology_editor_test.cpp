// The topology editor in the main window, offscreen, as a user drives it (issue 17): a ring of four
// devices drawn from an empty editor through its buttons and fields, saved and read back equal,
// simulated (VGG-A, DP) with the engine's step time, undone back to empty; a topology file with a
// zero-bandwidth link refused with the validation message naming the file and the link; the editor
// opening on the machine in use, asking before Open drops unsaved edits, and an import's
// approximations shown (issue 26, item 14).
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFile>
#include <QFileDialog>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include "app/gui/action_set.h"
#include "app/gui/main_window.h"
#include "app/gui/simulation_controller.h"
#include "app/gui/options.h"
#include "app/gui/topology_editor_tab.h"
#include "app/gui/topology_generate_dialog.h"
#include "core/sim/baselines.h"
#include "core/sim/simulator.h"
#include "core/topology/check.h"
#include "core/topology/levels.h"
#include "tests/qt_test_util.h"
#include "widgets/settings/sim_params_editor.h"
#include "widgets/simulation/simulation_view.h"
#include "widgets/topology_editor/topology_editor_view.h"

using namespace partita;
using namespace partita::gui;

namespace {
const QString kExamples = PARTITA_EXAMPLES_DIR;

void click(QPushButton* b) {
    QVERIFY(b && b->isEnabled());
    QTest::mouseClick(b, Qt::LeftButton);
}
}  // namespace

class TopologyEditorTest : public QObject {
    Q_OBJECT
private:
    QTemporaryDir dir_;
    Options vgg() const {
        Options o;
        o.network = kExamples + "/networks/vgg-a.json";
        o.db = dir_.filePath("topology-editor.sqlite");
        return o;
    }

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, dir_.filePath("settings"));
    }

    void drawARingSaveSimulateAndUndo() {
        MainWindow w(vgg());
        w.show();
        QVERIFY(w.jobs().waitForIdle());
        w.showView("topology-editor");
        TopologyEditorView* v = w.views().get<TopologyEditorTab>()->view();
        QCOMPARE(w.views().shown(), static_cast<QWidget*>(v));
        QVERIFY(v->document() == sim::builtinTopology("p100-16"));  // the machine in use
        click(v->button("new"));  // nothing edited yet: no question
        QVERIFY(v->document() == sim::Topology{});
        QCOMPARE(w.undoGroup().activeStack(), &v->undoStack());  // Edit ▸ Undo steps through the editor

        for (int k = 0; k < 4; ++k) click(v->button("add-device"));
        QCOMPARE(v->devicesTable()->model()->rowCount(), 4);
        QCOMPARE(v->devicesTable()->model()->index(3, 0).data().toString(), QString("d3"));
        for (int k = 0; k < 4; ++k) {  // select two devices, Add link: one duplex row each
            v->selectVertices({k, (k + 1) % 4});
            click(v->button("add-link"));
        }
        QCOMPARE(v->linksTable()->model()->rowCount(), 4);
        QCOMPARE(v->document().links.size(), 8u);
        QCOMPARE(v->linksTable()->model()->index(3, 2).data().toString(), QString("⇄"));
        // All four rows selected: 25 GB/s typed once sets all eight links (two keystrokes, one undo step).
        v->selectLinkRows({0, 1, 2, 3});
        QLineEdit* bandwidth = v->field("bandwidth");
        bandwidth->clear();
        QTest::keyClicks(bandwidth, "25");
        for (const sim::Link& l : v->document().links) QCOMPARE(l.bandwidth_Bps, 25e9);
        bandwidth->clear();
        QTest::keyClicks(bandwidth, "12.5");  // "12." applies 12 and keeps its dot while typing
        QCOMPARE(bandwidth->text(), QString("12.5"));
        for (const sim::Link& l : v->document().links) QCOMPARE(l.bandwidth_Bps, 12.5e9);
        QTest::keyClicks(v->field("latency"), "x");  // checked as typed: refused, shown, not applied
        QVERIFY(v->field("latency")->toolTip().contains("Not a number"));
        QCOMPARE(v->document().links[0].latency_s, 1e-6);
        v->nameField()->clear();
        QTest::keyClicks(v->nameField(), "ring4");
        QCOMPARE(v->document().name, std::string("ring4"));
        QCOMPARE(v->undoStack().count(), 4 + 4 + 1 + 1);
        QVERIFY(v->problems().empty());

        const QString path = dir_.filePath("ring4.json");
        QString error;
        QVERIFY2(v->saveAs(path, &error), qPrintable(error));
        const sim::Topology loaded = sim::loadTopology(path.toStdString());
        QVERIFY(loaded == v->document());

        // Use for Simulate, then Run: DP on the drawn ring, as the engine simulates the saved file.
        click(v->button("use"));
        QCOMPARE(w.runs().methodKey(), QString("simulate"));
        QCOMPARE(w.views().get<SimParamsEditor>()->topology(), path);  // saved and unchanged since: the file is its origin
        w.actionSet().action("run")->trigger();
        QVERIFY(w.jobs().waitForIdle());
        const RunPtr run = w.session().currentRun();
        QVERIFY(run && run->isSimulation());
        const Network& net = run->inputs->network;
        const double expect =
            sim::simulate(sim::buildTaskGraph(net, 256, sim::dataParallelStrategy(net, 256, 4), loaded)).makespan;
        QCOMPARE(run->simulation->makespan_s, expect);

        // Undo back to the empty document; redo all the way gives the saved graph again.
        QCOMPARE(w.views().shown(), static_cast<QWidget*>(w.views().get<SimulationView>()));  // the run is shown
        w.showView("topology-editor");  // Edit ▸ Undo follows the shown tab
        for (int k = 0; k < 20 && v->undoStack().canUndo(); ++k) w.actionSet().action("undo")->trigger();
        QVERIFY(v->document() == sim::Topology{});
        QCOMPARE(v->devicesTable()->model()->rowCount(), 0);
        for (int k = 0; k < 20 && v->undoStack().canRedo(); ++k) w.actionSet().action("redo")->trigger();
        QVERIFY(v->document() == loaded);
    }

    void editsOfSelectionsAndProblems() {
        MainWindow w(vgg());
        w.show();
        QVERIFY(w.jobs().waitForIdle());
        TopologyEditorView* v = w.views().get<TopologyEditorTab>()->view();
        v->addDevices(3);
        QCOMPARE(v->problems().size(), 3u);  // three devices without links
        QCOMPARE(v->problemsList()->item(0)->text(), QString("device 'd0' is not connected: it has no links"));
        v->problemsList()->setCurrentRow(2);  // a click on a problem selects its row
        QCOMPARE(v->selectedVertices(), std::set<int>{2});
        v->selectVertices({0, 1});
        QTest::keyClicks(v->field("efficiency"), "5");  // "15" after the "1" shown: above 1, refused
        QCOMPARE(v->document().devices[0].efficiency, 1.0);
        v->field("efficiency")->clear();
        QTest::keyClicks(v->field("efficiency"), "0.5");
        QCOMPARE(v->document().devices[0].efficiency, 0.5);
        QCOMPARE(v->document().devices[1].efficiency, 0.5);
        QCOMPARE(v->document().devices[2].efficiency, 1.0);
        // A one-way link, made duplex and one way again; removing the duplex row removes both links.
        v->selectVertices({0, 1});
        v->addLink();
        v->selectLinkRows({0});
        v->duplexBox()->click();
        QCOMPARE(v->document().links.size(), 1u);
        v->duplexBox()->click();
        QCOMPARE(v->document().links.size(), 2u);
        v->endpoint(false)->setCurrentIndex(2);
        emit v->endpoint(false)->activated(2);
        QCOMPARE(v->document().links[0].name, std::string("link d0->d2"));
        QCOMPARE(v->document().links[1].name, std::string("link d2->d0"));
        v->selectLinkRows({0});
        v->removeSelectedLinks();
        QVERIFY(v->document().links.empty());
    }

    // A drawn machine gets a HyPar/AccPar plan: the levels' bandwidths by bisection of its graph.
    void useForHyparAccparDerivesTheArray() {
        MainWindow w(vgg());
        w.show();
        QVERIFY(w.jobs().waitForIdle());
        w.showView("topology-editor");
        TopologyEditorView* v = w.views().get<TopologyEditorTab>()->view();
        const QString torus = kExamples + "/topologies/hmc-torus-16.json";
        QVERIFY(v->open(torus));
        click(v->button("use-array"));
        QVERIFY(w.jobs().waitForIdle());
        const Array array = w.session().inputs()->array;
        QCOMPARE(array.levels, 4);
        QCOMPARE(array.level_bandwidth_Bps, sim::bisectionLevelBandwidths(sim::loadTopology(torus.toStdString())));
        QVERIFY(w.statusBar()->currentMessage().contains("4 levels"));
        // Six devices are not 2^H: refused with the reason, the array unchanged.
        click(v->button("new"));
        for (int k = 0; k < 6; ++k) click(v->button("add-device"));
        for (int k = 0; k < 6; ++k) {
            v->selectVertices({k, (k + 1) % 6});
            click(v->button("add-link"));
        }
        click(v->button("use-array"));
        QVERIFY(w.statusBar()->currentMessage().startsWith("Not an array for HyPar/AccPar"));
        QCOMPARE(w.session().inputs()->array.level_bandwidth_Bps, array.level_bandwidth_Bps);
    }

    // Unsaved edits are not lost by closing the window: Cancel keeps it open, Discard closes.
    void closingWithUnsavedEditsAsks() {
        MainWindow w(vgg());
        w.show();
        QVERIFY(w.jobs().waitForIdle());
        w.showView("topology-editor");
        TopologyEditorView* v = w.views().get<TopologyEditorTab>()->view();
        click(v->button("add-device"));
        QVERIFY(!v->undoStack().isClean());
        const auto answer = [](QMessageBox::StandardButton button, QString* text) {
            QTimer::singleShot(0, [button, text] {
                auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
                if (!box) return;
                *text = box->text();
                box->button(button)->click();
            });
        };
        QString asked;
        answer(QMessageBox::Cancel, &asked);
        QVERIFY(!w.close());
        QVERIFY(asked.contains("unsaved changes"));
        QVERIFY(w.isVisible());
        asked.clear();
        answer(QMessageBox::Discard, &asked);
        QVERIFY(w.close());
        QVERIFY(!asked.isEmpty());
    }

    // The editor shows the machine Simulate runs on: the preset, then a 4 x 8 cluster just generated;
    // once edited it is the user's, and a new machine in use does not replace it.
    void editorOpensOnTheMachineInUse() {
        MainWindow w(vgg());
        w.resize(1024, 700);
        w.show();
        QVERIFY(w.jobs().waitForIdle());
        TopologyEditorView* v = w.views().get<TopologyEditorTab>()->view();
        w.showView("topology-editor");
        QVERIFY(v->document() == sim::builtinTopology("p100-16"));
        QVERIFY(v->undoStack().isClean());
        QCOMPARE(v->devicesTable()->model()->rowCount(), 21);
        w.showView("grid");
        whenModal<TopologyGenerateDialog>(this, [](TopologyGenerateDialog* d) {
            d->findChild<QComboBox*>("gen-shape")->setCurrentIndex(5);  // Cluster
            type(d->findChild<QLineEdit*>("gen-nodes"), "4");
            type(d->findChild<QLineEdit*>("gen-gpus"), "8");
            QTest::mouseClick(d->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok), Qt::LeftButton);
        });
        w.findChild<QAction*>("generate-topology")->trigger();
        const auto generated = w.simulation().chosenTopology();
        QVERIFY(generated && generated->deviceCount() == 32);
        w.showView("topology-editor");
        QVERIFY(v->document() == *generated);
        QVERIFY(v->problems().empty());
        shoot(w, "topology-editor-follows-4x8.png");
        // Generated while the editor is shown: it follows at once.
        QVERIFY(w.loader().openFile(kExamples + "/topologies/k80-64.json"));
        QCOMPARE(v->document().deviceCount(), 64);
        QCOMPARE(v->path(), QFileInfo(kExamples + "/topologies/k80-64.json").absoluteFilePath());
        click(v->button("add-device"));
        QVERIFY(w.loader().openFile(kExamples + "/topologies/p100-16.json"));
        QCOMPARE(v->document().deviceCount(), 65);  // the user's edits stay
    }

    // Open (and New) with unsaved edits ask Save, Discard or Cancel, as closing the window does.
    void openWithUnsavedEditsAsks() {
        MainWindow w(vgg());
        w.show();
        QVERIFY(w.jobs().waitForIdle());
        w.showView("topology-editor");
        TopologyEditorView* v = w.views().get<TopologyEditorTab>()->view();
        click(v->button("add-device"));
        const sim::Topology edited = v->document();
        QString asked;
        bool file_dialog = false;
        whenModal<QMessageBox>(this, [&](QMessageBox* box) {
            asked = box->text();
            box->button(QMessageBox::Cancel)->click();
        });
        QPointer<QTimer> unexpected = whenModal<QFileDialog>(this, [&](QFileDialog* d) {
            file_dialog = true;
            QMetaObject::invokeMethod(d, "reject");
        });
        click(v->button("open"));
        delete unexpected.data();
        QVERIFY2(asked.contains("unsaved changes"), qPrintable(asked));
        QVERIFY(!file_dialog);  // cancelled: no file is asked for
        QVERIFY(v->document() == edited);
        QVERIFY(!v->undoStack().isClean());
        // Discard: the file dialog follows and the chosen file replaces the edits.
        const QString torus = kExamples + "/topologies/hmc-torus-16.json";
        asked.clear();
        whenModal<QMessageBox>(this, [&](QMessageBox* box) {
            asked = box->text();
            box->button(QMessageBox::Discard)->click();
        });
        whenModal<QFileDialog>(this, [&](QFileDialog* d) {
            d->findChild<QLineEdit*>("fileNameEdit")->setText(torus);  // typed, as a user may
            static_cast<QDialog*>(d)->done(QDialog::Accepted);  // the path chosen, without the file views loading
        });
        click(v->button("open"));
        QVERIFY(!asked.isEmpty());
        QVERIFY(v->document() == sim::loadTopology(torus.toStdString()));
        QVERIFY(v->undoStack().isClean());
        // New asks the same, and Save writes the edits before starting over.
        QTest::keyClicks(v->nameField(), " kept");
        const sim::Topology more = v->document();
        const QString saved = dir_.filePath("kept.json");
        whenModal<QMessageBox>(this, [](QMessageBox* box) { box->button(QMessageBox::Save)->click(); });
        whenModal<QFileDialog>(this, [&](QFileDialog* d) {
            d->findChild<QLineEdit*>("fileNameEdit")->setText(saved);
            static_cast<QDialog*>(d)->done(QDialog::Accepted);  // the path chosen, without the file views loading
        });
        click(v->button("new"));
        QVERIFY(v->document() == sim::Topology{});
        QVERIFY(sim::loadTopology(saved.toStdString()) == more);
    }

    // What an import approximated reaches the user: File ▸ Open says it in the status bar and a
    // non-modal message listing each item; the editor lists them under Problems.
    void importWarningsReachTheUser() {
        MainWindow w(vgg());
        w.show();
        QVERIFY(w.jobs().waitForIdle());
        const QString astra = kExamples + "/topologies/imported/astra-ring-8.yml";
        std::vector<std::string> expected;
        sim::loadTopology(astra.toStdString(), &expected);
        QVERIFY(!expected.empty());
        QVERIFY(w.loader().openFile(astra));
        QVERIFY2(w.statusBar()->currentMessage().contains("the import approximated or ignored"),
                 qPrintable(w.statusBar()->currentMessage()));
        auto* box = w.findChild<QMessageBox*>("notice");
        QVERIFY(box && box->isVisible() && !box->isModal());
        for (const auto& line : expected) {
            QVERIFY2(box->informativeText().contains(QString::fromStdString(line)), line.c_str());
            QVERIFY(w.lastNotice().contains(QString::fromStdString(line)));
        }
        QVERIFY(box->informativeText().contains("A100-class"));
        shoot(w, "topology-import-notice.png");
        box->close();
        w.showView("topology-editor");
        TopologyEditorView* v = w.views().get<TopologyEditorTab>()->view();
        QCOMPARE(v->importNotes().size(), static_cast<qsizetype>(expected.size()));
        const int last = v->problemsList()->count() - 1;
        QVERIFY(last >= 0);
        QCOMPARE(v->problemsList()->item(last)->text(), "import: " + QString::fromStdString(expected.back()));
        QVERIFY(v->button("use")->isEnabled());  // notes are not problems
    }

    void zeroBandwidthFileShowsTheValidationMessage() {
        MainWindow w(vgg());
        w.show();
        QVERIFY(w.jobs().waitForIdle());
        const QString path = dir_.filePath("zero-bandwidth.json");
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"format": "partita-topology/1", "name": "pair",
  "devices": [{"name": "g0", "peak_flops": 1e13, "mem_bandwidth_Bps": 7e11},
              {"name": "g1", "peak_flops": 1e13, "mem_bandwidth_Bps": 7e11}],
  "links": [{"from": "g0", "to": "g1", "kind": "nvlink", "bandwidth_Bps": 2e10},
            {"from": "g1", "to": "g0", "kind": "nvlink", "bandwidth_Bps": 0}]})");
        f.close();
        QString error;
        QVERIFY(!w.loader().openFile(path, &error));  // File ▸ Open
        QVERIFY2(error.contains(path + ": /links/1: link 'nvlink g1->g0': bandwidth must be positive, got 0 B/s"),
                 qPrintable(error));
        QVERIFY(error.contains("fails validation (1 problem"));
        QCOMPARE(w.lastError(), error);
        QCOMPARE(w.views().get<SimParamsEditor>()->topology(), QString("p100-16"));  // the choice stays
        // The editor has the file open, its problem listed, to be fixed there.
        TopologyEditorView* v = w.views().get<TopologyEditorTab>()->view();
        QCOMPARE(v->problems().size(), 1u);
        QCOMPARE(v->problemsList()->item(0)->text(), QString("link 'nvlink g1->g0': bandwidth must be positive, got 0 B/s"));
        QVERIFY(!v->button("use")->isEnabled());
        v->problemsList()->setCurrentRow(0);
        QCOMPARE(v->selectedLinkRows(), std::set<int>{1});
        QTest::keyClicks(v->field("bandwidth"), "20");  // the field showed 0: "020"
        QVERIFY(v->problems().empty());
        QVERIFY(v->button("use")->isEnabled());
    }
};

QTEST_MAIN(TopologyEditorTest)
#include "topology_editor_test.moc"
