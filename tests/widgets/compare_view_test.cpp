// CompareView: grid diffs against the first run, the metrics table, the two
// charts, the CSV tables, and screenshots at 1280x800 to look at.
#include <QDir>
#include <QLabel>
#include <QAbstractItemModelTester>
#include <QTableView>
#include <QTableWidget>
#include <QtTest>

#include <algorithm>
#include <cmath>

#include <qcustomplot.h>

#include "core/io/network_io.h"
#include "core/run/run.h"
#include "core/run/simulation_run.h"
#include "core/sim/soap_text.h"
#include "core/topology/generate.h"
#include "core/util/format.h"
#include "tests/qt_test_util.h"
#include "widgets/compare/compare_view.h"
#include "widgets/compare/sim_compare_view.h"
#include "widgets/common/qt_text.h"
#include "widgets/common/result_table_model.h"
#include "widgets/topology/topology_layout.h"
#include "widgets/grid/grid_view.h"

using namespace partita;

namespace {

InputsPtr inputsFor(const char* network, int levels = 4) {
    const std::string path = std::string(PARTITA_EXAMPLES_DIR) + "/networks/" + network + ".json";
    return makeInputs(loadNetwork(path), defaultArray(levels), CostParams{}, path);
}

RunPtr planned(const InputsPtr& inputs, Method method) { return std::make_shared<const Run>(planRun(inputs, method)); }

// Two nodes of two P100s: small enough to read every number, with two kinds of link.
std::shared_ptr<const sim::Topology> smallCluster() {
    sim::ClusterSpec c = sim::p100ClusterSpec();
    c.name = "p100-2x2";
    c.nodes = 2;
    c.gpus = 2;
    auto t = std::make_shared<sim::Topology>(sim::clusterTopology(c));
    if (!t->finalized()) t->finalize();
    return t;
}

SimulationSpec specOn(std::shared_ptr<const sim::Topology> topology, SimSource source) {
    SimulationSpec s;
    s.topology = std::move(topology);
    s.topology_origin = "test";
    s.source = source;
    s.mcmc.budget_s = 0;
    s.mcmc.iterations = 300;
    s.mcmc.seed = 3;
    return s;
}

InputsPtr batched(const char* network, double batch) {
    const std::string path = std::string(PARTITA_EXAMPLES_DIR) + "/networks/" + network + ".json";
    CostParams p;
    p.batch = batch;
    return makeInputs(loadNetwork(path), defaultArray(2), p, path);
}

}  // namespace

class CompareViewTest : public QObject {
    Q_OBJECT
private slots:
    void emptyView();
    void hyparVersusDp();
    void differentCostModelsAreSaid();
    void shapeMismatchIsNotDiffed();
    void csvTables();
    void fourRunsOnVggE();
    void simulatedDpVersusMcmc();
    void simulatedRunsThatCannotBeCompared();
    void simulatedRunsOnManyDevices();
};

void CompareViewTest::emptyView() {
    CompareView view;
    view.setRuns({});
    QCOMPARE(view.metricsTable()->model()->rowCount(), 0);
    QCOMPARE(view.levelChart()->plottableCount(), 0);
    QCOMPARE(view.gridView(0), nullptr);
    QCOMPARE(view.differingCells(1), 0);
    view.resize(1280, 800);
    shoot(view, QStringLiteral("compare-empty.png"));
}

void CompareViewTest::differentCostModelsAreSaid() {
    const InputsPtr in = inputsFor("lenet-c");
    CompareView view;
    view.setRuns({planned(in, Method::HyPar), planned(in, Method::DataParallel)});
    QVERIFY(view.modelNote().isEmpty());
    QVERIFY(!view.findChild<QLabel*>("model-note")->isVisibleTo(&view));
    view.setRuns({planned(in, Method::HyPar), std::make_shared<const Run>(accparRun(in))});
    const QString note = view.modelNote();
    QVERIFY2(note.contains("#1 HyPar's model, 4 B/element") && note.contains("#2 AccPar's model, 2 B/element"),
             qPrintable(note));
    QVERIFY(view.findChild<QLabel*>("model-note")->isVisibleTo(&view));
}

void CompareViewTest::hyparVersusDp() {
    const InputsPtr in = inputsFor("lenet-c");
    const RunPtr hypar = planned(in, Method::HyPar), dp = planned(in, Method::DataParallel);
    int expected = 0;
    for (int h = 0; h < hypar->grid.levels(); ++h)
        for (int l = 0; l < hypar->grid.layers(); ++l) expected += hypar->grid.split(h, l) != dp->grid.split(h, l);
    QVERIFY(expected > 0);

    CompareView view;
    view.setRuns({hypar, dp});
    QCOMPARE(view.differingCells(0), 0);
    QCOMPARE(view.differingCells(1), expected);
    QCOMPARE(view.metricsTable()->model()->rowCount(), 2);
    QCOMPARE(view.levelChart()->plottableCount(), 2);
    for (int i = 0; i < 2; ++i) QVERIFY(qobject_cast<QCPBars*>(view.levelChart()->plottable(i)));
    QCOMPARE(view.timeChart()->plottableCount(), 2);  // compute + communication, stacked

    // The second grid is read-only, compact and marks exactly the differing cells.
    GridView* second = view.gridView(1);
    QVERIFY(second);
    QVERIFY(!second->editable());
    int marked = 0;
    for (int h = 0; h < 4; ++h)
        for (int l = 0; l < 4; ++l) marked += second->cellDiffers(h, l);
    QCOMPARE(marked, expected);
    QCOMPARE(view.metricsTable()->model()->index(1, 2).data().toString(), QString::fromStdString(withCommas(dp->eval().total_elements)));
    QCOMPARE(view.metricsTable()->model()->index(0, 8).data().toString(), QString::fromStdString(fixed(hypar->perfVsDp(), 2)) + " x");
    {  // The CSV as the view wrote it before its table was a model (issue 27 item 5).
        CsvTable before{{"run", "method", "total_elements", "total_GB", "step_time_s", "compute_time_s", "comm_time_s",
                         "energy_J", "perf_vs_dp_x", "energy_vs_dp_x"},
                        {}};
        for (const RunPtr& r : {hypar, dp}) {
            const Evaluation& ev = r->shown();
            before.rows.push_back({r->name, r->method, formatNumber(ev.total_elements), formatNumber(ev.totalGB()),
                                   formatNumber(ev.time_step_s), formatNumber(ev.time_compute_s),
                                   formatNumber(ev.time_comm_s), formatNumber(ev.energy_j), formatNumber(r->perfVsDp()),
                                   formatNumber(r->energyVsDp())});
        }
        QCOMPARE(toCsv(view.metricsCsv()), toCsv(before));
        QVERIFY(view.metricsTable()->isColumnHidden(1));  // the method: CSV only
        QAbstractItemModelTester(view.metricsTable()->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    }

    view.resize(1280, 800);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    shoot(view, QStringLiteral("compare-lenet-1280.png"));
}

void CompareViewTest::shapeMismatchIsNotDiffed() {
    const RunPtr lenet = planned(inputsFor("lenet-c"), Method::HyPar);
    const RunPtr alex = planned(inputsFor("alexnet", 3), Method::DataParallel);
    CompareView view;
    view.setRuns({lenet, alex});
    QCOMPARE(view.differingCells(1), 0);
    QVERIFY(!view.gridView(1)->cellDiffers(0, 0));
    QCOMPARE(view.levelChart()->plottableCount(), 2);
}

void CompareViewTest::csvTables() {
    const InputsPtr in = inputsFor("lenet-c");
    CompareView view;
    view.setRuns({planned(in, Method::HyPar), planned(in, Method::ModelParallel), planned(in, Method::OneWeirdTrick)});
    const CsvTable m = view.metricsCsv();
    QCOMPARE(static_cast<int>(m.rows.size()), 3);
    for (const char* column : {"total_elements", "total_GB", "step_time_s", "energy_J", "perf_vs_dp_x"})
        QVERIFY2(std::find(m.header.begin(), m.header.end(), column) != m.header.end(), column);
    const CsvTable l = view.levelCommCsv();
    QCOMPARE(static_cast<int>(l.rows.size()), 3 * 4);
    QCOMPARE(l.rows[5][1], std::string("H2"));
    QCOMPARE(l.rows[5][2], formatNumber(view.runs()[1]->eval().level_comm[1]));
}

void CompareViewTest::fourRunsOnVggE() {
    const InputsPtr in = inputsFor("vgg-e");
    std::vector<RunPtr> runs;
    for (Method m : kAllMethods) runs.push_back(planned(in, m));
    CompareView view;
    view.setRuns(runs);
    QCOMPARE(view.metricsTable()->model()->rowCount(), 4);
    QCOMPARE(view.levelChart()->plottableCount(), 4);
    view.resize(1280, 800);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    shoot(view, QStringLiteral("compare-vgge-1280.png"));
    shoot(*view.gridView(1), QStringLiteral("compare-vgge-grid1.png"));
}

// Issue 26 item 16: DP and a seeded MCMC search on the same small machine, side by side; every number
// is the runs' own (their summaries, the simulation's utilisation, the topology view's link bytes).
void CompareViewTest::simulatedDpVersusMcmc() {
    const InputsPtr in = batched("alexnet", 64);
    const auto topo = smallCluster();
    const RunPtr dp = std::make_shared<const Run>(simulationRun(in, specOn(topo, SimSource::DataParallel)));
    const RunPtr mcmc = std::make_shared<const Run>(mcmcRun(in, specOn(topo, SimSource::Mcmc)));
    CompareView view;
    view.setRuns({dp, mcmc});
    QVERIFY(view.simulated());
    SimCompareView* s = view.simView();
    const SimComparison& c = s->comparison();
    QVERIFY2(c.ok(), c.refusal.c_str());
    QCOMPARE(c.runs.size(), std::size_t(2));
    // Makespans and the ratio: the MCMC run's own speed-up over DP on this topology.
    QCOMPARE(c.runs[0].makespan_s, dp->simulation->makespan_s);
    QCOMPARE(c.runs[1].makespan_s, mcmc->simulation->makespan_s);
    QCOMPARE(c.runs[0].speedup, 1.0);
    QCOMPARE(c.runs[1].speedup, mcmc->simulation->speedupVsDp());
    QCOMPARE(s->runsTable()->model()->index(1, 2).data().toString(), q(seconds(mcmc->simulation->makespan_s)));
    QCOMPARE(s->runsTable()->model()->index(1, 3).data().toString(), q(fixed(mcmc->simulation->speedupVsDp(), 3)) + QChar(0x00D7));
    // Traffic: the summary's total, and per link kind the topology view's link bytes summed by kind.
    for (std::size_t i = 0; i < 2; ++i) {
        const SimulationResult& sim = *(i == 0 ? dp : mcmc)->simulation;
        QCOMPARE(c.runs[i].traffic_bytes, sim.trafficBytes());
        const view::TopologyLoad load = view::topologyLoad(sim);
        std::map<std::string, double> by_kind;
        for (std::size_t l = 0; l < topo->links.size(); ++l) by_kind[topo->links[l].kind] += load.link_bytes[l];
        QCOMPARE(c.link_kinds.size(), by_kind.size());
        for (std::size_t k = 0; k < c.link_kinds.size(); ++k) QCOMPARE(c.runs[i].link_bytes[k], by_kind[c.link_kinds[k]]);
        for (int d = 0; d < 4; ++d) {
            QCOMPARE(c.runs[i].utilisation[static_cast<std::size_t>(d)], sim.utilisation[static_cast<std::size_t>(d)]);
            QCOMPARE(s->devicesTable()->model()->index(d, 2 + static_cast<int>(i)).data(RawValueRole).toDouble(),
                     sim.utilisation[static_cast<std::size_t>(d)]);
        }
    }
    QCOMPARE(s->runsTable()->model()->index(0, 5).data().toString(), q(withPrefix(dp->simulation->trafficBytes(), "B")));
    QVERIFY(c.link_kinds.size() >= 2);  // NVLink inside a node, the network between
    // Four devices: a bar per device and run.
    QCOMPARE(s->chartBars(), 4);
    QCOMPARE(s->utilisationChart()->plottableCount(), 2);
    // The differences: exactly the operators whose configurations differ, in both runs' words.
    int differ = 0;
    const Network& net = in->network;
    for (std::size_t op = 0; op < net.ops.size(); ++op) {
        const sim::OpConfig& a = dp->simulation->strategy.ops[op];
        const sim::OpConfig& b = mcmc->simulation->strategy.ops[op];
        if (a == b) continue;
        const int row = differ++;
        QCOMPARE(s->differencesTable()->model()->index(row, 0).data().toString(), q(net.ops[op].name));
        QCOMPARE(s->differencesTable()->model()->index(row, 1).data().toString(), q(sim::configText(a)));
        QCOMPARE(s->differencesTable()->model()->index(row, 2).data().toString(), q(sim::configText(b)));
    }
    QVERIFY(differ > 0);  // the search moved away from DP
    QCOMPARE(s->differencesTable()->model()->rowCount(), differ);
    QCOMPARE(view.metricsCsv().rows.size(), std::size_t(2));
    QCOMPARE(s->devicesCsv().rows.size(), std::size_t(4));
    // The CSV the tables wrote before they were models (issue 27 item 5), byte for byte.
    CsvTable runs_before{{"run", "strategy", "makespan_s", "speedup_vs_first_x", "devices_used", "traffic_B"}, {}};
    for (const std::string& k : c.link_kinds) runs_before.header.push_back(k + "_links_B");
    for (const SimCompareRun& r : c.runs) {
        std::vector<std::string> row{r.name, r.strategy, formatNumber(r.makespan_s), formatNumber(r.speedup),
                                     std::to_string(r.devices_used), formatNumber(r.traffic_bytes)};
        for (double b : r.link_bytes) row.push_back(formatNumber(b));
        runs_before.rows.push_back(std::move(row));
    }
    QCOMPARE(toCsv(s->runsCsv()), toCsv(runs_before));
    CsvTable devices_before{{"device", "node", "#1_utilisation_percent", "#2_utilisation_percent"}, {}};
    for (std::size_t d = 0; d < c.devices.size(); ++d) {
        std::vector<std::string> row{c.devices[d], std::to_string(c.device_nodes[d])};
        for (const SimCompareRun& r : c.runs) row.push_back(formatNumber(100 * r.utilisation[d]));
        devices_before.rows.push_back(std::move(row));
    }
    QCOMPARE(toCsv(s->devicesCsv()), toCsv(devices_before));
    CsvTable differences_before{{"operator", "#1_config", "#2_config"}, {}};
    for (const SimOpDifference& d : c.differences) {
        std::vector<std::string> row{d.op};
        row.insert(row.end(), d.configs.begin(), d.configs.end());
        differences_before.rows.push_back(std::move(row));
    }
    QCOMPARE(toCsv(s->differencesCsv()), toCsv(differences_before));
    // Devices in their order until a column is clicked, then by the exact utilisation.
    for (int d = 0; d < 4; ++d)
        QCOMPARE(s->devicesTable()->model()->index(d, 0).data().toString(), q(c.devices[static_cast<std::size_t>(d)]));
    for (QTableView* table : {s->runsTable(), s->devicesTable(), s->differencesTable()})
        QAbstractItemModelTester(table->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    for (const QSize size : {QSize(1280, 800), QSize(1024, 700)}) {
        view.resize(size);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        s->pages()->setCurrentIndex(0);
        // Both runs readable even when the columns scroll (the bar must not cover the second row).
        QTableView* runs = s->runsTable();
        QVERIFY(runs->rowViewportPosition(1) + runs->rowHeight(1) <= runs->viewport()->height());
        // The axis reaches the busiest bar and no far beyond a low one.
        double busiest = 0;
        for (const auto& r : c.runs)
            for (double u : r.utilisation) busiest = std::max(busiest, 100 * u);
        const double top = s->utilisationChart()->yAxis->range().upper;
        QVERIFY(top >= busiest);
        QVERIFY(busiest > 50 || top <= std::max(1.0, std::ceil(busiest * 1.15)));
        shoot(view, QStringLiteral("compare-sim-%1.png").arg(size.width()));
        s->pages()->setCurrentIndex(1);
        shoot(view, QStringLiteral("compare-sim-differences-%1.png").arg(size.width()));
    }
}

// Runs on different machines, networks or batches, or an analytic run beside a simulated one: the
// tab says why they cannot be compared and shows no numbers.
void CompareViewTest::simulatedRunsThatCannotBeCompared() {
    const InputsPtr in = batched("lenet-c", 64);
    const RunPtr small = std::make_shared<const Run>(simulationRun(in, specOn(smallCluster(), SimSource::DataParallel)));
    auto p100 = std::make_shared<sim::Topology>(sim::builtinTopology("p100-16"));
    const RunPtr big = std::make_shared<const Run>(simulationRun(in, specOn(p100, SimSource::DataParallel)));
    CompareView view;
    view.setRuns({small, big});
    QVERIFY(view.simulated());
    const QString said = view.simView()->summary()->text();
    QVERIFY2(said.contains("cannot be compared"), qPrintable(said));
    QVERIFY2(said.contains("ran on topology") && said.contains("P100 cluster (4 nodes x 4 GPUs)") && said.contains("p100-2x2"), qPrintable(said));
    QCOMPARE(view.simView()->runsTable()->model()->rowCount(), 0);
    QCOMPARE(view.simView()->devicesTable()->model()->rowCount(), 0);
    const RunPtr other_batch =
        std::make_shared<const Run>(simulationRun(batched("lenet-c", 32), specOn(smallCluster(), SimSource::DataParallel)));
    view.setRuns({small, other_batch});
    QVERIFY(view.simView()->summary()->text().contains("has batch 32, #1 batch 64"));
    const RunPtr alexnet =
        std::make_shared<const Run>(simulationRun(batched("alexnet", 64), specOn(smallCluster(), SimSource::DataParallel)));
    view.setRuns({small, alexnet});
    QVERIFY(view.simView()->summary()->text().contains("simulated network"));
    view.setRuns({small, planned(inputsFor("lenet-c"), Method::HyPar)});
    QVERIFY(view.simView()->summary()->text().contains("is not simulated"));
    QVERIFY(!view.simView()->comparison().ok());
}

// 64 devices in 16 nodes: the chart gathers them by node, the table keeps every device.
void CompareViewTest::simulatedRunsOnManyDevices() {
    const InputsPtr in = batched("lenet-c", 64);
    auto k80 = std::make_shared<sim::Topology>(sim::builtinTopology("k80-64"));
    const RunPtr dp = std::make_shared<const Run>(simulationRun(in, specOn(k80, SimSource::DataParallel)));
    const RunPtr owt = std::make_shared<const Run>(simulationRun(in, specOn(k80, SimSource::OneWeirdTrick)));
    CompareView view;
    view.setRuns({dp, owt});
    SimCompareView* s = view.simView();
    QVERIFY(s->comparison().ok());
    QCOMPARE(s->chartBars(), 16);
    QCOMPARE(s->devicesTable()->model()->rowCount(), 64);
    const auto groups = deviceGroups(s->comparison(), SimCompareView::kMaxBars);
    double sum = 0;
    for (int d = 0; d < groups[3].count; ++d) sum += dp->simulation->utilisation[static_cast<std::size_t>(groups[3].first + d)];
    QCOMPARE(groups[3].utilisation[0], sum / groups[3].count);
    for (const QSize size : {QSize(1280, 800), QSize(1024, 700)}) {
        view.resize(size);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        shoot(view, QStringLiteral("compare-sim-k80-%1.png").arg(size.width()));
    }
}

QTEST_MAIN(CompareViewTest)
#include "compare_view_test.moc"
