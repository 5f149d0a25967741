// Hand-computed timelines (2 devices, one cable) exact to well under a nanosecond.
// Devices: 1 GFLOP/s peak, efficiency 1, 1 GB/s memory; the cable is 100 MB/s
// with 0.5 us latency each way (link 0 = d0 -> d1, resource 2; link 1 = d1 -> d0, resource 3).
#include <gtest/gtest.h>

#include "core/sim/simulator.h"
#include "core/sim/trace.h"
#include "sim_test_util.h"

namespace partita::sim {
namespace {

using test::fcChain;
using test::on;

constexpr double us = 1e-6;
constexpr double kTol = 1e-13;  // 0.1 ps

// The live task of `op`/`phase`/`part` on `resource` (first by id when several).
int task(const TaskGraph& g, int op, Phase phase, int part, int resource) {
    int best = -1;
    for (size_t t = 0; t < g.slotCount(); ++t) {
        const int ti = static_cast<int>(t);
        if (!g.alive(ti) || g.info(ti).op != op || g.info(ti).phase != phase || g.info(ti).part != part ||
            g.resource(ti) != resource)
            continue;
        if (best < 0 || g.id(ti) < g.id(best)) best = ti;
    }
    EXPECT_GE(best, 0) << "no task op " << op << " " << phaseName(phase) << " #" << part << " on " << resource;
    return best;
}

void expectSpan(const SimResult& r, int t, double start, double end) {
    ASSERT_GE(t, 0);
    EXPECT_NEAR(r.start[static_cast<size_t>(t)], start, kTol);
    EXPECT_NEAR(r.end[static_cast<size_t>(t)], end, kTol);
}

TEST(SimTimeline, InferenceModelParallelTwoFcs) {
    // fc1 on d0, fc2 on d1, batch 4.
    // fc1: 2*4*16*8 = 1024 FLOP -> 1.024 us; (4*8 + 4*16 + 8*16)*4 = 896 B -> 0.896 us: 1.024 us.
    // fc2: 2*4*4*16 = 512 FLOP -> 0.512 us; (4*16 + 4*4 + 16*4)*4 = 576 B -> 0.576 us: 0.576 us.
    // fc1 -> fc2: all 4*16 outputs, 256 B: 0.5 + 256/1e8 s = 0.5 + 2.56 = 3.06 us on link 0.
    const Network net = fcChain();
    SoapStrategy s{net.name, {on({1, 1, 1, 1}, {0}), on({1, 1, 1, 1}, {1})}};
    SimOptions opt;
    opt.training = false;
    const TaskGraph g = buildTaskGraph(net, 4, s, test::pair(), opt);
    EXPECT_EQ(g.taskCount(), 3u);
    const SimResult r = simulate(g);
    expectSpan(r, task(g, 0, Phase::Forward, 0, 0), 0, 1.024 * us);
    const int x = task(g, 1, Phase::Transfer, 0, 2);
    expectSpan(r, x, 1.024 * us, 4.084 * us);
    EXPECT_EQ(g.info(x).bytes, 256);
    expectSpan(r, task(g, 1, Phase::Forward, 0, 1), 4.084 * us, 4.660 * us);
    EXPECT_NEAR(r.makespan, 4.660 * us, kTol);
}

TEST(SimTimeline, TrainingDataParallelWithRingAllReduce) {
    // Both fcs split 2 ways along the sample on d0, d1 (2 samples each); no activation transfers.
    // fc1 fwd: 512 FLOP (0.512 us), (2*8 + 2*16 + 128)*4 = 704 B -> 0.704 us. bwd x2: 1.408 us.
    // fc2 fwd: 256 FLOP (0.256 us), (2*16 + 2*4 + 64)*4 = 416 B -> 0.416 us. bwd x2: 0.832 us.
    // d0 and d1 alike: fc1.f [0, .704], fc2.f [.704, 1.120], fc2.b [1.120, 1.952], fc1.b [1.952, 3.360].
    // Ring of p = 2: 2 steps, each sends size/2 each way.
    //   fc2: 64 weights = 256 B, chunk 128 B: 0.5 + 1.28 = 1.78 us per send.
    //   fc1: 128 weights = 512 B, chunk 256 B: 0.5 + 2.56 = 3.06 us per send.
    // Link 0 (FIFO by ready time):
    //   fc2 step 0 ready 1.952: [1.952, 3.732]
    //   fc1 step 0 ready 3.360: [3.732, 6.792]
    //   fc2 step 1 ready 3.732 (receipt of the peer's step 0): [6.792, 8.572]
    //   fc1 step 1 ready 6.792: [8.572, 11.632]   -> makespan 11.632 us.
    const Network net = fcChain();
    SoapStrategy s{net.name, {on({2, 1, 1, 1}, {0, 1}), on({2, 1, 1, 1}, {0, 1})}};
    SimOptions per_hop;
    per_hop.collectives = CollectiveModel::PerHop;
    const TaskGraph g = buildTaskGraph(net, 4, s, test::pair(), per_hop);
    EXPECT_EQ(g.taskCount(), 8u + 8u);  // 8 compute, 2 ops x 2 steps x 2 sends
    const SimResult r = simulate(g);
    for (int d = 0; d < 2; ++d) {
        expectSpan(r, task(g, 0, Phase::Forward, d, d), 0, 0.704 * us);
        expectSpan(r, task(g, 1, Phase::Forward, d, d), 0.704 * us, 1.120 * us);
        expectSpan(r, task(g, 1, Phase::Backward, d, d), 1.120 * us, 1.952 * us);
        expectSpan(r, task(g, 0, Phase::Backward, d, d), 1.952 * us, 3.360 * us);
        const int link = 2 + d;
        expectSpan(r, task(g, 1, Phase::Sync, 0, link), 1.952 * us, 3.732 * us);
        expectSpan(r, task(g, 0, Phase::Sync, 0, link), 3.732 * us, 6.792 * us);
        expectSpan(r, task(g, 1, Phase::Sync, 1, link), 6.792 * us, 8.572 * us);
        expectSpan(r, task(g, 0, Phase::Sync, 1, link), 8.572 * us, 11.632 * us);
    }
    EXPECT_NEAR(r.makespan, 11.632 * us, kTol);
    const Utilisation u = utilisation(g, r);
    EXPECT_NEAR(u.busy_s[0], 3.360 * us, kTol);
    EXPECT_NEAR(u.fraction[2], (2 * 1.78 + 2 * 3.06) / 11.632, 1e-12);
}

TEST(SimTimeline, TrainingDataParallelWithCollectives) {
    // The same step with each weight's all-reduce as one collective: on 2 devices every algorithm takes
    // 2 (alpha + S/2 / B), fc2 2 x 1.78 = 3.56 us and fc1 2 x 3.06 = 6.12 us. Each is a zero-time join
    // on d0's stream, then one task per member on its stream.
    //   fc2 ready 1.952: members [1.952, 5.512] on both streams;
    //   fc1 ready 3.360: its join waits for d0's stream, [5.512, 5.512]; members [5.512, 11.632].
    // Per hop (above) the two rings queued on the same links and ended at the same 11.632 us.
    const Network net = fcChain();
    SoapStrategy s{net.name, {on({2, 1, 1, 1}, {0, 1}), on({2, 1, 1, 1}, {0, 1})}};
    const Topology topo = test::pair();
    const TaskGraph g = buildTaskGraph(net, 4, s, topo);
    EXPECT_EQ(g.taskCount(), 8u + 2u * 3u);  // 8 compute, 2 ops x (join + 2 members)
    const SimResult r = simulate(g);
    for (int d = 0; d < 2; ++d) {
        expectSpan(r, task(g, 1, Phase::Sync, d, g.streamOf(d)), 1.952 * us, 5.512 * us);
        expectSpan(r, task(g, 0, Phase::Sync, d, g.streamOf(d)), 5.512 * us, 11.632 * us);
    }
    EXPECT_NEAR(r.makespan, 11.632 * us, kTol);
    // The links carry the collectives' bytes at full bandwidth: 2 x 128 + 2 x 256 B each way.
    const Utilisation u = utilisation(g, r, &topo);
    EXPECT_NEAR(u.busy_s[2], (2 * 128 + 2 * 256) / 1e8, 1e-15);
    EXPECT_NEAR(u.busy_s[static_cast<size_t>(g.streamOf(0))], (3.56 + 6.12) * us, kTol);
}

Network convChain() {
    Network n;
    n.name = "conv-chain";
    n.input = {1, 8, 8};
    n.ops = {test::conv("conv1", {"input"}, 2, 3, 1, 1), test::conv("conv2", {"conv1"}, 2, 3, 1, 1),
             test::fc("fc", {"conv2"}, 10)};
    propagate(n, "conv-chain");
    return n;
}

TEST(SimTimeline, SpatialSplitWithHaloThreeOperators) {
    // Batch 1, inference. conv1 (3x3, pad 1, 1 -> 2 channels, 8x8) on d0; conv2 (3x3, pad 1, 2 -> 2) split
    // in two along the height on d0 (rows 0-3) and d1 (rows 4-7); fc (128 -> 10) on d1.
    // conv1: 2*1*2*64*9 = 2304 FLOP -> 2.304 us; (64 + 128 + 18)*4 = 840 B -> 0.84 us: 2.304 us.
    // conv2 piece: 2*1*2*32*18 = 2304 FLOP -> 2.304 us; reads 2 ch x 5 rows (halo) x 8 = 80 elements;
    //   (80 + 64 + 36)*4 = 720 B -> 0.72 us: 2.304 us.
    // fc: 2*10*128 = 2560 FLOP (2.56 us); (128 + 10 + 1280)*4 = 5672 B -> 5.672 us: memory bound.
    // conv1 -> conv2#1: rows 3..7 of 2 channels = 80 elements, 320 B: 0.5 + 3.2 = 3.7 us.
    // conv2#0 -> fc: 2 x 4 x 8 = 64 elements, 256 B: 0.5 + 2.56 = 3.06 us. conv2#1 -> fc is local.
    // d0: conv1 [0, 2.304], conv2#0 [2.304, 4.608].
    // link 0: conv1->conv2#1 [2.304, 6.004]; conv2#0->fc ready 4.608, waits: [6.004, 9.064].
    // d1: conv2#1 [6.004, 8.308]; fc ready max(9.064, 8.308): [9.064, 14.736].
    const Network net = convChain();
    SoapStrategy s{net.name, {on({1, 1, 1, 1}, {0}), on({1, 1, 2, 1}, {0, 1}), on({1, 1, 1, 1}, {1})}};
    SimOptions opt;
    opt.training = false;
    const TaskGraph g = buildTaskGraph(net, 1, s, test::pair(), opt);
    const SimResult r = simulate(g);
    expectSpan(r, task(g, 0, Phase::Forward, 0, 0), 0, 2.304 * us);
    expectSpan(r, task(g, 1, Phase::Forward, 0, 0), 2.304 * us, 4.608 * us);
    expectSpan(r, task(g, 1, Phase::Transfer, 1, 2), 2.304 * us, 6.004 * us);
    expectSpan(r, task(g, 2, Phase::Transfer, 0, 2), 6.004 * us, 9.064 * us);
    expectSpan(r, task(g, 1, Phase::Forward, 1, 1), 6.004 * us, 8.308 * us);
    expectSpan(r, task(g, 2, Phase::Forward, 0, 1), 9.064 * us, 14.736 * us);
    EXPECT_NEAR(r.makespan, 14.736 * us, kTol);
    const auto traffic = trafficMatrix(g);
    EXPECT_EQ(traffic[0][1], 320 + 256);
    EXPECT_EQ(traffic[1][0], 0);
}

TEST(SimTimeline, MultiHopRouteIsOneTaskPerHopChained) {
    // fc1 on d0, fc2 on d2 of a 4-device ring: the message crosses two links; 256 B at 10 GB/s + 1 us.
    const Network net = fcChain();
    SoapStrategy s{net.name, {on({1, 1, 1, 1}, {0}), on({1, 1, 1, 1}, {2})}};
    SimOptions opt;
    opt.training = false;
    const Topology topo = test::ring(4);
    const TaskGraph g = buildTaskGraph(net, 4, s, topo, opt);
    EXPECT_EQ(g.taskCount(), 4u);
    const SimResult r = simulate(g);
    std::vector<int> hops;
    for (int t : r.order)
        if (g.info(t).phase == Phase::Transfer) hops.push_back(t);
    ASSERT_EQ(hops.size(), 2u);
    const double hop = 1e-6 + 256 / 1e10;
    const double fc1 = 896 / 1e11;  // memory bound: 896 B at 100 GB/s beats 1024 FLOP at 1 TFLOP/s
    expectSpan(r, hops[0], fc1, fc1 + hop);
    expectSpan(r, hops[1], fc1 + hop, fc1 + 2 * hop);
    EXPECT_TRUE(g.info(hops[0]).first_hop);
    EXPECT_FALSE(g.info(hops[1]).first_hop);
    EXPECT_EQ(trafficMatrix(g)[0][2], 256);  // counted once, not per hop
}

TEST(SimTimeline, ReduceSplitAddsPartialSums) {
    // fc1 whole on d0; fc2 split over its 16 input channels (reduce 2): slice 0 on d0, slice 1 on d1. Batch 4.
    // fc1: 1.024 us on d0 as above. Slice 1 needs fc1's channels 8..15: 4*8*4 = 128 B on link 0:
    //   0.5 + 1.28 = 1.78 us, [1.024, 2.804].
    // Each fc2 slice: 2*4*4*8 = 256 FLOP (0.256 us); (16 input + 16 partial outputs + 32 weights)*4 = 320 B
    //   -> 0.32 us: d0 [1.024, 1.344], d1 [2.804, 3.124].
    // A reduce-scatter (docs/methods/flexflow.md#reduce-splits): fc2's 4 x 4 output is cut into two 2-sample
    // slices, slice r summed on slice r's device. d0's partial of slice 1 (2*4 floats, 32 B) waits for link 0
    // to carry the 128 B: 0.5 + 0.32 = 0.82 us, [2.804, 3.624]; d1's partial of slice 0 goes on link 1 after
    // its own: [3.124, 3.944]. Each addition: 8 FLOP, (2*8 + 8)*4 = 96 B -> 0.096 us: d1 [3.624, 3.720],
    // d0 [3.944, 4.040].
    const Network net = fcChain();
    OpConfig split = on({1, 1, 1, 1}, {0, 1});
    split.reduce = 2;
    SoapStrategy s{net.name, {on({1, 1, 1, 1}, {0}), split}};
    SimOptions opt;
    opt.training = false;
    const TaskGraph g = buildTaskGraph(net, 4, s, test::pair(), opt);
    EXPECT_EQ(g.taskCount(), 8u);
    const SimResult r = simulate(g);
    expectSpan(r, task(g, 0, Phase::Forward, 0, 0), 0, 1.024 * us);
    const int in = task(g, 1, Phase::Transfer, 1, 2);
    expectSpan(r, in, 1.024 * us, 2.804 * us);
    EXPECT_EQ(g.info(in).bytes, 128);
    expectSpan(r, task(g, 1, Phase::Forward, 0, 0), 1.024 * us, 1.344 * us);
    expectSpan(r, task(g, 1, Phase::Forward, 1, 1), 2.804 * us, 3.124 * us);
    const int up = task(g, 1, Phase::Transfer, 0, 3);
    expectSpan(r, up, 3.124 * us, 3.944 * us);
    EXPECT_EQ(g.info(up).bytes, 32);
    // The last task of each kind by id: d0's partial on link 0, and the sums (after fc2's forward tasks).
    auto last = [&](Phase phase, int resource) {
        int found = -1;
        for (size_t t = 0; t < g.slotCount(); ++t)
            if (g.info(static_cast<int>(t)).op == 1 && g.info(static_cast<int>(t)).phase == phase &&
                g.resource(static_cast<int>(t)) == resource && (found < 0 || g.id(static_cast<int>(t)) > g.id(found)))
                found = static_cast<int>(t);
        return found;
    };
    expectSpan(r, last(Phase::Transfer, 2), 2.804 * us, 3.624 * us);
    EXPECT_EQ(g.info(last(Phase::Transfer, 2)).bytes, 32);
    expectSpan(r, last(Phase::Forward, 1), 3.624 * us, 3.720 * us);
    expectSpan(r, last(Phase::Forward, 0), 3.944 * us, 4.040 * us);
    EXPECT_NEAR(r.makespan, 4.040 * us, kTol);
}

TEST(SimTimeline, ReduceSplitTrainingBroadcastsTheGradient) {
    // Training adds the mirror, an all-gather: d0's slice of the output gradient (32 B) goes to d1
    // before d1's backward; both tasks hold different weights, so nothing is synchronised.
    const Network net = fcChain();
    OpConfig split = on({1, 1, 1, 1}, {0, 1});
    split.reduce = 2;
    SoapStrategy s{net.name, {on({1, 1, 1, 1}, {0}), split}};
    const TaskGraph g = buildTaskGraph(net, 4, s, test::pair());
    const SimResult r = simulate(g);
    const int down = task(g, 1, Phase::Transfer, 1, 2);  // the broadcast of fc2's gradient, and fc1's input
    int sync = 0, broadcast = -1;
    for (size_t t = 0; t < g.slotCount(); ++t) {
        const int ti = static_cast<int>(t);
        if (!g.alive(ti)) continue;
        sync += g.info(ti).phase == Phase::Sync;
        if (g.info(ti).op == 1 && g.info(ti).phase == Phase::Transfer && g.resource(ti) == 2 && ti != down)
            broadcast = ti;
    }
    EXPECT_EQ(sync, 0);
    ASSERT_GE(broadcast, 0);
    EXPECT_EQ(g.info(broadcast).bytes, 32);
    // d1's backward tasks of fc2: the gradient of its slice (BG), then its slice's backward (BC, the later id).
    int slice_backward = -1;
    for (size_t t = 0; t < g.slotCount(); ++t) {
        const int ti = static_cast<int>(t);
        if (g.alive(ti) && g.info(ti).op == 1 && g.info(ti).phase == Phase::Backward && g.resource(ti) == 1 &&
            (slice_backward < 0 || g.id(ti) > g.id(slice_backward)))
            slice_backward = ti;
    }
    EXPECT_GE(r.start[static_cast<size_t>(slice_backward)], r.end[static_cast<size_t>(broadcast)] - kTol);
}

}  // namespace
}  // namespace partita::sim
