// The pipeline timeline (core/llm/schedule.h) against the analytic model's bubble and its own rules.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <tuple>

#include "core/llm/numbers.h"
#include "core/llm/schedule.h"
#include "llm_test_util.h"

namespace partita::llm {
namespace {

// An Evaluation with p equal stages: per micro-batch forward f, backward b, recompute r, TP c, p2p 2v·s.
Evaluation equalStageEval(const Plan& plan, double f, double b, double r, double c, double s, double dp = 0,
                       double opt = 0) {
    Evaluation ev;
    const double M = d(plan.microBatches());
    const double v = plan.schedule == Schedule::Interleaved ? d(plan.interleave) : 1;
    ev.micro_batches = plan.microBatches();
    ev.time.fwd = M * f, ev.time.bwd = M * b, ev.time.recompute = M * r, ev.time.tp_exposed = M * c;
    ev.time.pp_p2p = M * 2 * v * s;
    const double per_mb = f + b + r + c + 2 * v * s;
    ev.stage_time_s.assign(static_cast<size_t>(plan.pp), per_mb);
    ev.time.bubble = d(plan.pp - 1) * per_mb / v;
    ev.time.dp_exposed = dp, ev.time.optimizer = opt;
    ev.iteration_s = ev.time.total();
    ev.hardware_flops = 1e15;
    return ev;
}

Plan schedPlan(Schedule s, std::int64_t p, std::int64_t m, std::int64_t v = 1) {
    Plan pl;
    pl.pp = p, pl.global_batch = m, pl.schedule = s, pl.interleave = v;
    return pl;
}

PipelineTimeline schedBuild(const Plan& pl, const Evaluation& ev) { return pipelineTimeline(pl, timelineCosts(pl, ev)); }

const TimelineBlock* findBlock(const PipelineTimeline& t, BlockKind k, std::int64_t stage, std::int64_t chunk, std::int64_t mb) {
    for (const auto& b : t.blocks)
        if (b.kind == k && b.stage == stage && b.chunk == chunk && b.micro_batch == mb) return &b;
    return nullptr;
}

TEST(LlmSchedule, EqualStagesMakespanIsComputePlusTheAnalyticBubble) {
    for (Schedule s : {Schedule::Gpipe, Schedule::OneF1B, Schedule::Interleaved})
        for (std::int64_t p : {1, 2, 4, 8})
            for (std::int64_t m : {8, 16, 64}) {
                const std::int64_t v = s == Schedule::Interleaved ? 2 : 1;
                if (s == Schedule::Interleaved && (p < 2 || m % p != 0)) continue;
                const Plan pl = schedPlan(s, p, m, v);
                const Evaluation ev = equalStageEval(pl, 1.0, 2.3, 0.7, 0.2, 0.05, 0.4, 0.1);
                const PipelineTimeline t = schedBuild(pl, ev);
                SCOPED_TRACE(std::string(scheduleName(s)) + " p" + std::to_string(p) + " m" + std::to_string(m));
                EXPECT_NEAR(t.makespan, ev.time.total(), 1e-9 * ev.time.total());
                EXPECT_NEAR(t.bubble_s, ev.time.bubble, 1e-9 * ev.time.total());
                const double span = t.pipeline_end;
                EXPECT_NEAR(t.bubble_s / span, bubbleShare(s, p, v, m), 1e-9);
                if (p == 1) {
                    EXPECT_EQ(t.bubble_s, 0);  // exactly: one stage never waits (no rounding residue)
                }
            }
}

TEST(LlmSchedule, GpipeAndOneF1BHaveTheSameMakespanWithEqualStages) {
    for (std::int64_t p : {2, 4, 8}) {
        const Plan a = schedPlan(Schedule::Gpipe, p, 32), b = schedPlan(Schedule::OneF1B, p, 32);
        EXPECT_NEAR(schedBuild(a, equalStageEval(a, 1, 2, 0.5, 0.1, 0.02)).makespan,
                    schedBuild(b, equalStageEval(b, 1, 2, 0.5, 0.1, 0.02)).makespan, 1e-9);
    }
}

TEST(LlmSchedule, BlockCountsAreAsExpected) {
    const Plan pl = schedPlan(Schedule::Interleaved, 4, 16, 3);
    const PipelineTimeline t = schedBuild(pl, equalStageEval(pl, 1, 2, 0.5, 0.1, 0.02, 0.3, 0.1));
    std::map<BlockKind, std::int64_t> n;
    for (const auto& b : t.blocks) ++n[b.kind];
    const std::int64_t slots = 4 * 16 * 3;  // per direction
    EXPECT_EQ(n[BlockKind::Forward], slots);
    EXPECT_EQ(n[BlockKind::Backward], slots);
    EXPECT_EQ(n[BlockKind::Recompute], slots);
    EXPECT_EQ(n[BlockKind::Collective], 2 * slots);
    EXPECT_EQ(n[BlockKind::PpSend], 2 * slots);
    EXPECT_EQ(n[BlockKind::DpReduce], 1);
    EXPECT_EQ(n[BlockKind::Optimizer], 1);
    // Without recompute, TP, p2p, DP: only compute blocks.
    const Plan q = schedPlan(Schedule::OneF1B, 4, 8);
    EXPECT_EQ(schedBuild(q, equalStageEval(q, 1, 2, 0, 0, 0)).blocks.size(), 2u * 4 * 8);
}

TEST(LlmSchedule, DependenciesHold) {
    for (Schedule s : {Schedule::Gpipe, Schedule::OneF1B, Schedule::Interleaved}) {
        const std::int64_t p = 4, m = 8, v = s == Schedule::Interleaved ? 2 : 1;
        const Plan pl = schedPlan(s, p, m, v);
        // Unequal stages too: the dependencies do not depend on equal times.
        Evaluation ev = equalStageEval(pl, 1, 2, 0.5, 0.1, 0.05);
        ev.stage_time_s = {ev.stage_time_s[0] * 0.7, ev.stage_time_s[0], ev.stage_time_s[0] * 0.9, ev.stage_time_s[0] * 0.5};
        const PipelineTimeline t = schedBuild(pl, ev);
        for (std::int64_t c = 0; c < v; ++c)
            for (std::int64_t st = 0; st < p; ++st)
                for (std::int64_t i = 0; i < m; ++i) {
                    const auto* f = findBlock(t, BlockKind::Forward, st, c, i);
                    const auto* b = findBlock(t, BlockKind::Recompute, st, c, i);
                    ASSERT_TRUE(f && b);
                    const std::int64_t k = c * p + st;
                    if (k > 0) {
                        const auto* prev = findBlock(t, BlockKind::Forward, (k - 1) % p, (k - 1) / p, i);
                        EXPECT_GE(f->start, prev->end);
                    }
                    if (k < v * p - 1) {
                        const auto* nb = findBlock(t, BlockKind::Backward, (k + 1) % p, (k + 1) / p, i);
                        EXPECT_GE(b->start, nb->end);
                    } else {
                        EXPECT_GE(b->start, f->end);
                    }
                }
        // Lanes never overlap.
        for (size_t j = 1; j < t.blocks.size(); ++j) {
            if (t.blocks[j].lane == t.blocks[j - 1].lane) {
                EXPECT_GE(t.blocks[j].start, t.blocks[j - 1].end - 1e-12);
            }
        }
    }
}

TEST(LlmSchedule, OneF1BHoldsAtMostPMinusSMicroBatchesInFlight) {
    for (Schedule s : {Schedule::Gpipe, Schedule::OneF1B, Schedule::Interleaved})
        for (std::int64_t m : {2, 8, 32}) {
            const std::int64_t p = 8, v = s == Schedule::Interleaved ? 2 : 1;
            if (s == Schedule::Interleaved && m % p != 0) continue;
            for (std::int64_t st = 0; st < p; ++st) {
                std::int64_t live = 0, peak = 0;
                for (const SlotOp& op : stageOrder(s, p, v, m, st)) peak = std::max(peak, live += op.forward ? 1 : -1);
                EXPECT_DOUBLE_EQ(d(peak) / d(v), inFlight(s, p, v, m, st)) << scheduleName(s) << " m" << m << " s" << st;
            }
        }
}

TEST(LlmSchedule, RealPlanCoversTheEvaluationAndExportsATrace) {
    const Transformer m = modelPreset("gpt3-175b");
    const Profile prof = test::calculonA100();
    for (std::int64_t v : {1, 2}) {
        Plan pl = test::example175b(v);
        const Evaluation ev = evaluate(m, pl, prof);
        const PipelineTimeline t = pipelineTimeline(pl, timelineCosts(m, pl, prof, ev));
        // Stages differ (embedding, head): the slowest stage sets the pace, the ASAP timeline is no longer.
        EXPECT_LE(t.makespan, ev.iteration_s * (1 + 1e-9));
        EXPECT_GT(t.makespan, 0.9 * ev.iteration_s);
        double bytes = 0;
        for (const auto& b : t.blocks) bytes += b.kind == BlockKind::PpSend ? b.bytes : 0;
        EXPECT_NEAR(bytes / d(pl.pp), 2 * d(v) * d(pl.microBatches()) * ppMessageBytes(m, pl), 1e-6 * bytes);
        const Json trace = timelineChromeTrace(t);
        EXPECT_EQ(trace["traceEvents"].size(), 1 + 2 * t.lane_names.size() + t.blocks.size());
    }
}

}  // namespace
}  // namespace partita::llm
