// The topology view in the main window (issue 17, item 1): what it draws for the P100 preset, the
// placement it picks for a torus and a ring, the load of a simulated VGG-A DP run in its tooltips,
// and device selection shared with the Timeline in both directions; a multi-node cluster as node
// boxes in a grid (issue 26, item 14).
#include <algorithm>
#include <fstream>
#include <set>
#include <tuple>

#include <QComboBox>
#include <QScrollBar>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include "app/gui/action_set.h"
#include "app/gui/main_window.h"
#include "app/gui/simulation_controller.h"
#include "app/gui/options.h"
#include "core/sim/memory.h"
#include "core/topology/generate.h"
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
    w.actionSet().action("run")->trigger();
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
        QCOMPARE(view.placement().shape, view::TopologyShape::Nodes);  // 4 nodes of 4 GPUs
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
        const RunPtr run = w.session().currentRun();
        QVERIFY(run && run->isSimulation());
        TopologyView* view = w.views().get<TopologyView>();
        QVERIFY(view->hasLoad());
        QCOMPARE(view->colouring(), TopologyView::Colouring::Utilisation);
        // Bytes per link: the all-reduces' transfers along their routes (sim::linkBytes, pinned against the
        // per-hop model by SimCollectiveSync); the hottest one's tooltip says it.
        const SimulationResult& sim = *run->simulation;
        const std::vector<double>& bytes = sim.link_bytes;
        QCOMPARE(bytes.size(), sim.topology().links.size());
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
        TopologyView* view = w.views().get<TopologyView>();
        GanttView* gantt = w.views().get<GanttView>();
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

    // Issue 30 item 5: a device over its memory capacity is marked in the Topology view (red border,
    // a red note in the header, the tooltip) and in the Timeline (red lane name, a red note).
    void aDeviceThatDoesNotFitIsMarked() {
        sim::Topology t = sim::builtinTopology("p100-16");
        t.devices[5].mem_capacity_B = 1e6;  // VGG-A's weights alone are hundreds of MB
        const QString file = dir_.filePath("tight.json");
        {
            std::ofstream out(file.toStdString());
            out << sim::writeTopologyJson(t);
        }
        Options o = vggA();
        o.topology = file;
        MainWindow w(o);
        simulateShown(w);
        const RunPtr run = w.session().currentRun();
        QVERIFY(run && run->isSimulation());
        const sim::MemoryReport& memory = run->simulation->memory;
        QVERIFY(!memory.fits);
        QCOMPARE(memory.worst, 5);
        const QString need = QString::fromStdString(sim::memoryText(memory.devices[5].total()));
        const QString note = "device n1.gpu1: " + need + " of 1 MB (1 of 16 devices over capacity)";
        TopologyView* view = w.views().get<TopologyView>();
        QCOMPARE(view->memoryNote(), "does not fit: " + note);
        QVERIFY(view->overMemory(5));
        QVERIFY(!view->overMemory(4));
        QVERIFY2(view->vertexToolTip(5).contains("peak memory: " + need + " of 1 MB — <b>does not fit</b>"),
                 qPrintable(view->vertexToolTip(5)));
        QVERIFY(!view->vertexToolTip(4).contains("does not fit"));
        const auto reddish = [](const QImage& image, const QRect& area) {
            int n = 0;
            for (int y = std::max(0, area.top()); y <= std::min(image.height() - 1, area.bottom()); ++y)
                for (int x = std::max(0, area.left()); x <= std::min(image.width() - 1, area.right()); ++x) {
                    const QColor c = image.pixelColor(x, y);
                    n += c.red() > 150 && c.green() < 90 && c.blue() < 90;
                }
            return n;
        };
        const QImage shot = view->grab().toImage();
        QVERIFY(reddish(shot, view->vertexRect(5).toAlignedRect().adjusted(-2, -2, 2, 2)) > 20);
        QCOMPARE(reddish(shot, view->vertexRect(4).toAlignedRect().adjusted(-2, -2, 2, 2)), 0);
        shoot(w, "topology-does-not-fit.png");
        w.showView("timeline");
        QApplication::processEvents();
        GanttView* gantt = w.views().get<GanttView>();
        QCOMPARE(gantt->memoryNote(), "Does not fit: " + note);
        GanttCanvas* canvas = gantt->canvas();
        const GanttFrame f = canvas->frame(canvas->viewport()->rect());
        const QImage lanes = canvas->viewport()->grab().toImage();
        for (int device : {4, 5}) {
            int lane = -1;
            for (size_t l = 0; l < canvas->model().lanes().size(); ++l)
                if (canvas->model().lanes()[l].resource == device) lane = static_cast<int>(l);
            const auto top = canvas->layout().laneTop(lane);
            QVERIFY(top.has_value());
            const int y = static_cast<int>(f.lanes.top() + *top - canvas->verticalScrollBar()->value());
            const int red = reddish(lanes, QRect(f.labels.left(), y, f.labels.width(), static_cast<int>(f.row_height)));
            QVERIFY2(device == 5 ? red > 5 : red == 0, qPrintable(QString("device %1: %2 red pixels").arg(device).arg(red)));
        }
        shoot(w, "timeline-does-not-fit.png");
    }

    // The bar above the view chooses the colouring (the C key cycles the same); it waits for a run.
    void colouringIsChosenFromTheBar() {
        MainWindow w(vggA());
        w.resize(1024, 700);
        w.show();
        QVERIFY(w.jobs().waitForIdle());
        w.showView("topology");
        TopologyView* view = w.views().get<TopologyView>();
        QComboBox* box = w.views().get<TopologyPanel>()->colouringBox();
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

    // A cluster as `partita-cli topology generate cluster --nodes N --gpus 8` makes it, shown in the
    // window at 1024x700 and 1280x800: node boxes in a grid (disjoint, rows and columns aligned, in
    // node order), each holding its GPUs and its own switch above them, the network switch above all
    // the boxes, the whole machine fitted in the view.
    void clusterNodesAreBoxesInAGrid() {
        for (const int nodes : {4, 16, 128}) {
            sim::ClusterSpec spec;
            spec.name = "P100 cluster (" + std::to_string(nodes) + " nodes x 8 GPUs)";
            spec.nodes = nodes;
            spec.gpus = 8;
            spec.gpu = sim::namedDevice("p100");
            const auto t = std::make_shared<const sim::Topology>(sim::clusterTopology(spec));
            for (const QSize size : {QSize(1024, 700), QSize(1280, 800)}) {
                MainWindow w(vggA());
                w.resize(size);
                w.show();
                QVERIFY(w.jobs().waitForIdle());
                w.simulation().useTopology(t, "generated:" + QString::fromStdString(t->name));
                w.showView("topology");
                QApplication::processEvents();
                TopologyView* view = w.views().get<TopologyView>();
                QCOMPARE(view->topology(), t.get());
                const view::TopologyPlacement& p = view->placement();
                QCOMPARE(p.shape, view::TopologyShape::Nodes);
                QCOMPARE(p.machines.size(), static_cast<size_t>(nodes));
                QCOMPARE(view->edgeCount(), duplexCables(*t));
                int columns = 0;
                for (const auto& m : p.machines) columns = std::max(columns, m.column + 1);
                double lowest_top = 1e300;
                for (int m = 0; m < nodes; ++m) {
                    const auto& b = p.machines[static_cast<size_t>(m)];
                    QCOMPARE(b.node, m);
                    QCOMPARE(b.row * columns + b.column, m);  // row by row, in node order
                    const QRectF r = view->machineRect(m);
                    QVERIFY(view->rect().contains(r.toAlignedRect()));  // fitted
                    lowest_top = std::min(lowest_top, r.top());
                    for (int o = 0; o < m; ++o) {
                        const auto& c = p.machines[static_cast<size_t>(o)];
                        const QRectF other = view->machineRect(o);
                        QVERIFY(!r.intersects(other));
                        if (c.row == b.row) QCOMPARE(other.top(), r.top());
                        if (c.column == b.column) QCOMPARE(other.left(), r.left());
                        if (c.row < b.row) QVERIFY(other.bottom() < r.top());
                        if (c.row == b.row && c.column < b.column) QVERIFY(other.right() < r.left());
                    }
                }
                std::vector<double> gpus_top(static_cast<size_t>(nodes), 1e300);
                for (int d = 0; d < t->deviceCount(); ++d) {
                    const int m = p.machine_of[static_cast<size_t>(d)];
                    QCOMPARE(m, t->devices[static_cast<size_t>(d)].node);
                    QVERIFY(view->machineRect(m).contains(view->vertexRect(d)));
                    gpus_top[static_cast<size_t>(m)] = std::min(gpus_top[static_cast<size_t>(m)], view->vertexRect(d).top());
                }
                int between = 0;
                for (int s = t->deviceCount(); s < t->vertexCount(); ++s) {
                    const int m = p.machine_of[static_cast<size_t>(s)];
                    const QRectF r = view->vertexRect(s);
                    if (m >= 0) {  // n<m>.host: in its node's box, above its GPUs
                        QCOMPARE(t->vertexName(s), "n" + std::to_string(m) + ".host");
                        QVERIFY(view->machineRect(m).contains(r));
                        QVERIFY(r.bottom() < gpus_top[static_cast<size_t>(m)]);
                    } else {  // ib: above every node
                        ++between;
                        QVERIFY(r.bottom() < lowest_top);
                    }
                }
                QCOMPARE(between, 1);
                shoot(w, QString("topology-cluster-%1x8-%2.png").arg(nodes).arg(size.width()));
                // Four nodes at 1280x800: device boxes wide enough for their names (at 1024x700 the
                // docks leave the tab 470 px, and names give way to the boxes; tooltips keep them).
                if (nodes == 4 && size.width() >= 1280) QVERIFY2(view->vertexRect(0).width() >= 48, qPrintable(QString::number(view->vertexRect(0).width())));
            }
        }
    }

    // 300,000 unlinked switches beside a ring: the view says it does not draw that many (a tree
    // layout of them would take hours) instead of hanging.
    void tooLargeToDrawIsSaid() {
        auto t = std::make_shared<sim::Topology>(sim::regularTopology(sim::Dimension::Shape::Ring, {64}, {},
                                                                      sim::namedDevice("npu"), "ring 64"));
        for (int k = 0; k < 300'000; ++k) t->switches.push_back("spare" + std::to_string(k));
        TopologyView view;
        view.resize(1024, 700);
        view.setTopology(t);
        QCOMPARE(view.vertexCount(), 0);
        QCOMPARE(view.edgeCount(), 0);
        QCOMPARE(view.edgeOfLink(0), -1);
        QVERIFY2(view.problem().contains("300064 devices and switches") && view.problem().contains("20000"),
                 qPrintable(view.problem()));
        QCOMPARE(view.csv().rows.size(), t->links.size());
    }

    // A cable and its link's lane select each other, as devices do.
    void cableAndTimelineLaneSelectEachOther() {
        MainWindow w(vggA());
        simulateShown(w);
        TopologyView* view = w.views().get<TopologyView>();
        GanttView* gantt = w.views().get<GanttView>();
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
