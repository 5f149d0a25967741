// Weight synchronisation as collectives (docs/methods/flexflow.md#collectives-in-the-simulator): one
// task per member on its device's collective stream, against FlexFlow's per-hop model.
#include <gtest/gtest.h>

#include <cmath>
#include <optional>
#include <random>

#include "core/sim/delta.h"
#include "core/sim/memory.h"
#include "core/sim/simulator.h"
#include "core/sim/trace.h"
#include "sim_test_util.h"

namespace partita::sim {
namespace {

SimOptions model(CollectiveModel collectives, std::optional<CollectiveAlgorithm> algorithm = {}) {
    SimOptions o;
    o.collectives = collectives;
    o.collective_algorithm = algorithm;
    return o;
}

// One 1024 x 1024 fully connected layer: a 4 MiB weight, so bandwidth dominates latency.
Network bigFc() { return test::network("big-fc", {1024, 1, 1}, {test::fc("fc", {"input"}, 1024)}); }

double makespanOf(const Network& net, std::int64_t batch, const SoapStrategy& s, const Topology& t, CollectiveModel m,
                  std::optional<CollectiveAlgorithm> algorithm = CollectiveAlgorithm::Ring) {
    return simulate(buildTaskGraph(net, static_cast<double>(batch), s, t, model(m, algorithm))).makespan;
}

TEST(SimCollectiveSync, PerHopAndAlgorithmAgreeOnARingWithoutContention) {
    // On a ring of p devices each ring step is one hop on its own link: both models give
    // 2(p - 1)(alpha + S/(pB)) for the sync, and the same compute.
    const Network net = bigFc();
    for (int p : {3, 4, 8, 16}) {  // test::ring(2) would cable one pair twice
        const Topology t = test::ring(p);
        const std::int64_t batch = 4 * p;
        const SoapStrategy dp = dataParallel(net, batch, p);
        const double per_hop = makespanOf(net, batch, dp, t, CollectiveModel::PerHop);
        const double algorithm = makespanOf(net, batch, dp, t, CollectiveModel::Algorithm);
        EXPECT_NEAR(algorithm, per_hop, 1e-9 * per_hop) << p << " devices";
        const double bytes = 1024.0 * 1024 * 4;
        const double sync = 2.0 * (p - 1) * (1e-6 + bytes / p / 1e10);
        EXPECT_GT(per_hop, sync);
        // Unforced, the fastest algorithm is never slower (on 3 devices direct wins: 2 rounds, not 4).
        EXPECT_LE(makespanOf(net, batch, dp, t, CollectiveModel::Algorithm, std::nullopt), algorithm * (1 + 1e-12));
    }
}

TEST(SimCollectiveSync, ALayerChainAgreesWithinTwoPercentOnARing) {
    // Several weights: per hop, their rings interleave on the links; as collectives, they queue on
    // each device's stream: the orders differ, and so may the makespans, by up to 2 %.
    const Network net = test::network("chain", {512, 1, 1},
                                      {test::fc("fc1", {"input"}, 512), test::fc("fc2", {"fc1"}, 512),
                                       test::fc("fc3", {"fc2"}, 512), test::fc("fc4", {"fc3"}, 512)});
    for (int p : {4, 8, 16}) {
        const Topology t = test::ring(p);
        const std::int64_t batch = 8 * p;
        const SoapStrategy dp = dataParallel(net, batch, p);
        const double per_hop = makespanOf(net, batch, dp, t, CollectiveModel::PerHop);
        const double algorithm = makespanOf(net, batch, dp, t, CollectiveModel::Algorithm);
        EXPECT_NEAR(algorithm / per_hop, 1.0, 0.02) << p << " devices";
    }
}

TEST(SimCollectiveSync, AWeightIsAJoinAndOneTaskPerMemberOnItsStream) {
    const Network net = bigFc();
    const Topology t = test::cluster(4, 4);
    const SoapStrategy dp = dataParallel(net, 64, 16);
    const TaskGraph g = buildTaskGraph(net, 64, dp, t, model(CollectiveModel::Algorithm));
    // 16 forward + 16 backward + 1 join + 16 members.
    EXPECT_EQ(g.taskCount(), 16u + 16u + 1u + 16u);
    EXPECT_EQ(g.resourceCount(), 16 + static_cast<int>(t.links.size()) + 16);
    const SimResult r = simulate(g);
    int members = 0, joins = 0;
    double start = -1;
    for (int task : r.order) {
        if (g.info(task).phase != Phase::Sync) continue;
        ASSERT_TRUE(g.isStream(g.resource(task)));
        if (g.exe(task) == 0) {
            ++joins;
            continue;
        }
        ++members;
        EXPECT_EQ(g.resource(task), g.streamOf(g.info(task).from));
        // Every member waits for every replica's gradient: they start together.
        if (start < 0) start = r.start[static_cast<size_t>(task)];
        EXPECT_EQ(r.start[static_cast<size_t>(task)], start);
    }
    EXPECT_EQ(joins, 1);
    EXPECT_EQ(members, 16);
    // The time is the fastest algorithm's for this group and size.
    std::vector<int> group;
    for (int d = 0; d < 16; ++d) group.push_back(d);
    const double bytes = 1024.0 * 1024 * 4;
    EXPECT_DOUBLE_EQ(r.makespan - start, fastestCollective(t, CollectiveOp::AllReduce, group, bytes).total_s);
}

TEST(SimCollectiveSync, TrafficAndLinkBytesEqualPerHopOnARing) {
    const Network net = bigFc();
    const Topology t = test::ring(8);
    const SoapStrategy dp = dataParallel(net, 32, 8);
    const TaskGraph hop = buildTaskGraph(net, 32, dp, t, model(CollectiveModel::PerHop));
    const TaskGraph alg = buildTaskGraph(net, 32, dp, t, model(CollectiveModel::Algorithm));
    const auto a = trafficPairs(hop), b = trafficPairs(alg);
    ASSERT_EQ(a.size(), b.size());
    for (size_t i = 0; i < a.size(); ++i) {
        EXPECT_EQ(a[i].from, b[i].from);
        EXPECT_EQ(a[i].to, b[i].to);
        EXPECT_DOUBLE_EQ(a[i].bytes, b[i].bytes);  // 2(p - 1) chunks of S/p to the next member
        EXPECT_DOUBLE_EQ(b[i].bytes, 2.0 * 7 * 1024 * 1024 * 4 / 8);
    }
    const auto la = linkBytes(hop, t), lb = linkBytes(alg, t);
    ASSERT_EQ(la.size(), lb.size());
    for (size_t l = 0; l < la.size(); ++l) EXPECT_DOUBLE_EQ(la[l], lb[l]) << t.links[l].name;
    // The links carry the collectives in the utilisation too.
    const Utilisation use = utilisation(alg, simulate(alg), &t);
    for (size_t l = 0; l < lb.size(); ++l)
        EXPECT_DOUBLE_EQ(use.busy_s[static_cast<size_t>(alg.computeDevices()) + l], lb[l] / 1e10);
}

TEST(SimCollectiveSync, CollectivesOnADeviceRunOneAtATime) {
    // Two weights ready at nearly the same time: the second's members start when the first's end.
    const Network net = test::network("two", {1024, 1, 1},
                                      {test::fc("fc1", {"input"}, 1024), test::fc("fc2", {"fc1"}, 1024)});
    const Topology t = test::ring(4);
    const TaskGraph g = buildTaskGraph(net, 16, dataParallel(net, 16, 4), t, model(CollectiveModel::Algorithm));
    const SimResult r = simulate(g);
    std::vector<std::vector<std::pair<double, double>>> on_stream(4);
    for (int task : r.order)
        if (g.info(task).phase == Phase::Sync && g.exe(task) > 0)
            on_stream[static_cast<size_t>(g.info(task).from)].push_back(
                {r.start[static_cast<size_t>(task)], r.end[static_cast<size_t>(task)]});
    for (const auto& spans : on_stream) {
        ASSERT_EQ(spans.size(), 2u);
        EXPECT_GE(spans[1].first, spans[0].second);
    }
}

TEST(SimCollectiveSync, TasksGrowLinearlyWithTheReplicas) {
    // Per hop a ring all-reduce is 2p(p - 1) messages a weight; as a collective p + 1 tasks.
    const Network net = bigFc();
    for (int nodes : {2, 4, 8, 16}) {
        const Topology t = test::cluster(nodes, 4);
        const int p = nodes * 4;
        const SoapStrategy dp = dataParallel(net, p, p);
        const TaskGraph g = buildTaskGraph(net, p, dp, t, model(CollectiveModel::Algorithm));
        EXPECT_EQ(g.taskCount(), static_cast<size_t>(2 * p + 1 + p));
        const TaskGraph h = buildTaskGraph(net, p, dp, t, model(CollectiveModel::PerHop));
        EXPECT_GE(h.taskCount(), static_cast<size_t>(2 * p * (p - 1)));
    }
}

TEST(SimCollectiveSync, AParameterServerAndInferenceHaveNoStreams) {
    const Network net = bigFc();
    const Topology t = test::ring(4);
    SimOptions ps = model(CollectiveModel::Algorithm);
    ps.sync = SyncMode::ParameterServer;
    const TaskGraph g = buildTaskGraph(net, 16, dataParallel(net, 16, 4), t, ps);
    EXPECT_EQ(g.resourceCount(), 4 + static_cast<int>(t.links.size()));
    SimOptions inference = model(CollectiveModel::Algorithm);
    inference.training = false;
    EXPECT_EQ(buildTaskGraph(net, 16, dataParallel(net, 16, 4), t, inference).resourceCount(),
              4 + static_cast<int>(t.links.size()));
}

TEST(SimCollectiveSync, DeltaEqualsFullWithCollectives) {
    const Network net = test::inceptionLike();
    const Topology t = test::cluster(2, 4);
    const std::int64_t batch = 16;
    const SimOptions o = model(CollectiveModel::Algorithm);
    DeltaSimulator delta(net, static_cast<double>(batch), dataParallel(net, batch, 8), t, o);
    std::mt19937_64 rng(7);
    for (int i = 0; i < 60; ++i) {
        const int op = static_cast<int>(rng() % net.ops.size());
        const OpConfig c = randomConfig(net.ops[static_cast<size_t>(op)], batch, 8, rng);
        const double got = delta.propose(op, c);
        const SoapStrategy s = delta.strategy();
        const double full = simulate(buildTaskGraph(net, static_cast<double>(batch), s, t, o)).makespan;
        EXPECT_DOUBLE_EQ(got, full) << "proposal " << i;
        if (rng() % 2) delta.revert();
        else delta.commit();
    }
}

}  // namespace
}  // namespace partita::sim
