// MPT and Learn-to-Scale as methods of the main window: each runs its preset
// through the UI, a click on the choice grid changes one layer and the shown
// numbers equal the engine's for that strategy, and every part exports. Every
// choice is a request: its outcome arrives through the job runner as a Run.
#include <cmath>

#include <QComboBox>
#include <QFile>
#include <QImage>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

#include "app/gui/main_window.h"
#include "widgets/common/task_tabs.h"
#include "app/gui/options.h"
#include "core/io/network_io.h"
#include "core/util/format.h"
#include "core/l2s/presets.h"
#include "core/run/l2s_outcome.h"
#include "core/run/mpt_outcome.h"
#include "core/run/mpt_paper.h"
#include "widgets/charts/layer_bars.h"
#include "widgets/charts/core_count_chart.h"
#include "widgets/common/choice_grid.h"
#include "widgets/common/method_table.h"
#include "widgets/common/paper_table.h"
#include "widgets/heatmap/comm_heatmap_view.h"
#include "widgets/l2s/l2s_view.h"
#include "widgets/mpt/mpt_view.h"

using namespace partita;
using namespace partita::gui;

class MethodTabsTest : public QObject {
    Q_OBJECT
private:
    QTemporaryDir dir_;
    // Without --network the tabs open the papers' workloads.
    Options options(const char* method, const char* network = nullptr) const {
        Options o;
        if (network) o.network = QString(PARTITA_EXAMPLES_DIR) + "/networks/" + network;
        o.db = dir_.filePath("results.sqlite");
        o.method = method;
        return o;
    }
    static int rowOf(const ChoiceGrid& g, const std::string& name) {
        const auto& rows = g.data().rows;
        return static_cast<int>(std::find(rows.begin(), rows.end(), name) - rows.begin());
    }
    void exports(MainWindow& w, const QString& target) {
        const QString base = dir_.filePath(target);
        QCOMPARE(w.exports().write(target, base + ".png"), QString());
        QVERIFY(!QImage(base + ".png").isNull());
        QCOMPARE(w.exports().write(target, base + ".csv"), QString());
        QVERIFY(QFile(base + ".csv").size() > 0);
    }

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void noTabWidensTheWindow() {
        // The tab area's minimum is its widest page's: one wide page squeezes the docks at 1280 px.
        MainWindow w(options("mpt"));
        w.show();
        QVERIFY(w.jobs().waitForIdle());
        for (int i = 0; i < w.views().get<TaskTabs>()->count(); ++i)
            QVERIFY2(w.views().get<TaskTabs>()->widget(i)->minimumSizeHint().width() <= 640, qPrintable(w.views().get<TaskTabs>()->tabText(i)));
    }

    void mptRunsTheLayerStudyAndAClickForcesAShape() {
        MainWindow w(options("mpt"));
        w.show();
        QVERIFY(w.jobs().waitForIdle());
        MptView* v = w.views().get<MptView>();
        QCOMPARE(w.views().shown(), static_cast<QWidget*>(v));
        QVERIFY(v->hasEvaluation());
        QCOMPARE(v->evaluation().scenario, mpt::Scenario::WMpPlusStar);
        const ChoiceGrid& g = *v->grid();
        QCOMPARE(g.data().columns.size(), size_t{5});
        // Oracle MPT-1's directions under the default objective: Early to (1,256), Late-2 to (16,16).
        const int dp_row = rowOf(g, "(1,256)"), big_row = rowOf(g, "(16,16)");
        QCOMPARE(g.data().chosen[0], dp_row);
        QCOMPARE(g.data().chosen[4], big_row);
        QCOMPARE(g.data().best[0], dp_row);

        // Click Early's (16,16) cell: the layer is forced there and the totals are the engine's.
        QTest::mouseClick(v->grid(), Qt::LeftButton, {}, v->grid()->cellRect(big_row, 0).center());
        QVERIFY(w.jobs().waitForIdle());
        QVERIFY(v->evaluation().layers[0].overridden);
        QCOMPARE(v->grid()->data().chosen[0], big_row);
        QVERIFY(v->grid()->data().overridden(0));
        std::vector<std::optional<mpt::GridConfig>> forced(5);
        forced[0] = mpt::GridConfig{16, 16};
        mpt::ScenarioParams p;
        const mpt::Evaluation expected = mpt::evaluate(mpt::layerStudy(3), mpt::Scenario::WMpPlusStar, p, forced);
        QCOMPARE(v->workloadKey(), QString("layers"));
        QCOMPARE(v->evaluation().totals.total_s, expected.totals.total_s);
        QVERIFY(v->evaluation().totals.total_s > mpt::evaluate(mpt::layerStudy(3), mpt::Scenario::WMpPlusStar, p).totals.total_s);

        // Side by side with data parallelism: six configurations, w_dp at 1x, a paper column apart.
        QCOMPARE(v->compareTable()->model()->rowCount(), 6);
        const CsvTable t = v->compareCsv();
        QCOMPARE(t.rows[1][0], std::string("w_dp"));
        QCOMPARE(std::stod(t.rows[1][2]), 1.0);
        QVERIFY(t.rows[5][8].find("paper") != std::string::npos);
        QCOMPARE(std::stod(t.rows[5][3]), v->evaluation().vsWdp().geomean);  // the per-layer averages beside
        // The table's model writes the CSV the view wrote before (issue 27 item 5): exact numbers.
        QCOMPARE(t.header, (std::vector<std::string>{"configuration", "time_per_iteration_s", "speedup_vs_w_dp_x",
                                                     "per_layer_geomean_x", "per_layer_mean_x", "speedup_vs_one_worker_x",
                                                     "comm_per_worker_B", "energy_J", "paper_reported"}));
        QCOMPARE(t.rows.size(), v->outcome()->scenarios.size());
        for (std::size_t i = 0; i < t.rows.size(); ++i) {
            const mpt::Evaluation& e = v->outcome()->scenarios[i];
            QCOMPARE(std::vector<std::string>(t.rows[i].begin(), t.rows[i].begin() + 8),
                     (std::vector<std::string>{mpt::scenarioName(e.scenario), formatNumber(e.totals.total_s),
                                               formatNumber(e.speedupVsWdp()), formatNumber(e.vsWdp().geomean),
                                               formatNumber(e.vsWdp().mean), formatNumber(e.speedupVsOne()),
                                               formatNumber(e.totals.comm_bytes), formatNumber(e.totals.energy.total())}));
        }
        QCOMPARE(v->bars()->data().stacks.size(), size_t{2});

        // The network study's 96x96 array: the same settings on the engine give the same time.
        const double with64 = v->evaluation().totals.total_s;
        auto* array = v->findChild<QComboBox*>("mpt-array");
        QVERIFY(array);
        array->setCurrentIndex(array->findData(96.0));
        QVERIFY(w.jobs().waitForIdle());
        QCOMPARE(v->arrayDim(), 96);
        QCOMPARE(v->settings().model.array_dim, 96);
        QVERIFY(v->evaluation().layers[0].overridden);  // the forced shape stays
        QCOMPARE(v->evaluation().totals.total_s, evaluateMpt(v->settings()).totals.total_s);
        QVERIFY(v->evaluation().totals.total_s < with64);
        array->setCurrentIndex(array->findData(64.0));
        QVERIFY(w.jobs().waitForIdle());

        v->requestClearOverrides();
        QVERIFY(w.jobs().waitForIdle());
        QVERIFY(!v->evaluation().layers[0].overridden);
        v->requestWorkload("wrn-40-10");
        QVERIFY(w.jobs().waitForIdle());
        QCOMPARE(v->workloadKey(), QString("wrn-40-10"));
        QVERIFY(v->grid()->data().columns.size() > 30);
        v->requestWorkload("no-such-network");
        QVERIFY(w.jobs().waitForIdle());
        QVERIFY2(v->summaryText().contains("no-such-network"), qPrintable(v->summaryText()));
        QVERIFY(w.lastError().contains("no-such-network"));
        QVERIFY(v->grid()->data().columns.size() > 30);  // the failed load kept what was shown
        QCOMPARE(v->workloadKey(), QString("wrn-40-10"));
        // The scaling sweep: one worker is the reference, so every configuration starts at 1x.
        const CoreCountChartData& sweep = v->coreCountChart()->data();
        QCOMPARE(sweep.x, (std::vector<double>{1, 4, 16, 64, 256}));
        QCOMPARE(sweep.series.size(), size_t{3});
        QCOMPARE(sweep.series[0].y[0], 1.0);
        QCOMPARE(sweep.series[0].y[4], v->evaluation().one_worker_s / v->evaluation().w_dp_s);
        for (const char* target : {"mpt", "mpt-grid", "mpt-bars", "mpt-sweep", "mpt-compare"}) exports(w, target);
        QVERIFY(!w.exports().write("mpt-traffic", dir_.filePath("x.png")).isEmpty());
    }

    // docs/methods/mpt.md#model-options-and-presets: the model options, their presets (fit always labelled) and every paper figure
    // beside the engine's, the same numbers as core's paper study.
    void mptModelOptionsAndThePaperTable() {
        MainWindow w(options("mpt"));
        w.show();
        QVERIFY(w.jobs().waitForIdle());
        MptView* v = w.views().get<MptView>();
        auto* preset = v->findChild<QComboBox*>("mpt-preset");
        auto* overlap = v->findChild<QComboBox*>("mpt-overlap");
        auto* rate = v->findChild<QComboBox*>("mpt-vector");
        QVERIFY(preset && overlap && rate && v->findChild<QComboBox*>("mpt-transform-unit") &&
                v->findChild<QComboBox*>("mpt-wire"));
        QCOMPARE(v->settings().model, mpt::ModelOptions{});
        QCOMPARE(preset->currentData().toInt(), static_cast<int>(mpt::Preset::Default));
        QVERIFY(!rate->isEnabled());  // the dedicated unit has no rate
        const MptPaperStudy expected = mptPaperStudy(mpt::ModelOptions{}, PARTITA_EXAMPLES_DIR);
        QCOMPARE(v->paperTable()->rowCount(), static_cast<int>(expected.rows.size()));
        const CsvTable paper = v->paperCsv();
        for (size_t i = 0; i < expected.rows.size(); ++i) {
            QCOMPARE(paper.rows[i][0], expected.rows[i].figure);
            QCOMPARE(paper.rows[i][7], expected.rows[i].reason);
            if (expected.rows[i].modelled) QCOMPARE(std::stod(paper.rows[i][1]), expected.rows[i].engine.total);
        }
        QCOMPARE(v->paperTable()->heading(PaperTable::Engine), QString("engine"));
        for (size_t i = 0; i < expected.rows.size(); ++i)  // what is shown: the figures, their means and reasons
            if (expected.rows[i].modelled) {
                const int r = static_cast<int>(i);
                QCOMPARE(v->paperTable()->cell(r, PaperTable::Quantity), QString::fromStdString(expected.rows[i].figure));
                QCOMPARE(v->paperTable()->cell(r, PaperTable::Engine), timesText(expected.rows[i].engine.total));
                QCOMPARE(v->paperTable()->extraCell(r, 0), timesText(expected.rows[i].engine.geomean));
                QCOMPARE(v->paperTable()->cell(r, PaperTable::Reason), QString::fromStdString(expected.rows[i].reason));
            }

        preset->setCurrentIndex(preset->findData(static_cast<int>(mpt::Preset::Fit)));
        QVERIFY(w.jobs().waitForIdle());
        QCOMPARE(v->settings().model, mpt::presetOptions(mpt::Preset::Fit));
        QCOMPARE(preset->currentText(), QString("fit (not a reproduction)"));
        QVERIFY(v->summaryText().contains("fit (not a reproduction)"));
        QVERIFY(v->paperTable()->heading(PaperTable::Engine).contains("fit (not a reproduction)"));
        QVERIFY(v->paperTable()->note().contains("Not the default model"));
        QVERIFY(rate->isEnabled());
        QCOMPARE(v->evaluation().totals.total_s, evaluateMpt(v->settings()).totals.total_s);

        overlap->setCurrentIndex(overlap->findData(static_cast<int>(mpt::Overlap::Sum)));
        QVERIFY(w.jobs().waitForIdle());
        QCOMPARE(v->settings().model.overlap, mpt::Overlap::Sum);
        QCOMPARE(preset->currentData().toInt(), static_cast<int>(mpt::Preset::Custom));
        QVERIFY(v->paperCsv().rows[0][7].empty());  // reasons belong to the default model
        exports(w, "mpt-paper");
    }

    void l2sRunsConvNetAndAClickChangesOneBoundary() {
        MainWindow w(options("l2s"));
        w.show();
        QVERIFY(w.jobs().waitForIdle());
        L2sView* v = w.views().get<L2sView>();
        QCOMPARE(w.views().shown(), static_cast<QWidget*>(v));
        QVERIFY(v->hasEvaluation());
        QCOMPARE(v->presetKey(), QString("convnet"));
        QCOMPARE(v->cores(), 16);
        const ChoiceGrid& g = *v->grid();
        const int grouped = rowOf(g, "grouped"), traditional = rowOf(g, "traditional");
        QVERIFY(!g.data().allowed(grouped, 0));  // the first layer reads the image

        // Group conv2 by a click: its boundary carries nothing and costs 1/n of the MACs.
        const double macs_before = v->evaluation().rows[1].macs;
        QTest::mouseClick(v->grid(), Qt::LeftButton, {}, v->grid()->cellRect(grouped, 1).center());
        QVERIFY(w.jobs().waitForIdle());
        QCOMPARE(v->strategy()[1].scheme, l2s::Scheme::Grouped);
        QCOMPARE(v->evaluation().rows[1].volume_B, 0.0);
        QCOMPARE(v->evaluation().rows[1].macs, macs_before / 16);
        QCOMPARE(v->selectedBoundary(), 1);
        QCOMPARE(v->trafficView()->matrix().total(), 0.0);

        // Traditional at conv2: the heatmap shows the all-gather, and the totals equal a fresh evaluation.
        QTest::mouseClick(v->grid(), Qt::LeftButton, {}, v->grid()->cellRect(traditional, 1).center());
        QVERIFY(w.jobs().waitForIdle());
        const auto& preset = l2s::preset("convnet");
        const l2s::Evaluator ev(l2s::presetLayers(preset, PARTITA_EXAMPLES_DIR), l2s::Mesh(l2s::MeshParams{}));
        QCOMPARE(v->trafficView()->matrix().total(), ev.allGatherBytes(1));
        QCOMPARE(w.views().get<CommHeatmap>()->matrix().total(), ev.allGatherBytes(1));  // the Heatmap tab follows
        const l2s::Evaluation fresh = ev.evaluate(v->strategy());
        QCOMPARE(v->evaluation().total_cycles, fresh.total_cycles);
        QCOMPARE(v->evaluation().byte_hops, fresh.byte_hops);
        // Link loads only between mesh neighbours.
        const CommMatrix& links = v->linkView()->matrix();
        const l2s::Mesh mesh;
        for (int a = 0; a < links.rows; ++a)
            for (int b = 0; b < links.cols; ++b)
                if (links.at(a, b) > 0) QCOMPARE(mesh.distance(a, b), 1);

        QCOMPARE(v->compareTable()->model()->rowCount(), 5);
        {
            const CsvTable t = v->compareCsv();
            QCOMPARE(t.header, (std::vector<std::string>{"scenario", "time_s", "speedup_x", "traffic_fraction", "byte_hops",
                                                         "noc_energy_J", "energy_reduction_fraction", "paper_speedup_x",
                                                         "paper_traffic_fraction", "paper_energy_reduction_fraction"}));
            const L2sOutcome& o = *v->outcome();
            QCOMPARE(t.rows.size(), o.scenarios.size() + 1);
            for (std::size_t i = 0; i < t.rows.size(); ++i) {
                const l2s::Evaluation& e = i == o.scenarios.size() ? o.eval : o.scenarios[i];
                const l2s::Versus vs = l2s::versus(o.baseline, e);
                QCOMPARE(std::vector<std::string>(t.rows[i].begin() + 1, t.rows[i].begin() + 7),
                         (std::vector<std::string>{formatNumber(e.time_s),
                                                   std::isfinite(vs.speedup) ? formatNumber(vs.speedup) : "",
                                                   formatNumber(vs.traffic_rate), formatNumber(e.byte_hops),
                                                   formatNumber(e.energy_J), formatNumber(vs.energy_reduction)}));
            }
            QCOMPARE(t.rows.back()[0], std::string("shown (edited)"));
            QVERIFY(v->compareTable()->isColumnHidden(5));  // the NoC energy: CSV only
        }
        // The core-count sweep at 16 cores is the scenario the tab shows (SS_Mask, no edit at that point).
        v->requestScenario(L2sView::Scenario::SsMask);
        QVERIFY(w.jobs().waitForIdle());
        QCOMPARE(v->strategy()[1].scheme, v->outcome()->strategies.scenario[1].scheme);  // the edit is gone
        const CoreCountChartData& sweep = v->coreCountChart()->data();
        QCOMPARE(sweep.x, (std::vector<double>{4, 8, 16, 32}));
        QCOMPARE(sweep.series[0].y[2], l2s::versus(v->baseline(), v->evaluation()).speedup);
        QVERIFY(v->requestCores(4));
        QVERIFY(w.jobs().waitForIdle());
        QCOMPARE(v->evaluation().cores, 4);
        QVERIFY(!v->requestCores(12));
        QVERIFY(!w.jobs().busy());  // refused by the tab: no job
        QVERIFY(v->summaryText().contains("12 cores"));
        QCOMPARE(v->cores(), 4);
        for (const char* target : {"l2s", "l2s-grid", "l2s-traffic", "l2s-links", "l2s-bars", "l2s-sweep", "l2s-compare"})
            exports(w, target);
    }

    void theUsersNetworkGoesToTheMethodTabs() {
        MainWindow w(options("mpt", "resnet-34.json"));
        w.show();
        QVERIFY(w.jobs().waitForIdle());
        QCOMPARE(w.views().get<MptView>()->workloadKey(), QString("resnet-34"));  // the built-in workload of that file
        QCOMPARE(w.views().get<MptView>()->layers().size(), mpt::layersFromNetwork(
                                                   partita::loadNetwork(std::string(PARTITA_EXAMPLES_DIR) +
                                                                        "/networks/resnet-34.json"))
                                                   .size());
        // Learn-to-Scale splits chains only: ResNet-34 is refused with the reason, and the tab keeps going.
        w.runs().setMethodKey("l2s");
        w.runs().runSelected();
        QVERIFY(w.jobs().waitForIdle());
        L2sView* v = w.views().get<L2sView>();
        QVERIFY(!v->hasEvaluation());
        QVERIFY2(v->summaryText().contains("chain"), qPrintable(v->summaryText()));
        QVERIFY(w.lastError().contains("chain"));
        QCOMPARE(w.runStore().db()->list({"", "", "l2s"}).size(), size_t{0});  // nothing to store
        v->requestPreset(QString(PARTITA_EXAMPLES_DIR) + "/networks/vgg-a.json");
        QVERIFY(w.jobs().waitForIdle());
        QCOMPARE(v->evaluation().network, std::string("VGG-A"));
        // Everything in the paper's presets still works from the combo box.
        auto* presets = v->findChild<QComboBox*>("l2s-preset");
        presets->setCurrentIndex(presets->findData(QString("mlp")));
        QVERIFY(w.jobs().waitForIdle());
        QCOMPARE(v->presetKey(), QString("mlp"));
        QCOMPARE(v->evaluation().rows.size(), size_t{3});
    }

    void outcomesArriveAsRunsThroughTheJobRunner() {
        MainWindow w(options("hypar"));
        w.show();
        QVERIFY(w.jobs().waitForIdle());
        QSignalSpy finished(&w.jobs(), &JobRunner::finished);
        auto arrived = [&](const char* method) {
            for (const QList<QVariant>& args : finished) {
                const RunPtr run = args.at(1).value<partita::RunPtr>();
                if (run && run->method == method) return run;
            }
            return RunPtr();
        };
        auto* methods = w.findChild<QComboBox*>("method");
        auto choose = [&](const char* key) {  // as the user picks it: the tab previews, nothing is stored
            methods->setCurrentIndex(methods->findData(QString(key)));
            emit methods->activated(methods->currentIndex());
        };
        choose("mpt");
        QVERIFY(w.jobs().waitForIdle());
        const RunPtr mpt = arrived("mpt");
        QVERIFY(mpt && mpt->mpt && !mpt->l2s && !mpt->inputs);
        QCOMPARE(w.views().get<MptView>()->outcome(), mpt->mpt);  // handed over unchanged
        QCOMPARE(mpt->mpt->settings.workload, std::string("layers"));
        const mpt::Evaluation expected = evaluateMpt(MptSettings{});
        QCOMPARE(mpt->mpt->eval.totals.total_s, expected.totals.total_s);
        QCOMPARE(mpt->mpt->eval.totals.comm_bytes, expected.totals.comm_bytes);
        QCOMPARE(mpt->mpt->eval.speedupVsWdp(), expected.speedupVsWdp());
        QCOMPARE(mpt->name, std::string("MPT w_mp+* · Table II layers 3x3"));

        choose("l2s");
        QVERIFY(w.jobs().waitForIdle());
        const RunPtr l2s = arrived("l2s");
        QVERIFY(l2s && l2s->l2s && !l2s->mpt);
        QCOMPARE(w.views().get<L2sView>()->outcome(), l2s->l2s);
        const L2sResult r = evaluateL2s(l2s->l2s->settings);
        QCOMPARE(l2s->l2s->eval.time_s, r.eval.time_s);
        QCOMPARE(l2s->l2s->eval.total_cycles, r.eval.total_cycles);
        QCOMPARE(l2s->l2s->eval.byte_hops, r.eval.byte_hops);
        QCOMPARE(l2s->l2s->baseline.total_cycles, r.baseline.total_cycles);
        QCOMPARE(l2s->l2s->settings.preset, std::string("convnet"));
        // The Heatmap tab follows the L2S boundary while L2S is chosen.
        QCOMPARE(w.views().get<CommHeatmap>()->matrix().total(), w.views().get<L2sView>()->trafficView()->matrix().total());
        QVERIFY(w.session().currentRun() && w.session().currentRun()->method == "hypar");  // the method runs are the tabs' own
        QCOMPARE(w.runStore().db()->list({"", "", "mpt"}).size() + w.runStore().db()->list({"", "", "l2s"}).size(), size_t{0});
    }
};

QTEST_MAIN(MethodTabsTest)
#include "method_tabs_test.moc"
