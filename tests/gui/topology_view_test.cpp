// The topology view in the main window (issue 17, item 1): what it draws for the P100 preset, the
// placement it picks for a torus and a ring, the load of a simulated VGG-A DP run in its tooltips,
// and device selection shared with the Timeline in both directions.
#include <set>
#include <tuple>

#include <QComboBox>
#include <QScrollBar>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include "app/gui/main_window.h"
#include "app/gui/options.h"
#include "core/sim/topology_generate.h"
#include "tests/qt_test_util.h"
#include "widgets/timeline/gantt_canvas.h"
#include "widgets/timeline/gantt_view.h"
#include "widgets/topology/topology_panel.h"
#include "widgets/topology/topology_view.h"

using namespace partita;
using namespace partita::gui;

namespace {
const QString kExamples = PARTITA_EXAMPLES_DIR;

void chooseAndRun(MainWindow& w, const QString& key) {
    auto* box = w.findChild<QComboBox*>("method");
    const int index = box->findData(key);
    QVERIFY(index >= 0);
    box->setCurrentIndex(index);
    emit box->activated(index);
    w.action("run")->trigger();
}

// Shows the window at 1280x800, simulates its network (DP on the default topology) and brings the
// Topology tab forward (a run shows the Simulation tab).
void simulateShown(MainWindow& w) {
    w.resize(1280, 800);
    w.show();
    QVERIFY(w.jobs().waitForIdle());
    chooseAndRun(w, "simulate");
    QVERIFY(w.jobs().waitForIdle());
    w.showView("topology");
    QApplication::processEvents();
}

// Cables counted from the topology itself: a link a->b with a b->a of the same kind is one.
int duplexCables(const sim::Topology& t) {
    std::multiset<std::tuple<int, int, std::string>> open;
    int cables = 0;
    for (const sim::Link& l : t.links) {
        const auto back = open.find({l.to, l.from, l.kind});
        if (back != open.end()) {
            open.erase(back);
            ++cables;
        } else {
            open.insert({l.from, l.to, l.kind});
        }
    }
    return cables + static_cast<int>(open.size());
}

}  // namespace

class TopologyViewTest : public QObject {
    Q_OBJECT
private:
    QTemporaryDir dir_;
    Options vggA() const {
        Options o;
        o.network = kExamples + "/networks/vgg-a.json";
        o.db = dir_.filePath("topology.sqlite");
        return o;
    }

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, dir_.filePath("settings"));
    }

    void p100PresetIsDrawnDeviceBySwitchByCable() {
        TopologyView view;
        view.resize(1000, 700);
        const auto t = std::make_shared<const sim::Topology>(sim::builtinTopology("p100-16"));
        view.setTopology(t);
        QCOMPARE(view.vertexCount(), 21);
        int devices = 0, switches = 0;
        for (int v = 0; v < view.vertexCount(); ++v) (view.isSwitch(v) ? switches : devices) += 1;
        QCOMPARE(devices, 16);
        QCOMPARE(switches, 5);  // a host per node and the InfiniBand switch
        QCOMPARE(duplexCables(*t), 44);
        QCOMPARE(view.edgeCount(), 44);
        for (const auto& e : view.edges()) QVERIFY(e.duplex());
        QCOMPARE(view.placement().shape, view::TopologyShape::Tree);
        // Widths grow with bandwidth: NVLink (20 GB/s) over InfiniBand (12.5 GB/s).
        const auto linkOfKind = [&](const std::string& kind) {
            for (size_t l = 0; l < t->links.size(); ++l)
                if (t->links[l].kind == kind) return static_cast<int>(l);
            return -1;
        };
        QCOMPARE(view.edgeWidth(view.edgeOfLink(linkOfKind("nvlink"))), 7.0);
        QCOMPARE(view.edgeWidth(view.edgeOfLink(linkOfKind("infiniband"))), 1.5);
        QVERIFY(view.vertexToolTip(0).contains("10.6 TFLOP/s"));
        QVERIFY(view.vertexToolTip(0).contains("732 GB/s"));
    }

    void placementFollowsTheStructure() {
        const auto torus = sim::loadTopology((kExamples + "/topologies/hmc-torus-16.json").toStdString());
        const auto edges = view::topologyEdges(torus);
        QCOMPARE(edges.size(), size_t(32));
        const auto p = view::placeTopology(torus, edges, 86, 36);
        QCOMPARE(p.shape, view::TopologyShape::Grid);
        QCOMPARE(p.dims, (std::vector<int>{4, 4}));
        QVERIFY(p.wrap);
        // Device r*4+c sits in row r, column c.
        QCOMPARE(p.centre[6].y, p.centre[5].y);
        QVERIFY(p.centre[6].x > p.centre[5].x);
        QVERIFY(p.centre[9].y > p.centre[5].y);
        const auto mesh = sim::meshTopology({3, 2, 2}, {}, sim::namedDevice("npu"), "mesh");
        const auto m = view::placeTopology(mesh, view::topologyEdges(mesh), 86, 36);
        QCOMPARE(m.shape, view::TopologyShape::Grid);
        QCOMPARE(m.dims, (std::vector<int>{3, 2, 2}));
        QVERIFY(!m.wrap);
        const auto ring = sim::regularTopology(sim::Dimension::Shape::Ring, {8}, {}, sim::namedDevice("npu"), "ring");
        QCOMPARE(view::placeTopology(ring, view::topologyEdges(ring), 86, 36).shape, view::TopologyShape::Ring);
        const auto all = sim::regularTopology(sim::Dimension::Shape::FullyConnected, {5}, {}, sim::namedDevice("npu"), "fc");
        QCOMPARE(view::placeTopology(all, view::topologyEdges(all), 86, 36).shape, view::TopologyShape::Spring);
    }

    void simulatedRunShowsEachLinksBytes() {
        MainWindow w(vggA());
        simulateShown(w);  // DP on p100-16
        const RunPtr run = w.currentRun();
        QVERIFY(run && run->isSimulation());
        TopologyView* view = w.topologyView();
        QVERIFY(view->hasLoad());
        QCOMPARE(view->colouring(), TopologyView::Colouring::Utilisation);
        // Bytes per link summed here from the simulation's timeline; the hottest one's tooltip says it.
        const SimulationResult& sim = *run->simulation;
        std::vector<double> bytes(sim.topology().links.size(), 0.0);
        for (const auto& r : sim.timeline)
            if (r.resource >= sim.compute_devices) bytes[static_cast<size_t>(r.resource - sim.compute_devices)] += r.bytes;
        const int hot = static_cast<int>(std::max_element(bytes.begin(), bytes.end()) - bytes.begin());
        QVERIFY(bytes[static_cast<size_t>(hot)] > 0);
        QCOMPARE(view->linkBytes(hot), bytes[static_cast<size_t>(hot)]);
        const QString tip = view->edgeToolTip(view->edgeOfLink(hot));
        QVERIFY2(tip.contains(QString::number(bytes[static_cast<size_t>(hot)], 'f', 0) + " B)"), qPrintable(tip));
        QVERIFY(tip.contains("GB/s") && tip.contains("µs") && tip.contains("utilisation"));
        QVERIFY(view->vertexToolTip(0).contains("utilisation"));
        w.showView("topology");
        shoot(w, "topology-p100-utilisation.png");
    }

    void deviceAndTimelineLaneSelectEachOther() {
        MainWindow w(vggA());
        simulateShown(w);
        TopologyView* view = w.topologyView();
        GanttView* gantt = w.ganttView();
        const QRectF box = view->vertexRect(5);
        QVERIFY(view->rect().contains(box.center().toPoint()));
        QTest::mouseClick(view, Qt::LeftButton, {}, box.center().toPoint());
        QCOMPARE(view->selectedDevice(), 5);
        QCOMPARE(gantt->selectedResource(), 5);
        // The reverse: a click on device 9's lane name in the Timeline.
        w.showView("timeline");
        QApplication::processEvents();
        GanttCanvas* canvas = gantt->canvas();
        int lane = -1;
        for (size_t l = 0; l < canvas->model().lanes().size(); ++l)
            if (canvas->model().lanes()[l].resource == 9) lane = static_cast<int>(l);
        QVERIFY(lane >= 0);
        const GanttFrame f = canvas->frame(canvas->viewport()->rect());
        const auto top = canvas->layout().laneTop(lane);
        QVERIFY(top.has_value());
        const double scroll = canvas->verticalScrollBar()->value();  // selecting device 5 scrolled to its lane
        const QPoint at(f.labels.left() + 40, static_cast<int>(f.lanes.top() + *top - scroll + f.row_height / 2));
        QTest::mouseClick(canvas->viewport(), Qt::LeftButton, {}, at);
        QCOMPARE(gantt->selectedResource(), 9);
        QCOMPARE(view->selectedDevice(), 9);
    }

    // The bar above the view chooses the colouring (the C key cycles the same); it waits for a run.
    void colouringIsChosenFromTheBar() {
        MainWindow w(vggA());
        w.resize(1024, 700);
        w.show();
        QVERIFY(w.jobs().waitForIdle());
        w.showView("topology");
        TopologyView* view = w.topologyView();
        QComboBox* box = w.topologyPanel()->colouringBox();
        QVERIFY(!box->isEnabled());
        QCOMPARE(box->currentText(), QString("Device and link kind"));
        chooseAndRun(w, "simulate");
        QVERIFY(w.jobs().waitForIdle());
        QVERIFY(box->isEnabled());
        QCOMPARE(box->currentText(), QString("Utilisation"));
        const QColor utilised = view->edgeColour(0);
        box->setFocus();
        QTest::keyClick(box, Qt::Key_Down);  // the next entry: bytes moved
        emit box->activated(box->currentIndex());
        QCOMPARE(view->colouring(), TopologyView::Colouring::Bytes);
        QTest::keyClick(view, Qt::Key_C);  // bytes -> kind; the box follows
        QCOMPARE(view->colouring(), TopologyView::Colouring::Kind);
        QCOMPARE(box->currentText(), QString("Device and link kind"));
        QVERIFY(view->edgeColour(0) != utilised);
        w.showView("topology");  // the run brought the Simulation tab forward
        QApplication::processEvents();
        shoot(w, "topology-p100-bar-1024.png");
    }

    // A cable and its link's lane select each other, as devices do.
    void cableAndTimelineLaneSelectEachOther() {
        MainWindow w(vggA());
        simulateShown(w);
        TopologyView* view = w.topologyView();
        GanttView* gantt = w.ganttView();
        const int devices = view->topology()->deviceCount();
        int edge = -1;  // a cable whose midpoint is on screen and not under a device
        for (int e = 0; e < view->edgeCount() && edge < 0; ++e) {
            const QPointF m = view->edgeMidpoint(e);
            bool covered = false;
            for (int v = 0; v < view->vertexCount(); ++v) covered = covered || view->vertexRect(v).contains(m);
            if (!covered && view->rect().contains(m.toPoint())) edge = e;
        }
        QVERIFY(edge >= 0);
        QTest::mouseClick(view, Qt::LeftButton, {}, view->edgeMidpoint(edge).toPoint());
        const int link = view->edges()[static_cast<size_t>(edge)].anyLink();
        QCOMPARE(view->selectedLink(), link);
        QCOMPARE(view->selectedDevice(), -1);
        QCOMPARE(gantt->selectedResource(), devices + link);
        // The reverse, through the same slot the Timeline's lane click reaches.
        const int other = view->edges()[static_cast<size_t>((edge + 1) % view->edgeCount())].anyLink();
        emit gantt->resourceClicked(devices + other);
        QCOMPARE(view->selectedLink(), other);
        emit gantt->resourceClicked(3);
        QCOMPARE(view->selectedDevice(), 3);
        QCOMPARE(view->selectedLink(), -1);
    }
};

QTEST_MAIN(TopologyViewTest)
#include "topology_view_test.moc"
