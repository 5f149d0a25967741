// LlmComparison and its view on core data (docs/methods/llm.md#views): GPT-3 175B on 64 A100s at tp 8
// and tp 4. Each row holds evaluateLlm's number exactly, the memory rows are the peak GPU's
// llm::namedMemory terms, Δ and ratio are against the first run, zero terms are hidden in the table
// and kept in the CSV, and the view renders at 1280x800 and 1024x700 to /tmp to be looked at.
#include <QTableWidget>
#include <QtTest>

#include "core/llm/numbers.h"
#include "core/llm/profile.h"
#include "core/llm/transformer.h"
#include "widgets/common/figure_export.h"
#include "widgets/llm/llm_compare_view.h"

using namespace partita;

namespace {

LlmComparedRun gpt3(std::int64_t id, std::int64_t tp, std::int64_t pp) {
    LlmComparedRun r;
    r.id = id;
    r.name = "LLM tp" + std::to_string(tp) + " pp" + std::to_string(pp) + " · GPT-3 175B · a100-sxm4-80gb";
    LlmSettings& s = r.shown.settings;
    s.model_name = "gpt3-175b";
    s.model = llm::modelPreset("gpt3-175b");
    s.profile_name = "a100-sxm4-80gb";
    s.profile = llm::profilePreset("a100-sxm4-80gb");
    s.plan.tp = tp;
    s.plan.pp = pp;
    s.plan.dp = 64 / (tp * pp);
    s.plan.global_batch = 64;
    s.plan.sequence_parallel = true;
    s.plan.recompute = llm::Recompute::Selective;
    r.shown.eval = evaluateLlm(s);
    return r;
}

}  // namespace

class LlmComparisonTest : public QObject {
    Q_OBJECT
private slots:
    void rowsHoldTheEvaluationsExactly() {
        const LlmComparison c({gpt3(3, 8, 8), gpt3(4, 4, 8)});
        for (std::size_t i = 0; i < 2; ++i) {
            const llm::Evaluation& e = c.runs()[i].shown.eval;
            for (const llm::NamedTerm& t : llm::namedTerms(e.time))
                QCOMPARE(c.row(std::string("time.") + t.key)->values[i], t.seconds);
            const llm::StageMemory& peak = e.stages.at(static_cast<std::size_t>(e.peak_stage));
            QCOMPARE(peak.stage, e.peak_stage);
            for (const llm::NamedBytes& m : llm::namedMemory(peak))
                QCOMPARE(c.row(std::string("memory.") + m.key)->values[i], m.bytes / llm::kGiB);
            QCOMPARE(c.row("iteration")->values[i], e.iteration_s);
            QCOMPARE(c.row("mfu")->values[i], e.mfu);
        }
        const auto* tp = c.row("plan.tp");
        QCOMPARE(LlmComparison::cell(*tp, 1), std::string("4"));
        QCOMPARE(LlmComparison::delta(*tp, 1), std::string("-4"));
        QCOMPARE(LlmComparison::ratio(*tp, 1), std::string("\u00d70.500"));
        QCOMPARE(LlmComparison::delta(*c.row("gpus"), 1), std::string("="));
        QCOMPARE(LlmComparison::delta(*tp, 0), std::string());
        QCOMPARE(LlmComparison::cell(*c.row("mfu"), 0), fixed(100 * c.runs()[0].shown.eval.mfu, 1) + " %");
        QVERIFY(!c.row("nothing"));
    }

    void theViewHidesZeroTermsAndTheCsvKeepsThem() {
        LlmCompareView v;
        QVERIFY(v.empty());
        QCOMPARE(v.table()->rowCount(), 0);
        v.setRuns({gpt3(3, 8, 8), gpt3(4, 4, 8)});
        QCOMPARE(v.table()->columnCount(), 4);  // labels, two runs, one Δ
        const int offload = v.tableRow("time.offload");  // the Calculon model's term: zero here
        QVERIFY(offload >= 0);
        QVERIFY(LlmComparison::allZero(v.comparison().rows()[static_cast<std::size_t>(offload)]));
        QVERIFY(v.table()->isRowHidden(offload));
        QVERIFY(!v.table()->isRowHidden(v.tableRow("time.fwd")));
        const CsvTable csv = v.csv();
        QCOMPARE(csv.header, (std::vector<std::string>{"row", "label", "unit", "run_3", "run_4", "delta_4", "ratio_4"}));
        bool found = false;
        for (const auto& row : csv.rows)
            if (row[0] == "time.offload") found = row == std::vector<std::string>{"time.offload", "offload", "s", "0", "0", "0", ""};
        QVERIFY(found);
    }

    void rendersAtBothSizes() {
        LlmCompareView v;
        v.setRuns({gpt3(3, 8, 8), gpt3(4, 4, 8), gpt3(5, 2, 8)});
        for (const QSize size : {QSize(1280, 800), QSize(1024, 700)}) {
            v.resize(size);
            v.show();
            QCoreApplication::processEvents();
            const QString path = QString("/tmp/llm-compare-widget-%1.png").arg(size.width());
            QCOMPARE(exportWidget(v, path, {}), QString());
            QVERIFY(QFile(path).size() > 0);
        }
    }
};

QTEST_MAIN(LlmComparisonTest)
#include "llm_comparison_test.moc"
