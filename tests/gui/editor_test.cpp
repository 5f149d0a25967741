// The network editor in the main window (issue 16), driven as a user drives it: Lenet-c built from
// an empty graph with the palette (double-click and drag), the properties and a port drag, saved and
// compared with examples/networks/lenet-c.json, and planned by HyPar; undo to empty and redo give the
// same file; widening a VGG-A layer re-plans after the debounce as partita-cli does on the saved file;
// an invalid graph is never analysed; moves merge; selection, copy, paste, delete; recovery; shots.
#include <sstream>

#include <QComboBox>
#include <QDockWidget>
#include <QDropEvent>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMimeData>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>
#include <QSignalSpy>
#include <QStatusBar>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QToolButton>
#include <QtTest>

#include "app/cli/cli.h"
#include "app/gui/action_set.h"
#include "app/gui/main_window.h"
#include "app/gui/screenshot.h"
#include "app/gui/network_editor.h"
#include "app/gui/options.h"
#include "core/io/network_io.h"
#include "core/model/counts.h"
#include "core/util/format.h"
#include "tests/generated_network.h"
#include "tests/qt_test_util.h"
#include "widgets/network_editor/editor_canvas.h"
#include "widgets/network_editor/editor_view.h"
#include "widgets/network_editor/properties_panel.h"
#include "widgets/grid/metrics_panel.h"

using namespace partita;
using namespace partita::gui;

namespace {

const QString kExamples = PARTITA_EXAMPLES_DIR;

struct Editor {
    MainWindow& w;
    EditorView* view = w.views().get<NetworkEditor>()->view();
    EditorCanvas* canvas = view->canvas();
    const edit::Document& doc() const { return view->document(); }
    edit::NodeId id(const char* name) const { return doc().findByName(name).value_or(-1); }
    QWidget* field(const char* key) const { return view->properties()->field(key); }
};

void doubleClickPalette(Editor& e, const QString& key) {
    EditorPalette* palette = e.view->palette();
    QTreeWidgetItem* item = palette->itemOf(key);
    QVERIFY(item);
    palette->scrollToItem(item);
    const QPoint at = palette->visualItemRect(item).center();
    QTest::mouseClick(palette->viewport(), Qt::LeftButton, {}, at);  // a double-click's first click
    QTest::mouseDClick(palette->viewport(), Qt::LeftButton, {}, at);
}

// What a drag from the palette carries (the palette's own mime data), dropped on the canvas at `pos`.
void dragFromPalette(Editor& e, const QString& key, QPoint pos) {
    EditorPalette* palette = e.view->palette();
    palette->setCurrentItem(palette->itemOf(key));
    std::unique_ptr<QMimeData> data(palette->model()->mimeData({palette->currentIndex()}));
    QVERIFY(data && data->hasFormat(EditorCanvas::kMime));
    QDragEnterEvent enter(pos, Qt::CopyAction, data.get(), Qt::LeftButton, {});
    QApplication::sendEvent(e.canvas, &enter);
    QVERIFY(enter.isAccepted());
    QDropEvent drop(QPointF(pos), Qt::CopyAction, data.get(), Qt::LeftButton, {});
    QApplication::sendEvent(e.canvas, &drop);
}

void showNode(Editor& e, edit::NodeId id) {
    e.canvas->centreOn(e.canvas->nodeBox(id).center());
}

void clickNode(Editor& e, edit::NodeId id, Qt::KeyboardModifiers mods = {}) {
    showNode(e, id);
    QTest::mouseClick(e.canvas, Qt::LeftButton, mods, e.canvas->nodeRect(id).center().toPoint());
}

// From the output port of `from` to the middle of `to`, in steps.
void dragConnection(Editor& e, edit::NodeId from, edit::NodeId to) {
    const QPoint a = e.canvas->outputPort(from).toPoint(), b = e.canvas->nodeRect(to).center().toPoint();
    QTest::mousePress(e.canvas, Qt::LeftButton, {}, a);
    for (int k = 1; k <= 4; ++k) QTest::mouseMove(e.canvas, a + (b - a) * k / 4);
    QTest::mouseRelease(e.canvas, Qt::LeftButton, {}, b);
}

void choose(QWidget* field, const QString& text) {
    auto* box = qobject_cast<QComboBox*>(field);
    QVERIFY(box);
    box->setFocus();
    while (box->currentText() != text && box->currentIndex() + 1 < box->count()) QTest::keyClick(box, Qt::Key_Down);
    QCOMPARE(box->currentText(), text);
}

// The analysis follows the editor 300 ms after the last edit, through the job runner.
void settle(MainWindow& w) {
    QTest::qWait(NetworkEditor::kDebounceMs + 100);
    QVERIFY(w.jobs().waitForIdle());
}

QByteArray readAll(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// `partita-cli hypar --network F`'s total communication, in elements.
QString cliTotal(const QString& path) {
    std::ostringstream out, err;
    const int status = cli::run({"hypar", "--network", path.toStdString()}, out, err);
    if (status != 0) return QString::fromStdString(err.str());
    const auto m = QRegularExpression("Total communication\\s+([0-9,]+) elements").match(QString::fromStdString(out.str()));
    return m.hasMatch() ? m.captured(1) : QString::fromStdString(out.str());
}

// Builds Lenet-c from an empty graph; returns with every node valid and the analysis settled.
void buildLenet(MainWindow& w) {
    Editor e{w};
    w.views().get<NetworkEditor>()->newNetwork({1, 28, 28}, "Lenet-c");
    QVERIFY(e.doc().ids().empty());
    QCOMPARE(w.views().shown(), static_cast<QWidget*>(e.view));
    QVERIFY(QTest::qWaitForWindowActive(&w));

    // conv1: dragged onto the empty canvas, it reads the input.
    dragFromPalette(e, "conv", e.canvas->rect().center() - QPoint(0, 150));
    QCOMPARE(e.doc().ids().size(), size_t{1});
    QVERIFY(e.canvas->current());
    typeInto(e.field("name"), "conv1");
    typeInto(e.field("out_channels"), "20");
    typeInto(e.field("kernel"), "5");
    typeInto(e.field("padding"), "0");
    choose(e.field("pool"), "max");
    QCOMPARE(e.doc().outputShape(e.id("conv1")), std::optional<Shape>(Shape{20, 12, 12}));

    // conv2: dropped onto conv1, it follows conv1.
    dragFromPalette(e, "conv", e.canvas->nodeRect(e.id("conv1")).center().toPoint());
    typeInto(e.field("name"), "conv2");
    typeInto(e.field("out_channels"), "50");
    typeInto(e.field("kernel"), "5");
    typeInto(e.field("padding"), "0");
    choose(e.field("pool"), "max");
    QCOMPARE(e.doc().outputShape(e.id("conv2")), std::optional<Shape>(Shape{50, 4, 4}));

    // fc1: dropped on empty ground it reads nothing: red, in the Problems list, never analysed.
    const QRectF conv2 = e.canvas->nodeRect(e.id("conv2"));
    dragFromPalette(e, "fc", (conv2.center() + QPointF(0, 110)).toPoint());
    const edit::NodeId fc1 = *e.canvas->current();
    QVERIFY(e.canvas->hasProblem(fc1));
    QCOMPARE(e.canvas->nodeFill(fc1), QColor(255, 214, 214));
    QCOMPARE(e.view->problems()->count(), 1);
    QVERIFY(e.canvas->nodeToolTip(fc1).contains("Problem:"));
    typeInto(e.field("name"), "fc1");
    typeInto(e.field("out_features"), "500");
    // A drag from conv2's output port to fc1 connects them.
    dragConnection(e, e.id("conv2"), fc1);
    QVERIFY(!e.canvas->hasProblem(fc1));
    QCOMPARE(e.view->problems()->count(), 0);

    // fc2: a double-click adds it after the selected fc1.
    clickNode(e, fc1);
    doubleClickPalette(e, "fc");
    typeInto(e.field("name"), "fc2");
    typeInto(e.field("out_features"), "10");
    QVERIFY(e.doc().valid());
    settle(w);
}

}  // namespace

class EditorTest : public QObject {
    Q_OBJECT
private:
    QTemporaryDir dir_;
    Options options(const QString& network = {}, QSize size = {1280, 800}) const {
        Options o;
        o.network = network.isEmpty() ? QString() : kExamples + "/networks/" + network + ".json";
        o.db = dir_.filePath("results.sqlite");
        o.screenshot = dir_.filePath("unused.png");  // no dialogs
        o.size = size;
        return o;
    }

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, dir_.filePath("settings"));
        QFile::remove(NetworkEditor::recoveryPath());
    }

    void lenetBuiltFromAnEmptyGraphIsLenet() {
        MainWindow w(options());
        w.show();
        QVERIFY(w.jobs().waitForIdle());
        buildLenet(w);
        QVERIFY(w.isWindowModified());
        QVERIFY(w.windowTitle().contains("Lenet-c on"));
        // The analysis has it: HyPar's grid and total, as for the example file.
        QVERIFY(w.session().inputs()->network_origin == "editor:Lenet-c");
        QVERIFY(w.session().currentRun());
        QCOMPARE(w.session().currentRun()->grid.toStrings(), (std::vector<std::string>{"0011", "0010", "0000", "0011"}));
        QCOMPARE(w.session().currentRun()->eval().total_elements, 3901560.0);
        shoot(w, "editor-lenet.png");

        const QString path = dir_.filePath("lenet-built.json");
        QVERIFY(w.views().get<NetworkEditor>()->saveAs(path));
        QVERIFY(!w.isWindowModified());
        const LaidOutNetwork saved = loadNetworkWithLayout(path.toStdString());
        const Network expect = partita::loadNetwork((kExamples + "/networks/lenet-c.json").toStdString());
        const Network& got = saved.network;
        QCOMPARE(got.input, expect.input);
        QCOMPARE(got.ops.size(), expect.ops.size());
        for (size_t i = 0; i < got.ops.size(); ++i) {
            const Operator &a = got.ops[i], &b = expect.ops[i];
            QCOMPARE(a.name, b.name);
            QCOMPARE(a.type, b.type);
            QCOMPARE(a.inputs, b.inputs);
            QCOMPARE(a.out_channels, b.out_channels);
            QCOMPARE(a.window.kernel_h, b.window.kernel_h);
            QCOMPARE(a.window.stride_h, b.window.stride_h);
            QCOMPARE(a.window.pad_h, b.window.pad_h);
            QCOMPARE(a.pool.has_value(), b.pool.has_value());
            if (a.pool) {
                QCOMPARE(a.pool->kernel_h, b.pool->kernel_h);
                QCOMPARE(a.pool->stride_h, b.pool->stride_h);
            }
            QCOMPARE(a.out_shape, b.out_shape);
        }
        const NetworkCounts x = countNetwork(got), y = countNetwork(expect);
        QCOMPARE(x.weights, y.weights);
        QCOMPARE(x.macs_per_sample, y.macs_per_sample);
        QCOMPARE(saved.positions.size(), size_t{4});  // every operator was placed by the user
        QCOMPARE(cliTotal(path), QString("3,901,560"));
    }

    void undoToEmptyAndRedoGiveTheSameFile() {
        MainWindow w(options());
        w.show();
        QVERIFY(w.jobs().waitForIdle());
        buildLenet(w);
        Editor e{w};
        const QString a = dir_.filePath("full-a.json"), b = dir_.filePath("full-b.json");
        QVERIFY(w.views().get<NetworkEditor>()->saveAs(a));
        // Edit ▸ Undo and Redo step through the editor's commands while its tab is shown.
        int steps = 0;
        while (w.actionSet().action("undo")->isEnabled()) {
            w.actionSet().action("undo")->trigger();
            ++steps;
        }
        QVERIFY(steps >= 12);
        QVERIFY(e.doc().ids().empty());
        QVERIFY(!w.views().get<NetworkEditor>()->saveAs(dir_.filePath("empty.json")));  // nothing valid to save
        while (w.actionSet().action("redo")->isEnabled()) w.actionSet().action("redo")->trigger();
        QVERIFY(w.views().get<NetworkEditor>()->saveAs(b));
        QCOMPARE(readAll(b), readAll(a));
        QVERIFY(!readAll(a).isEmpty());
        // The grid's own undo comes back with its tab.
        w.showView("grid");
        QCOMPARE(w.undoGroup().activeStack(), &w.session().gridEdits());
    }

    void wideningAVggLayerReplansAfterTheDebounce() {
        MainWindow w(options("vgg-a"));
        w.show();
        QVERIFY(w.jobs().waitForIdle());
        const RunPtr before = w.session().currentRun();
        const QString total_before = w.views().get<MetricsPanel>()->text("total_elements");
        w.showView("editor");
        Editor e{w};
        QVERIFY(QTest::qWaitForWindowActive(&w));
        QCOMPARE(e.doc().ids().size(), size_t{11});
        clickNode(e, e.id("conv3_1"));
        QCOMPARE(e.canvas->current(), std::optional<edit::NodeId>(e.id("conv3_1")));
        typeInto(e.field("out_channels"), "512");
        QCOMPARE(e.doc().node(e.id("conv3_1"))->op.out_channels, 512);
        QCOMPARE(w.session().currentRun(), before);  // not before the debounce
        QTRY_VERIFY_WITH_TIMEOUT(w.session().currentRun() != before, 2000);
        QVERIFY(w.jobs().waitForIdle());
        const Network& net = w.session().currentRun()->inputs->network;
        QCOMPARE(net.ops[static_cast<size_t>(net.find("conv3_1"))].out_channels, std::int64_t{512});
        QVERIFY(w.views().get<MetricsPanel>()->text("total_elements") != total_before);
        QVERIFY(w.session().currentRun()->grid.toStrings() != before->grid.toStrings() ||
                w.session().currentRun()->eval().total_elements != before->eval().total_elements);
        const QString path = dir_.filePath("vgg-a-wide.json");
        QVERIFY(w.views().get<NetworkEditor>()->saveAs(path));
        QCOMPARE(cliTotal(path), QString::fromStdString(withCommas(w.session().currentRun()->eval().total_elements)));
        QCOMPARE(w.views().get<MetricsPanel>()->text("total_elements"), cliTotal(path));
    }

    void anInvalidGraphIsNeverAnalysed() {
        MainWindow w(options("lenet-c"));
        w.show();
        QVERIFY(w.jobs().waitForIdle());
        w.showView("editor");
        Editor e{w};
        QVERIFY(QTest::qWaitForWindowActive(&w));
        const RunPtr before = w.session().currentRun();
        clickNode(e, e.id("conv2"));
        typeInto(e.field("kernel"), "13");  // conv1 gives 12x12: a 13x13 kernel does not fit
        QVERIFY(e.canvas->hasProblem(e.id("conv2")));
        QVERIFY(e.canvas->hasProblem(e.id("fc1")));  // downstream of it
        QCOMPARE(e.view->problems()->count(), 3);
        settle(w);
        QCOMPARE(w.session().currentRun(), before);
        // Clicking a problem selects its node.
        auto* list = e.view->problems();
        QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, list->visualItemRect(list->item(2)).center());
        QCOMPARE(e.canvas->current(), std::optional<edit::NodeId>(e.id("fc2")));
        // A bad value in a field turns it red and changes nothing.
        clickNode(e, e.id("conv2"));
        typeInto(e.field("out_channels"), "-3");
        QVERIFY(e.field("out_channels")->property("invalid").toBool());
        QCOMPARE(e.doc().node(e.id("conv2"))->op.out_channels, 50);
        QVERIFY(!e.view->properties()->problem().isEmpty());
    }

    void dragsMoveAndMergeSelectionCopiesAndDeletes() {
        MainWindow w(options("lenet-c"));
        w.show();
        QVERIFY(w.jobs().waitForIdle());
        w.showView("editor");
        Editor e{w};
        QVERIFY(QTest::qWaitForWindowActive(&w));
        QUndoStack& stack = e.view->undoStack();
        const edit::NodeId fc1 = e.id("fc1");
        showNode(e, fc1);
        const QPointF start = e.canvas->position(fc1);
        const QPoint grab = e.canvas->nodeRect(fc1).center().toPoint();
        QTest::mousePress(e.canvas, Qt::LeftButton, {}, grab);
        for (int k = 1; k <= 5; ++k) QTest::mouseMove(e.canvas, grab + QPoint(12 * k, 4 * k));
        QTest::mouseRelease(e.canvas, Qt::LeftButton, {}, grab + QPoint(60, 20));
        QCOMPARE(stack.count(), 1);  // one drag, one command
        const double scale = e.canvas->scale();
        QVERIFY(std::abs(e.canvas->position(fc1).x() - (start.x() + 60 / scale)) <= 1);
        QVERIFY(e.doc().node(fc1)->position.has_value());
        stack.undo();
        QCOMPARE(e.canvas->position(fc1), start);
        QVERIFY(!e.doc().node(fc1)->position.has_value());

        // Ctrl-click adds to the selection; Ctrl+C, Ctrl+V paste copies with fresh names.
        clickNode(e, e.id("fc1"));
        clickNode(e, e.id("fc2"), Qt::ControlModifier);
        QCOMPARE(e.canvas->selection().size(), size_t{2});
        QTest::keyClick(e.canvas, Qt::Key_C, Qt::ControlModifier);
        QTest::keyClick(e.canvas, Qt::Key_V, Qt::ControlModifier);
        QCOMPARE(e.doc().ids().size(), size_t{6});
        QVERIFY(e.doc().findByName("fc1_2") && e.doc().findByName("fc2_2"));
        QCOMPARE(e.doc().node(*e.doc().findByName("fc2_2"))->inputs,
                 std::vector<edit::NodeId>{*e.doc().findByName("fc1_2")});
        QCOMPARE(e.canvas->selection().size(), size_t{2});  // the copies
        QTest::keyClick(e.canvas, Qt::Key_Delete);
        QCOMPARE(e.doc().ids().size(), size_t{4});
        // A rubber band around conv1 and conv2 selects both; Ctrl+D duplicates them.
        showNode(e, e.id("conv1"));
        const QRectF both = e.canvas->nodeRect(e.id("conv1")).united(e.canvas->nodeRect(e.id("conv2")));
        const QPoint from = both.topLeft().toPoint() - QPoint(30, 8), to = both.bottomRight().toPoint() + QPoint(30, 8);
        QTest::mousePress(e.canvas, Qt::LeftButton, {}, from);
        QTest::mouseMove(e.canvas, (from + to) / 2);
        QTest::mouseMove(e.canvas, to);
        QTest::mouseRelease(e.canvas, Qt::LeftButton, {}, to);
        QCOMPARE(e.canvas->selection(), (std::set<edit::NodeId>{e.id("conv1"), e.id("conv2")}));
        QTest::keyClick(e.canvas, Qt::Key_D, Qt::ControlModifier);
        QCOMPARE(e.doc().ids().size(), size_t{6});
        // F2 offers the name; typing renames.
        clickNode(e, e.id("conv1_2"));
        QTest::keyClick(e.canvas, Qt::Key_F2);
        QVERIFY(e.field("name")->hasFocus());
        QTest::keyClicks(e.field("name"), "branch");
        QVERIFY(e.doc().findByName("branch"));
    }

    void autoLayoutEdgesAndExports() {
        MainWindow w(options("lenet-c"));
        w.show();
        QVERIFY(w.jobs().waitForIdle());
        w.showView("editor");
        Editor e{w};
        QVERIFY(QTest::qWaitForWindowActive(&w));
        // Laid out by dot on loading: one column, top to bottom, no hints.
        const QPointF conv1 = e.canvas->position(e.id("conv1")), fc2 = e.canvas->position(e.id("fc2"));
        QCOMPARE(conv1.x(), fc2.x());
        QVERIFY(conv1.y() < fc2.y());
        QVERIFY(e.doc().positions().empty());
        // A dragged node keeps its place; Auto layout (undoable) forgets it.
        e.view->push(edit::moveNodes(e.doc(), {{e.id("fc2"), {400, 20}}}), "Move");
        QCOMPARE(e.canvas->position(e.id("fc2")), QPointF(400, 20));
        QTest::mouseClick(e.view->findChild<QToolButton*>("editor-layout"), Qt::LeftButton);
        QCOMPARE(e.canvas->position(e.id("fc2")), fc2);
        QVERIFY(e.doc().positions().empty());
        e.view->undoStack().undo();
        QCOMPARE(e.canvas->position(e.id("fc2")), QPointF(400, 20));
        e.view->undoStack().redo();

        // Clicking an edge selects it; Delete disconnects (fc2 then misses its input).
        showNode(e, e.id("fc1"));
        const QPointF mid = (e.canvas->outputPort(e.id("fc1")) + e.canvas->nodeRect(e.id("fc2")).topLeft() +
                             QPointF(e.canvas->nodeRect(e.id("fc2")).width() / 2, 0)) / 2;
        QTest::mouseClick(e.canvas, Qt::LeftButton, {}, mid.toPoint());
        QVERIFY(e.canvas->selectedEdge().has_value());
        QTest::keyClick(e.canvas, Qt::Key_Delete);
        QVERIFY(e.doc().node(e.id("fc2"))->inputs.empty());
        QVERIFY(e.canvas->hasProblem(e.id("fc2")));

        // A template that does not fit says why and adds nothing.
        const size_t before = e.doc().ids().size();
        e.canvas->setSelection({e.id("conv1")});
        QSignalSpy said(e.view, &EditorView::message);
        QVERIFY(!e.view->add("template:transformer-encoder"));  // 20 channels: 8 heads do not divide them
        QCOMPARE(e.doc().ids().size(), before);
        QCOMPARE(said.count(), 1);
        QVERIFY(said.at(0).at(0).toString().startsWith("Transformer encoder block: "));

        // Exports through the window's registry.
        w.showView("editor");
        QVERIFY(w.exports().targets().contains("editor-graph"));
        const QString base = dir_.filePath("edited");
        for (const char* ext : {".png", ".svg", ".pdf", ".csv"})
            QCOMPARE(w.exports().write("editor-graph", base + ext), QString());
        QVERIFY(!QImage(base + ".png").isNull());
        QVERIFY(readAll(base + ".pdf").startsWith("%PDF"));
        QVERIFY(readAll(base + ".csv").startsWith("node,operator,type,inputs,out_shape_CxHxW,problem"));
        QCOMPARE(w.exports().write("editor-dot", base + ".dot"), QString());
        const QString dot = QString::fromUtf8(readAll(base + ".dot"));
        QVERIFY(dot.startsWith("digraph \"Lenet-c\" {"));
        QCOMPARE(dot.count(" -> "), 3);  // fc1 -> fc2 was deleted
        QCOMPARE(w.exports().of(w.views().shown()).front().target, QString("editor-graph"));
    }

    void transformerEncoderFromTheTemplate() {
        MainWindow w(options());
        w.show();
        QVERIFY(w.jobs().waitForIdle());
        Editor e{w};
        w.views().get<NetworkEditor>()->newNetwork({512, 1, 64}, "Encoder");  // 64 positions of 512 features
        QVERIFY(QTest::qWaitForWindowActive(&w));
        doubleClickPalette(e, "template:transformer-encoder");
        QVERIFY(e.doc().ids().size() > 15);
        QVERIFY(e.doc().valid());
        for (edit::NodeId id : e.doc().ids()) QVERIFY(e.doc().node(id)->position);  // placed as one block
        int matmuls = 0;
        for (edit::NodeId id : e.doc().ids()) matmuls += e.doc().node(id)->op.type == OpType::MatMul;
        QCOMPARE(matmuls, 2);
        // Repeat: the selected block (all of it) chained once more after itself.
        const size_t block = e.doc().ids().size();
        e.view->repeatSelection(1);
        QCOMPARE(e.doc().ids().size(), 2 * block);
        QVERIFY(e.doc().valid());
        e.view->undoStack().undo();
        settle(w);
        QCOMPARE(w.session().inputs()->network.name, std::string("Encoder"));
    }

    // Above EditorCanvas::kSyncLayoutNodes dot runs in a worker: the view is usable at once (a provisional
    // column), edits meanwhile stand, and dot's layout arrives for the nodes still waiting for it.
    void aLargeGraphIsLaidOutInAWorker() {
        EditorView view;
        view.resize(900, 600);
        view.show();
        const Network net = test::generatedNetwork(400);
        view.setDocument(edit::Document::fromNetwork(net));
        EditorCanvas* c = view.canvas();
        QVERIFY(c->layoutPending());
        const edit::Document& doc = view.document();
        const edit::NodeId moved = *doc.findByName("b0"), gone = *doc.findByName("proj3");
        QCOMPARE(c->position(moved).x(), c->position(gone).x());  // one column meanwhile
        QVERIFY(view.push(edit::moveNodes(doc, {{moved, {5000, 40}}}), "Move"));
        QVERIFY(view.push(edit::removeNodes(doc, {gone}), "Delete"));
        QVERIFY(c->waitForLayout(60000));
        QCOMPARE(c->position(moved), QPointF(5000, 40));  // the user's place, not dot's
        QVERIFY(c->nodeBox(gone).isEmpty());
        // dot's ranks: every edge goes down; the residual branches stand side by side.
        std::set<double> columns;
        for (edit::NodeId id : doc.ids()) {
            columns.insert(c->position(id).x());
            if (id == moved) continue;
            for (edit::NodeId from : doc.node(id)->inputs)
                if (from != moved) QVERIFY(c->position(from).y() < c->position(id).y());
        }
        QVERIFY(columns.size() > 2);
    }

    // A template clicked in the palette shows its parameters; the insertion uses them as typed.
    void templateParametersFromTheForm() {
        MainWindow w(options());
        w.show();
        QVERIFY(w.jobs().waitForIdle());
        Editor e{w};
        w.views().get<NetworkEditor>()->newNetwork({3, 32, 32}, "Stem");
        QVERIFY(QTest::qWaitForWindowActive(&w));
        EditorPalette* palette = e.view->palette();
        const auto clickPalette = [&](const QString& key) {
            QTreeWidgetItem* item = palette->itemOf(key);
            QVERIFY(item);
            palette->scrollToItem(item);
            QTest::mouseClick(palette->viewport(), Qt::LeftButton, {}, palette->visualItemRect(item).center());
        };
        clickPalette("template:conv-bn-relu");
        QCOMPARE(e.view->properties()->shownTemplate(), QString("template:conv-bn-relu"));
        QCOMPARE(qobject_cast<QLineEdit*>(e.field("channels"))->text(), QString("64"));
        typeInto(e.field("template_name"), "stem");
        typeInto(e.field("channels"), "32");
        typeInto(e.field("kernel"), "5");
        typeInto(e.field("stride"), "x");  // not a number: red, and the insertion waits
        QVERIFY(e.field("stride")->property("invalid").toBool());
        QSignalSpy refused(e.view, &EditorView::message);
        doubleClickPalette(e, "template:conv-bn-relu");
        QVERIFY(e.doc().ids().empty());
        QCOMPARE(refused.count(), 1);
        QVERIFY(refused.front().front().toString().contains("Stride: 'x' is not a whole number"));
        typeInto(e.field("stride"), "2");
        doubleClickPalette(e, "template:conv-bn-relu");
        QCOMPARE(e.doc().ids().size(), size_t{3});  // conv, batch norm, ReLU
        // 32 channels, 5x5 (padding 2), stride 2 on 3x32x32: (32 + 4 - 5) / 2 + 1 = 16; 5*5*3*32 weights.
        const Network net = e.doc().toNetwork();
        const Operator& conv = net.ops[static_cast<size_t>(net.find("stem"))];
        QCOMPARE(conv.out_shape, (Shape{32, 16, 16}));
        QCOMPARE(countOperator(conv).weights, 2400.0);
        QVERIFY(e.doc().findByName("stem_bn") && e.doc().findByName("stem_relu"));
        // The form keeps its values for the next insertion; Reset restores the defaults.
        clickPalette("template:conv-bn-relu");
        QCOMPARE(qobject_cast<QLineEdit*>(e.field("channels"))->text(), QString("32"));
        QTest::mouseClick(e.view->properties()->findChild<QPushButton*>("template-reset"), Qt::LeftButton);
        QCOMPARE(qobject_cast<QLineEdit*>(e.field("channels"))->text(), QString("64"));
        QCOMPARE(std::get<edit::ConvBnReluParams>(*e.view->templateParams("template:conv-bn-relu")).channels, 64);

        // Heads must divide the input's channels: core refuses 3 heads on 32 and nothing changes.
        const edit::Document before = e.doc();
        clickPalette("template:transformer-encoder");
        typeInto(e.field("heads"), "3");
        clickNode(e, e.id("stem_relu"));
        refused.clear();
        doubleClickPalette(e, "template:transformer-encoder");
        QCOMPARE(e.doc().ids(), before.ids());
        QCOMPARE(refused.count(), 1);
        QVERIFY(refused.front().front().toString().contains("heads (3) must divide the input's channels (32)"));
    }

    void recoveryKeepsUnsavedWorkProblemsIncluded() {
        QFile::remove(NetworkEditor::recoveryPath());
        edit::Document kept;
        {
            MainWindow w(options("lenet-c"));
            w.show();
            QVERIFY(w.jobs().waitForIdle());
            w.showView("editor");
            Editor e{w};
            QVERIFY(QTest::qWaitForWindowActive(&w));
            w.views().get<NetworkEditor>()->recoveryTimer().setInterval(50);
            clickNode(e, e.id("conv2"));
            typeInto(e.field("kernel"), "13");
            QTRY_VERIFY(QFile::exists(NetworkEditor::recoveryPath()));
            kept = e.doc();
        }
        MainWindow w(options("vgg-a"));
        w.show();
        QVERIFY(w.jobs().waitForIdle());
        QString error;
        QVERIFY2(w.views().get<NetworkEditor>()->recover(NetworkEditor::recoveryPath(), &error), qPrintable(error));
        Editor e{w};
        QCOMPARE(e.doc().ids(), kept.ids());
        for (edit::NodeId id : kept.ids()) QVERIFY(*e.doc().node(id) == *kept.node(id));
        QCOMPARE(e.doc().header(), kept.header());
        QCOMPARE(e.doc().problems().size(), kept.problems().size());
        QVERIFY(w.views().get<NetworkEditor>()->dirty());
        QVERIFY(w.isWindowModified());
        // Saving (here: undoing back to clean is not possible, the history is new) removes it.
        clickNode(e, e.id("conv2"));
        typeInto(e.field("kernel"), "5");
        QVERIFY(w.views().get<NetworkEditor>()->saveAs(dir_.filePath("recovered.json")));
        QVERIFY(!QFile::exists(NetworkEditor::recoveryPath()));
    }

    void theReadmesRecoveryExampleOpens() {
        const QString path = dir_.filePath("readme-recovery.json");
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"format": "partita-editor-recovery/1", "name": "Lenet-c", "description": "",
 "input": {"channels": 1, "height": 28, "width": 28}, "saved_to": "",
 "nodes": [{"id": 1, "inputs": [0], "position": [0, 60], "operator": {"name": "conv1", "type": "conv",
            "out_channels": 20, "kernel": 5, "pool": {"kernel": 2}}},
           {"id": 2, "inputs": [1], "operator": {"name": "fc1", "type": "fc", "out_features": 500}}]})");
        f.close();
        MainWindow w(options("lenet-c"));
        QString error;
        QVERIFY2(w.views().get<NetworkEditor>()->recover(path, &error), qPrintable(error));
        Editor e{w};
        QCOMPARE(e.doc().outputShape(2), std::optional<Shape>(Shape{500, 1, 1}));
        QCOMPARE(e.doc().node(1)->position, std::optional<edit::Point>(edit::Point{0, 60}));
        // A key the format does not have is an error with its place.
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"format": "partita-editor-recovery/1", "name": "x", "input": {"channels": 1}, "nodes": [],
 "colour": "red"})");
        f.close();
        QVERIFY(!w.views().get<NetworkEditor>()->recover(path, &error));
        QVERIFY2(error.contains("colour"), qPrintable(error));
    }

    // HyPar (the default) cannot plan a transformer: the edits stay in the editor, whose problem area
    // says why and offers AccPar; the Grid tab is never brought forward.
    void aMethodThatCannotPlanLeavesTheEditorInFront() {
        MainWindow w(options());
        w.show();
        QVERIFY(w.jobs().waitForIdle());
        QCOMPARE(w.runs().methodKey(), QString("hypar"));
        Editor e{w};
        w.views().get<NetworkEditor>()->newNetwork({512, 1, 64}, "Encoder");
        QVERIFY(QTest::qWaitForWindowActive(&w));
        doubleClickPalette(e, "template:transformer-encoder");
        settle(w);
        QCOMPARE(w.views().shown(), static_cast<QWidget*>(e.view));
        QCOMPARE(w.session().inputs()->network.name, std::string("Encoder"));
        QVERIFY2(e.view->analysisProblem().contains("HyPar cannot plan this network."), qPrintable(e.view->analysisProblem()));
        QVERIFY(e.view->analysisProblem().contains("method:accpar"));
        QVERIFY(e.view->findChild<QLabel*>("editor-status")->text().contains("cannot plan it"));
        // Another edit: still the editor, the refusal said again for the new graph.
        const edit::NodeId first = e.doc().ids().front();
        clickNode(e, first);
        typeInto(e.field("name"), "renamed");
        settle(w);
        QCOMPARE(w.views().shown(), static_cast<QWidget*>(e.view));
        QCOMPARE(w.session().inputs()->network.ops.front().name, std::string("renamed"));
        QVERIFY(e.view->analysisProblem().contains("HyPar cannot plan"));
        // An invalid graph has its own problems; the method's refusal is not about it.
        QVERIFY(e.view->push(edit::disconnect(e.doc(), edit::kNetworkInput, first), "Disconnect"));
        QVERIFY(!e.doc().valid());
        QVERIFY(e.view->analysisProblem().isEmpty());
        e.view->undoStack().undo();
        QVERIFY(e.doc().valid());
        QVERIFY(e.view->analysisProblem().contains("HyPar cannot plan"));
        // The link chooses AccPar, which can: the refusal goes.
        emit e.view->linkActivated("method:accpar");
        QVERIFY(w.jobs().waitForIdle());
        QCOMPARE(w.runs().methodKey(), QString("accpar"));
        QVERIFY(e.view->analysisProblem().isEmpty());
        QCOMPARE(w.views().shown(), static_cast<QWidget*>(e.view));
    }

    // The status line follows the document: a problem undone is no longer announced.
    void theStatusFollowsUndo() {
        MainWindow w(options("lenet-c"));
        w.show();
        QVERIFY(w.jobs().waitForIdle());
        w.showView("editor");
        Editor e{w};
        QVERIFY(QTest::qWaitForWindowActive(&w));
        auto* status = e.view->findChild<QLabel*>("editor-status");
        clickNode(e, e.id("conv2"));
        typeInto(e.field("kernel"), "13");
        QCOMPARE(status->text(), QString("3 problems: not analysed"));
        while (!e.doc().valid()) e.view->undoStack().undo();
        QCOMPARE(status->text(), QString("Valid: 4 operators, analysed"));
        settle(w);
        QCOMPARE(status->text(), QString("Valid: 4 operators, analysed"));
        // A valid change is analysed after the debounce.
        typeInto(e.field("out_channels"), "40");
        QCOMPARE(status->text(), QString("Valid: 4 operators"));
        settle(w);
        QCOMPARE(status->text(), QString("Valid: 4 operators, analysed"));
    }

    // A template that cannot go in says so in the editor, with the reason, until the next edit succeeds;
    // the status bar's note passes.
    void aRefusedTemplateIsShownInTheEditorUntilTheNextEdit() {
        MainWindow w(options("lenet-c"));
        w.show();
        QVERIFY(w.jobs().waitForIdle());
        w.showView("editor");
        Editor e{w};
        QVERIFY(QTest::qWaitForWindowActive(&w));
        clickNode(e, e.id("conv1"));
        doubleClickPalette(e, "template:transformer-encoder");  // 20 channels: 8 heads do not divide them
        auto* shown = e.view->findChild<QLabel*>("editor-refusal");
        QVERIFY(shown->isVisible());
        QVERIFY2(e.view->refusal().startsWith("Transformer encoder block: ") && e.view->refusal().contains("heads"),
                 qPrintable(e.view->refusal()));
        QCOMPARE(shown->text(), e.view->refusal());
        QVERIFY(w.statusBar()->currentMessage().startsWith("Transformer encoder block: "));
        clickNode(e, e.id("fc1"));
        QVERIFY(!e.view->refusal().isEmpty());  // selecting is not an edit
        typeInto(e.field("out_features"), "400");
        QVERIFY(e.view->refusal().isEmpty());
        QVERIFY(!shown->isVisible());
    }

    // New operators land where nothing is: after a node whose successor sits below it, beside that.
    void newNodesLandInFreeSpace() {
        MainWindow w(options("lenet-c"));
        w.show();
        QVERIFY(w.jobs().waitForIdle());
        w.showView("editor");
        Editor e{w};
        QVERIFY(QTest::qWaitForWindowActive(&w));
        for (int k = 0; k < 3; ++k) {
            clickNode(e, e.id("conv1"));
            doubleClickPalette(e, "elementwise");
        }
        dragFromPalette(e, "fc", e.canvas->rect().center() + QPoint(0, 300));  // dropped on empty ground
        QCOMPARE(e.doc().ids().size(), size_t{8});
        const std::vector<edit::NodeId> shown = e.canvas->shownNodes();
        for (size_t a = 0; a < shown.size(); ++a)
            for (size_t b = a + 1; b < shown.size(); ++b)
                QVERIFY2(!e.canvas->nodeBox(shown[a]).intersects(e.canvas->nodeBox(shown[b])),
                         qPrintable(QString("%1 and %2 overlap").arg(e.canvas->nodeLines(shown[a]).value(0),
                                                                    e.canvas->nodeLines(shown[b]).value(0))));
    }

    // Properties reopened in the editor (where it steps aside) stays open when the editor is left, and
    // one the user closed stays closed.
    void thePropertiesDockFollowsTheUser() {
        MainWindow w(options("lenet-c"));
        w.show();
        QVERIFY(w.jobs().waitForIdle());
        auto* props = w.findChild<QDockWidget*>("properties");
        QVERIFY(props->isVisible());
        props->toggleViewAction()->trigger();  // closed on the Grid tab
        QVERIFY(!props->isVisible());
        w.showView("editor");
        QVERIFY(!props->isVisible());
        props->toggleViewAction()->trigger();  // reopened in the editor
        QVERIFY(props->isVisible());
        w.showView("grid");
        QVERIFY(props->isVisible());
        w.showView("editor");
        QVERIFY(!props->isVisible());  // steps aside again
        w.showView("grid");
        QVERIFY(props->isVisible());
        props->close();  // its close button
        w.showView("editor");
        w.showView("network");
        QVERIFY(!props->isVisible());
    }

    // The empty canvas's hint is not drawn under the input node, at either window size.
    void theHintClearsTheInputNode() {
        for (const QSize size : {QSize(1280, 800), QSize(1024, 700)}) {
            MainWindow w(options({}, size));
            w.resize(size);
            w.show();
            QVERIFY(w.jobs().waitForIdle());
            Editor e{w};
            w.views().get<NetworkEditor>()->newNetwork({1, 28, 28}, "Empty");
            QVERIFY(QTest::qWaitForWindowActive(&w));
            const QRectF hint = e.canvas->emptyHint(), input = e.canvas->nodeRect(edit::kNetworkInput);
            QVERIFY(!hint.isEmpty() && !input.isEmpty());
            QVERIFY2(!hint.intersects(input), qPrintable(QString("hint top %1, input bottom %2").arg(hint.top()).arg(input.bottom())));
            QVERIFY(e.canvas->rect().contains(hint.toRect()));
            doubleClickPalette(e, "conv");
            QVERIFY(e.canvas->emptyHint().isEmpty());
        }
    }

    // Also what `./dev shots` keeps (PARTITA_SHOTS=resources/screenshots): a red node with the
    // Problems list, and a transformer encoder from the template, at 1280x800 and 1024x700.
    void screenshots() {
        for (const QSize size : {QSize(1280, 800), QSize(1024, 700)}) {
            const QString suffix = size.width() == 1024 ? "-1024x700" : "";
            {
                MainWindow w(options("lenet-c", size));
                w.show();
                QVERIFY(w.jobs().waitForIdle());
                w.showView("editor");
                Editor e{w};
                QVERIFY(QTest::qWaitForWindowActive(&w));
                clickNode(e, e.id("conv2"));
                typeInto(e.field("kernel"), "13");
                e.canvas->fit();
                const QString path = shotPath("editor" + suffix + ".png");
                QVERIFY(saveScreenshot(w, path, "editor"));
                QCOMPARE(QImage(path).width(), size.width());  // the docks step aside
                keepCopy(path);
            }
            MainWindow w(options({}, size));
            w.show();
            QVERIFY(w.jobs().waitForIdle());
            Editor e{w};
            w.views().get<NetworkEditor>()->newNetwork({512, 1, 64}, "Encoder");
            QVERIFY(QTest::qWaitForWindowActive(&w));
            doubleClickPalette(e, "template:transformer-encoder");
            e.canvas->setSelection({});
            EditorPalette* palette = e.view->palette();  // the template's parameters beside the block
            QTest::mouseClick(palette->viewport(), Qt::LeftButton, {},
                              palette->visualItemRect(palette->itemOf("template:transformer-encoder")).center());
            QCOMPARE(e.view->properties()->shownTemplate(), QString("template:transformer-encoder"));
            settle(w);
            const QString path = shotPath("editor-transformer" + suffix + ".png");
            QVERIFY(saveScreenshot(w, path, "editor"));
            keepCopy(path);
        }
    }
};

QTEST_MAIN(EditorTest)
#include "editor_test.moc"
