// The Network tab in the main window: the graph of the loaded network (one node per operator and
// the input, one edge per operator input) coloured by the shown run, a click on a layer's node
// selects its grid column and the grid's cell selects the node, and the targets "network-graph"
// (PNG, SVG, PDF, CSV), "network-dot" (DOT) and "network" (the table) export valid files.
#include <QFile>
#include <QImage>
#include <QStandardPaths>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QtTest>

#include "app/gui/main_window.h"
#include "app/gui/options.h"
#include "tests/qt_test_util.h"
#include "widgets/geometry/palette.h"
#include "widgets/grid/grid_view.h"
#include "widgets/network/network_graph.h"
#include "widgets/network/network_view.h"

using namespace partita;
using namespace partita::gui;

namespace {

NetworkGraphView* graphOf(MainWindow& w) { return w.findChild<NetworkGraphView*>("network-graph"); }

void clickNode(NetworkGraphView& g, int node) {
    const view::Box& b = g.graphLayout().nodes[static_cast<size_t>(node)];
    g.centreOn(QPointF(b.x + b.w / 2, b.y + b.h / 2));
    QTest::mouseClick(&g, Qt::LeftButton, {}, g.nodeRect(node).center().toPoint());
}

}  // namespace

class NetworkTabTest : public QObject {
    Q_OBJECT
private:
    QTemporaryDir dir_;
    Options options(const char* network, const char* method) const {
        Options o;
        o.network = QString(PARTITA_EXAMPLES_DIR) + "/networks/" + network + ".json";
        o.db = dir_.filePath("results.sqlite");
        o.method = method;
        o.size = QSize(1280, 800);
        return o;
    }

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void theGraphHasOneNodePerOperatorAndOneEdgePerInput() {
        for (const char* network : {"lenet-c", "resnet-18"}) {
            MainWindow w(options(network, "accpar"));
            w.show();
            QVERIFY(w.jobs().waitForIdle());
            w.showView("network");
            NetworkGraphView* g = graphOf(w);
            QVERIFY(g);
            QVERIFY(g->waitForLayout());
            const Network& net = w.inputs()->network;
            QCOMPARE(g->nodeCount(), static_cast<int>(net.ops.size()) + 1);
            int inputs = 0;
            for (const Operator& op : net.ops) inputs += static_cast<int>(op.inputs.size());
            QCOMPARE(g->edgeCount(), inputs);
            QCOMPARE(static_cast<int>(g->graphLayout().edges.size()), inputs);
            // Coloured by the shown run's H1 choices.
            QVERIFY(w.currentRun());
            QCOMPARE(g->colourMode(), NetworkGraphView::ColourMode::Partition);
            const Grid& grid = w.currentRun()->grid;
            for (int l = 0; l < grid.layers(); ++l) {
                const view::Rgb c = view::splitColour(index(grid.split(0, l)));
                QCOMPARE(g->nodeFill(g->nodeOfLayer(l)), QColor(c.r, c.g, c.b));
            }
            QTest::qWait(50);  // the tab's scroll area settles its size
            shoot(w, QString("network-tab-%1.png").arg(network));
        }
    }

    void nodeAndGridColumnSelectEachOther() {
        MainWindow w(options("resnet-18", "accpar"));
        w.show();
        QVERIFY(w.jobs().waitForIdle());
        w.showView("network");
        NetworkGraphView* g = graphOf(w);
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(g->waitForLayout());
        w.gridView()->setCurrentCell(2, 3);
        QCOMPARE(g->selectedLayer(), 3);
        QCOMPARE(g->level(), 2);
        clickNode(*g, g->nodeOfLayer(7));
        QCOMPARE(w.gridView()->currentLayer(), 7);
        QCOMPARE(w.gridView()->currentLevel(), 2);
        QCOMPARE(g->selectedLayer(), 7);
        clickNode(*g, g->nodeOfOperator(3));  // res2a, an add: the grid stays
        QCOMPARE(w.gridView()->currentLayer(), 7);
    }

    void exportsGraphDotAndTable() {
        MainWindow w(options("lenet-c", "hypar"));
        w.show();
        QVERIFY(w.jobs().waitForIdle());
        QVERIFY(w.exportTargets().contains("network-graph"));
        QVERIFY(w.exportTargets().contains("network-dot"));
        QVERIFY(w.exportTargets().contains("network"));
        const QString base = dir_.filePath("net");
        QCOMPARE(w.exportTarget("network-graph", base + ".png"), QString());
        QVERIFY(!QImage(base + ".png").isNull());
        QCOMPARE(w.exportTarget("network-graph", base + ".svg"), QString());
        QVERIFY(QSvgRenderer(base + ".svg").isValid());
        QCOMPARE(w.exportTarget("network-graph", base + ".pdf"), QString());
        QFile pdf(base + ".pdf");
        QVERIFY(pdf.open(QIODevice::ReadOnly));
        QVERIFY(pdf.readAll().startsWith("%PDF"));
        QCOMPARE(w.exportTarget("network-graph", base + "-nodes.csv"), QString());
        QFile nodes(base + "-nodes.csv");
        QVERIFY(nodes.open(QIODevice::ReadOnly));
        QVERIFY(nodes.readLine().startsWith("node,operator,type,inputs,out_shape_CxHxW"));
        QCOMPARE(w.exportTarget("network-dot", base + ".dot"), QString());
        QFile dot(base + ".dot");
        QVERIFY(dot.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(dot.readAll());
        QVERIFY(text.startsWith("digraph \"Lenet-c\" {"));
        QCOMPARE(text.count(" -> "), 4);
        QCOMPARE(w.exportTarget("network-dot", base + ".GV"), QString());  // suffixes in any case
        QVERIFY(w.exportTarget("network-dot", base + "-dot.png").contains(".dot"));
        QVERIFY(w.exportTarget("network-graph", base + ".dot").contains("unknown export format"));
        QCOMPARE(w.exportTarget("network", base + "-table.csv"), QString());
        QFile table(base + "-table.csv");
        QVERIFY(table.open(QIODevice::ReadOnly));
        QVERIFY(table.readLine().startsWith("layer,type,inputs"));
    }
};

QTEST_MAIN(NetworkTabTest)
#include "network_tab_test.moc"
