// The visualisation tabs in the main window: they follow the shown run, the
// grid's current cell reaches the teaching view, and each exports as PNG,
// SVG, PDF and CSV through the window's export targets.
#include <QFile>
#include <QImage>
#include <QStandardPaths>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QtTest>

#include "app/gui/action_set.h"
#include "app/gui/main_window.h"
#include "app/gui/options.h"
#include "app/gui/run_views.h"
#include "app/gui/view_list.h"
#include "widgets/common/task_tabs.h"
#include "widgets/charts/study_view.h"
#include "widgets/common/selection.h"
#include "widgets/grid/grid_view.h"
#include "widgets/heatmap/comm_heatmap_view.h"
#include "widgets/network/network_graph.h"
#include "widgets/network/network_tab_view.h"
#include "widgets/topology/topology_view.h"
#include "widgets/teaching/teaching_view.h"
#include "widgets/timeline/gantt_view.h"

using namespace partita;
using namespace partita::gui;

class ViewTabsTest : public QObject {
    Q_OBJECT
private:
    QTemporaryDir dir_;
    Options options(const char* method) const {
        Options o;
        o.network = QString(PARTITA_EXAMPLES_DIR) + "/networks/lenet-c.json";
        o.db = dir_.filePath("results.sqlite");
        o.method = method;
        return o;
    }
    Options simulated() const {  // DP simulated on p100-16 at start (a simulation waits for Run)
        Options o = options("simulate");
        o.topology = "p100-16";
        o.run = true;
        return o;
    }
    void exportsAllFormats(MainWindow& w, const QString& target) {
        const QString base = dir_.filePath(target);
        QCOMPARE(w.exports().write(target, base + ".png"), QString());
        QVERIFY(!QImage(base + ".png").isNull());
        QCOMPARE(w.exports().write(target, base + ".svg"), QString());
        QVERIFY(QSvgRenderer(base + ".svg").isValid());
        QCOMPARE(w.exports().write(target, base + ".pdf"), QString());
        QFile pdf(base + ".pdf");
        QVERIFY(pdf.open(QIODevice::ReadOnly));
        QVERIFY(pdf.readAll().startsWith("%PDF"));
        QCOMPARE(w.exports().write(target, base + ".csv"), QString());
        QVERIFY(QFile(base + ".csv").size() > 0);
    }

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void hierarchicalRunFillsHeatmapTeachingAndStudies() {
        MainWindow w(options("hypar"));
        w.show();
        QVERIFY(w.jobs().waitForIdle());
        w.actionSet().action("run")->trigger();
        QVERIFY(w.jobs().waitForIdle());
        QVERIFY(w.session().currentRun());
        w.views().get<GridView>()->setCurrentCell(1, 2);  // fc1 at H2
        QCOMPARE(w.views().get<TeachingView>()->level(), 1);
        QCOMPARE(w.views().get<TeachingView>()->layer(), 2);
        for (const char* target : {"heatmap", "teaching", "studies"}) exportsAllFormats(w, target);
        QVERIFY(w.exports().write("timeline", dir_.filePath("t.png")).contains("empty"));  // not simulated
    }

    void simulatedRunFillsTheTimeline() {
        MainWindow w(simulated());
        w.show();
        QVERIFY(w.jobs().waitForIdle());
        QVERIFY(w.session().currentRun() && w.session().currentRun()->isSimulation());
        w.showView("timeline");  // drawn when shown (hiddenViewIsDrawnWhenShown)
        QVERIFY(w.views().get<GanttView>()->visibleLaneCount() > 16);
        exportsAllFormats(w, "timeline");
        exportsAllFormats(w, "heatmap");
        // A strategy without a grid: the teaching view says why it is empty, naming the run.
        QVERIFY(w.views().get<TeachingView>()->emptyText().contains(QString::fromStdString(w.session().currentRun()->name)));
    }

    // The views share one Selection: a cell set there, or picked in any view, reaches every view
    // that shows cells; an operator (a Timeline bar) becomes its layer's cell.
    void selectionReachesEveryCellView() {
        MainWindow w(options("hypar"));
        w.show();
        QVERIFY(w.jobs().waitForIdle());
        w.actionSet().action("run")->trigger();
        QVERIFY(w.jobs().waitForIdle());
        Selection& sel = w.views().selection();
        auto* grid = w.views().get<GridView>();
        auto* teaching = w.views().get<TeachingView>();
        auto* heatmap = w.views().get<CommHeatmap>();
        auto* network = w.views().get<NetworkTabView>();
        QVERIFY(grid && teaching && heatmap && network);
        const auto reached = [&](int level, int layer) {
            QCOMPARE(grid->currentLevel(), level);
            QCOMPARE(grid->currentLayer(), layer);
            QCOMPARE(teaching->level(), level);
            QCOMPARE(teaching->layer(), layer);
            QCOMPARE(heatmap->selectedCell(), std::make_optional(std::make_pair(level, layer)));
            QCOMPARE(network->graph()->level(), level);
            QCOMPARE(network->graph()->selectedLayer(), layer);
            QCOMPARE(sel.level(), level);
            QCOMPARE(sel.layer(), layer);
        };
        sel.setCell(1, 2);
        reached(1, 2);
        emit teaching->cellChanged(0, 1);  // the teaching view's own cell picker
        reached(0, 1);
        emit heatmap->levelLayerClicked(1, 0);
        reached(1, 0);
        grid->setCurrentCell(0, 2);
        reached(0, 2);
        const int op = w.session().currentRun()->inputs->layers[1].op_id;
        sel.setOperator(op);
        reached(0, 1);
    }

    // A device or a link set in the Selection reaches the Timeline's lane and the topology view.
    void selectionReachesTimelineAndTopology() {
        MainWindow w(simulated());
        w.show();
        QVERIFY(w.jobs().waitForIdle());
        w.showView("topology");
        Selection& sel = w.views().selection();
        auto* gantt = w.views().get<GanttView>();
        auto* topology = w.views().get<TopologyView>();
        QVERIFY(gantt && topology && topology->topology());
        const int devices = topology->topology()->deviceCount();
        sel.setDevice(3);
        QCOMPARE(gantt->selectedResource(), 3);
        QCOMPARE(topology->selectedDevice(), 3);
        QCOMPARE(sel.link(), -1);
        sel.setLink(0);
        QCOMPARE(gantt->selectedResource(), devices);
        QCOMPARE(topology->selectedLink(), 0);
        QCOMPARE(topology->selectedDevice(), -1);
        QCOMPARE(sel.device(), -1);
        emit gantt->resourceClicked(devices + 1);  // a lane of the Timeline: link 1
        QCOMPARE(sel.link(), 1);
        QCOMPARE(topology->selectedLink(), 1);
    }

    // A new run reaches a hidden Timeline only when its tab is shown (or it is exported); the Studies
    // likewise. What is drawn then is the newest run.
    void hiddenViewIsDrawnWhenShown() {
        MainWindow w(simulated());
        w.show();
        QVERIFY(w.jobs().waitForIdle());
        QVERIFY(w.session().currentRun() && w.session().currentRun()->isSimulation());
        auto* gantt = w.views().get<GanttView>();
        auto* studies = w.views().get<StudyView>();
        QCOMPARE(gantt->visibleLaneCount(), 0);  // not drawn while hidden
        QVERIFY(!studies->hasData(StudyView::Plot::Topology));
        w.showView("timeline");
        QVERIFY(gantt->visibleLaneCount() > 16);
        w.showView("studies");
        QVERIFY(w.views().get<RunViews>()->jobs().waitForIdle());  // the sweeps run as a job
        QVERIFY(studies->hasData(StudyView::Plot::Topology));
        // Another run while the Timeline is hidden: it keeps the old drawing until shown.
        w.showView("grid");
        w.runs().chooseMethod("hypar");
        w.actionSet().action("run")->trigger();
        QVERIFY(w.jobs().waitForIdle());
        QVERIFY(!w.session().currentRun()->isSimulation());
        QVERIFY(gantt->visibleLaneCount() > 16);
        w.showView("timeline");
        QCOMPARE(gantt->visibleLaneCount(), 0);
    }

    // The study sweeps run as a job of the views' own: showing Studies starts it (the window's run is
    // not cancelled), Cancel leaves the plot empty, and showing the tab again draws it.
    void studiesAreAJobWithCancel() {
        MainWindow w(options("hypar"));
        w.show();
        QVERIFY(w.jobs().waitForIdle());
        JobRunner& jobs = w.views().get<RunViews>()->jobs();
        auto* studies = w.views().get<StudyView>();
        QVERIFY(!studies->hasData(StudyView::Plot::Scale));
        w.showView("studies");
        QVERIFY(jobs.busy());  // started, and not finished before the event loop runs
        QVERIFY(!w.jobs().busy());
        w.actionSet().action("cancel")->trigger();
        QVERIFY(jobs.waitForIdle());
        QVERIFY(!studies->hasData(StudyView::Plot::Scale));
        w.showView("grid");
        w.showView("studies");
        QVERIFY(jobs.waitForIdle());
        QVERIFY(studies->hasData(StudyView::Plot::Scale));
        QVERIFY(studies->hasData(StudyView::Plot::Topology));
    }

    // One list names every view: each titled one is a tab with that title under its task (showing it
    // by name brings that tab forward), and every name is a registered view.
    void everyListedViewIsATabUnderItsTask() {
        MainWindow w(options("hypar"));
        auto* tabs = w.views().get<TaskTabs>();
        int titled = 0;
        for (const ViewKind& kind : viewList()) {
            const ViewEntry* entry = w.views().find(kind.name);
            QVERIFY2(entry, kind.name);
            if (!kind.title) continue;
            ++titled;
            QVERIFY2(entry->tab, kind.name);
            w.showView(kind.name);
            QCOMPARE(w.views().shown(), entry->tab);
            const int i = tabs->currentIndex();
            QCOMPARE(tabs->tabText(i), QString(kind.title));
            QCOMPARE(tabs->taskOf(i), taskName(kind.task));
        }
        QCOMPARE(titled, 13);
        QCOMPARE(screenshotViews(), viewNames());
    }
};

QTEST_MAIN(ViewTabsTest)
#include "view_tabs_test.moc"
