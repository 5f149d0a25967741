// NetworkGraphView: one node per operator (and the input) and one edge per operator input, labels
// with type, output shape and MACs, colours by partition choice and by MACs, clicks and the
// reverse selection, a large graph laid out in a worker, exports (PNG, SVG, PDF, DOT, CSV), and
// screenshots.
#include <QComboBox>
#include <QFile>
#include <QImage>
#include <QSignalSpy>
#include <QSvgRenderer>
#include <QTabWidget>
#include <QtTest>

#include "core/io/network_io.h"
#include "core/run/run.h"
#include "tests/qt_test_util.h"
#include "widgets/geometry/palette.h"
#include "widgets/network/network_graph.h"
#include "widgets/network/network_table.h"
#include "widgets/network/network_view.h"

using namespace partita;

namespace {

std::string example(const char* network) { return std::string(PARTITA_EXAMPLES_DIR) + "/networks/" + network + ".json"; }

InputsPtr inputsOf(const char* network) {
    const std::string path = example(network);
    return makeInputs(loadNetwork(path), defaultArray(4), CostParams{}, path);
}

RunPtr hypar(const InputsPtr& inputs) { return std::make_shared<const Run>(planRun(inputs, Method::HyPar)); }

QColor rgb(partita::view::Rgb c) { return QColor(c.r, c.g, c.b); }

Operator op(const std::string& name, OpType type, std::vector<std::string> inputs, std::int64_t out = 0) {
    Operator o;
    o.name = name;
    o.type = type;
    o.inputs = std::move(inputs);
    o.out_channels = out;
    if (type == OpType::Conv) o.window = {3, 3, 1, 1, 1, 1, Rounding::Exact};
    return o;
}

// A chain of `blocks` residual blocks (conv, conv, add) and an fc: 3 * blocks + 1 operators.
Network residualChain(int blocks) {
    Network net;
    net.name = "generated";
    net.input = {16, 8, 8};
    std::string x = "input";
    for (int b = 0; b < blocks; ++b) {
        const std::string n = std::to_string(b);
        net.ops.push_back(op("a" + n, OpType::Conv, {x}, 16));
        net.ops.push_back(op("b" + n, OpType::Conv, {"a" + n}, 16));
        net.ops.push_back(op("add" + n, OpType::Add, {"b" + n, x}));
        x = "add" + n;
    }
    net.ops.push_back(op("fc", OpType::FullyConnected, {x}, 10));
    propagate(net, "generated");
    return net;
}

// Centres the view on a node so that a click reaches it.
void showNode(NetworkGraphView& g, int node) {
    const view::Box& b = g.graphLayout().nodes[static_cast<size_t>(node)];
    g.centreOn(QPointF(b.x + b.w / 2, b.y + b.h / 2));
}

}  // namespace

class NetworkGraphTest : public QObject {
    Q_OBJECT
private slots:
    void oneNodePerOperatorAndOneEdgePerInput() {
        for (const char* name : {"lenet-c", "resnet-18"}) {
            const InputsPtr in = inputsOf(name);
            NetworkGraphView view;
            view.resize(900, 700);
            view.setInputs(in);
            QVERIFY(!view.layingOut());  // small graphs are laid out at once
            QCOMPARE(view.nodeCount(), static_cast<int>(in->network.ops.size()) + 1);
            int inputs = 0;
            for (const Operator& op : in->network.ops) inputs += static_cast<int>(op.inputs.size());
            QCOMPARE(view.edgeCount(), inputs);
            QCOMPARE(static_cast<int>(view.graphLayout().edges.size()), inputs);
            // Edges join producer and consumer: node 0 is the input, node i + 1 operator i.
            size_t e = 0;
            for (size_t i = 0; i < in->network.ops.size(); ++i)
                for (int from : in->network.ops[i].input_ids) {
                    QCOMPARE(view.graphLayout().edges[e].from, from + 1);
                    QCOMPARE(view.graphLayout().edges[e].to, static_cast<int>(i) + 1);
                    ++e;
                }
            for (size_t l = 0; l < in->layers.size(); ++l)
                QCOMPARE(view.layerOfNode(view.nodeOfLayer(static_cast<int>(l))), static_cast<int>(l));
        }
    }

    void nodesShowTypeShapeAndMacs() {
        NetworkGraphView view;
        view.setInputs(inputsOf("resnet-18"));
        QCOMPARE(view.nodeLines(0), QStringList({"input", "3×224×224"}));
        // conv1: 7x7, 3 -> 64 channels, 112x112 before its pool: 7*7*3*64*112*112 = 118,013,952 MACs.
        QCOMPARE(view.nodeLines(1), QStringList({"conv1", "conv + pool · 64×56×56", "118 M MACs"}));
        const int add = view.nodeOfOperator(3);  // res2a
        QCOMPARE(view.nodeLines(add), QStringList({"res2a", "add · 64×56×56"}));
        QCOMPARE(view.layerOfNode(add), -1);
    }

    // Imported operator kinds: element-wise and layout ops by their model's name, grouped convs with
    // their groups, and a matmul of two activations with its MACs (no weights, so no layer).
    void importedOperatorsShowTheirKinds() {
        const InputsPtr in = inputsOf("ops-tour");
        NetworkGraphView view;
        view.setInputs(in);
        const auto lines = [&](const char* name) { return view.nodeLines(view.nodeOfOperator(in->network.find(name))); };
        // Depthwise 3x3 over 16 channels at 16x16 positions: 9 * 16 * 256 = 36,864 MACs.
        QCOMPARE(lines("dw"), QStringList({"dw", "conv (16 groups) · 16×16×16", "36.86 k MACs"}));
        QCOMPARE(lines("dw_act"), QStringList({"dw_act", "HardSwish · 16×16×16"}));
        QCOMPARE(lines("tokens"), QStringList({"tokens", "Reshape · 16×64×1"}));
        // Q (64 x 16) times K^T (16 x 64): 64 * 16 * 64 = 65,536 MACs, and no weighted layer.
        QCOMPARE(lines("scores"), QStringList({"scores", "matmul · 1×64×64", "65.54 k MACs"}));
        QCOMPARE(view.layerOfNode(view.nodeOfOperator(in->network.find("scores"))), -1);
        // 2x2 kernel, 32 -> 16 channels, applied at the 16x16 input positions: 4 * 32 * 16 * 256.
        QCOMPARE(lines("up"), QStringList({"up", "conv_transpose · 16×32×32", "524.3 k MACs"}));
        // Coloured by MACs, the matmul is coloured too; by weights it is not.
        view.setColourMode(NetworkGraphView::ColourMode::Macs);
        const int scores = view.nodeOfOperator(in->network.find("scores"));
        QVERIFY(view.nodeFill(scores) != QColor(Qt::white));
        view.setColourMode(NetworkGraphView::ColourMode::Weights);
        QCOMPARE(view.nodeFill(scores), QColor(Qt::white));
    }

    void coloursFollowTheChosenLevelAndMode() {
        const InputsPtr in = inputsOf("lenet-c");
        const RunPtr run = hypar(in);
        NetworkGraphView view;
        view.setInputs(in);
        QCOMPARE(view.colourMode(), NetworkGraphView::ColourMode::Macs);  // no run yet
        QVERIFY(!view.colourModeAvailable(NetworkGraphView::ColourMode::Partition));
        view.setRun(run);
        QCOMPARE(view.colourMode(), NetworkGraphView::ColourMode::Partition);
        QCOMPARE(view.levels(), 4);  // 16 accelerators
        for (int h = 0; h < 4; ++h) {
            view.setLevel(h);
            for (int l = 0; l < run->grid.layers(); ++l)
                QCOMPARE(view.nodeFill(view.nodeOfLayer(l)), rgb(partita::view::splitColour(index(run->grid.split(h, l)))));
        }
        // MACs on a log scale: the largest layer at the top of viridis, the smallest at the bottom.
        view.setColourMode(NetworkGraphView::ColourMode::Macs);
        int lo = 0, hi = 0;
        for (int l = 0; l < static_cast<int>(in->layers.size()); ++l) {
            if (in->layers[l].macsPerSample() < in->layers[lo].macsPerSample()) lo = l;
            if (in->layers[l].macsPerSample() > in->layers[hi].macsPerSample()) hi = l;
        }
        QCOMPARE(view.nodeFill(view.nodeOfLayer(hi)), rgb(partita::view::viridis(1)));
        QCOMPARE(view.nodeFill(view.nodeOfLayer(lo)), rgb(partita::view::viridis(0)));
        QVERIFY(view.colourModeAvailable(NetworkGraphView::ColourMode::Communication));
        view.setColourMode(NetworkGraphView::ColourMode::Communication);
        QCOMPARE(view.colourMode(), NetworkGraphView::ColourMode::Communication);
        // The run goes: the preferred mode comes back with the next run.
        view.setRun(nullptr);
        QCOMPARE(view.colourMode(), NetworkGraphView::ColourMode::Macs);
        view.setRun(run);
        QCOMPARE(view.colourMode(), NetworkGraphView::ColourMode::Communication);
    }

    void clickingANodeSelectsItsLayerAndTheReverse() {
        const InputsPtr in = inputsOf("resnet-18");
        NetworkGraphView view;
        view.resize(900, 700);
        view.show();
        view.setInputs(in);
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QSignalSpy layers(&view, &NetworkGraphView::layerSelected);
        QSignalSpy ops(&view, &NetworkGraphView::operatorSelected);
        const int node = view.nodeOfLayer(5);
        showNode(view, node);
        QTest::mouseClick(&view, Qt::LeftButton, {}, view.nodeRect(node).center().toPoint());
        QCOMPARE(layers.count(), 1);
        QCOMPARE(layers.at(0).at(0).toInt(), 5);
        QCOMPARE(ops.at(0).at(0).toInt(), in->layers[5].op_id);
        QCOMPARE(view.selectedLayer(), 5);
        // An add is an operator without a layer: no layer signal.
        const int add = view.nodeOfOperator(3);
        showNode(view, add);
        QTest::mouseClick(&view, Qt::LeftButton, {}, view.nodeRect(add).center().toPoint());
        QCOMPARE(layers.count(), 1);
        QCOMPARE(ops.count(), 2);
        QCOMPARE(view.selectedLayer(), -1);
        // The reverse: selecting a layer (the grid's column) selects and shows its node, silently.
        view.selectLayer(20);
        QCOMPARE(view.selectedNode(), view.nodeOfLayer(20));
        QVERIFY(QRectF(view.rect()).contains(view.nodeRect(view.selectedNode())));
        QCOMPARE(layers.count(), 1);
        shoot(view, "network-graph-selected.png");
    }

    void zoomAndFit() {
        NetworkGraphView view;
        view.resize(900, 700);
        view.setInputs(inputsOf("resnet-18"));
        view.fit();
        const double fit = view.scale();
        QCOMPARE(fit, view.fitScale());
        for (int n = 0; n < view.nodeCount(); ++n) QVERIFY(QRectF(view.rect()).contains(view.nodeRect(n)));
        view.zoomIn();
        QCOMPARE(view.scale(), fit * 1.25);
        QTest::keyClick(&view, Qt::Key_Minus);
        QCOMPARE(view.scale(), fit * 1.25 * 0.8);
        QTest::keyClick(&view, Qt::Key_F);
        QCOMPARE(view.scale(), fit);
    }

    void largeGraphsAreLaidOutInAWorker() {
        const Network net = residualChain(60);  // 181 operators
        const InputsPtr in = makeInputs(net, defaultArray(4), CostParams{});
        NetworkGraphView view;
        view.resize(900, 700);
        view.setInputs(in);
        QVERIFY(view.nodeCount() > NetworkGraphView::kSyncLayoutNodes);
        QVERIFY(view.layingOut());
        QVERIFY(view.graphLayout().empty());
        const QImage waiting = view.grab().toImage();  // paints "Laying out…" meanwhile
        QVERIFY(!waiting.isNull());
        QSignalSpy done(&view, &NetworkGraphView::layoutFinished);
        QVERIFY(view.waitForLayout());
        QCOMPARE(done.count(), 1);
        QCOMPARE(static_cast<int>(view.graphLayout().nodes.size()), view.nodeCount());
        QCOMPARE(view.problem(), QString());
        view.fit();  // 181 operators fitted: boxes without text
        QVERIFY(view.scale() < 0.12);
        shoot(view, "network-graph-large-fit.png");
        // New parameters on the same network keep the drawing (no second layout).
        CostParams params;
        params.batch = 64;
        view.setInputs(makeInputs(net, defaultArray(4), params));
        QVERIFY(!view.layingOut());
        QCOMPARE(done.count(), 1);
    }

    void exportsFiguresDotAndCsv() {
        const InputsPtr in = inputsOf("lenet-c");
        NetworkGraphView view;
        view.setInputs(in);
        view.setRun(hypar(in));
        const QString base = shotPath("lenet-graph");
        QCOMPARE(exportFigure(view, base + ".png"), QString());
        const QImage png(base + ".png");
        QCOMPARE(png.size(), view.figureSize());
        keepCopy(base + ".png");
        QCOMPARE(exportFigure(view, base + ".svg"), QString());
        QVERIFY(QSvgRenderer(base + ".svg").isValid());
        QCOMPARE(exportFigure(view, base + ".pdf"), QString());
        QFile pdf(base + ".pdf");
        QVERIFY(pdf.open(QIODevice::ReadOnly));
        QVERIFY(pdf.readAll().startsWith("%PDF"));
        const QString dot = view.dot();
        QVERIFY(dot.startsWith("digraph \"Lenet-c\" {\n"));
        QCOMPARE(dot.count(" -> "), view.edgeCount());
        for (const Operator& op : in->network.ops) QVERIFY(dot.contains("  \"" + QString::fromStdString(op.name) + "\" ["));
        QVERIFY(dot.contains("\"input\" -> \"conv1\";"));
        QCOMPARE(exportText(dot, base + ".dot"), QString());
        QVERIFY(QFile(base + ".dot").size() > 0);
        const CsvTable t = view.csv();
        QCOMPARE(static_cast<int>(t.rows.size()), view.nodeCount());
        QCOMPARE(t.header.front(), std::string("node"));
        QCOMPARE(t.rows[1][1], in->network.ops[0].name);
        QCOMPARE(t.header[8], std::string("choice_H1"));
        shoot(view, "network-graph-lenet.png");
    }

    void theTabShowsGraphAndTable() {
        const InputsPtr in = inputsOf("resnet-18");
        NetworkTabView tab;
        tab.resize(1100, 800);
        tab.setInputs(in);
        tab.setRun(std::make_shared<const Run>(accparRun(in)));
        tab.show();
        QVERIFY(QTest::qWaitForWindowExposed(&tab));
        QCOMPARE(tab.pages()->count(), 2);
        QCOMPARE(tab.table()->rowCount(), static_cast<int>(in->network.ops.size()));
        QCOMPARE(tab.csv().rows.size(), in->layers.size());
        QCOMPARE(tab.levelBox()->count(), 4);
        QSignalSpy cells(&tab, &NetworkTabView::currentCellChanged);
        tab.setCurrentCell(1, 4);  // from the grid: level and layer, no signal back
        QCOMPARE(tab.graph()->level(), 1);
        QCOMPARE(tab.levelBox()->currentIndex(), 1);
        QCOMPARE(tab.graph()->selectedLayer(), 4);
        QCOMPARE(cells.count(), 0);
        const int node = tab.graph()->nodeOfLayer(6);
        showNode(*tab.graph(), node);
        QTest::mouseClick(tab.graph(), Qt::LeftButton, {}, tab.graph()->nodeRect(node).center().toPoint());
        QCOMPARE(cells.count(), 1);
        QCOMPARE(cells.at(0).at(0).toInt(), 1);
        QCOMPARE(cells.at(0).at(1).toInt(), 6);
        QCOMPARE(tab.table()->currentRow(), in->layers[6].op_id);  // the table follows
        // A row chosen in the table selects its node and, for a layer, the grid cell.
        tab.pages()->setCurrentIndex(1);
        tab.table()->setCurrentCell(in->layers[9].op_id, 0);
        QCOMPARE(tab.graph()->selectedLayer(), 9);
        QCOMPARE(cells.count(), 2);
        QCOMPARE(cells.at(1).at(1).toInt(), 9);
        tab.pages()->setCurrentIndex(0);
        shoot(tab, "network-tab.png");
    }
};

QTEST_MAIN(NetworkGraphTest)
#include "network_graph_test.moc"
