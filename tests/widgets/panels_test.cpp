// MetricsPanel, ParamsEditor and RunsModel on LeNet-c (built-in example).
#include <cmath>

#include <QComboBox>
#include <QDateTime>
#include <QDir>
#include <QLineEdit>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QAbstractItemModelTester>
#include <QTableView>
#include <QtTest>

#include "core/io/network_io.h"
#include "core/util/format.h"
#include "tests/qt_test_util.h"
#include "widgets/common/qt_text.h"
#include "widgets/common/result_table_model.h"
#include "widgets/common/runs_model.h"
#include "widgets/settings/params_editor.h"
#include "widgets/grid/metrics_panel.h"

using namespace partita;

namespace {

InputsPtr lenet() {
    return makeInputs(loadNetwork(std::string(PARTITA_EXAMPLES_DIR) + "/networks/lenet-c.json"), defaultArray(4), CostParams{});
}

// Mirrors the panel's change format: "+123,456 elements (+3.2 %)".
QString expectedChange(double delta, double reference, const QString& amount) {
    const double pct = 100.0 * delta / reference;
    return QString("%1%2 (%3%4 %)").arg(delta > 0 ? "+" : "-", amount, pct > 0 ? "+" : "", q(fixed(pct, 1)));
}

QString csvValue(const CsvTable& t, const std::string& key) {
    for (const auto& row : t.rows)
        if (row[0] == key) return q(row[1]);
    return {};
}

RunSummary summary(std::int64_t id, const char* name, double perf, double elements, const char* created) {
    RunSummary s;
    s.id = id;
    s.name = name;
    s.method = "hypar";
    s.network_name = "LeNet-c";
    s.network_hash = "0123456789abcdef0123";
    s.array_name = "HMC H-tree 16";
    s.array_hash = "fedcba9876543210fedc";
    s.accelerators = 16;
    s.batch = 256;
    s.total_elements = elements;
    s.time_step_s = 0.01;
    s.perf_vs_dp = perf;
    s.created_utc = created;
    return s;
}

}  // namespace

class PanelsTest : public QObject {
    Q_OBJECT
private slots:
    void metricsOfHyparRun() {
        const InputsPtr in = lenet();
        auto run = std::make_shared<const Run>(planRun(in, Method::HyPar));
        MetricsPanel panel;
        QCOMPARE(panel.text("total_elements"), QString());
        panel.setRun(run);
        QCOMPARE(panel.text("total_elements"), QString("3,901,560"));
        const Assessment& a = run->assessment;
        QCOMPARE(panel.text("step_time_s"), q(seconds(a.eval.time_step_s)));
        QCOMPARE(panel.text("energy_j"), q(joules(a.eval.energy_j)));
        QCOMPARE(panel.text("perf_vs_dp"), q(fixed(a.perfVs(a.dp), 3)) + QChar(0x00D7));
        QCOMPARE(panel.text("energy_vs_owt"), q(fixed(a.energyVs(a.owt), 3)) + QChar(0x00D7));
        QVERIFY(panel.text("headline").contains("3,901,560 elements"));
        QCOMPARE(panel.text("total_elements_vs_optimum"), QString());  // not edited
        const CsvTable csv = panel.csv();
        QCOMPARE(csv.header, (std::vector<std::string>{"metric", "value", "unit"}));
        QCOMPARE(csvValue(csv, "total_elements"), q(formatNumber(3901560)));  // core's exact number text
        QCOMPARE(csvValue(csv, "total_elements").toDouble(), 3901560.0);
        QCOMPARE(csvValue(csv, "step_time_s"), q(formatNumber(a.eval.time_step_s)));
        // As before the table was a model: one row per value, headings left out (14 values, no SRAM).
        QCOMPARE(csv.rows.size(), std::size_t(14));
        QCOMPARE(csv.rows[0], (std::vector<std::string>{"total_elements", "3901560", "elements"}));
        QCOMPARE(csv.rows[13], (std::vector<std::string>{"energy_vs_owt", formatNumber(a.energyVs(a.owt)), "x"}));
        auto* table = panel.findChild<QTableView*>("metrics-table");
        QAbstractItemModelTester(table->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(table->model()->rowCount(), 14 + 5);  // five headings
        QVERIFY(table->isColumnHidden(2));              // the unit: CSV only
        QCOMPARE(table->model()->index(0, 0).data().toString(), QString("Communication"));
        QCOMPARE(table->model()->index(1, 1).data().toString(), QString("3,901,560"));
        QCOMPARE(table->model()->index(1, 1).data(RawValueRole).toDouble(), 3901560.0);
        panel.setRun(nullptr);
        QCOMPARE(panel.text("total_elements"), QString());
        QVERIFY(panel.csv().rows.empty());
    }

    void metricsOfEditedRun() {
        const InputsPtr in = lenet();
        const Run hypar = planRun(in, Method::HyPar);
        Grid flipped = hypar.grid;
        Cell& cell = flipped.at(3, 0);  // bottom level, first layer
        cell.split = cell.split == Split::Batch ? Split::Input : Split::Batch;
        auto run = std::make_shared<const Run>(gridRun(in, flipped, RunKind::Edited, "user", &hypar.grid));
        QVERIFY(run->edited());

        const Evaluation e1 = evaluate(in->layers, in->array, flipped, in->params);
        const Evaluation e0 = evaluate(in->layers, in->array, hypar.grid, in->params);
        const double d_elements = e1.total_elements - e0.total_elements;
        const double d_step = e1.time_step_s - e0.time_step_s;
        QVERIFY(d_elements != 0);

        MetricsPanel panel;
        panel.setRun(run);
        QCOMPARE(panel.text("total_elements"), q(withCommas(e1.total_elements)));
        QCOMPARE(panel.text("total_elements_vs_optimum"),
                 expectedChange(d_elements, e0.total_elements, q(withCommas(std::fabs(d_elements))) + " elements"));
        QCOMPARE(panel.text("step_time_s_vs_optimum"),
                 expectedChange(d_step, e0.time_step_s, q(seconds(std::fabs(d_step)))));
        QCOMPARE(panel.text("perf_vs_optimum"), q(fixed(e0.time_step_s / e1.time_step_s, 3)) + QChar(0x00D7));
        QCOMPARE(csvValue(panel.csv(), "total_elements_vs_optimum"), q(formatNumber(d_elements)));
        QCOMPARE(csvValue(panel.csv(), "energy_j_vs_optimum"), q(formatNumber(e1.energy_j - e0.energy_j)));
        QVERIFY(panel.text("headline").contains("optimum"));

        panel.resize(300, 640);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QVERIFY(panel.grab().save(shotDir() + "/metrics_panel.png"));
    }

    void paramsRejectsNegativeBatch() {
        ParamsEditor editor;
        editor.show();
        QSignalSpy changed(&editor, &ParamsEditor::changed);
        typeInto(editor.field("batch"), "-5");
        QVERIFY(!editor.valid());
        QCOMPARE(editor.params().batch, 256.0);
        QVERIFY2(editor.problem().contains("batch", Qt::CaseInsensitive), qPrintable(editor.problem()));
        QVERIFY(editor.field("batch")->property("invalid").toBool());
        QCOMPARE(changed.count(), 0);

        typeInto(editor.field("batch"), "128");
        QVERIFY(editor.valid());
        QVERIFY(changed.count() >= 1);
        QCOMPARE(editor.params().batch, 128.0);
        QCOMPARE(editor.problem(), QString());
        QVERIFY(!editor.field("batch")->property("invalid").toBool());
    }

    void paramsRanges() {
        ParamsEditor editor;
        editor.show();
        typeInto(editor.field("link_bps"), "0");
        QVERIFY(editor.problem().startsWith("Link (bit/s)"));
        QCOMPARE(editor.array().link_bps, 1.6e9);
        typeInto(editor.field("link_bps"), "3.2e9");
        QCOMPARE(editor.array().link_bps, 3.2e9);
        typeInto(editor.field("e_dram_pj"), "-1");
        QVERIFY(!editor.valid());
        QCOMPARE(editor.array().accelerator.e_dram_pj, 640.0);
        typeInto(editor.field("e_dram_pj"), "0");  // an energy may be left out
        QVERIFY(editor.valid());
        QCOMPARE(editor.array().accelerator.e_dram_pj, 0.0);
        typeInto(editor.field("throughput_ops"), "4.2E11");
        QCOMPARE(editor.array().accelerator.throughput_ops, 4.2e11);
        typeInto(editor.field("bytes_per_element"), "two");
        QVERIFY(editor.problem().contains("not a number"));

        auto* levels = qobject_cast<QSpinBox*>(editor.field("levels"));
        QCOMPARE(levels->maximum(), Array::kMaxLevels);
        QCOMPARE(levels->minimum(), 1);
        levels->setValue(6);
        QCOMPARE(editor.array().levels, 6);
        QCOMPARE(editor.array().name, std::string("HMC H-tree 64"));
    }

    void paramsModeAndChoices() {
        ParamsEditor editor;
        QSignalSpy changed(&editor, &ParamsEditor::changed);
        auto* mode = qobject_cast<QComboBox*>(editor.field("mode"));
        QCOMPARE(editor.params().comm.w_intra, 2.0);
        mode->setCurrentIndex(mode->findData(1.0));
        QCOMPARE(editor.params().comm.w_intra, 1.0);
        QCOMPARE(changed.count(), 1);
        auto* topo = qobject_cast<QComboBox*>(editor.field("topology"));
        topo->setCurrentIndex(topo->findData(int(Topology::Torus)));
        QCOMPARE(editor.array().topology, Topology::Torus);
        auto* out = qobject_cast<QComboBox*>(editor.field("out_size"));
        out->setCurrentIndex(out->findData(int(OutSize::PrePool)));
        QCOMPARE(editor.params().comm.out_size, OutSize::PrePool);
    }

    void paramsSetValuesRoundTrip() {
        Array a = defaultArray(6, Topology::Torus);
        a.link_bps = 3.2e9;
        a.level_bw_factor = 1.5;
        a.accelerator.throughput_ops = 1e12;
        a.accelerator.e_mult_pj = 1.25;
        a.accelerator.e_link_pj_per_bit = 0;
        CostParams p;
        p.batch = 64;
        p.comm.w_intra = 1;
        p.comm.out_size = OutSize::PrePool;
        p.bytes_per_element = 2;
        p.include_sram_energy = true;

        ParamsEditor editor;
        QSignalSpy changed(&editor, &ParamsEditor::changed);
        editor.setValues(a, p);
        QCOMPARE(changed.count(), 0);
        const Array b = editor.array();
        const CostParams r = editor.params();
        QCOMPARE(b.levels, 6);
        QCOMPARE(b.topology, Topology::Torus);
        QCOMPARE(b.name, a.name);
        QCOMPARE(b.link_bps, 3.2e9);
        QCOMPARE(b.level_bw_factor, 1.5);
        QCOMPARE(b.accelerator.throughput_ops, 1e12);
        QCOMPARE(b.accelerator.e_mult_pj, 1.25);
        QCOMPARE(b.accelerator.e_link_pj_per_bit, 0.0);
        QCOMPARE(r.batch, 64.0);
        QCOMPARE(r.comm.w_intra, 1.0);
        QCOMPARE(r.comm.out_size, OutSize::PrePool);
        QCOMPARE(r.bytes_per_element, 2.0);
        QVERIFY(r.include_sram_energy);
        QCOMPARE(qobject_cast<QLineEdit*>(editor.field("link_bps"))->text(), QString("3.2e9"));

        CostParams custom;
        custom.comm.w_intra = 1.5;  // neither cal nor lit: kept as a custom choice
        editor.setValues(a, custom);
        QCOMPARE(editor.params().comm.w_intra, 1.5);
        QCOMPARE(changed.count(), 0);
    }

    void paramsScreenshot() {
        ParamsEditor editor;
        editor.resize(300, editor.sizeHint().height());
        editor.show();
        QVERIFY(QTest::qWaitForWindowExposed(&editor));
        typeInto(editor.field("batch"), "-5");
        QVERIFY(editor.grab().save(shotDir() + "/params_editor.png"));
    }

    void runsModelShowsAndSorts() {
        RunsModel model;
        model.setRuns({summary(7, "first", 3.19, 3901560, "2026-11-23T00:01:02Z"),
                       summary(9, "second", 1.5, 12.5, "2026-11-24T10:00:00Z"),
                       summary(4, "third", 10.25, 8e6, "2026-01-02T03:04:05Z")});
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.columnCount(), int(RunsModel::ColumnCount));
        QCOMPARE(model.rowOf(9), 1);
        QCOMPARE(model.rowOf(99), -1);
        auto cell = [&](int row, int col, int role = Qt::DisplayRole) {
            return model.data(model.index(row, col), role);
        };
        QCOMPARE(cell(0, RunsModel::PerfVsDp).toString(), QString("3.19") + QChar(0x00D7));
        QCOMPARE(cell(0, RunsModel::TotalElements).toString(), QString("3,901,560"));
        QCOMPARE(cell(0, RunsModel::Method).toString(), QString("HyPar"));
        QCOMPARE(cell(0, RunsModel::TotalElements, Qt::UserRole).toDouble(), 3901560.0);
        QCOMPARE(cell(2, RunsModel::Created, RunsModel::IdRole).toLongLong(), 4LL);
        const QDateTime t = QDateTime::fromString("2026-11-23T00:01:02Z", Qt::ISODate).toLocalTime();
        QCOMPARE(cell(0, RunsModel::Created).toString(), t.toString("yyyy-MM-dd HH:mm"));
        QVERIFY(cell(0, RunsModel::Name, Qt::ToolTipRole).toString().contains("0123456789ab"));
        QVERIFY(!cell(0, RunsModel::Name, Qt::ToolTipRole).toString().contains("0123456789abc"));
        QCOMPARE(model.headerData(RunsModel::TotalElements, Qt::Horizontal, Qt::DisplayRole).toString(),
                 QString("Total (elements)"));

        QSortFilterProxyModel proxy;
        proxy.setSourceModel(&model);
        proxy.setSortRole(Qt::UserRole);
        proxy.sort(RunsModel::PerfVsDp, Qt::AscendingOrder);  // as text "10.25×" would sort first
        QCOMPARE(proxy.index(0, 0).data(RunsModel::IdRole).toLongLong(), 9LL);
        QCOMPARE(proxy.index(1, 0).data(RunsModel::IdRole).toLongLong(), 7LL);
        QCOMPARE(proxy.index(2, 0).data(RunsModel::IdRole).toLongLong(), 4LL);
        proxy.sort(RunsModel::TotalElements, Qt::DescendingOrder);
        QCOMPARE(proxy.index(0, 0).data(RunsModel::IdRole).toLongLong(), 4LL);
        proxy.sort(RunsModel::Created, Qt::AscendingOrder);
        QCOMPARE(proxy.index(0, 0).data(RunsModel::IdRole).toLongLong(), 4LL);
    }

    // The Method column and a settings method's tool tip come from the core registry.
    void runsModelTakesLabelsFromTheRegistry() {
        RunsModel model;
        std::vector<RunSummary> runs;
        for (const char* key : {"accpar", "mcmc", "mpt", "l2s", "user", "llm"}) {
            runs.push_back(summary(static_cast<std::int64_t>(runs.size() + 1), key, 2, 1, "2026-11-23T00:01:02Z"));
            runs.back().method = key;
        }
        model.setRuns(runs);
        auto cell = [&](int row, int col, int role = Qt::DisplayRole) {
            return model.data(model.index(row, col), role).toString();
        };
        QCOMPARE(cell(0, RunsModel::Method), QString("AccPar"));
        QCOMPARE(cell(1, RunsModel::Method), QString("MCMC"));
        QCOMPARE(cell(2, RunsModel::Method), QString("MPT"));
        QCOMPARE(cell(3, RunsModel::Method), QString("Learn-to-Scale"));
        QCOMPARE(cell(4, RunsModel::Method), QString("user"));  // a given grid: no method of its own
        QVERIFY(cell(2, RunsModel::Name, Qt::ToolTipRole).contains("time / iteration"));
        QVERIFY(cell(2, RunsModel::Name, Qt::ToolTipRole).contains("vs w_dp"));
        QVERIFY(cell(3, RunsModel::Name, Qt::ToolTipRole).contains("time / image"));
        QVERIFY(cell(3, RunsModel::Name, Qt::ToolTipRole).contains("vs traditional"));
        // An LLM run's reused columns: iteration time, peak memory, MFU; no speed-up, no traffic.
        runs.back().time_step_s = 1.5, runs.back().perf_vs_dp = 1, runs.back().total_elements = 2.5 * (1 << 30);
        runs.back().energy_j = 0.4125;
        model.setRuns(runs);
        QCOMPARE(cell(5, RunsModel::Method), QString("LLM"));
        const QString tip = cell(5, RunsModel::Name, Qt::ToolTipRole);
        QVERIFY2(tip.contains("iteration 1.5"), qPrintable(tip));
        QVERIFY2(tip.contains("peak memory 2.5 GiB, MFU 41.25 %"), qPrintable(tip));
        QVERIFY2(!tip.contains("traffic") && !tip.contains(" vs "), qPrintable(tip));
        QCOMPARE(cell(5, RunsModel::PerfVsDp), QString());
        QCOMPARE(cell(5, RunsModel::TotalElements), QString("2.5 GiB"));
    }

    void runsModelRename() {
        RunsModel model;
        model.setRuns({summary(7, "first", 3.19, 1, "2026-11-23T00:01:02Z"),
                       summary(9, "second", 1.5, 2, "2026-11-24T10:00:00Z")});
        QVERIFY(model.flags(model.index(1, RunsModel::Name)) & Qt::ItemIsEditable);
        QVERIFY(!(model.flags(model.index(1, RunsModel::Method)) & Qt::ItemIsEditable));
        QSignalSpy rename(&model, &RunsModel::renameRequested);
        QVERIFY(model.setData(model.index(1, RunsModel::Name), "  renamed ", Qt::EditRole));
        QCOMPARE(rename.count(), 1);
        QCOMPARE(rename.at(0).at(0).toLongLong(), 9LL);
        QCOMPARE(rename.at(0).at(1).toString(), QString("renamed"));
        QCOMPARE(model.index(1, RunsModel::Name).data().toString(), QString("second"));  // the app re-lists
        QVERIFY(!model.setData(model.index(1, RunsModel::Name), "   ", Qt::EditRole));
        QVERIFY(!model.setData(model.index(1, RunsModel::Method), "x", Qt::EditRole));
        QCOMPARE(rename.count(), 1);
    }
};

QTEST_MAIN(PanelsTest)
#include "panels_test.moc"
