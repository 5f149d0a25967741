// Transfer volumes: rectangle intersections (with halos and concat shares),
// ring all-reduce and parameter-server weight synchronisation.
#include <gtest/gtest.h>

#include "core/sim/rect.h"
#include "core/sim/simulator.h"
#include "core/sim/trace.h"
#include "sim_test_util.h"

namespace partita::sim {
namespace {

using test::on;

TEST(SimVolumes, WindowHalo) {
    EXPECT_EQ(windowInput({0, 4}, 3, 1, 1, 8), (Interval{0, 5}));  // padding row reads nothing
    EXPECT_EQ(windowInput({4, 8}, 3, 1, 1, 8), (Interval{3, 8}));
    EXPECT_EQ(windowInput({0, 2}, 3, 2, 1, 8), (Interval{0, 4}));
    EXPECT_EQ(windowInput({2, 4}, 3, 2, 1, 8), (Interval{3, 8}));
    EXPECT_EQ(windowInput({1, 3}, 11, 4, 0, 227), (Interval{4, 19}));  // rows 4..14 and 8..18
    EXPECT_EQ(
        volume(intersect(Box{Interval{0, 2}, {0, 4}, {0, 5}, {0, 8}}, Box{Interval{1, 3}, {2, 6}, {3, 8}, {0, 8}})),
        1 * 2 * 2 * 8);
    EXPECT_EQ(
        volume(intersect(Box{Interval{0, 2}, {0, 4}, {0, 4}, {0, 8}}, Box{Interval{0, 2}, {0, 4}, {4, 8}, {0, 8}})), 0);
}

TEST(SimVolumes, InputBoxes) {
    const Network net = test::inceptionLike();
    const Operator& mix = net.ops[static_cast<size_t>(net.find("mix"))];  // concat of 8 + 8 + 8 + 8 channels
    const Box out{Interval{0, 2}, {4, 12}, {0, 16}, {0, 16}};
    EXPECT_EQ(inputBox(net, mix, 0, out)[1], (Interval{4, 8}));
    EXPECT_EQ(inputBox(net, mix, 1, out)[1], (Interval{0, 4}));
    EXPECT_EQ(volume(inputBox(net, mix, 2, out)), 0);
    const Operator& b3b = net.ops[static_cast<size_t>(net.find("b3b"))];  // 5x5 pad 2 over 4 channels
    const Box piece{Interval{0, 1}, {0, 8}, {8, 16}, {0, 16}};
    EXPECT_EQ(inputBox(net, b3b, 0, piece), (Box{Interval{0, 1}, {0, 4}, {6, 16}, {0, 16}}));
    const Operator& head = net.ops[static_cast<size_t>(net.find("fc"))];
    EXPECT_EQ(inputBox(net, head, 0, Box{Interval{1, 2}, {0, 5}, {0, 1}, {0, 1}}),
              (Box{Interval{1, 2}, {0, 32}, {0, 8}, {0, 8}}));
}

TEST(SimVolumes, ChannelSplitToSampleSplitMovesIntersections) {
    // conv a (4 channels, 4x4) split 2 ways by channel on d0, d1; conv b split 2 ways by sample on d2, d3
    // (batch 2). Each b piece reads every channel of its sample: from each a piece 1 x 2 x 4 x 4 = 32
    // elements = 128 B.
    const Network net =
        test::network("split", {1, 4, 4}, {test::conv("a", {"input"}, 4, 1), test::conv("b", {"a"}, 4, 1)});
    SoapStrategy s{net.name, {on({1, 2, 1, 1}, {0, 1}), on({2, 1, 1, 1}, {2, 3})}};
    SimOptions opt;
    opt.training = false;
    const TaskGraph g = buildTaskGraph(net, 2, s, test::cluster(1, 4), opt);
    const auto m = trafficMatrix(g);
    for (int from : {0, 1})
        for (int to : {2, 3}) EXPECT_EQ(m[static_cast<size_t>(from)][static_cast<size_t>(to)], 128) << from << to;
    EXPECT_EQ(m[0][1] + m[2][3] + m[1][0] + m[3][2], 0);
}

Network oneFc() { return test::network("one-fc", {8, 1, 1}, {test::fc("fc", {"input"}, 6)}); }  // 48 weights = 192 B

SimOptions perHop() {
    SimOptions o;
    o.collectives = CollectiveModel::PerHop;
    return o;
}

TEST(SimVolumes, RingAllReduceSendsTwoPMinusOneOverPOfTheWeights) {
    // p = 4 replicas on a 4-ring: 2(p-1) = 6 steps of 192/4 = 48 B per replica: 288 B = 2(p-1)/p x 192.
    // Per hop, as FlexFlow simulates it (as a collective, tests/core/sim_collective_sync_test.cpp).
    const Network net = oneFc();
    const Topology topo = test::ring(4);
    const TaskGraph g =
        buildTaskGraph(net, 4, SoapStrategy{net.name, {on({4, 1, 1, 1}, {0, 1, 2, 3})}}, topo, perHop());
    const auto m = trafficMatrix(g);
    for (int r = 0; r < 4; ++r) {
        double sent = 0;
        for (int to = 0; to < 4; ++to) sent += m[static_cast<size_t>(r)][static_cast<size_t>(to)];
        EXPECT_EQ(sent, 2.0 * 3 / 4 * 192);
        EXPECT_EQ(m[static_cast<size_t>(r)][static_cast<size_t>((r + 1) % 4)], 288);
    }
    int sync = 0;
    for (size_t t = 0; t < g.slotCount(); ++t)
        if (g.alive(static_cast<int>(t)) && g.info(static_cast<int>(t)).phase == Phase::Sync) {
            ++sync;
            EXPECT_EQ(g.info(static_cast<int>(t)).bytes, 48);
        }
    EXPECT_EQ(sync, 6 * 4);  // neighbours are one hop apart
    // Two shards (channel degree 2), each replicated twice: 2 x 1/2 x 96 B = 96 B per replica.
    const TaskGraph h = buildTaskGraph(net, 4, SoapStrategy{net.name, {on({2, 2, 1, 1}, {0, 1, 2, 3})}}, topo, perHop());
    const auto m2 = trafficMatrix(h);
    EXPECT_EQ(m2[0][1], 96);
    EXPECT_EQ(m2[1][0], 96);
    EXPECT_EQ(m2[2][3], 96);
    EXPECT_EQ(m2[3][2], 96);
    EXPECT_EQ(m2[0][2] + m2[1][3] + m2[0][3], 0);
    // Three replicas: 4 steps of 64 B each.
    const TaskGraph k = buildTaskGraph(net, 3, SoapStrategy{net.name, {on({3, 1, 1, 1}, {3, 1, 2})}}, topo, perHop());
    const auto m3 = trafficMatrix(k);
    EXPECT_EQ(m3[3][1], 4 * 64);  // ring order follows the task order: 3 -> 1 -> 2 -> 3
    EXPECT_EQ(m3[1][2], 4 * 64);
    EXPECT_EQ(m3[2][3], 4 * 64);
}

TEST(SimVolumes, ParameterServerPushesAndPullsWholeShards) {
    const Network net = oneFc();
    SimOptions opt;
    opt.sync = SyncMode::ParameterServer;
    const TaskGraph g =
        buildTaskGraph(net, 4, SoapStrategy{net.name, {on({4, 1, 1, 1}, {2, 0, 1, 3})}}, test::cluster(1, 4), opt);
    const auto m = trafficMatrix(g);
    for (int r : {0, 1, 3}) {  // the server is the first replica's device, d2
        EXPECT_EQ(m[static_cast<size_t>(r)][2], 192);
        EXPECT_EQ(m[2][static_cast<size_t>(r)], 192);
    }
    const SimResult res = simulate(g);
    // The update waits for every push; every pull waits for the update.
    int update = -1;
    for (int t : res.order)
        if (g.info(t).phase == Phase::Sync && !g.isLink(g.resource(t))) update = t;
    ASSERT_GE(update, 0);
    EXPECT_EQ(g.exe(update), 0);
    for (int t : res.order) {
        if (g.info(t).phase != Phase::Sync || !g.isLink(g.resource(t))) continue;
        if (g.info(t).part == 0) {
            EXPECT_LE(res.end[static_cast<size_t>(t)], res.start[static_cast<size_t>(update)]);
        } else {
            EXPECT_GE(res.start[static_cast<size_t>(t)], res.end[static_cast<size_t>(update)]);
        }
    }
}

TEST(SimVolumes, TrafficPairsAreTheMatrixWithoutItsZeros) {
    const Network net = oneFc();
    const TaskGraph g =
        buildTaskGraph(net, 3, SoapStrategy{net.name, {on({3, 1, 1, 1}, {3, 1, 2})}}, test::ring(4), perHop());
    const auto pairs = trafficPairs(g);
    EXPECT_EQ(pairs, (std::vector<TrafficPair>{{1, 2, 4 * 64}, {2, 3, 4 * 64}, {3, 1, 4 * 64}}));
    const auto m = trafficMatrix(g);
    size_t nonzero = 0;
    for (const auto& row : m)
        for (double v : row) nonzero += v != 0;
    EXPECT_EQ(nonzero, pairs.size());
    for (const auto& p : pairs) EXPECT_EQ(m[static_cast<size_t>(p.from)][static_cast<size_t>(p.to)], p.bytes);
}

TEST(SimVolumes, HugeGraphsAreRefusedBeforeTheyAreBuilt) {
    // A ring all-reduce over 1,024 replicas placed half a 1,024-ring apart: 2p(p-1) messages of 511
    // or 512 hops, half a billion tasks.
    const Network net = oneFc();
    std::vector<int> devices(1024);
    for (int k = 0; k < 1024; ++k) devices[static_cast<size_t>(k)] = k % 2 * 512 + k / 2;
    const Topology topo = test::ring(1024);
    try {
        buildTaskGraph(net, 1024, SoapStrategy{net.name, {on({1024, 1, 1, 1}, devices)}}, topo, perHop());
        FAIL() << "no error";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("more than the limit of 16777216"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("--collectives algorithm"), std::string::npos) << e.what();
    }
    // As a collective the same sync is 1,025 tasks.
    const TaskGraph g = buildTaskGraph(net, 1024, SoapStrategy{net.name, {on({1024, 1, 1, 1}, devices)}}, topo);
    EXPECT_EQ(g.taskCount(), 2u * 1024 + 1 + 1024);
}

}  // namespace
}  // namespace partita::sim
