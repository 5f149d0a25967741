// CommHeatmap: device x device traffic of AlexNet data-parallel on the 16-GPU
// P100 cluster (hover, click, log toggle, 64 devices readable) and level x
// layer communication of Lenet-c under HyPar (a click names the grid cell);
// export to PNG, SVG and PDF, the CSV behind the view, and screenshots.
#include <QCheckBox>
#include <QDir>
#include <QFile>
#include <QImage>
#include <QSignalSpy>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QtTest>

#include "core/io/network_io.h"
#include "core/run/run.h"
#include "core/sim/baselines.h"
#include "core/sim/simulator.h"
#include "core/sim/task_graph.h"
#include "core/topology/topology.h"
#include "core/sim/trace.h"
#include "tests/qt_test_util.h"
#include "widgets/heatmap/comm_heatmap_view.h"

using namespace partita;

namespace {

std::string example(const char* network) { return std::string(PARTITA_EXAMPLES_DIR) + "/networks/" + network + ".json"; }

struct Traffic {
    std::vector<std::vector<double>> bytes;
    std::vector<std::string> names;
};

// Data parallelism (or OWT) of `network` on a built-in topology, simulated; its device x device traffic.
Traffic simulatedTraffic(const char* network, const char* topology, int devices, bool owt = false) {
    const Network net = loadNetwork(example(network));
    const sim::Topology topo = sim::builtinTopology(topology);
    const sim::SoapStrategy strategy = owt ? sim::oneWeirdTrickStrategy(net, 256, devices)
                                           : sim::dataParallelStrategy(net, 256, devices);
    const sim::TaskGraph graph = sim::buildTaskGraph(net, 256, strategy, topo);
    sim::simulate(graph);
    Traffic t{sim::trafficMatrix(graph), {}};
    for (int d = 0; d < graph.computeDevices(); ++d) t.names.push_back(graph.resourceName(d));
    return t;
}

RunPtr hypar(const char* network = "lenet-c") {
    const std::string path = example(network);
    return std::make_shared<const Run>(
        planRun(makeInputs(loadNetwork(path), defaultArray(4), CostParams{}, path), Method::HyPar));
}

}  // namespace

class CommHeatmapTest : public QObject {
    Q_OBJECT
private slots:
    void emptyViewDrawsAMessage() {
        CommHeatmap view;
        QVERIFY(view.matrix().empty());
        QVERIFY(view.cellRect(0, 0).isNull());
        QVERIFY(view.csv().rows.empty());
        QVERIFY(!view.findChild<QCheckBox*>()->isVisibleTo(&view));
    }

    void deviceModeHoverAndClick() {
        const Traffic t = simulatedTraffic("alexnet", "p100-16", 16);
        CommHeatmap view;
        view.setDeviceTraffic(t.bytes, t.names);
        QCOMPARE(view.matrix().rows, 16);
        QVERIFY(!view.isLevelMode());
        QVERIFY(view.matrix().total() > 0);
        view.resize(1280, 800);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QCOMPARE(view.frame().shown_rows, 16);  // no binning at 16 devices

        const QRectF cell = view.cellRect(2, 5);
        QVERIFY(view.rect().contains(cell.toRect()));
        QVERIFY(view.cellRect(2, 6).left() >= cell.right() - 0.01);  // cells tile in order
        QTest::mouseMove(&view, cell.center().toPoint());
        QCOMPARE(view.hoveredCell(), std::make_optional(std::make_pair(2, 5)));
        const QString text = view.cellText(2, 5);
        QVERIFY2(text.contains(QString::fromStdString("from " + t.names[2] + " to " + t.names[5])), qPrintable(text));
        QVERIFY2(text.contains(QString::fromStdString(withCommas(t.bytes[2][5])) + " B"), qPrintable(text));

        QSignalSpy clicked(&view, &CommHeatmap::cellClicked);
        QSignalSpy level_clicked(&view, &CommHeatmap::levelLayerClicked);
        QTest::mouseClick(&view, Qt::LeftButton, {}, cell.center().toPoint());
        QCOMPARE(clicked.count(), 1);
        QCOMPARE(clicked.at(0).at(0).toInt(), 2);
        QCOMPARE(clicked.at(0).at(1).toInt(), 5);
        QCOMPARE(level_clicked.count(), 0);  // devices are not grid cells
        QTest::mouseClick(&view, Qt::LeftButton, {}, QPoint(3, 3));  // the margin is no cell
        QCOMPARE(clicked.count(), 1);

        const CsvTable csv = view.csv();
        QCOMPARE(csv.rows.size(), size_t(16));
        QCOMPARE(csv.header.size(), size_t(18));
        QCOMPARE(csv.rows[2][6], formatNumber(t.bytes[2][5]));
    }

    void logToggleChangesTheScale() {
        const Traffic t = simulatedTraffic("alexnet", "p100-16", 16);
        CommHeatmap view;
        view.setDeviceTraffic(t.bytes, t.names);
        view.resize(1280, 800);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const view::ColorScale linear = view.colorScale();
        QVERIFY(!linear.log);
        QCOMPARE(linear.lo, 0.0);  // linear scales start at 0 B
        double smallest = 1e300, largest = 0;
        for (double v : view.matrix().bytes)
            if (v > 0) smallest = std::min(smallest, v), largest = std::max(largest, v);
        QCOMPARE(linear.hi, largest);

        QSignalSpy toggled(&view, &CommHeatmap::logScaleChanged);
        auto* box = view.findChild<QCheckBox*>();
        QVERIFY(box && box->isVisible());
        QTest::mouseClick(box, Qt::LeftButton, {}, QPoint(8, box->height() / 2));
        QVERIFY(view.logScale());
        QCOMPARE(toggled.count(), 1);
        const view::ColorScale log = view.colorScale();
        QVERIFY(log.log);
        QCOMPARE(log.lo, smallest);  // log scales start at the smallest exchange
        QCOMPARE(log.hi, largest);
        view.setLogScale(false);
        QVERIFY(!box->isChecked());
        QCOMPARE(toggled.count(), 2);
    }

    void sixtyFourDevicesStayReadable() {
        const Traffic t = simulatedTraffic("alexnet", "k80-64", 64);
        CommHeatmap view;
        view.setDeviceTraffic(t.bytes, t.names, QStringLiteral("AlexNet, data parallel on 64 K80s"));
        view.resize(1280, 800);
        const view::HeatmapFrame f = view.frame();
        QCOMPARE(f.shown_rows, 64);
        QFont label = view.font();
        label.setPixelSize(12);  // the view's label size
        const double line = QFontMetricsF(label).height();
        QVERIFY(f.row_stride * f.plot.h / 64 >= line * 0.9);  // labels at least a line apart
        QVERIFY(f.col_stride * f.plot.w / 64 >= line * 0.9);
        QVERIFY(f.plot.x + f.plot.w <= 1280 && f.plot.y + f.plot.h <= 800);
        // Hover a cell in the middle: the tooltip names single devices.
        const QRectF cell = view.cellRect(40, 23);
        QVERIFY(view.cellText(40, 23).contains(QString::fromStdString(t.names[40])));
        QVERIFY(cell.width() >= 3);
        shoot(view, QStringLiteral("heatmap-devices-64.png"));
    }

    void largeMatricesAreBinned() {
        const int n = 600;  // more devices than pixels allow: cells sum into bins of >= 3 px
        std::vector<std::vector<double>> bytes(n, std::vector<double>(n, 1.0));
        std::vector<std::string> names;
        for (int i = 0; i < n; ++i) names.push_back("d" + std::to_string(i));
        CommHeatmap view;
        view.setDeviceTraffic(bytes, names);
        view.resize(1280, 800);
        const view::HeatmapFrame f = view.frame();
        QVERIFY(f.shown_rows < n);
        QCOMPARE(f.shown_rows, f.shown_cols);
        const auto [first, last] = view::binRange(1, n, f.shown_rows);
        const int k = last - first;
        QVERIFY(k > 1);
        int widest = 0;
        for (int b = 0; b < f.shown_rows; ++b)
            widest = std::max(widest, view::binRange(b, n, f.shown_rows).second - view::binRange(b, n, f.shown_rows).first);
        QCOMPARE(view.colorScale().hi, double(widest * widest));  // the scale spans the bins' sums
        const QString text = view.cellText(first, first);
        QVERIFY2(text.contains(QStringLiteral("from d%1–d%2").arg(first).arg(last - 1)), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("sum of %1 device pairs").arg(k * k)), qPrintable(text));
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QSignalSpy clicked(&view, &CommHeatmap::cellClicked);
        QTest::mouseClick(&view, Qt::LeftButton, {}, view.cellRect(first + 1, first).center().toPoint());
        QCOMPARE(clicked.count(), 1);
        QCOMPARE(clicked.at(0).at(0).toInt(), first);  // the bin's first device
    }

    void levelModeClickSelectsGridCell() {
        const RunPtr run = hypar();
        CommHeatmap view;
        view.setRun(run);
        QVERIFY(view.isLevelMode());
        QCOMPARE(view.matrix().rows, 4);  // rows H1..H4, like the grid view
        QCOMPARE(view.matrix().cols, 4);
        QCOMPARE(view.matrix().total(), run->shown().total_bytes);
        view.resize(1280, 800);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QVERIFY(!view.frame().rotate_cols);  // layer names read across

        QSignalSpy level_clicked(&view, &CommHeatmap::levelLayerClicked);
        const QRectF cell = view.cellRect(2, 1);
        QVERIFY(view.rect().contains(cell.toRect()));
        QTest::mouseClick(&view, Qt::LeftButton, {}, cell.center().toPoint());
        QCOMPARE(level_clicked.count(), 1);
        QCOMPARE(level_clicked.at(0).at(0).toInt(), 2);  // level H3
        QCOMPARE(level_clicked.at(0).at(1).toInt(), 1);  // layer 1
        const QString text = view.cellText(2, 1);
        QVERIFY2(text.contains(QString::fromStdString(run->inputs->layers[1].name) + " at H3"), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("4 group pair(s)")), qPrintable(text));
        view.setSelectedCell(0, 3);  // the main window mirrors the grid's current cell
        view.setRun(nullptr);
        QVERIFY(view.matrix().empty());
    }

    void exportsEveryFormat() {
        CommHeatmap view;
        view.setRun(hypar());
        QTemporaryDir dir;
        QCOMPARE(exportFigure(view, dir.filePath("h.png"), {QSize(800, 500), 192, {}}), QString());
        QCOMPARE(QImage(dir.filePath("h.png")).size(), QSize(1600, 1000));
        QCOMPARE(exportFigure(view, dir.filePath("h.svg")), QString());
        QVERIFY(QSvgRenderer(dir.filePath("h.svg")).isValid());
        QCOMPARE(exportFigure(view, dir.filePath("h.pdf")), QString());
        QFile pdf(dir.filePath("h.pdf"));
        QVERIFY(pdf.open(QIODevice::ReadOnly));
        const QByteArray bytes = pdf.readAll();
        QVERIFY(bytes.startsWith("%PDF"));
        QVERIFY(bytes.contains("/Type /Page"));
        QCOMPARE(exportCsv(view.csv(), dir.filePath("h.csv")), QString());
    }

    void screenshots() {
        const Traffic t = simulatedTraffic("alexnet", "p100-16", 16);
        CommHeatmap devices;
        devices.setDeviceTraffic(t.bytes, t.names, QStringLiteral("AlexNet, data parallel on 16 P100s (simulated)"));
        devices.resize(1280, 800);
        devices.show();
        QVERIFY(QTest::qWaitForWindowExposed(&devices));
        shoot(devices, QStringLiteral("heatmap-devices.png"));
        devices.setLogScale(true);
        shoot(devices, QStringLiteral("heatmap-devices-log.png"));
        const Traffic owt = simulatedTraffic("alexnet", "p100-16", 16, true);
        CommHeatmap mixed;
        mixed.setDeviceTraffic(owt.bytes, owt.names, QStringLiteral("AlexNet, one weird trick on 16 P100s (simulated)"));
        mixed.setLogScale(true);
        mixed.resize(1280, 800);
        shoot(mixed, QStringLiteral("heatmap-devices-owt.png"));
        // The exported figure at its natural size (no log box, same layout code).
        QCOMPARE(exportFigure(devices, shotPath(QStringLiteral("heatmap-devices-figure.png"))), QString());

        CommHeatmap levels;
        levels.setRun(hypar());
        levels.setSelectedCell(1, 2);
        levels.resize(1280, 800);
        levels.show();
        QVERIFY(QTest::qWaitForWindowExposed(&levels));
        shoot(levels, QStringLiteral("heatmap-levels.png"));
        levels.setRun(hypar("vgg-e"));  // 19 layers: names still read, log shows the small cells
        levels.setLogScale(true);
        QVERIFY(levels.isLevelMode());
        shoot(levels, QStringLiteral("heatmap-levels-vgg-e.png"));
    }
};

QTEST_MAIN(CommHeatmapTest)
#include "comm_heatmap_test.moc"
