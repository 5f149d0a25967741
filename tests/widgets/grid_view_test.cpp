// GridView: interaction (click, keys, read-only), what the numbers add up to,
// the CSV table, edited-cell marking, and screenshots to look at.
#include <QDir>
#include <QHelpEvent>
#include <QPainter>
#include <QSignalSpy>
#include <QToolTip>
#include <QtTest>

#include "core/io/network_io.h"
#include "core/run/run.h"
#include "tests/qt_test_util.h"
#include "widgets/grid/grid_view.h"

using namespace partita;

namespace {

InputsPtr inputsFor(const char* network, int levels = 4) {
    const std::string path = std::string(PARTITA_EXAMPLES_DIR) + "/networks/" + network + ".json";
    return makeInputs(loadNetwork(path), defaultArray(levels), CostParams{}, path);
}

RunPtr planned(const char* network, Method method = Method::HyPar, int levels = 4) {
    return std::make_shared<const Run>(planRun(inputsFor(network, levels), method));
}

}  // namespace

class GridViewTest : public QObject {
    Q_OBJECT
private slots:
    void emptyViewHasNoCells();
    void clickTogglesCell();
    void keyboardMovesAndToggles();
    void readOnlyEmitsNothing();
    void layerTotalsSumToTotal();
    void csvHasLevelsAndTotals();
    void editedCellsAreMarked();
    void tooltipExplainsTheCell();
    void paintFigureDrawsTheCells();
    void screenshots();
};

void GridViewTest::emptyViewHasNoCells() {
    GridView view;
    QVERIFY(view.cellRect(0, 0).isNull());
    QVERIFY(view.csv().rows.empty());
    view.resize(600, 300);
    shoot(view, QStringLiteral("grid-empty.png"));
}

void GridViewTest::clickTogglesCell() {
    GridView view;
    view.setRun(planned("lenet-c"));
    view.resize(1280, 800);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QSignalSpy toggled(&view, &GridView::cellToggled);
    QSignalSpy moved(&view, &GridView::currentCellChanged);
    const QRect r = view.cellRect(0, 2);
    QVERIFY(view.rect().contains(r));
    QTest::mouseClick(&view, Qt::LeftButton, {}, r.center());
    QCOMPARE(toggled.count(), 1);
    QCOMPARE(toggled.at(0).at(0).toInt(), 0);
    QCOMPARE(toggled.at(0).at(1).toInt(), 2);
    QCOMPARE(moved.count(), 1);
    QCOMPARE(view.currentLayer(), 2);
    // Cells tile without overlapping: the next cell starts right of this one.
    QVERIFY(view.cellRect(0, 3).left() > r.right());
    QVERIFY(view.cellRect(1, 2).top() > r.bottom());
}

void GridViewTest::keyboardMovesAndToggles() {
    GridView view;
    view.setRun(planned("lenet-c"));
    view.resize(800, 400);
    QSignalSpy toggled(&view, &GridView::cellToggled);
    QTest::keyClick(&view, Qt::Key_Right);
    QTest::keyClick(&view, Qt::Key_Space);
    QCOMPARE(toggled.count(), 1);
    QCOMPARE(toggled.at(0).at(0).toInt(), 0);
    QCOMPARE(toggled.at(0).at(1).toInt(), 1);
    QTest::keyClick(&view, Qt::Key_End);
    QCOMPARE(view.currentLayer(), 3);
    QTest::keyClick(&view, Qt::Key_Down);
    QTest::keyClick(&view, Qt::Key_Return);
    QCOMPARE(toggled.count(), 2);
    QCOMPARE(toggled.at(1).at(0).toInt(), 1);
    QCOMPARE(toggled.at(1).at(1).toInt(), 3);
    QTest::keyClick(&view, Qt::Key_Home);
    QCOMPARE(view.currentLayer(), 0);
    QTest::keyClick(&view, Qt::Key_Left);  // stays inside the grid
    QCOMPARE(view.currentLayer(), 0);
    QTest::keyClick(&view, Qt::Key_End, Qt::ControlModifier);
    QCOMPARE(view.currentLevel(), 3);
}

void GridViewTest::readOnlyEmitsNothing() {
    GridView view;
    view.setRun(planned("lenet-c"));
    view.setEditable(false);
    view.resize(800, 400);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QSignalSpy toggled(&view, &GridView::cellToggled);
    QTest::mouseClick(&view, Qt::LeftButton, {}, view.cellRect(1, 1).center());
    QTest::keyClick(&view, Qt::Key_Space);
    QTest::keyClick(&view, Qt::Key_Enter);
    QCOMPARE(toggled.count(), 0);
    QCOMPARE(view.currentLevel(), 1);  // the current cell still moves
    QCOMPARE(view.currentLayer(), 1);
}

void GridViewTest::layerTotalsSumToTotal() {
    for (const char* net : {"lenet-c", "alexnet", "vgg-e"}) {
        GridView view;
        const RunPtr run = planned(net);
        view.setRun(run);
        const auto totals = view.layerTotals();
        QCOMPARE(static_cast<int>(totals.size()), run->grid.layers());
        double sum = 0;
        for (double v : totals) sum += v;
        QVERIFY2(std::abs(sum - run->eval().total_elements) <= 1e-9 * run->eval().total_elements, net);
    }
}

void GridViewTest::csvHasLevelsAndTotals() {
    GridView view;
    const RunPtr run = planned("lenet-c");
    view.setRun(run);
    const CsvTable t = view.csv();
    const std::vector<std::string> header{"level", "conv1", "conv2", "fc1", "fc2", "comm_elements", "time_s"};
    QCOMPARE(t.header, header);
    QCOMPARE(static_cast<int>(t.rows.size()), 5);
    QCOMPARE(t.rows[0][0], std::string("H1"));
    for (int l = 0; l < 4; ++l)
        QCOMPARE(t.rows[0][static_cast<size_t>(l + 1)], std::string(splitShortName(run->grid.split(0, l))));
    QCOMPARE(t.rows[2][5], formatNumber(run->eval().level_comm[2]));
    QCOMPARE(t.rows[4][0], std::string("total_elements"));
    QCOMPARE(t.rows[4][5], formatNumber(run->eval().total_elements));
}

void GridViewTest::editedCellsAreMarked() {
    const RunPtr base = planned("lenet-c");
    Grid edited = base->grid;
    edited.at(1, 2).split = edited.split(1, 2) == Split::Batch ? Split::Input : Split::Batch;
    const auto run = std::make_shared<const Run>(gridRun(base->inputs, edited, RunKind::Edited, "user", &base->grid));
    GridView view;
    view.setRun(run);
    int marked = 0;
    for (int h = 0; h < 4; ++h)
        for (int l = 0; l < 4; ++l) marked += view.cellDiffers(h, l);
    QCOMPARE(marked, 1);
    QVERIFY(view.cellDiffers(1, 2));
    // A compare grid marks its own differences; clearing it leaves only the edit.
    const RunPtr dp = planned("lenet-c", Method::DataParallel);
    view.setCompareGrid(&dp->grid);
    int vs_dp = 0;
    for (int h = 0; h < 4; ++h)
        for (int l = 0; l < 4; ++l) vs_dp += view.cellDiffers(h, l);
    QVERIFY(vs_dp >= 1);
    view.setCompareGrid(nullptr);
    QVERIFY(view.cellDiffers(1, 2));
    view.resize(1280, 800);
    shoot(view, QStringLiteral("grid-lenet-edited.png"));
}

void GridViewTest::tooltipExplainsTheCell() {
    GridView view;
    const RunPtr run = planned("lenet-c");
    view.setRun(run);
    view.resize(1000, 500);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    const QPoint at = view.cellRect(2, 1).center();
    QHelpEvent help(QEvent::ToolTip, at, view.mapToGlobal(at));
    QApplication::sendEvent(&view, &help);
    const QString text = QToolTip::text();
    QVERIFY2(text.contains(QStringLiteral("conv2")), qPrintable(text));
    QVERIFY(text.contains(QStringLiteral("H3")));
    QVERIFY(text.contains(QStringLiteral("A(F")));
    QVERIFY(text.contains(QString::fromStdString(withCommas(run->eval().intra(2, 1)))));
    QVERIFY(text.contains(QString::fromStdString(withCommas(run->eval().inter(2, 1)))));
}

void GridViewTest::paintFigureDrawsTheCells() {
    // The export path (paintFigure at the natural size) paints each cell in its split's colour
    // where cellRect says it is; dp = sky blue, mp = orange (Okabe-Ito).
    GridView view;
    const RunPtr run = planned("lenet-c");
    view.setRun(run);
    view.resize(view.figureSize());
    QImage image(view.figureSize(), QImage::Format_ARGB32);
    image.fill(Qt::transparent);
    {
        QPainter painter(&image);
        view.paintFigure(painter, image.rect());
    }
    QCOMPARE(image.pixelColor(2, 2), QColor(Qt::white));
    for (int h = 0; h < 4; ++h)
        for (int l = 0; l < 4; ++l) {
            const QRect r = view.cellRect(h, l);
            const QColor expected = run->grid.split(h, l) == Split::Batch ? QColor(86, 180, 233) : QColor(230, 159, 0);
            QCOMPARE(image.pixelColor(r.left() + 5, r.top() + 5), expected);
        }
    QVERIFY(image.save(shotPath(QStringLiteral("grid-lenet-figure.png"))));
}

void GridViewTest::screenshots() {
    GridView view;
    view.setRun(planned("lenet-c"));
    view.resize(1280, 800);
    view.setCurrentCell(1, 2);
    shoot(view, QStringLiteral("grid-lenet-1280.png"));

    view.setRun(planned("vgg-e"));
    QVERIFY2(view.minimumSizeHint().width() <= 600, qPrintable(QString::number(view.minimumSizeHint().width())));
    shoot(view, QStringLiteral("grid-vgge-1280.png"));
    view.resize(600, 420);
    shoot(view, QStringLiteral("grid-vgge-min.png"));
    view.resize(view.figureSize());
    shoot(view, QStringLiteral("grid-vgge-natural.png"));
    view.setCompact(true);
    view.resize(1280, view.sizeHint().height());
    shoot(view, QStringLiteral("grid-vgge-compact.png"));

    // AccPar-style cells: Type-III and a ratio other than 1/2.
    const RunPtr base = planned("alexnet");
    Grid g = base->grid;
    g.at(0, 1) = {Split::Output, 0.5};
    g.at(1, 2) = {Split::Batch, 0.625};
    GridView accpar;
    accpar.setRun(std::make_shared<const Run>(gridRun(base->inputs, g, RunKind::Edited, "user", &base->grid)));
    accpar.resize(1280, 800);
    shoot(accpar, QStringLiteral("grid-alexnet-accpar.png"));
}

QTEST_MAIN(GridViewTest)
#include "grid_view_test.moc"
