// Properties of the LLM plan model and search (issue 28 acceptance): monotone where they must be,
// ring volumes, equal GPipe / 1F1B bubbles, no OOM plan reported, search == brute force, cancel.
#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <set>

#include "core/llm/search.h"
#include "core/util/error.h"
#include "llm_test_util.h"

namespace partita::llm {
namespace {

using test::example175b;
using test::kGiB;

const Profile& a100() {
    static const Profile p = profilePreset("a100-sxm4-80gb");
    return p;
}

TEST(LlmProperties, MoreRecomputeLessActivationMemoryMoreTime) {
    const auto& m = modelPreset("gpt3-175b");
    for (bool sp : {false, true}) {
        double last_mem = 1e300, last_time = 0;
        for (Recompute r : {Recompute::None, Recompute::Selective, Recompute::Full}) {
            Plan p = example175b();
            p.sequence_parallel = sp;
            p.recompute = r;
            p.ag_redo = false;  // the same communication for all three
            const Evaluation e = evaluate(m, p, a100());
            EXPECT_LT(e.stages[0].activations, last_mem) << recomputeName(r) << " sp " << sp;
            EXPECT_GT(e.iteration_s, last_time) << recomputeName(r) << " sp " << sp;
            last_mem = e.stages[0].activations;
            last_time = e.iteration_s;
        }
    }
}

TEST(LlmProperties, MoreMicroBatchesSmallerBubbleShare) {
    const auto& m = modelPreset("gpt3-175b");
    for (Schedule s : {Schedule::OneF1B, Schedule::Interleaved}) {
        double last = 1;
        for (std::int64_t batch : {8, 16, 32, 64, 128, 256}) {
            Plan p = example175b(s == Schedule::Interleaved ? 3 : 1);
            p.global_batch = batch;
            const Evaluation e = evaluate(m, p, a100());
            const double share = e.time.bubble / e.iteration_s;
            EXPECT_LT(share, last) << batch;
            last = share;
        }
    }
}

TEST(LlmProperties, DpGradientBytesEqualTheRingFormula) {
    const auto& m = modelPreset("gpt3-13b");
    for (std::int64_t d : {2, 4, 8, 64}) {
        Plan p;
        p.tp = 4;
        p.pp = 2;
        p.dp = d;
        p.global_batch = 4 * d;
        for (std::int64_t stage : {0, 1}) {
            const double G = stageParams(m, p, stage) * 4;  // fp32 gradients
            const DpVolume v = dpIterationBytes(m, p, Precision{}, stage);
            EXPECT_DOUBLE_EQ(v.reduce, 2.0 * static_cast<double>(d - 1) / static_cast<double>(d) * G);
            EXPECT_EQ(v.gather, 0);
            p.distributed_optimizer = true;
            const DpVolume w = dpIterationBytes(m, p, Precision{}, stage);
            EXPECT_DOUBLE_EQ(w.reduce, static_cast<double>(d - 1) / static_cast<double>(d) * G);
            EXPECT_DOUBLE_EQ(w.gather, static_cast<double>(d - 1) / static_cast<double>(d) * G / 2);
            p.distributed_optimizer = false;
        }
    }
}

TEST(LlmProperties, GpipeAndOneF1BHaveEqualBubbles) {
    const auto& m = modelPreset("gpt3-175b");
    Plan p = example175b();
    const Evaluation one = evaluate(m, p, a100());
    p.schedule = Schedule::Gpipe;
    const Evaluation gpipe = evaluate(m, p, a100());
    EXPECT_EQ(gpipe.time.bubble, one.time.bubble);
    EXPECT_EQ(gpipe.iteration_s, one.iteration_s);
    // GPipe keeps every micro-batch's activations.
    EXPECT_EQ(gpipe.stages[0].activations, one.stages[0].activations * 64 / 8);
    EXPECT_FALSE(gpipe.fits);
    EXPECT_NE(gpipe.cut.find("activations"), std::string::npos);
}

TEST(LlmProperties, ContextParallelismSplitsTokens) {
    const auto& m = modelPreset("llama3-8b");
    Plan p;
    p.tp = 1;
    p.dp = 8;
    p.global_batch = 64;
    const Evaluation one = evaluate(m, p, a100());
    p.dp = 4;
    p.cp = 2;
    const Evaluation two = evaluate(m, p, a100());
    // Half the tokens per GPU: half the activations, and two micro-batches instead of one per replica.
    EXPECT_DOUBLE_EQ(two.stages[0].activations * 2 * 2, one.stages[0].activations * 2);
    EXPECT_EQ(two.micro_batches, 2 * one.micro_batches);
    EXPECT_GT(two.time.cp_exposed + two.time.fwd, 0);
    // The same model FLOPs on the same GPUs.
    EXPECT_EQ(two.model_flops, one.model_flops);
    EXPECT_EQ(dpIterationBytes(m, p, Precision{}, 0).reduce,
              ringBytes(Op::AllReduce, stageParams(m, p, 0) * 4, 8));  // gradients over dp x cp
}

TEST(LlmProperties, SearchNeverReportsAPlanThatDoesNotFit) {
    SearchOptions o;
    o.gpus = 8;
    o.global_batch = 64;
    Profile big = a100();
    big.device.hbm_bytes = 1024 * kGiB;
    const SearchResult free = search(modelPreset("gpt3-6.7b"), big, o);
    ASSERT_TRUE(free.found);
    // Just too small for the unconstrained optimum.
    Profile small = a100();
    small.device.hbm_bytes = free.best.peak_bytes - 1;
    double fastest_oom = 1e300;
    const SearchResult r = search(modelPreset("gpt3-6.7b"), small, o, {}, {}, [&](const PlanPoint& pt) {
        if (!pt.fits) fastest_oom = std::min(fastest_oom, pt.iteration_s);
    });
    ASSERT_TRUE(r.found);
    EXPECT_TRUE(r.best.fits);
    EXPECT_LE(r.best.peak_bytes, small.device.hbm_bytes);
    EXPECT_EQ(fastest_oom, free.best.iteration_s);  // the unconstrained optimum was seen, and refused
    EXPECT_GE(r.best.iteration_s, free.best.iteration_s);
    for (const auto& pt : r.pareto) EXPECT_TRUE(pt.fits);
    for (const auto& pt : r.ranked) EXPECT_TRUE(pt.fits);
    EXPECT_GT(r.evaluated, r.feasible);
}

// Brute force over the same space with independent loops and the full evaluation.
TEST(LlmProperties, SearchBestEqualsBruteForce) {
    Transformer m = familyDefaults(Family::Gpt);
    m.name = "tiny";
    m.layers = 8;
    m.hidden = 512;
    m.heads = m.kv_heads = 8;
    m.ffn = 2048;
    m.seq = 256;
    m.vocab = 1024;
    Profile prof = a100();
    prof.device.hbm_bytes = 0.2 * kGiB;  // some plans must not fit
    prof.device.reserved_bytes = 0;
    const std::int64_t N = 8, B = 16;
    SearchOptions o;
    o.gpus = N;
    o.global_batch = B;
    o.top = 5;
    std::set<std::string> seen;
    const SearchResult r = search(m, prof, o, {}, {}, [&](const PlanPoint& pt) {
        const Evaluation e = evaluate(m, pt.plan, prof);
        EXPECT_EQ(e.iteration_s, pt.iteration_s);
        EXPECT_EQ(e.peak_bytes, pt.peak_bytes);
        EXPECT_EQ(e.fits, pt.fits);
        seen.insert(planToJson(pt.plan).dump());
    });
    double best = 1e300, best_mem = 0;
    std::int64_t feasible_space = 0;
    for (std::int64_t t = 1; t <= N; ++t)
        for (std::int64_t p = 1; p <= N; ++p)
            for (std::int64_t d = 1; d <= N; ++d) {
                if (t * p * d != N) continue;
                for (std::int64_t b = 1; b <= B; ++b)
                    for (std::int64_t v = 1; v <= m.layers; ++v)
                        for (Schedule s : {Schedule::Gpipe, Schedule::OneF1B, Schedule::Interleaved})
                            for (Recompute rc : {Recompute::None, Recompute::Selective, Recompute::Full})
                                for (int comm = 0; comm < 3; ++comm)
                                    for (int redo = 0; redo < 2; ++redo)
                                        for (int z = 0; z < 5; ++z)
                                            for (TpOverlap to : {TpOverlap::None, TpOverlap::Ring, TpOverlap::Pipe})
                                                for (int dov = 0; dov < 2; ++dov) {
                                                    Plan x;
                                                    x.tp = t, x.pp = p, x.dp = d, x.micro_batch = b, x.global_batch = B;
                                                    x.interleave = v, x.schedule = s, x.recompute = rc;
                                                    x.sequence_parallel = comm == 2, x.scatter_gather = comm >= 1;
                                                    x.ag_redo = redo == 1;
                                                    x.zero = z < 4 ? z : 0, x.distributed_optimizer = z == 4;
                                                    x.tp_overlap = to, x.dp_overlap = dov == 1;
                                                    // The search's conventions for choices without effect.
                                                    if (comm == 1 && (t == 1 || p == 1)) continue;
                                                    if (comm == 2 && t == 1) continue;
                                                    if (redo && (comm != 2 || rc == Recompute::Full)) continue;
                                                    if (z > 0 && d == 1) continue;
                                                    if (dov && d == 1) continue;
                                                    if (s == Schedule::Gpipe && p == 1) continue;
                                                    Evaluation e;
                                                    try {
                                                        e = evaluate(m, x, prof);
                                                    } catch (const FieldError&) {
                                                        continue;
                                                    }
                                                    if (!e.fits) continue;
                                                    ++feasible_space;
                                                    EXPECT_TRUE(seen.count(planToJson(x).dump())) << planToJson(x).dump();
                                                    if (e.iteration_s < best ||
                                                        (e.iteration_s == best && e.peak_bytes < best_mem))
                                                        best = e.iteration_s, best_mem = e.peak_bytes;
                                                }
            }
    ASSERT_TRUE(r.found);
    EXPECT_EQ(r.feasible, feasible_space);
    EXPECT_EQ(r.best.iteration_s, best);
    EXPECT_EQ(r.best.peak_bytes, best_mem);
    ASSERT_FALSE(r.pareto.empty());
    EXPECT_EQ(r.pareto.front().iteration_s, best);
    for (size_t i = 1; i < r.pareto.size(); ++i) {
        EXPECT_GT(r.pareto[i].iteration_s, r.pareto[i - 1].iteration_s);
        EXPECT_LT(r.pareto[i].peak_bytes, r.pareto[i - 1].peak_bytes);
    }
    ASSERT_EQ(r.ranked.size(), 5u);
    EXPECT_EQ(r.ranked.front().iteration_s, best);
}

TEST(LlmProperties, SearchCancelsAndReportsProgress) {
    const auto& m = modelPreset("megatron-1t");
    SearchOptions o;
    o.gpus = 3072;
    o.global_batch = 3072;
    int calls = 0;
    std::vector<double> progress;
    auto run = std::async(std::launch::async, [&] {
        return search(m, a100(), o, [&](double f) { progress.push_back(f); }, [&] { return ++calls > 20; });
    });
    ASSERT_EQ(run.wait_for(std::chrono::seconds(60)), std::future_status::ready);
    EXPECT_THROW(run.get(), Cancelled);
    EXPECT_EQ(calls, 21);
    for (size_t i = 1; i < progress.size(); ++i) EXPECT_GE(progress[i], progress[i - 1]);
}

TEST(LlmProperties, SearchOneTrillionOnThousandsOfGpusCompletes) {
    SearchOptions o;
    o.gpus = 3072;
    o.global_batch = 3072;
    std::vector<double> progress;
    auto run = std::async(std::launch::async, [&] {
        return search(modelPreset("megatron-1t"), a100(), o, [&](double f) { progress.push_back(f); });
    });
    ASSERT_EQ(run.wait_for(std::chrono::seconds(300)), std::future_status::ready);
    const SearchResult r = run.get();
    ASSERT_TRUE(r.found);
    EXPECT_TRUE(r.best.fits);
    ASSERT_FALSE(progress.empty());
    EXPECT_EQ(progress.back(), 1.0);
    EXPECT_GT(r.evaluated, 10000);
}

}  // namespace
}  // namespace partita::llm
