// TeachingView on Lenet-c HyPar: a dp cell and an mp cell, stepping through
// the phases, the shown amounts against the cost model, the combo boxes'
// signal, CSV, and PNG / SVG / PDF export; screenshots to look at.
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QImage>
#include <QSignalSpy>
#include <QSvgRenderer>
#include <QtTest>

#include "core/io/network_io.h"
#include "core/run/run.h"
#include "tests/qt_test_util.h"
#include "widgets/teaching/teaching_view.h"

using namespace partita;

namespace {

RunPtr lenet() {
    const std::string path = std::string(PARTITA_EXAMPLES_DIR) + "/networks/lenet-c.json";
    auto inputs = makeInputs(loadNetwork(path), defaultArray(4), CostParams{}, path);
    return std::make_shared<const Run>(planRun(inputs, Method::HyPar));
}

}  // namespace

class TeachingViewTest : public QObject {
    Q_OBJECT
private slots:
    void emptyViewShowsNothing();
    void dpCellStepsThroughPhases();
    void mpCellShowsPartialSumsAndBoundary();
    void combosEmitCellChanged();
    void typeThreeCellWithRatio();
    void exportsEveryFormat();
    void screenshots();
};

void TeachingViewTest::emptyViewShowsNothing() {
    TeachingView view;
    QVERIFY(view.teaching() == nullptr);
    QVERIFY(view.csv().rows.empty());
    view.step(1);
    QCOMPARE(view.phase(), Phase::Backward);
}

void TeachingViewTest::dpCellStepsThroughPhases() {
    TeachingView view;
    const RunPtr run = lenet();
    view.setRun(run);
    // conv2 at H2 is dp, followed by fc1 in mp.
    QCOMPARE(run->grid.split(1, 1), Split::Batch);
    view.setCell(1, 1);
    QVERIFY(view.teaching());
    QCOMPARE(view.teaching()->cell.layer, std::string("conv2"));
    QSignalSpy phases(&view, &TeachingView::phaseChanged);
    QCOMPARE(view.phase(), Phase::Forward);
    // Forward: the boundary to fc1 sends a quarter of fc1's input (b = 256, 400 features).
    QCOMPARE(view.phaseSummary(), QStringLiteral("forward: 25,600 elements (102.4 kB)"));
    view.step(1);
    QCOMPARE(view.phase(), Phase::Backward);
    QCOMPARE(view.phaseSummary(), QStringLiteral("backward: 25,600 elements (102.4 kB)"));
    view.step(1);
    QCOMPARE(view.phase(), Phase::Gradient);
    // Gradient: dp reduces dW (w_intra applied), exactly the grid's intra amount.
    const double intra = run->eval().intra(1, 1);
    QCOMPARE(view.teaching()->phaseElements(Phase::Gradient), intra);
    QVERIFY(view.phaseSummary().contains(QString::fromStdString(withCommas(intra))));
    view.step(1);
    QCOMPARE(view.phase(), Phase::Forward);  // wraps around
    view.step(-1);
    QCOMPARE(view.phase(), Phase::Gradient);
    QCOMPARE(phases.count(), 4);
}

void TeachingViewTest::mpCellShowsPartialSumsAndBoundary() {
    TeachingView view;
    const RunPtr run = lenet();
    view.setRun(run);
    QCOMPARE(run->grid.split(1, 2), Split::Input);
    view.setCell(1, 2);  // fc1 at H2: mp after conv2's dp
    const TeachingCell* t = view.teaching();
    QVERIFY(t);
    QCOMPARE(t->cell.layer, std::string("fc1"));
    QCOMPARE(t->chargedHere(), run->eval().intra(1, 2) + run->eval().inter(1, 2));
    // Forward: boundary conv2 | fc1, then the partial sums of F_l+1, then fc1 | fc2.
    const auto fwd = t->movesIn(Phase::Forward);
    QVERIFY(fwd.size() >= 2);
    QCOMPARE(fwd[0]->where, Where::Before);
    QCOMPARE(fwd[1]->where, Where::Intra);
    QCOMPARE(fwd[1]->transfer.elements, 2.0 * 256 * 500);
    QVERIFY(view.phaseSummary().startsWith(QStringLiteral("forward: ")));
    view.setPhase(Phase::Gradient);
    QCOMPARE(view.phaseSummary(), QStringLiteral("gradient: nothing moves"));
    // The CSV has every exchange of every phase, in elements and bytes.
    const CsvTable csv = view.csv();
    QCOMPARE(csv.rows.size(), t->moves.size());
    QVERIFY(QString::fromStdString(csv.header[8]).contains(QStringLiteral("elements")));
    QVERIFY(QString::fromStdString(csv.header[9]).contains(QStringLiteral("bytes")));
    double sum = 0;
    for (const auto& row : csv.rows) sum += std::stod(row[8]);
    QCOMPARE(sum, t->phaseElements(Phase::Forward) + t->phaseElements(Phase::Backward));
}

void TeachingViewTest::combosEmitCellChanged() {
    TeachingView view;
    view.setRun(lenet());
    QSignalSpy changed(&view, &TeachingView::cellChanged);
    view.setCell(0, 3);
    QCOMPARE(changed.count(), 0);  // programmatic selection is silent
    auto boxes = view.findChildren<QComboBox*>();
    QCOMPARE(boxes.size(), 2);
    boxes[0]->setCurrentIndex(3);  // level H4
    QCOMPARE(changed.count(), 1);
    QCOMPARE(changed.at(0).at(0).toInt(), 3);
    QCOMPARE(changed.at(0).at(1).toInt(), 3);
    boxes[1]->setCurrentIndex(0);
    QCOMPARE(view.layer(), 0);
    QCOMPARE(view.level(), 3);
    QCOMPARE(changed.count(), 2);
    // A cell outside the grid is clamped.
    view.setCell(9, 9);
    QCOMPARE(view.level(), 3);
    QCOMPARE(view.layer(), 3);
}

void TeachingViewTest::typeThreeCellWithRatio() {
    // A hand-made grid with a Type-III cell: partial sums of E_l in backward. (α = ½: HyPar's
    // evaluate() prices boundaries at ½ whatever the ratio, explainCell uses the ratio.)
    const RunPtr hypar = lenet();
    Grid g = hypar->grid;
    g.at(0, 2) = Cell{Split::Output, 0.5};
    auto run = std::make_shared<const Run>(gridRun(hypar->inputs, g, RunKind::Evaluate, "user"));
    TeachingView view;
    view.setRun(run);
    view.setCell(0, 2);
    const TeachingCell* t = view.teaching();
    QVERIFY(t);
    QCOMPARE(t->chargedHere(), run->eval().intra(0, 2) + run->eval().inter(0, 2));
    const auto back = t->movesIn(Phase::Backward);
    QVERIFY(std::any_of(back.begin(), back.end(), [](const TeachingMove* m) {
        return m->where == Where::Intra && m->transfer.tensor == "E_l";
    }));
    view.setPhase(Phase::Backward);
    view.resize(1280, 800);
    QVERIFY(view.grab().save(shotDir() + "/teaching-type3.png"));
}

void TeachingViewTest::exportsEveryFormat() {
    TeachingView view;
    view.setRun(lenet());
    view.setCell(1, 2);
    const QString dir = shotDir();
    QCOMPARE(exportFigure(view, dir + "/teaching-export.png"), QString());
    QImage png(dir + "/teaching-export.png");
    QVERIFY(!png.isNull());
    QCOMPARE(png.size(), view.figureSize());
    QCOMPARE(exportFigure(view, dir + "/teaching-export.svg"), QString());
    QSvgRenderer svg(dir + "/teaching-export.svg");
    QVERIFY(svg.isValid());
    QCOMPARE(exportFigure(view, dir + "/teaching-export.pdf"), QString());
    QFile pdf(dir + "/teaching-export.pdf");
    QVERIFY(pdf.open(QIODevice::ReadOnly));
    const QByteArray bytes = pdf.readAll();
    QVERIFY(bytes.startsWith("%PDF"));
    QVERIFY(bytes.contains("/Page"));
    QCOMPARE(exportCsv(view.csv(), dir + "/teaching.csv"), QString());
}

void TeachingViewTest::screenshots() {
    TeachingView view;
    view.setRun(lenet());
    view.resize(1280, 800);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    const QString dir = shotDir();
    view.setCell(1, 1);  // dp
    view.setPhase(Phase::Gradient);
    QVERIFY(view.grab().save(dir + "/teaching-dp.png"));
    view.setCell(1, 2);  // mp
    view.setPhase(Phase::Forward);
    QVERIFY(view.grab().save(dir + "/teaching-mp.png"));
    view.setPlaying(true);
    QVERIFY(view.playing());
    QTRY_COMPARE_WITH_TIMEOUT(view.phase(), Phase::Backward, 5000);
    view.setPlaying(false);
    QVERIFY(!view.playing());
}

QTEST_MAIN(TeachingViewTest)
#include "teaching_view_test.moc"
