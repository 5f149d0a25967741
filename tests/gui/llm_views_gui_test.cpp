// The LLM tab's timeline, trade-off and predicted-vs-measured pages driven from the registered method:
// the timeline follows the knobs, a Pareto point chosen loads its plan into every view, a measured run
// chosen loads its plan with the numbers its prediction had, and each page exports.
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include "app/gui/export_actions.h"
#include "app/gui/job_runner.h"
#include "app/gui/main_window.h"
#include "app/gui/options.h"
#include "core/llm/runs.h"
#include "core/llm/validate.h"
#include "test_paths.h"
#include "widgets/llm/llm_settings_panel.h"
#include "widgets/llm/llm_view.h"
#include "widgets/llm/measured_view.h"
#include "widgets/llm/pipeline_timeline_view.h"
#include "widgets/llm/tradeoff_view.h"

using namespace partita;
using namespace partita::gui;

class LlmViewsGuiTest : public QObject {
    Q_OBJECT
private:
    QTemporaryDir dir_;
    Options options() const {
        Options o;
        o.db = dir_.filePath("results.sqlite");
        o.method = "llm";
        return o;
    }
    static LlmView* view(MainWindow& w) { return w.views().get<LlmView>(); }
    template <class T>
    static T* page(MainWindow& w) {
        return view(w)->findChild<T*>();
    }
    static QString runsFile() { return QString(PARTITA_EXAMPLES_DIR) + "/llm/measured/bigscience-bloom.json"; }

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void theTimelineFollowsTheKnobs() {
        MainWindow w(options());
        w.show();
        LlmView* v = view(w);
        auto* timeline = page<PipelineTimelineView>(w);
        QVERIFY(v && timeline && v->valid());
        const auto& before = timeline->timeline();
        QVERIFY(!before.blocks.empty());
        const std::size_t blocks = before.blocks.size();
        const llm::Plan plan = v->shown().settings.plan;
        // Other pipeline stages (and so data parallelism): other lanes and blocks.
        const std::int64_t pp = plan.pp > 1 ? plan.pp / 2 : 2;
        v->panel()->findChild<QSpinBox*>("llm-pp")->setValue(static_cast<int>(pp));
        QVERIFY(v->valid());
        QCOMPARE(v->shown().settings.plan.pp, pp);
        QVERIFY(timeline->timeline().blocks.size() != blocks);
        QVERIFY(timeline->summary().contains(QString("%1 stages").arg(pp)));
    }

    void choosingAParetoPointLoadsItsPlan() {
        MainWindow w(options());
        w.show();
        LlmView* v = view(w);
        auto* tradeoff = page<TradeoffView>(w);
        QVERIFY(tradeoff && tradeoff->points().empty());
        v->panel()->findChild<QPushButton*>("llm-search")->click();
        QVERIFY(w.jobs().waitForIdle());
        const llm::SearchResult& result = tradeoff->result();
        QVERIFY(result.found);
        QCOMPARE(static_cast<std::int64_t>(tradeoff->points().size()), result.evaluated);
        QVERIFY(result.pareto.size() >= 2);
        // The second-best point of the front, found among the points as a click would find it.
        const llm::Plan second = result.pareto[1].plan;
        int index = -1;
        for (std::size_t i = 0; i < tradeoff->points().size(); ++i)
            if (tradeoff->points()[i].plan == second) index = static_cast<int>(i);
        QVERIFY(index >= 0);
        QVERIFY(v->shown().settings.plan != second);
        tradeoff->choosePoint(index);
        QCOMPARE(v->shown().settings.plan, second);
        QCOMPARE(v->shown().eval.iteration_s, result.pareto[1].iteration_s);
        QCOMPARE(page<PipelineTimelineView>(w)->timeline().blocks.empty(), false);
        // Its export is the plot and the points.
        const QString png = dir_.filePath("tradeoff.png"), csv = dir_.filePath("tradeoff.csv");
        QCOMPARE(w.exports().write("llm-tradeoff", png), QString());
        QCOMPARE(w.exports().write("llm-tradeoff", csv), QString());
        QVERIFY(QImage(png).width() > 100);
    }

    void aMeasuredRunChosenLoadsItsPlanWithItsPrediction() {
        Options o = options();
        o.llm_runs = runsFile();
        MainWindow w(o);
        w.show();
        auto* measured = page<MeasuredView>(w);
        QVERIFY(measured);
        const auto runs = llm::loadRuns(runsFile().toStdString());
        const llm::ValidationReport want = llm::validateRuns(runs, nullptr);
        QCOMPARE(measured->report().runs.size(), runs.size());
        QCOMPARE(*measured->report().mape_pct, *want.mape_pct);
        // The last run (a custom model on a profile file with a cluster override), as a click.
        const int last = static_cast<int>(runs.size()) - 1;
        measured->chooseRun(last);
        LlmView* v = view(w);
        QVERIFY(v->valid());
        QCOMPARE(v->shown().settings.plan, llm::runPlan(runs.back()));
        QCOMPARE(v->shown().eval.iteration_s, want.runs.back().predicted_s);
        // The knobs keep what they do not show: editing the micro-batch and back gives the same numbers.
        auto* micro = v->panel()->findChild<QSpinBox*>("llm-micro_batch");
        QVERIFY(micro);
        const int b = micro->value();
        micro->setValue(b == 1 ? 2 : 1);
        micro->setValue(b);
        QCOMPARE(v->shown().eval.iteration_s, want.runs.back().predicted_s);
        QCOMPARE(w.exports().write("llm-measured", dir_.filePath("measured.csv")), QString());
    }

    void theTimelineExportsAChromeTrace() {
        MainWindow w(options());
        w.show();
        const QString trace = dir_.filePath("timeline.json");
        QCOMPARE(w.exports().write("llm-trace", trace), QString());
        QFile f(trace);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const Json j = Json::parse(f.readAll().toStdString());
        QVERIFY(j.contains("traceEvents"));
        QVERIFY(j["traceEvents"].size() > 10);
        QVERIFY(!w.exports().write("llm-trace", dir_.filePath("timeline.txt")).isEmpty());  // names the format
        QCOMPARE(w.exports().write("llm-timeline", dir_.filePath("timeline.png")), QString());
    }

    // docs/methods/llm.md#on-the-simulator: too few devices is said in the page; enough runs in a worker
    // and shows the summary and the simulated timeline.
    void theShownPlanSimulatesOnATopology() {
        MainWindow w(options());
        w.show();
        LlmView* v = view(w);
        QVERIFY(v && v->valid());
        auto* topology = v->findChild<QLineEdit*>("llm-sim-topology");
        auto* simulate = v->findChild<QPushButton*>("llm-simulate");
        auto* summary = v->findChild<QLabel*>("llm-sim-summary");
        QVERIFY(topology && simulate && summary);
        const std::int64_t gpus = v->shown().settings.plan.gpus();
        topology->setText("p100-16");
        simulate->click();
        QTRY_VERIFY_WITH_TIMEOUT(summary->text().startsWith("Not simulated"), 60000);
        QVERIFY2(summary->text().contains(QString("needs %1 GPUs").arg(gpus)), qPrintable(summary->text()));
        QVERIFY2(summary->text().contains("has 16 devices"), qPrintable(summary->text()));
        QVERIFY(simulate->isEnabled());
        topology->setText("k80-64");
        simulate->click();
        QTRY_VERIFY_WITH_TIMEOUT(summary->text().startsWith("Simulated"), 120000);
        QVERIFY2(summary->text().contains("vs analytic"), qPrintable(summary->text()));
    }
};

QTEST_MAIN(LlmViewsGuiTest)
#include "llm_views_gui_test.moc"
