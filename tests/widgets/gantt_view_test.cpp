// GanttView on AlexNet, data parallel on the 16-P100 cluster: wheel zoom
// about the cursor, drag pan, fit all, clicking a bar, colouring, collapsing
// a group, tooltips, the critical path, and a PNG that decodes.
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QImage>
#include <QPushButton>
#include <QSignalSpy>
#include <QWheelEvent>
#include <QtTest>

#include "core/io/network_io.h"
#include "core/sim/baselines.h"
#include "core/sim/simulator.h"
#include "tests/qt_test_util.h"
#include "widgets/timeline/gantt_canvas.h"
#include "widgets/timeline/gantt_view.h"

using namespace partita;

namespace {

std::shared_ptr<const view::GanttInput> alexnetDataParallel() {
    static const auto input = [] {
        const Network net = loadNetwork(std::string(PARTITA_EXAMPLES_DIR) + "/networks/alexnet.json");
        const sim::Topology topo = sim::builtinTopology("p100-16");
        const auto strategy = sim::dataParallelStrategy(net, 256, topo.deviceCount());
        // Per hop: every ring step is a bar on a link (thousands of bars to draw, cull and hit).
        sim::SimOptions options;
        options.collectives = sim::CollectiveModel::PerHop;
        const sim::TaskGraph graph = sim::buildTaskGraph(net, 256, strategy, topo, options);
        return std::make_shared<const view::GanttInput>(view::ganttInput(graph, sim::simulate(graph), topo));
    }();
    return input;
}

// The widest bar of the run: easy to hit with a click.
std::pair<int, int> widestBar(const view::GanttModel& m) {
    std::pair<int, int> best{0, 0};
    double width = -1;
    for (int l = 0; l < m.laneCount(); ++l)
        for (int i = 0; i < static_cast<int>(m.bars(l).size()); ++i) {
            const auto& b = m.bars(l)[static_cast<size_t>(i)];
            if (b.end - b.start > width) width = b.end - b.start, best = {l, i};
        }
    return best;
}

void wheel(QWidget* target, QPointF pos, int delta) {
    QWheelEvent e(pos, target->mapToGlobal(pos), QPoint(), QPoint(0, delta), Qt::NoButton, Qt::NoModifier,
                  Qt::NoScrollPhase, false);
    QApplication::sendEvent(target, &e);
}

}  // namespace

class GanttViewTest : public QObject {
    Q_OBJECT
private slots:
    void init();
    void loadsLanesGroupedByNodeAndLinkKind();
    void wheelZoomsAboutTheCursor();
    void dragPansAndFitAllRestores();
    void clickingABarEmitsItsOperator();
    void colouringToggles();
    void collapsingAGroupHidesItsLanes();
    void toolTipDescribesTheBar();
    void criticalPathEndsAtTheMakespan();
    void rendersAPng();
    void emptyViewSaysWhatToDo();

private:
    std::unique_ptr<GanttView> view_;
};

void GanttViewTest::init() {
    view_ = std::make_unique<GanttView>();
    view_->resize(1280, 800);
    view_->setInput(alexnetDataParallel());
    view_->show();
    QVERIFY(QTest::qWaitForWindowExposed(view_.get()));
}

void GanttViewTest::loadsLanesGroupedByNodeAndLinkKind() {
    const auto& m = view_->model();
    QVERIFY(m.barCount() > 1000);
    QCOMPARE(m.groups().front().name, std::string("node 0"));
    QCOMPARE(m.groups().front().lane_count, 4);
    int devices = 0;
    for (const auto& lane : m.lanes()) devices += lane.link ? 0 : 1;
    QCOMPARE(devices, 16);
    QVERIFY(m.laneCount() > 16);
    view_->setIdleLinksHidden(false);
    QCOMPARE(view_->model().laneCount(), 16 + 88);  // every link of the cluster
    QCOMPARE(view_->findChildren<QCheckBox*>().size(), 2);
}

void GanttViewTest::wheelZoomsAboutTheCursor() {
    GanttCanvas* c = view_->canvas();
    const auto [t0, t1] = view_->visibleRange();
    const QPointF at(c->axis().x0 + 300, c->barRect(0, 0)->center().y());
    const double anchor = c->axis().toTime(at.x());
    const double span = t1 - t0;
    wheel(c->viewport(), at, 240);  // two notches in
    const auto [u0, u1] = view_->visibleRange();
    QVERIFY(u0 > t0 && u1 < t1);
    QVERIFY(std::abs((u1 - u0) - span / (1.25 * 1.25)) < 1e-9 * span);
    QVERIFY(std::abs(c->axis().toTime(at.x()) - anchor) < 1e-9 * span);  // the time under the cursor stays
    wheel(c->viewport(), at, -240);
    const auto [w0, w1] = view_->visibleRange();
    QVERIFY(std::abs(w0 - t0) < 1e-9 * span && std::abs(w1 - t1) < 1e-9 * span);
}

void GanttViewTest::dragPansAndFitAllRestores() {
    GanttCanvas* c = view_->canvas();
    const auto full = view_->visibleRange();
    wheel(c->viewport(), QPointF(700, 200), 360);
    const auto zoomed = view_->visibleRange();
    QTest::mousePress(c->viewport(), Qt::LeftButton, {}, QPoint(700, 200));
    QTest::mouseMove(c->viewport(), QPoint(750, 200));
    QTest::mouseMove(c->viewport(), QPoint(800, 200));
    QTest::mouseRelease(c->viewport(), Qt::LeftButton, {}, QPoint(800, 200));
    const auto panned = view_->visibleRange();
    QVERIFY(panned.first < zoomed.first);  // dragging right shows earlier times
    QVERIFY(std::abs((panned.second - panned.first) - (zoomed.second - zoomed.first)) < 1e-15);
    QPushButton* fit = nullptr;
    for (auto* b : view_->findChildren<QPushButton*>())
        if (b->text() == QStringLiteral("Fit all")) fit = b;
    QVERIFY(fit);
    fit->click();
    QCOMPARE(view_->visibleRange(), full);
    wheel(c->viewport(), QPointF(700, 200), 120);
    QTest::keyClick(c, Qt::Key_F);
    QCOMPARE(view_->visibleRange(), full);
    QCOMPARE(full.first, -0.01 * view_->model().makespan());
}

void GanttViewTest::clickingABarEmitsItsOperator() {
    QSignalSpy spy(view_.get(), &GanttView::operatorClicked);
    const auto [lane, index] = widestBar(view_->model());
    const auto rect = view_->canvas()->barRect(lane, index);
    QVERIFY(rect && rect->width() > 10);
    QTest::mouseClick(view_->canvas()->viewport(), Qt::LeftButton, {}, rect->center().toPoint());
    QCOMPARE(spy.count(), 1);
    const int op = view_->model().record(lane, index).op;
    QCOMPARE(spy.at(0).at(0).toInt(), op);
    QCOMPARE(view_->selectedOperator(), op);
    QCOMPARE(view_->model().opName(op), std::string("conv2"));  // its backward is the longest task
    // A click in empty space clears the highlight and reports nothing.
    const double idle_x = view_->canvas()->axis().toPixel(0.75 * view_->model().makespan());  // devices wait for the sync
    QVERIFY(!view_->canvas()->barAt(QPointF(idle_x, rect->center().y())));
    QTest::mouseClick(view_->canvas()->viewport(), Qt::LeftButton, {}, QPoint(static_cast<int>(idle_x), rect->center().toPoint().y()));
    QCOMPARE(spy.count(), 1);
    QCOMPARE(view_->selectedOperator(), -1);
}

void GanttViewTest::colouringToggles() {
    auto* combo = view_->findChild<QComboBox*>();
    QVERIFY(combo);
    const QImage before = view_->grab().toImage();
    QCOMPARE(view_->colouring(), view::GanttColouring::Phase);
    QCOMPARE(view_->model().bars(0)[0].color_key, static_cast<int>(sim::Phase::Forward));
    combo->setCurrentIndex(1);
    QCOMPARE(view_->colouring(), view::GanttColouring::Layer);
    QCOMPARE(view_->model().bars(0)[0].color_key, view_->model().record(0, 0).op);
    QVERIFY(view_->grab().toImage() != before);
    view_->setColouring(view::GanttColouring::Phase);
    QCOMPARE(combo->currentIndex(), 0);
}

void GanttViewTest::collapsingAGroupHidesItsLanes() {
    GanttCanvas* c = view_->canvas();
    const int lanes = view_->visibleLaneCount();
    QCOMPARE(lanes, view_->model().laneCount());
    const QRectF header = *c->headerRect(0);
    QTest::mouseClick(c->viewport(), Qt::LeftButton, {}, QPoint(40, static_cast<int>(header.center().y())));
    QCOMPARE(view_->visibleLaneCount(), lanes - 4);
    QVERIFY(!c->barRect(0, 0));
    view_->setGroupCollapsed(0, false);
    QCOMPARE(view_->visibleLaneCount(), lanes);
    // Collapsed groups stay collapsed when the lanes are rebuilt.
    view_->setGroupCollapsed(1, true);
    view_->setIdleLinksHidden(false);
    QCOMPARE(view_->visibleLaneCount(), view_->model().laneCount() - 4);
}

void GanttViewTest::toolTipDescribesTheBar() {
    const auto [lane, index] = widestBar(view_->model());
    const QString tip = view_->canvas()->toolTipAt(view_->canvas()->barRect(lane, index)->center());
    QVERIFY2(tip.startsWith(QStringLiteral("Layer conv2 \u2014 backward (part ")), qPrintable(tip));
    QVERIFY(tip.contains(QStringLiteral("Start ")) && tip.contains(QStringLiteral("duration ")));
    QVERIFY(tip.contains(QStringLiteral("\nOn ")) && !tip.contains(QStringLiteral("Task ")));  // names, not ids
    QVERIFY(view_->canvas()->toolTipAt(QPointF(5, 5)).isEmpty());
}

void GanttViewTest::criticalPathEndsAtTheMakespan() {
    const auto& path = view_->model().criticalBars();
    QVERIFY(path.size() >= 3);
    const auto [lane, index] = path.back();
    QCOMPARE(view_->model().record(lane, index).end, view_->model().makespan());
    QCOMPARE(view_->model().bars(path.front().first)[static_cast<size_t>(path.front().second)].start, 0.0);
    const QImage before = view_->grab().toImage();
    view_->setCriticalPathShown(true);
    QVERIFY(view_->findChildren<QCheckBox*>().front()->isChecked());
    QVERIFY(view_->grab().toImage() != before);
}

void GanttViewTest::rendersAPng() {
    const QString figure = shotPath(QStringLiteral("gantt-figure.png"));
    QCOMPARE(exportFigure(*view_, figure), QString());
    QImage image;
    QVERIFY(image.load(figure));
    QCOMPARE(image.size(), QSize(1280, 800));
    QCOMPARE(exportCsv(view_->csv(), shotPath(QStringLiteral("gantt.csv"))), QString());
    QCOMPARE(view_->csv().rows.size(), view_->model().barCount());
    // Zoomed into the compute by layer, with a selected layer (to look at, not for the docs).
    view_->setColouring(view::GanttColouring::Layer);
    view_->selectOperator(1);
    view_->canvas()->zoom(2.5, view_->canvas()->axis().x0);
    QVERIFY(view_->grab().save(shotPath(QStringLiteral("gantt-layers.png"))));
    view_->selectOperator(-1);
    view_->setColouring(view::GanttColouring::Phase);
    view_->fitAll();
    // The screenshot for docs/guide/simulation.md#the-timeline-tab: critical path on; nodes 1-3 and NVLink collapsed so the
    // PCIe and InfiniBand links it crosses show.
    view_->setCriticalPathShown(true);
    for (int g : {1, 2, 3, 4}) view_->setGroupCollapsed(g, true);
    const QString shot = shotPath(QStringLiteral("gantt.png"));
    QVERIFY(view_->grab().save(shot));
    QVERIFY(image.load(shot));
    QCOMPARE(image.size(), QSize(1280, 800));
}

void GanttViewTest::emptyViewSaysWhatToDo() {
    GanttView empty;
    empty.resize(600, 300);
    QCOMPARE(empty.visibleLaneCount(), 0);
    QVERIFY(!empty.canvas()->barRect(0, 0));
    QVERIFY(!empty.grab().isNull());
}

QTEST_MAIN(GanttViewTest)
#include "gantt_view_test.moc"
