// Compare for stored LLM runs (issue 29, item 8): two runs of the registered method with other tp,
// compared through the runs dock, show evaluateLlm's numbers exactly with their differences, export
// as a figure and CSV; a selection mixing LLM and grid runs is refused with a message; Export is
// enabled on the LLM tab and offers that tab's targets.
#include <QAction>
#include <QFile>
#include <QMenu>
#include <QSpinBox>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QToolButton>
#include <QtTest>

#include "app/gui/action_set.h"
#include "app/gui/export_actions.h"
#include "app/gui/job_runner.h"
#include "app/gui/main_window.h"
#include "app/gui/options.h"
#include "app/gui/run_controller.h"
#include "app/gui/run_store.h"
#include "app/gui/runs_dock.h"
#include "app/gui/view_registry.h"
#include "core/llm/numbers.h"
#include "core/store/results_db.h"
#include "test_paths.h"
#include "widgets/llm/llm_compare_view.h"
#include "widgets/llm/llm_settings_panel.h"
#include "widgets/llm/llm_view.h"

using namespace partita;
using namespace partita::gui;

class LlmCompareGuiTest : public QObject {
    Q_OBJECT
private:
    QTemporaryDir dir_;
    Options options(const QString& db) const {
        Options o;
        o.db = dir_.filePath(db);
        o.method = "llm";
        return o;
    }
    static LlmView* view(MainWindow& w) { return w.views().get<LlmView>(); }
    static LlmCompareView* compare(MainWindow& w) { return view(w)->findChild<LlmCompareView*>(); }
    // The shown plan stored at tp 2, then at tp 4 (the registered method's Run); their ids.
    static std::vector<std::int64_t> storeTwo(MainWindow& w) {
        auto* tp = view(w)->panel()->findChild<QSpinBox*>("llm-tp");
        std::vector<std::int64_t> ids;
        for (int t : {2, 4}) {
            tp->setValue(t);
            if (!view(w)->valid()) return {};
            w.runs().runSelected();
            ids.push_back(w.runStore().db()->list({"", "", "llm"}).at(0).id);
        }
        return ids;
    }
    static QString cellText(LlmCompareView* c, const std::string& key, int column) {
        const int row = c->tableRow(key);
        return row < 0 || !c->table()->item(row, column) ? QString() : c->table()->item(row, column)->text();
    }

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void twoStoredRunsShowEvaluateLlmsNumbers() {
        MainWindow w(options("two.sqlite"));
        w.show();
        const std::vector<std::int64_t> ids = storeTwo(w);
        QCOMPARE(ids.size(), size_t{2});
        QVERIFY(ids[0] != ids[1]);
        auto* dock = w.views().get<RunsDock>();
        dock->select(ids);
        QCOMPARE(dock->selectedIds().size(), size_t{2});
        emit dock->compareRequested(dock->selectedIds());
        LlmCompareView* c = compare(w);
        QVERIFY(c && !c->empty());
        QCOMPARE(w.views().shown(), static_cast<QWidget*>(view(w)));
        QVERIFY(c->isVisible());  // its page is in front
        const auto& runs = c->comparison().runs();
        QCOMPARE(runs.size(), size_t{2});
        for (std::size_t i = 0; i < runs.size(); ++i) {
            const MethodRun stored = w.runStore().db()->loadMethod(runs[i].id);
            const llm::Evaluation e = evaluateLlm(stored.llm);
            QCOMPARE(runs[i].shown.settings, stored.llm);
            const LlmComparison& cmp = c->comparison();
            // Every time term exactly, and as the table shows it.
            for (const llm::NamedTerm& t : llm::namedTerms(e.time)) {
                const auto* row = cmp.row(std::string("time.") + t.key);
                QVERIFY(row);
                QCOMPARE(row->values[i], t.seconds);
                if (!LlmComparison::allZero(*row))
                    QCOMPARE(cellText(c, row->key, 1 + static_cast<int>(i)), QString::fromStdString(seconds(t.seconds)));
            }
            llm::StageMemory peak;
            for (const auto& s : e.stages)
                if (s.stage == e.peak_stage) peak = s;
            for (const llm::NamedBytes& m : llm::namedMemory(peak))
                QCOMPARE(cmp.row(std::string("memory.") + m.key)->values[i], m.bytes / llm::kGiB);
            QCOMPARE(cmp.row("iteration")->values[i], e.iteration_s);
            QCOMPARE(cmp.row("memory.peak")->values[i], e.peak_bytes / llm::kGiB);
            QCOMPARE(cmp.row("memory.hbm")->values[i], e.capacity_bytes / llm::kGiB);
            QCOMPARE(cmp.row("tokens_per_s")->values[i], e.tokens_per_s);
            QCOMPARE(cmp.row("mfu")->values[i], e.mfu);
            QCOMPARE(cmp.row("plan.tp")->values[i], static_cast<double>(stored.llm.plan.tp));
            QCOMPARE(QString::fromStdString(cmp.row("fits")->text[i]), QString(e.fits ? "fits" : "OOM"));
        }
        // The Δ column: the second run against the first.
        const auto* it = c->comparison().row("iteration");
        const double d = it->values[1] - it->values[0];
        QVERIFY(d != 0);
        const QString want = QString::fromStdString((d > 0 ? "+" : "-") + seconds(std::fabs(d)) + "  " +
                                                    LlmComparison::ratio(*it, 1));
        QCOMPARE(cellText(c, "iteration", 3), want);
        QCOMPARE(cellText(c, "plan.tp", 3), QString::fromUtf8("+2  ×2.000"));
        QCOMPARE(cellText(c, "plan.tp", 1), QString("2"));
        QCOMPARE(cellText(c, "plan.tp", 2), QString("4"));
    }

    void theComparisonExportsAsFiguresAndCsv() {
        MainWindow w(options("export.sqlite"));
        w.show();
        const std::vector<std::int64_t> ids = storeTwo(w);
        QCOMPARE(ids.size(), size_t{2});
        QCOMPARE(w.exports().write("llm-compare", dir_.filePath("empty.csv")),
                 QString("Nothing to export: no LLM runs compared (select 2-4 in the Runs dock, then Compare)"));
        QVERIFY(w.runs().compareStored(ids));
        for (const QString target : {"llm-compare", "llm-compare-chart"})
            for (const QString ext : {".png", ".svg", ".pdf", ".csv"}) {
                const QString path = dir_.filePath(target + ext);
                QCOMPARE(w.exports().write(target, path), QString());
                QVERIFY(QFile(path).size() > 0);
            }
        QFile f(dir_.filePath("llm-compare.csv"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QStringList lines = QString::fromUtf8(f.readAll()).split("\r\n", Qt::SkipEmptyParts);
        const auto& runs = compare(w)->comparison().runs();
        QCOMPARE(lines.front(), QString("row,label,unit,run_%1,run_%2,delta_%2,ratio_%2").arg(runs[0].id).arg(runs[1].id));
        QVERIFY(lines.contains("plan.tp,tp,,2,4,2,2"));
        const double a = runs[0].shown.eval.time.fwd, b = runs[1].shown.eval.time.fwd;
        QVERIFY(lines.contains(QString::fromStdString("time.fwd,forward,s," + formatNumber(a) + "," + formatNumber(b) +
                                                      "," + formatNumber(b - a) + "," + formatNumber(b / a))));
    }

    void aMixedSelectionIsRefusedWithAMessage() {
        Options o = options("mixed.sqlite");
        o.network = QString(PARTITA_EXAMPLES_DIR) + "/networks/lenet-c.json";
        MainWindow w(o);
        w.show();
        QVERIFY(w.jobs().waitForIdle());
        const std::vector<std::int64_t> llm_ids = storeTwo(w);
        QCOMPARE(llm_ids.size(), size_t{2});
        w.runs().chooseMethod("hypar");
        w.runs().runSelected();
        QVERIFY(w.jobs().waitForIdle());
        QVERIFY(w.session().currentRun());
        const std::int64_t grid_id = w.session().currentRun()->id;
        QVERIFY(grid_id > 0);
        QVERIFY(!w.runs().compareStored({llm_ids[0], grid_id}));
        QVERIFY(w.statusBar()->currentMessage().startsWith("Compare takes runs of one kind"));
        QVERIFY(compare(w)->empty());
        // Two LLM runs still compare.
        QVERIFY(w.runs().compareStored(llm_ids));
        QCOMPARE(compare(w)->comparison().runs().size(), size_t{2});
    }

    void exportIsEnabledOnTheLlmTabWithItsTargets() {
        MainWindow w(options("tab.sqlite"));
        w.show();
        QVERIFY(!w.session().currentRun());  // no grid run behind the LLM tab
        QCOMPARE(w.views().shown(), static_cast<QWidget*>(view(w)));
        QAction* exportA = w.actionSet().action("export");
        QVERIFY(exportA->isEnabled());
        const auto targets = w.exports().of(w.views().shown());
        QStringList names;
        for (const ExportChoice& c : targets) names << c.target;
        QCOMPARE(names.front(), QString("llm-plan"));
        QVERIFY(names.contains("llm-memory") && names.contains("llm-compare"));
        QVERIFY(!names.contains("grid"));
        // File ▸ Export lists the same targets.
        QMenu* file = w.actionSet().menu("file");
        QMenu* exports = nullptr;
        for (QAction* a : file->actions())
            if (a->menu() && a->text() == "Export") exports = a->menu();
        QVERIFY(exports);
        emit exports->aboutToShow();
        QCOMPARE(static_cast<std::size_t>(exports->actions().size()), targets.size());
        QCOMPARE(exports->actions().front()->text(), targets.front().label + "…");
        // Toolbar Compare: enabled by a selection of 2-4 stored runs, with no run shown.
        const std::vector<std::int64_t> ids = storeTwo(w);
        w.views().get<RunsDock>()->select(ids);
        QVERIFY(w.actionSet().action("compare")->isEnabled());
        w.actionSet().action("compare")->trigger();
        QCOMPARE(compare(w)->comparison().runs().size(), size_t{2});
    }
};

QTEST_MAIN(LlmCompareGuiTest)
#include "llm_compare_gui_test.moc"
