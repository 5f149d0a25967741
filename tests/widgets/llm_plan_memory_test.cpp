// The LLM plan and memory views over an evaluated plan: a 1024-GPU plan stays a few cells (stages
// grouped into at most 16 columns, replicas beyond 4 folded into one band), the hover names the
// group's collectives with the core's byte counts, and an OOM plan's memory view states its cut.
#include <QtTest>

#include "core/llm/profile.h"
#include "core/llm/transformer.h"
#include "widgets/llm/memory_view.h"
#include "widgets/llm/plan_view.h"

using namespace partita;

namespace {

LlmShown gpt3(std::int64_t tp, std::int64_t pp, std::int64_t dp, std::int64_t global_batch) {
    LlmShown s;
    s.settings.model_name = "gpt3-175b";
    s.settings.model = llm::modelPreset("gpt3-175b");
    s.settings.profile_name = "a100-sxm4-80gb";
    s.settings.profile = llm::profilePreset("a100-sxm4-80gb");
    llm::Plan& p = s.settings.plan;
    p.tp = tp;
    p.pp = pp;
    p.dp = dp;
    p.global_batch = global_batch;
    p.sequence_parallel = true;
    p.recompute = llm::Recompute::Selective;
    s.eval = evaluateLlm(s.settings);
    return s;
}

}  // namespace

class LlmPlanMemoryTest : public QObject {
    Q_OBJECT
private slots:
    void aThousandGpusStayAFewCells() {
        LlmPlanView v;
        v.setShown(gpt3(8, 32, 4, 512));  // 1024 GPUs
        const auto all = v.cells(QRect(0, 0, 1000, 560));
        QCOMPARE(all.size(), size_t{16 * 4});  // 32 stages two a column, 4 replicas
        v.setShown(gpt3(4, 16, 16, 1024));     // 1024 GPUs, 16 replicas
        const auto folded = v.cells(QRect(0, 0, 1000, 560));
        QCOMPARE(folded.size(), size_t{16 * 3});  // replica 0, the band, replica 15
        QCOMPARE(folded[16].replica, std::int64_t{-1});
        QCOMPARE(folded.back().replica, std::int64_t{15});
        QVERIFY(v.title().contains("1024 GPUs on 128 nodes of 8"));
        QImage image(v.figureSize(), QImage::Format_ARGB32);
        QPainter painter(&image);
        v.paintFigure(painter, image.rect());  // paints without asserting
    }

    void theHoverNamesTheCollectives() {
        LlmPlanView v;
        const LlmShown s = gpt3(8, 4, 2, 64);
        v.setShown(s);
        const auto all = v.cells(QRect(0, 0, 1000, 560));
        const QString tip = v.cellToolTip(all.at(1));
        const llm::TpVolume tp = llm::tpLayerBytes(s.settings.model, s.settings.plan);
        QVERIFY2(tip.contains("<b>TP</b> 8 GPUs on nvlink"), qPrintable(tip));
        QVERIFY(tip.contains(QString::fromStdString(withPrefix(tp.fwd, "B"))));
        QVERIFY(tip.contains("<b>PP</b> on infiniband"));
        QVERIFY(tip.contains("<b>DP</b> 2 replicas on infiniband"));
        QCOMPARE(v.csv().rows.size(), size_t{4});
    }

    void anOomPlanStatesItsCut() {
        LlmMemoryView v;
        const LlmShown s = gpt3(8, 1, 8, 64);
        QVERIFY(!s.eval.fits);
        v.setShown(s);
        QVERIFY(v.title().startsWith("Does not fit"));
        QVERIFY(v.title().contains(QString::fromStdString(s.eval.cut)));
        v.setStale(true);
        QVERIFY(v.stale());
        v.setShown(gpt3(8, 8, 1, 64));
        QVERIFY(!v.stale());
        QVERIFY(v.title().startsWith("Fits"));
    }
};

QTEST_MAIN(LlmPlanMemoryTest)
#include "llm_plan_memory_test.moc"
