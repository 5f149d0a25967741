// The Network tab in the main window: the graph of the loaded network (one node per operator and
// the input, one edge per operator input) coloured by the shown run, a click on a layer's node
// selects its grid column and the grid's cell selects the node, and the targets "network-graph"
// (PNG, SVG, PDF, CSV), "network-dot" (DOT) and "network" (the table) export valid files.
#include <QFile>
#include <QImage>
#include <QStandardPaths>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QToolButton>
#include <QtTest>

#include "app/gui/main_window.h"
#include "app/gui/screenshot.h"
#include "app/gui/options.h"
#include "tests/qt_test_util.h"
#include "widgets/geometry/palette.h"
#include "widgets/grid/grid_view.h"
#include "widgets/network/network_graph.h"
#include "widgets/network/network_tab_view.h"

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
            const Network& net = w.session().inputs()->network;
            QCOMPARE(g->nodeCount(), static_cast<int>(net.ops.size()) + 1);
            int inputs = 0;
            for (const Operator& op : net.ops) inputs += static_cast<int>(op.inputs.size());
            QCOMPARE(g->edgeCount(), inputs);
            QCOMPARE(static_cast<int>(g->graphLayout().edges.size()), inputs);
            // Coloured by the shown run's H1 choices.
            QVERIFY(w.session().currentRun());
            QCOMPARE(g->colourMode(), NetworkGraphView::ColourMode::Partition);
            const Grid& grid = w.session().currentRun()->grid;
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
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        NetworkGraphView* g = graphOf(w);
        QVERIFY(g->waitForLayout());
        // A cell chosen while the Network tab is hidden: its node is in view when the tab is shown.
        w.views().get<GridView>()->setCurrentCell(1, 18);
        w.showView("network");
        QTest::qWait(50);
        QCOMPARE(g->selectedLayer(), 18);
        QCOMPARE(g->level(), 1);
        QVERIFY(QRectF(g->rect()).contains(g->nodeRect(g->nodeOfLayer(18))));
        w.views().get<GridView>()->setCurrentCell(2, 3);
        QCOMPARE(g->selectedLayer(), 3);
        QCOMPARE(g->level(), 2);
        clickNode(*g, g->nodeOfLayer(7));
        QCOMPARE(w.views().get<GridView>()->currentLayer(), 7);
        QCOMPARE(w.views().get<GridView>()->currentLevel(), 2);
        QCOMPARE(g->selectedLayer(), 7);
        clickNode(*g, g->nodeOfOperator(3));  // res2a, an add: the grid stays
        QCOMPARE(w.views().get<GridView>()->currentLayer(), 7);
    }

    // "Collapse repeats" on ResNet-34 after AccPar: 55 nodes, then 20 (conv1, stage 2's run, then
    // per stage the projection block's 4 operators and a run, pool, fc, and the input); the grid's
    // cell on a member layer selects its run's node; expanding one run unchecks the toggle.
    void collapseRepeatsInTheWindow() {
        Options o = options("resnet-34", "accpar");
        MainWindow w(o);
        w.show();
        QVERIFY(w.jobs().waitForIdle());
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.showView("network");
        NetworkGraphView* g = graphOf(w);
        QVERIFY(g->waitForLayout());
        auto* toggle = w.findChild<QToolButton*>("network-collapse");
        QVERIFY(toggle);
        QVERIFY(toggle->isEnabled());
        QVERIFY(!toggle->isChecked());
        QVERIFY(!toggle->toolTip().contains("repeats no block"));
        QCOMPARE(g->nodeCount(), 55);
        toggle->click();
        QVERIFY(g->waitForLayout());
        QCOMPARE(g->nodeCount(), 20);
        QVERIFY(toggle->isChecked());
        w.views().get<GridView>()->setCurrentCell(0, 12);  // res3c_branch2a, in stage 3's run
        QCOMPARE(g->runOfNode(g->selectedNode()), 1);
        QCOMPARE(g->selectedNode(), g->nodeOfLayer(12));
        const int stage2 = g->nodeOfLayer(1);
        clickNode(*g, stage2);  // a run's node selects its first layer in the grid
        QCOMPARE(w.views().get<GridView>()->currentLayer(), 1);
        QTest::mouseDClick(g, Qt::LeftButton, {}, g->nodeRect(stage2).center().toPoint());
        QCOMPARE(g->nodeCount(), 28);
        QVERIFY(!toggle->isChecked());
        toggle->click();
        QCOMPARE(g->nodeCount(), 20);
        toggle->click();
        QCOMPARE(g->nodeCount(), 55);
        QVERIFY(!toggle->isChecked());
        // --collapse-repeats starts collapsed.
        o.collapse_repeats = true;
        MainWindow collapsed(o);
        QVERIFY(collapsed.jobs().waitForIdle());
        QVERIFY(graphOf(collapsed)->waitForLayout());
        QCOMPARE(graphOf(collapsed)->nodeCount(), 20);
        QVERIFY(collapsed.findChild<QToolButton*>("network-collapse")->isChecked());
    }

    // --cell (for screenshots) chooses the grid's current cell: the graph shows that level and node.
    void theCellOptionSelectsTheNode() {
        Options o;
        QString error;
        QVERIFY(!parseOptions({"partita", "--cell", "H3,res5b_branch2a"}, &o, &error));
        QCOMPARE(error, QString("--cell needs --screenshot FILE"));
        QVERIFY(!parseOptions({"partita", "--screenshot", "x.png", "--cell", "3,res5b"}, &o, &error));
        QVERIFY(error.startsWith("--cell must be H<level>,<layer name>"));
        QVERIFY(parseOptions({"partita", "--screenshot", "x.png", "--cell", "H3,res5b_branch2a"}, &o, &error));
        QCOMPARE(o.cell_level, 2);
        QCOMPARE(o.cell_layer, QString("res5b_branch2a"));
        Options run = options("resnet-34", "accpar");
        run.cell_level = o.cell_level;
        run.cell_layer = o.cell_layer;
        MainWindow w(run);
        QVERIFY(w.jobs().waitForIdle());
        QVERIFY(selectOptionCell(w));
        const int layer = 32;  // conv1, stages 2-4 (6 + 9 + 13 convs), res5a (3)
        QCOMPARE(w.session().inputs()->layers[layer].name, std::string("res5b_branch2a"));
        QCOMPARE(w.views().get<GridView>()->currentLevel(), 2);
        QCOMPARE(w.views().get<GridView>()->currentLayer(), layer);
        QCOMPARE(graphOf(w)->level(), 2);
        QCOMPARE(graphOf(w)->selectedLayer(), layer);
        run.cell_layer = "nope";
        MainWindow bad(run);
        QVERIFY(bad.jobs().waitForIdle());
        QVERIFY(!selectOptionCell(bad));
        QVERIFY(bad.lastError().startsWith("--cell: the shown run has no cell H3, nope"));
    }

    void exportsGraphDotAndTable() {
        MainWindow w(options("lenet-c", "hypar"));
        w.show();
        QVERIFY(w.jobs().waitForIdle());
        QVERIFY(w.exports().targets().contains("network-graph"));
        QVERIFY(w.exports().targets().contains("network-dot"));
        QVERIFY(w.exports().targets().contains("network"));
        const QString base = dir_.filePath("net");
        QCOMPARE(w.exports().write("network-graph", base + ".png"), QString());
        QVERIFY(!QImage(base + ".png").isNull());
        QCOMPARE(w.exports().write("network-graph", base + ".svg"), QString());
        QVERIFY(QSvgRenderer(base + ".svg").isValid());
        QCOMPARE(w.exports().write("network-graph", base + ".pdf"), QString());
        QFile pdf(base + ".pdf");
        QVERIFY(pdf.open(QIODevice::ReadOnly));
        QVERIFY(pdf.readAll().startsWith("%PDF"));
        QCOMPARE(w.exports().write("network-graph", base + "-nodes.csv"), QString());
        QFile nodes(base + "-nodes.csv");
        QVERIFY(nodes.open(QIODevice::ReadOnly));
        QVERIFY(nodes.readLine().startsWith("node,operator,type,inputs,out_shape_CxHxW"));
        QCOMPARE(w.exports().write("network-dot", base + ".dot"), QString());
        QFile dot(base + ".dot");
        QVERIFY(dot.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(dot.readAll());
        QVERIFY(text.startsWith("digraph \"Lenet-c\" {"));
        QCOMPARE(text.count(" -> "), 4);
        QCOMPARE(w.exports().write("network-dot", base + ".GV"), QString());  // suffixes in any case
        QVERIFY(w.exports().write("network-dot", base + "-dot.png").contains(".dot"));
        QVERIFY(w.exports().write("network-graph", base + ".dot").contains("unknown export format"));
        QCOMPARE(w.exports().write("network", base + "-table.csv"), QString());
        QFile table(base + "-table.csv");
        QVERIFY(table.open(QIODevice::ReadOnly));
        QVERIFY(table.readLine().startsWith("layer,type,inputs"));
    }
};

QTEST_MAIN(NetworkTabTest)
#include "network_tab_test.moc"
