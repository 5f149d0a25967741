// The visualisation tabs in the main window: they follow the shown run, the
// grid's current cell reaches the teaching view, and each exports as PNG,
// SVG, PDF and CSV through the window's export targets.
#include <QFile>
#include <QImage>
#include <QStandardPaths>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QtTest>

#include "app/gui/main_window.h"
#include "app/gui/options.h"
#include "widgets/grid/grid_view.h"
#include "widgets/teaching/teaching_view.h"
#include "widgets/timeline/gantt_view.h"

using namespace partita;
using namespace partita::gui;

class ViewTabsTest : public QObject {
    Q_OBJECT
private:
    QTemporaryDir dir_;
    Options options(const char* method) const {
        Options o;
        o.network = QString(PARTITA_EXAMPLES_DIR) + "/networks/lenet-c.json";
        o.db = dir_.filePath("results.sqlite");
        o.method = method;
        return o;
    }
    void exportsAllFormats(MainWindow& w, const QString& target) {
        const QString base = dir_.filePath(target);
        QCOMPARE(w.exports().write(target, base + ".png"), QString());
        QVERIFY(!QImage(base + ".png").isNull());
        QCOMPARE(w.exports().write(target, base + ".svg"), QString());
        QVERIFY(QSvgRenderer(base + ".svg").isValid());
        QCOMPARE(w.exports().write(target, base + ".pdf"), QString());
        QFile pdf(base + ".pdf");
        QVERIFY(pdf.open(QIODevice::ReadOnly));
        QVERIFY(pdf.readAll().startsWith("%PDF"));
        QCOMPARE(w.exports().write(target, base + ".csv"), QString());
        QVERIFY(QFile(base + ".csv").size() > 0);
    }

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void hierarchicalRunFillsHeatmapTeachingAndStudies() {
        MainWindow w(options("hypar"));
        w.show();
        QVERIFY(w.jobs().waitForIdle());
        w.action("run")->trigger();
        QVERIFY(w.jobs().waitForIdle());
        QVERIFY(w.session().currentRun());
        w.gridView()->setCurrentCell(1, 2);  // fc1 at H2
        QCOMPARE(w.teachingView()->level(), 1);
        QCOMPARE(w.teachingView()->layer(), 2);
        for (const char* target : {"heatmap", "teaching", "studies"}) exportsAllFormats(w, target);
        QVERIFY(w.exports().write("timeline", dir_.filePath("t.png")).contains("empty"));  // not simulated
    }

    void simulatedRunFillsTheTimeline() {
        Options o = options("simulate");
        o.topology = "p100-16";
        o.run = true;  // a simulation waits for Run
        MainWindow w(o);
        w.show();
        QVERIFY(w.jobs().waitForIdle());
        QVERIFY(w.session().currentRun() && w.session().currentRun()->isSimulation());
        QVERIFY(w.ganttView()->visibleLaneCount() > 16);
        exportsAllFormats(w, "timeline");
        exportsAllFormats(w, "heatmap");
        // A strategy without a grid: the teaching view says why it is empty, naming the run.
        QVERIFY(w.teachingView()->emptyText().contains(QString::fromStdString(w.session().currentRun()->name)));
    }
};

QTEST_MAIN(ViewTabsTest)
#include "view_tabs_test.moc"
