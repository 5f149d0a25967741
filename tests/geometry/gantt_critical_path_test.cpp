// Critical path of a simulated run: exact chains on hand-made graphs, and the
// invariants (a chain of touching tasks from time 0 to the makespan) on a
// training run where it passes through backward and weight-sync tasks.
#include <gtest/gtest.h>

#include "core/sim/critical_path.h"
#include "tests/core/sim_test_util.h"

namespace partita::sim {
namespace {

OpConfig on(Degrees d, std::vector<int> devices) {
    OpConfig c;
    c.degree = d;
    c.devices = std::move(devices);
    return c;
}

// fc 8 -> 16 -> 4 -> 2.
Network fcChain3() {
    Network n;
    n.name = "fc-chain-3";
    n.input = {8, 1, 1};
    n.ops = {test::fc("fc1", {"input"}, 16), test::fc("fc2", {"fc1"}, 4), test::fc("fc3", {"fc2"}, 2)};
    propagate(n, "fc-chain-3");
    return n;
}

int slotOf(const TaskGraph& g, std::uint64_t id) {
    for (size_t t = 0; t < g.slotCount(); ++t)
        if (g.alive(static_cast<int>(t)) && g.id(static_cast<int>(t)) == id) return static_cast<int>(t);
    return -1;
}

TEST(CriticalPath, PingPongInferenceIsTheWholeChain) {
    // fc1 on d0, fc2 on d1, fc3 on d0: forward, link 0 (d0 -> d1), forward, link 1, forward.
    const Network net = fcChain3();
    SoapStrategy s{net.name, {on({1, 1, 1, 1}, {0}), on({1, 1, 1, 1}, {1}), on({1, 1, 1, 1}, {0})}};
    SimOptions opt;
    opt.training = false;
    const TaskGraph g = buildTaskGraph(net, 4, s, test::pair(), opt);
    const SimResult r = simulate(g);
    ASSERT_EQ(g.taskCount(), 5u);
    const auto path = criticalPath(g, r);
    ASSERT_EQ(path.size(), 5u);
    const std::vector<std::pair<int, Phase>> expected{
        {0, Phase::Forward}, {1, Phase::Transfer}, {1, Phase::Forward}, {2, Phase::Transfer}, {2, Phase::Forward}};
    const std::vector<int> resources{0, 2, 1, 3, 0};
    for (size_t k = 0; k < path.size(); ++k) {
        const int t = slotOf(g, path[k]);
        ASSERT_GE(t, 0);
        EXPECT_EQ(g.info(t).op, expected[k].first) << k;
        EXPECT_EQ(g.info(t).phase, expected[k].second) << k;
        EXPECT_EQ(g.resource(t), resources[k]) << k;
    }
    EXPECT_EQ(r.end[static_cast<size_t>(slotOf(g, path.back()))], r.makespan);
}

TEST(CriticalPath, FollowsAResourceWaitAndPrefersDataEdges) {
    // d0: A [0,1], C [1,2] after A, E [5,6] after D.  d1: B [0,3], D [3,5] after C,
    // which waits for B: the path is B, D, E (B reached through the resource, not an edge).
    TaskGraph g;
    g.setResources(2, 0, {"d0", "d1"});
    g.setOperators({"a", "b", "c", "d", "e"});
    g.setGroupCount(1);
    auto task = [&](int res, double exe, std::uint64_t id) {
        TaskInfo info;
        info.op = static_cast<int>(id);
        return g.addTask(0, res, exe, id, info);
    };
    const int a = task(0, 1, 0), b = task(1, 3, 1), c = task(0, 1, 2), d = task(1, 2, 3), e = task(0, 1, 4);
    g.addEdge(0, a, c);
    g.addEdge(0, c, d);
    g.addEdge(0, d, e);
    (void)b;  // no edges: D reaches it only through device d1
    const SimResult r = simulate(g);
    ASSERT_EQ(r.start[static_cast<size_t>(d)], 3);
    ASSERT_EQ(r.makespan, 6);
    EXPECT_EQ(criticalPath(g, r), (std::vector<std::uint64_t>{1, 3, 4}));
    // With B shorter, D starts when C's data arrives: the data edge wins.
    TaskGraph h;
    h.setResources(2, 0, {"d0", "d1"});
    h.setGroupCount(1);
    TaskInfo info;
    const int a2 = h.addTask(0, 0, 1, 0, info), b2 = h.addTask(0, 1, 2, 1, info), c2 = h.addTask(0, 0, 1, 2, info);
    const int d2 = h.addTask(0, 1, 2, 3, info);
    h.addEdge(0, a2, c2);
    h.addEdge(0, c2, d2);
    (void)b2;  // ends at 2 too: a resource predecessor that ties with the data edge
    const SimResult r2 = simulate(h);
    EXPECT_EQ(criticalPath(h, r2), (std::vector<std::uint64_t>{0, 2, 3}));
}

TEST(CriticalPath, TrainingPathTouchesFromZeroToMakespan) {
    // Data parallel training on two devices: forward, backward, then ring all-reduce.
    const Network net = fcChain3();
    SoapStrategy s{net.name, {on({2, 1, 1, 1}, {0, 1}), on({2, 1, 1, 1}, {0, 1}), on({2, 1, 1, 1}, {0, 1})}};
    const TaskGraph g = buildTaskGraph(net, 4, s, test::pair());
    const SimResult r = simulate(g);
    const auto path = criticalPath(g, r);
    ASSERT_GE(path.size(), 4u);
    const int first = slotOf(g, path.front()), last = slotOf(g, path.back());
    EXPECT_EQ(r.start[static_cast<size_t>(first)], 0);
    EXPECT_EQ(r.end[static_cast<size_t>(last)], r.makespan);
    EXPECT_EQ(g.info(last).phase, Phase::Sync);  // the all-reduce ends the step
    bool has_backward = false;
    for (size_t k = 1; k < path.size(); ++k) {
        const int p = slotOf(g, path[k - 1]), t = slotOf(g, path[k]);
        EXPECT_EQ(r.end[static_cast<size_t>(p)], r.start[static_cast<size_t>(t)]) << k;
        bool edge = false;
        g.forEachPredecessor(t, [&](int q) { edge = edge || q == p; });
        EXPECT_TRUE(edge || g.resource(p) == g.resource(t)) << k;
        has_backward = has_backward || g.info(t).phase == Phase::Backward;
    }
    EXPECT_TRUE(has_backward);
}

TEST(CriticalPath, EmptyRunHasNoPath) {
    TaskGraph g;
    g.setResources(1, 0, {"d0"});
    EXPECT_TRUE(criticalPath(g, simulate(g)).empty());
}

}  // namespace
}  // namespace partita::sim
