// NetworkGraphView: one node per operator (and the input) and one edge per operator input, labels
// with type, output shape and MACs, colours by partition choice and by MACs, clicks and the
// reverse selection, a large graph laid out in a worker, exports (PNG, SVG, PDF, DOT, CSV), and
// screenshots.
#include <map>
#include <memory>

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QFile>
#include <QImage>
#include <QMenu>
#include <QSignalSpy>
#include <QSvgRenderer>
#include <QTabWidget>
#include <QtTest>

#include "core/io/array_io.h"
#include "core/io/csv.h"
#include "core/io/network_io.h"
#include "core/run/run.h"
#include "tests/generated_network.h"
#include "tests/qt_test_util.h"
#include "widgets/common/model_csv.h"
#include "widgets/common/result_table_model.h"
#include "widgets/geometry/palette.h"
#include "widgets/network/network_graph.h"
#include "widgets/network/network_table.h"
#include "widgets/network/network_tab_view.h"

using namespace partita;

namespace {

std::string example(const char* network) { return std::string(PARTITA_EXAMPLES_DIR) + "/networks/" + network + ".json"; }

InputsPtr inputsOf(const char* network) {
    const std::string path = example(network);
    return makeInputs(loadNetwork(path), defaultArray(4), CostParams{}, path);
}

RunPtr hypar(const InputsPtr& inputs) { return std::make_shared<const Run>(planRun(inputs, Method::HyPar)); }

QColor rgb(partita::view::Rgb c) { return QColor(c.r, c.g, c.b); }

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
        const Network net = test::generatedNetwork(181);
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

    // ResNet-34's four runs of identity blocks (core/model/repeats.h) collapse into one node each:
    // 55 nodes and 70 edges become 20 and 22 (an entry that feeds a block twice joins it once).
    void repeatedBlocksCollapseAndExpand() {
        const InputsPtr in = inputsOf("resnet-34");
        NetworkGraphView view;
        view.resize(900, 700);
        view.setInputs(in);
        QCOMPARE(view.nodeCount(), 55);
        QCOMPARE(view.edgeCount(), 70);
        QCOMPARE(static_cast<int>(view.repeats().size()), 4);
        QSignalSpy changed(&view, &NetworkGraphView::collapsedChanged);
        view.setCollapseRepeats(true);
        QVERIFY(!view.layingOut());
        QCOMPARE(view.nodeCount(), 20);
        QCOMPARE(view.edgeCount(), 22);
        QCOMPARE(static_cast<int>(view.graphLayout().nodes.size()), 20);
        QCOMPARE(changed.count(), 1);
        QVERIFY(view.allCollapsed());
        // Stage 2: conv1, then the run; 6 convs of 3x3x64x64 at 56x56 (115,605,504 MACs, 36,864 weights each).
        const int stage2 = view.nodeOfOperator(1);
        QCOMPARE(stage2, 2);
        QCOMPARE(view.runOfNode(stage2), 0);
        for (int op = 1; op <= 9; ++op) QCOMPARE(view.nodeOfOperator(op), stage2);
        QCOMPARE(view.nodeOfOperator(10), 3);  // res3a_branch2a, after the run
        QCOMPARE(view.nodeLines(stage2),
                 QStringList({"3 × residual block", "conv, conv, add", "64×56×56 · 693.6 M MACs, 221.2 k weights"}));
        QCOMPARE(view.layerOfNode(stage2), -1);
        // A layer inside a collapsed run selects the run's node.
        view.selectLayer(4);
        QCOMPARE(view.selectedNode(), stage2);
        // Double-click expands it (the selection stays on its operator), double-click on a member collapses it.
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        showNode(view, stage2);
        QTest::mouseDClick(&view, Qt::LeftButton, {}, view.nodeRect(stage2).center().toPoint());
        QCOMPARE(view.nodeCount(), 28);
        QVERIFY(!view.collapsed(0));
        QVERIFY(!view.allCollapsed());
        QCOMPARE(view.selectedNode(), view.nodeOfLayer(4));
        const int member = view.nodeOfOperator(5);
        showNode(view, member);
        QTest::mouseDClick(&view, Qt::LeftButton, {}, view.nodeRect(member).center().toPoint());
        QCOMPARE(view.nodeCount(), 20);
        QCOMPARE(view.selectedNode(), stage2);
        // The context menu offers the same, and every run at once.
        std::unique_ptr<QMenu> menu(view.contextMenuFor(stage2));
        QAction* expand = menu->findChild<QAction*>("expand-run");
        QVERIFY(expand);
        QCOMPARE(expand->text(), QString("Expand 3 × residual block"));
        QVERIFY(!menu->findChild<QAction*>("collapse-all")->isEnabled());
        expand->trigger();
        QCOMPARE(view.nodeCount(), 28);
        menu.reset(view.contextMenuFor(-1));
        menu->findChild<QAction*>("expand-all")->trigger();
        QCOMPARE(view.nodeCount(), 55);
        QVERIFY(!view.collapseRepeats());
        // ResNet-101: runs of 2, 3, 22 and 2 bottlenecks (4 operators each): 140 - 7 - 11 - 87 - 7 nodes.
        view.setCollapseRepeats(true);
        view.setInputs(inputsOf("resnet-101"));
        QCOMPARE(view.nodeCount(), 28);
    }

    // A collapsed run takes its members' colours: a stripe per weighted layer, filled with the commonest.
    void collapsedRunsShowTheirMembersColours() {
        const InputsPtr in = inputsOf("resnet-34");
        const RunPtr run = std::make_shared<const Run>(accparRun(in));
        NetworkGraphView view;
        view.setInputs(in);
        view.setRun(run);
        view.setCollapseRepeats(true);
        const int stage3 = view.nodeOfLayer(10);  // res3b_branch2a, the first layer of stage 3's run
        QCOMPARE(view.runOfNode(stage3), 1);
        for (int h = 0; h < view.levels(); ++h) {
            view.setLevel(h);
            std::vector<QColor> expected;
            std::map<QRgb, int> count;
            for (int l = 10; l <= 15; ++l) {
                expected.push_back(rgb(partita::view::splitColour(index(run->grid.split(h, l)))));
                ++count[expected.back().rgb()];
            }
            QVERIFY(view.nodeStripes(stage3) == expected);
            int most = 0;
            for (const QColor& c : expected) most = std::max(most, count[c.rgb()]);
            QCOMPARE(count[view.nodeFill(stage3).rgb()], most);
        }
        view.setColourMode(NetworkGraphView::ColourMode::Weights);
        // Alike convs: six stripes of one colour (the 3x3x128x128 weights), the fill the same.
        QCOMPARE(view.nodeStripes(stage3).size(), size_t{6});
        QCOMPARE(view.nodeFill(stage3), view.nodeStripes(stage3).front());
        QCOMPARE(view.nodeFill(view.nodeOfOperator(in->network.find("res3a"))), QColor(Qt::white));  // an add
        view.resize(900, 700);
        view.fit();
        shoot(view, "network-graph-collapsed.png");
    }

    // The generated 181-operator network is 17 repeats of three blocks and three alike convs: collapsed,
    // 11 nodes (input, the run, the projection and identity blocks after it, the convs' run, fc),
    // laid out at once rather than in the worker.
    void aLargeGraphCollapsesToASmallOne() {
        NetworkGraphView view;
        view.setCollapseRepeats(true);
        view.setInputs(makeInputs(test::generatedNetwork(181), defaultArray(4), CostParams{}));
        QVERIFY(!view.layingOut());
        QVERIFY(view.repeats() == (std::vector<RepeatedRun>{{0, 10, 17}, {177, 1, 3}}));
        QCOMPARE(view.nodeCount(), 11);
        QCOMPARE(view.edgeCount(), 12);
        QCOMPARE(view.nodeLines(1).front(), QString("17 × block"));
        QCOMPARE(view.nodeLines(9).front(), QString("3 × conv"));
        QCOMPARE(view.csv().rows[1][1], std::string("a0…cat50"));
        QCOMPARE(view.csv().rows[1][2], std::string("17 × block"));
        QVERIFY(view.dot().contains("\"repeat:a0\" -> \"a51\";"));
    }

    // Tooltips give each level's choice in the grid's words, with AccPar's ratio when it is not even;
    // a collapsed run's gives its operators and how to expand it.
    void tooltipsNameChoicesAndRuns() {
        const std::string alexnet = example("alexnet");
        const InputsPtr in = makeInputs(loadNetwork(alexnet), loadArray(std::string(PARTITA_EXAMPLES_DIR) + "/arrays/tpu-mixed-128.json"),
                                        CostParams{}, alexnet);
        const RunPtr run = std::make_shared<const Run>(accparRun(in));
        NetworkGraphView view;
        view.setInputs(in);
        view.setRun(run);
        const int fc1 = 5;  // conv1-5, then fc1
        const Cell cell = run->grid.at(0, fc1);
        QVERIFY(cell.ratio != 0.5);  // two kinds of TPU: an uneven split
        const QString h1 = QString("H1 %1, α %2").arg(splitShortName(cell.split)).arg(cell.ratio, 0, 'f', 3);
        QVERIFY2(view.nodeToolTip(view.nodeOfLayer(fc1)).contains(h1), qPrintable(view.nodeToolTip(view.nodeOfLayer(fc1))));
        NetworkGraphView resnet;
        resnet.setInputs(inputsOf("resnet-34"));
        resnet.setCollapseRepeats(true);
        const QString tip = resnet.nodeToolTip(resnet.nodeOfOperator(1));
        QVERIFY(tip.startsWith("<b>3 × residual block</b>: res2a_branch2a … res2c, 9 operators"));
        QVERIFY(tip.contains("each member: conv, conv, add"));
        QVERIFY(tip.endsWith("double-click to expand"));
        resnet.setCollapsed(0, false);
        QVERIFY(resnet.nodeToolTip(resnet.nodeOfOperator(5)).contains("in 3 × residual block (member 2): double-click to collapse"));
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

    // The table is a model (issue 27 item 5): exact values in RawValueRole, sorted by number through
    // its proxy, and its CSV (per weighted layer) from a model. LeNet by hand: conv1 1→20 5×5 on
    // 28×28 (24×24 out, pooled to 12×12), conv2 20→50 5×5 (8×8, pooled to 4×4), fc1 800→500 (its input flattened to 800×1×1), fc2 500→10.
    void theTableIsAModel() {
        const InputsPtr in = inputsOf("lenet-c");
        NetworkTable table;
        QAbstractItemModelTester ops(table.operatorModel(), QAbstractItemModelTester::FailureReportingMode::Fatal);
        QAbstractItemModelTester layers(table.layerModel(), QAbstractItemModelTester::FailureReportingMode::Fatal);
        QAbstractItemModelTester sorted(table.model(), QAbstractItemModelTester::FailureReportingMode::Fatal);
        table.setInputs(in);
        QCOMPARE(table.rowCount(), static_cast<int>(in->network.ops.size()));
        const ResultTableModel& m = *table.operatorModel();
        const int conv2 = in->layers[1].op_id;
        QCOMPARE(m.index(conv2, 0).data().toString(), QString("conv2"));
        QCOMPARE(m.index(conv2, 4).data().toString(), QString("25,000"));
        QCOMPARE(m.index(conv2, 4).data(RawValueRole).toDouble(), 25000.0);
        QCOMPARE(m.index(conv2, 5).data(RawValueRole).toDouble(), 1600000.0);
        QCOMPARE(m.index(conv2, 6).data().toString(), QString("weighted layer (D_i = 20, D_o = 50)"));
        // By weights, ascending: the weightless operators, then 500 < 5,000 < 25,000 < 400,000 (as text
        // "25,000" would come first).
        table.sortByColumn(4, Qt::AscendingOrder);
        const QAbstractItemModel& v = *table.model();
        const int n = v.rowCount();
        QCOMPARE(v.index(n - 4, 0).data().toString(), QString("conv1"));
        QCOMPARE(v.index(n - 3, 0).data().toString(), QString("fc2"));
        QCOMPARE(v.index(n - 2, 0).data().toString(), QString("conv2"));
        QCOMPARE(v.index(n - 1, 0).data().toString(), QString("fc1"));
        // Rows stay named by operator: choosing fc1's row reports its operator index.
        QSignalSpy chosen(&table, &NetworkTable::operatorChosen);
        table.setCurrentOperator(in->layers[2].op_id);
        QCOMPARE(table.currentIndex().row(), n - 1);
        QCOMPARE(chosen.count(), 1);
        QCOMPARE(chosen.at(0).at(0).toInt(), in->layers[2].op_id);
        QCOMPARE(table.currentOperator(), in->layers[2].op_id);
        // The CSV is per weighted layer, in network order whatever the sort.
        QCOMPARE(QString::fromStdString(toCsv(table.csv())),
                 QString("layer,type,inputs,in_shape_CxHxW,out_shape_CxHxW,weights_elements,macs_per_sample\r\n"
                             "conv1,conv,input,1×28×28,20×12×12,500,288000\r\n"
                             "conv2,conv,conv1,20×12×12,50×4×4,25000,1600000\r\n"
                             "fc1,fc,conv2,800×1×1,500×1×1,400000,400000\r\n"
                             "fc2,fc,fc1,500×1×1,10×1×1,5000,5000\r\n"));
        QCOMPARE(toCsv(table.csv()), toCsv(csvFromModel(*table.layerModel())));
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
        QCOMPARE(tab.table()->currentOperator(), in->layers[6].op_id);  // the table follows
        // A row chosen in the table selects its node and, for a layer, the grid cell.
        tab.pages()->setCurrentIndex(1);
        tab.table()->setCurrentOperator(in->layers[9].op_id);
        QCOMPARE(tab.graph()->selectedLayer(), 9);
        QCOMPARE(cells.count(), 2);
        QCOMPARE(cells.at(1).at(1).toInt(), 9);
        tab.pages()->setCurrentIndex(0);
        shoot(tab, "network-tab.png");
    }
};

QTEST_MAIN(NetworkGraphTest)
#include "network_graph_test.moc"
