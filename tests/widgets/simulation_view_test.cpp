// SimulationView and SimParamsEditor on runs made by the engine (LeNet-c on the
// 16-GPU P100 preset): shown values, tables, CSV, the empty state, and the
// editor's validation and file requests.
#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTableView>
#include <QAbstractItemModelTester>
#include <QtTest>

#include "core/io/network_io.h"
#include "core/run/simulation_run.h"
#include "core/util/format.h"
#include "tests/qt_test_util.h"
#include "widgets/common/qt_text.h"
#include "widgets/common/result_table_model.h"
#include "widgets/settings/sim_params_editor.h"
#include "widgets/simulation/simulation_view.h"

using namespace partita;

namespace {

InputsPtr lenet() {
    return makeInputs(loadNetwork(std::string(PARTITA_EXAMPLES_DIR) + "/networks/lenet-c.json"), defaultArray(4), CostParams{});
}

SimulationSpec p100(SimSource source) {
    SimulationSpec s;
    s.topology = std::make_shared<const sim::Topology>(sim::builtinTopology("p100-16"));
    s.topology_origin = "built-in:p100-16";
    s.source = source;
    s.mcmc.budget_s = 0;
    s.mcmc.iterations = 200;
    return s;
}

// The CSV the view wrote before its tables were models (issue 27 item 5): the models' CSV stays byte-identical.
std::string kindBefore(const SimulationResult& sim, int resource) {
    const sim::Topology& t = sim.topology();
    if (sim.isStream(resource)) return "collective stream";  // since issue 30: all-reduces as collectives
    if (!sim.isLink(resource)) return "device · " + t.devices[static_cast<size_t>(resource)].kind;
    const auto link = static_cast<size_t>(resource - sim.compute_devices);
    return link < t.links.size() ? "link · " + t.links[link].kind : "link";
}

CsvTable resourceCsvBefore(const SimulationResult& sim) {
    CsvTable c{{"resource", "kind", "busy_s", "utilisation_percent"}, {}};
    for (size_t i = 0; i < sim.resources.size(); ++i)
        c.rows.push_back({sim.resources[i], kindBefore(sim, static_cast<int>(i)), formatNumber(sim.busy_s[i]),
                          formatNumber(100 * sim.utilisation[i])});
    return c;
}

CsvTable startsCsvBefore(const McmcSummary& m) {
    CsvTable c{{"start", "initial_makespan_s", "best_makespan_s", "iterations", "accepted", "elapsed_s", "stop"}, {}};
    for (const auto& s : m.starts)
        c.rows.push_back({s.name, formatNumber(s.initial_s), formatNumber(s.best_s), std::to_string(s.iterations),
                          std::to_string(s.accepted), formatNumber(s.elapsed_s), s.stop});
    return c;
}

}  // namespace

class SimulationViewTest : public QObject {
    Q_OBJECT
private slots:
    void showsASimulation() {
        auto run = std::make_shared<const Run>(simulationRun(lenet(), p100(SimSource::OneWeirdTrick)));
        const SimulationResult& sim = *run->simulation;
        SimulationView view;
        view.resize(900, 600);
        view.setRun(run);
        view.show();
        QVERIFY(view.hasSimulation());
        QCOMPARE(view.text("makespan"), q(fixed(sim.makespan_s * 1e3, 3)) + " ms");
        QCOMPARE(view.text("tasks"), q(withCommas(double(sim.tasks))));
        QCOMPARE(view.text("traffic"), q(fixed(sim.trafficBytes() / 1e9, 3)) + " GB");
        QCOMPARE(view.text("speedup_vs_owt"), q(fixed(1.0, 3)) + QChar(0x00D7));
        QCOMPARE(view.text("speedup_vs_dp"), q(fixed(sim.dp_makespan_s / sim.makespan_s, 3)) + QChar(0x00D7));
        QVERIFY(view.text("search").isEmpty());
        QVERIFY(!view.startsTable()->isVisible());
        // Busy links only, unless asked; the CSV always has every resource.
        int busy_links = 0;
        for (int r = 16; r < static_cast<int>(sim.busy_s.size()); ++r)
            busy_links += sim.isLink(r) && sim.busy_s[static_cast<size_t>(r)] > 0;
        QCOMPARE(sim.streamCount(), 16);  // one collective stream per device
        QCOMPARE(view.resourcesTable()->model()->rowCount(), 16 + busy_links + sim.streamCount());
        view.idleLinksBox()->setChecked(true);
        QCOMPARE(view.resourcesTable()->model()->rowCount(), static_cast<int>(sim.resources.size()));
        const CsvTable csv = view.resourcesCsv();
        QCOMPARE(csv.rows.size(), sim.resources.size());
        QCOMPARE(csv.rows[0][2], formatNumber(sim.busy_s[0]));
        QCOMPARE(toCsv(csv), toCsv(resourceCsvBefore(sim)));
        QAbstractItemModelTester(view.resourcesTable()->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(view.trafficCsv().rows.size(), size_t{16});
        QCOMPARE(view.trafficCsv().header.size(), size_t{17});
        // Sorting by busy time is numeric, not by text.
        view.resourcesTable()->sortByColumn(2, Qt::DescendingOrder);
        const double top = view.resourcesTable()->model()->index(0, 2).data(RawValueRole).toDouble();
        QCOMPARE(top, *std::max_element(sim.busy_s.begin(), sim.busy_s.end()));
    }

    // Issue 26 item 5: batch 8 on 16 GPUs runs data parallel on 8 of them, and the summary says so and why.
    void saysHowManyDevicesTheStrategyUses() {
        CostParams params;
        params.batch = 8;
        const InputsPtr in = makeInputs(loadNetwork(std::string(PARTITA_EXAMPLES_DIR) + "/networks/lenet-c.json"), defaultArray(4), params);
        auto dp = std::make_shared<const Run>(simulationRun(in, p100(SimSource::DataParallel)));
        SimulationView view;
        view.setRun(dp);
        QCOMPARE(view.text("strategy"), QString("DP over 8 of the 16 devices: batch 8 limits data parallelism to 8 devices"));
        // Every device used: no count to qualify, no reason.
        view.setRun(std::make_shared<const Run>(simulationRun(lenet(), p100(SimSource::DataParallel))));
        QCOMPARE(view.text("strategy"), QString("DP over the 16 devices"));
        // A batch of 24 is larger than 16 but splits evenly over at most 12 of them.
        params.batch = 24;
        const InputsPtr odd = makeInputs(loadNetwork(std::string(PARTITA_EXAMPLES_DIR) + "/networks/lenet-c.json"), defaultArray(4), params);
        view.setRun(std::make_shared<const Run>(simulationRun(odd, p100(SimSource::DataParallel))));
        QCOMPARE(view.text("strategy"), QString("DP over 12 of the 16 devices: batch 24 splits evenly over at most 12 devices"));
    }

    void showsAnMcmcSearch() {
        auto run = std::make_shared<const Run>(mcmcRun(lenet(), p100(SimSource::Mcmc)));
        SimulationView view;
        view.setRun(run);
        view.show();
        const McmcSummary& m = *run->simulation->mcmc;
        QCOMPARE(view.startsTable()->model()->rowCount(), static_cast<int>(m.starts.size()));
        QVERIFY(view.startsTable()->isVisible());
        QCOMPARE(view.startsTable()->model()->index(0, 0).data().toString(), QString("dp"));
        QVERIFY(view.text("search").contains(q(withCommas(double(m.iterations))) + " proposals"));
        QCOMPARE(view.startsCsv().rows.size(), m.starts.size());
        QCOMPARE(toCsv(view.startsCsv()), toCsv(startsCsvBefore(m)));
        QAbstractItemModelTester(view.startsTable()->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        // A Simulate run after the search exports no starts.
        view.setRun(std::make_shared<const Run>(simulationRun(lenet(), p100(SimSource::OneWeirdTrick))));
        QVERIFY(view.startsCsv().rows.empty());
        QVERIFY(view.text("cancelled").isEmpty());
    }

    void otherRunsShowTheEmptyNote() {
        SimulationView view;
        view.setRun(std::make_shared<const Run>(planRun(lenet(), Method::HyPar)));
        QVERIFY(!view.hasSimulation());
        QVERIFY(view.text("makespan").isEmpty());
        QVERIFY(view.findChild<QLabel*>("simulation-empty")->text().contains("not a simulated run"));
        QVERIFY(view.resourcesCsv().rows.empty());
        QCOMPARE(view.resourcesCsv().header.size(), size_t{4});
        view.setRun(nullptr);
        QVERIFY(view.startsCsv().rows.empty());
    }

    void editorValidatesAsTyped() {
        SimParamsEditor e;
        e.addPreset("p100-16", "p100-16 · 16 devices");
        e.addPreset("k80-64", "k80-64 · 64 devices");
        e.setMode(SimParamsEditor::Mode::Mcmc);
        e.show();
        QCOMPARE(e.topology(), QString("p100-16"));
        QSignalSpy changed(&e, &SimParamsEditor::changed);
        type(e.field("seed"), "1.5");
        QVERIFY(!e.valid());
        QVERIFY(e.problem().contains("whole number"));
        QCOMPARE(e.mcmc().seed, std::uint64_t{1});  // the last valid value stays
        type(e.field("seed"), "42");
        QVERIFY(e.valid());
        QCOMPARE(e.mcmc().seed, std::uint64_t{42});
        type(e.field("budget_s"), "0");
        QVERIFY(!e.valid());  // neither a time nor an iteration budget
        QVERIFY(e.problem().contains("both are 0"));
        type(e.field("iterations"), "500");
        QVERIFY(e.valid());  // the iteration budget fixed the time budget's complaint too
        QCOMPARE(e.mcmc().iterations, std::int64_t{500});
        QCOMPARE(e.mcmc().budget_s, 0.0);
        qobject_cast<QCheckBox*>(e.field("start_owt"))->setChecked(false);
        QCOMPARE(e.mcmc().starts, (std::vector<std::string>{"dp", "random"}));
        qobject_cast<QCheckBox*>(e.field("start_dp"))->setChecked(false);
        qobject_cast<QCheckBox*>(e.field("start_random"))->setChecked(false);
        QVERIFY(!e.valid());
        QCOMPARE(e.mcmc().starts, (std::vector<std::string>{"random"}));
        QVERIFY(changed.count() >= 4);
    }

    void editorAsksForFiles() {
        SimParamsEditor e;
        e.addPreset("p100-16", "p100-16 · 16 devices");
        e.show();
        auto* topology = qobject_cast<QComboBox*>(e.field("topology"));
        QSignalSpy load(&e, &SimParamsEditor::topologyFileRequested);
        QSignalSpy strategy(&e, &SimParamsEditor::strategyFileRequested);
        const int last = topology->count() - 1;  // "Load file…"
        topology->setCurrentIndex(last);
        emit topology->activated(last);
        QCOMPARE(load.count(), 1);
        QCOMPARE(e.topology(), QString("p100-16"));  // stays until the owner has read a file
        e.addTopologyFile("/tmp/t.json", "My cluster");
        QVERIFY(e.setTopology("/tmp/t.json"));
        QVERIFY(e.topologyIsFile());
        auto* source = qobject_cast<QComboBox*>(e.field("source"));
        const int file = source->findData(int(SimSource::File));
        source->setCurrentIndex(file);
        emit source->activated(file);
        QCOMPARE(strategy.count(), 1);  // no file yet: ask for one
        QCOMPARE(e.source(), SimSource::File);
    }
};

QTEST_MAIN(SimulationViewTest)
#include "simulation_view_test.moc"
