// Collectives as algorithms and the flow-level network under them
// (docs/methods/flexflow.md#collectives-as-algorithms): hand-counted times on rings, switches and a
// two-node cluster, max-min fair sharing, the algorithm choice, and the refusals.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <utility>

#include "core/sim/collectives.h"
#include "core/sim/flow_network.h"
#include "core/topology/generate.h"

namespace partita::sim {
namespace {

std::vector<int> firstDevices(int n) {
    std::vector<int> g;
    for (int i = 0; i < n; ++i) g.push_back(i);
    return g;
}

Topology ringOf(int p, double bandwidth, double latency) {
    return regularTopology(Dimension::Shape::Ring, {p}, {bandwidth, latency}, namedDevice("npu"), "ring");
}

Topology switchOf(int p, double bandwidth, double latency) {
    return regularTopology(Dimension::Shape::Switch, {p}, {bandwidth, latency}, namedDevice("npu"), "switch");
}

TEST(FlowNetwork, FlowsSharingALinkSplitItAndTheSurvivorSpeedsUp) {
    // Link 0 carries both: each at B/2 until the smaller ends at 2S/B, then the other alone at B.
    const double B = 10, S = 20;
    const auto finish = maxMinFinishTimes({B, B}, {{{0}, S}, {{0, 1}, 2 * S}});
    EXPECT_DOUBLE_EQ(finish[0], 2 * S / B);
    EXPECT_DOUBLE_EQ(finish[1], 2 * S / B + S / B);
}

TEST(FlowNetwork, RatesAreMaxMinFairAcrossDifferentBottlenecks) {
    // X crosses links 0 (10) and 1 (4): link 1 fixes X at 4; Y alone on link 0 takes the other 6.
    const auto rate = maxMinRates({10, 4}, {{{0, 1}, 1}, {{0}, 1}, {{}, 5}});
    EXPECT_DOUBLE_EQ(rate[0], 4);
    EXPECT_DOUBLE_EQ(rate[1], 6);
    EXPECT_DOUBLE_EQ(rate[2], 0);  // a local copy uses no link
    EXPECT_EQ(maxMinFinishTimes({10}, {{{}, 5}})[0], 0);
}

TEST(FlowNetwork, BadInputIsRefusedNamingTheFlowOrLink) {
    EXPECT_THROW(maxMinFinishTimes({10}, {{{1}, 1}}), std::invalid_argument);
    EXPECT_THROW(maxMinFinishTimes({10}, {{{0}, -1}}), std::invalid_argument);
    EXPECT_THROW(maxMinFinishTimes({0}, {{{0}, 1}}), std::invalid_argument);
    try {
        maxMinFinishTimes({10, 10}, {{{0}, 1}, {{7}, 1}});
        FAIL();
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("flow 1: link 7"), std::string::npos) << e.what();
    }
}

TEST(Collectives, RingAllReduceOnARingIsTwoPMinusOneRoundsOfAChunk) {
    for (int p : {2, 3, 8, 16}) {
        const double B = 100e9, alpha = 1e-6, S = 64e6;
        const Topology t = ringOf(p, B, alpha);
        const CollectiveTime c = collectiveTime(t, CollectiveOp::AllReduce, CollectiveAlgorithm::Ring, firstDevices(p), S);
        const double expected = 2.0 * (p - 1) * (alpha + S / p / B);
        EXPECT_NEAR(c.total_s, expected, 1e-12 * expected) << p;
        ASSERT_EQ(c.phases.size(), 2u);
        EXPECT_EQ(c.phases[0].name, "reduce-scatter");
        EXPECT_EQ(c.phases[0].steps, p - 1);
        // Reduce-scatter and all-gather alone are each half of it.
        const double rs = collectiveTime(t, CollectiveOp::ReduceScatter, CollectiveAlgorithm::Ring, firstDevices(p), S).total_s;
        EXPECT_NEAR(rs, expected / 2, 1e-12 * expected);
    }
}

TEST(Collectives, HalvingDoublingOnASwitchHalvesTheBytesEachRound) {
    // Every route is device -> switch -> device: 2 links, 2 alpha; a round's transfers share no link.
    const double B = 50e9, alpha = 0.5e-6, S = 8e6;
    const Topology t = switchOf(8, B, alpha);
    const CollectiveTime c =
        collectiveTime(t, CollectiveOp::AllReduce, CollectiveAlgorithm::HalvingDoubling, firstDevices(8), S);
    ASSERT_EQ(c.phases.size(), 6u);
    const double rs = 3 * 2 * alpha + (S / 2 + S / 4 + S / 8) / B;
    EXPECT_NEAR(c.total_s, 2 * rs, 1e-12 * rs);
    EXPECT_NEAR(c.phases[0].transfer_s, S / 2 / B, 1e-15);
    EXPECT_NEAR(c.phases[5].transfer_s, S / 2 / B, 1e-15);
}

TEST(Collectives, DirectAllToAllOnASwitchIsLimitedByEachDevicesOneLink) {
    // p - 1 transfers of S/p leave each device on its one uplink together: (p-1)S/p / B.
    const int p = 8;
    const double B = 25e9, S = 1e6;
    const Topology t = switchOf(p, B, 0);
    const CollectiveTime c = collectiveTime(t, CollectiveOp::AllToAll, CollectiveAlgorithm::Direct, firstDevices(p), S);
    EXPECT_NEAR(c.total_s, (p - 1) * S / p / B, 1e-15);
    // The ring's pairwise exchange sends the same bytes in p - 1 rounds, so no faster here.
    const double pairwise = collectiveTime(t, CollectiveOp::AllToAll, CollectiveAlgorithm::Ring, firstDevices(p), S).total_s;
    EXPECT_NEAR(pairwise, c.total_s, 1e-12 * c.total_s);
}

TEST(Collectives, HierarchicalSharesTheNodesNicAmongItsLocalRanks) {
    // 2 nodes x 4 GPUs: the inter-node rounds of the four local ranks cross the host's one IB link.
    ClusterSpec spec = p100ClusterSpec();
    spec.nodes = 2;
    const Topology t = clusterTopology(spec);
    const double S = 256e6;
    const CollectiveTime c = collectiveTime(t, CollectiveOp::AllReduce, CollectiveAlgorithm::Hierarchical, firstDevices(8), S);
    ASSERT_EQ(c.phases.size(), 4u);
    EXPECT_EQ(c.phases[1].name, "inter-node reduce-scatter");
    // Is the IB link the bottleneck of a GPU-to-GPU route across nodes when four share it?
    double slowest_other = 1e300;
    for (int l : t.route(0, 4))
        if (t.links[static_cast<size_t>(l)].kind != "infiniband") slowest_other = std::min(slowest_other, t.links[static_cast<size_t>(l)].bandwidth_Bps);
    ASSERT_LT(spec.network_Bps / 4, slowest_other);
    const double chunk = S / 8;  // S / (local ranks x nodes)
    EXPECT_NEAR(c.phases[1].transfer_s, chunk / (spec.network_Bps / 4), 1e-12);
    // Alone on the link (one GPU per node), the same chunk goes four times faster.
    const CollectiveTime one = collectiveTime(t, CollectiveOp::AllReduce, CollectiveAlgorithm::Hierarchical, {0, 4}, S / 4);
    ASSERT_EQ(one.phases.size(), 2u);  // no intra-node phase with one member per node
    EXPECT_NEAR(one.phases[0].transfer_s * 4, c.phases[1].transfer_s, 1e-12);
}

TEST(Collectives, TheFastestAlgorithmDependsOnSizeAndIsNeverSlowerThanAny) {
    const Topology t = switchOf(64, 50e9, 2e-6);
    const std::vector<int> g = firstDevices(64);
    for (double S : {1e3, 1e6, 1e9}) {
        const CollectiveTime best = fastestCollective(t, CollectiveOp::AllReduce, g, S);
        for (CollectiveAlgorithm a : kCollectiveAlgorithms) {
            try {
                EXPECT_LE(best.total_s, collectiveTime(t, CollectiveOp::AllReduce, a, g, S).total_s) << collectiveAlgorithmName(a);
            } catch (const std::invalid_argument&) {
            }
        }
    }
    // 1 KB is latency-bound: the ring's 126 rounds lose to log-depth algorithms.
    EXPECT_NE(fastestCollective(t, CollectiveOp::AllReduce, g, 1e3).algorithm, CollectiveAlgorithm::Ring);
}

TEST(Collectives, AlgorithmsThatDoNotApplyAreRefusedSayingWhy) {
    const Topology t = switchOf(6, 50e9, 0);
    const auto why = [&](CollectiveOp op, CollectiveAlgorithm a, std::vector<int> g) {
        try {
            collectiveTime(t, op, a, g, 1e6);
        } catch (const std::invalid_argument& e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    EXPECT_NE(why(CollectiveOp::AllReduce, CollectiveAlgorithm::HalvingDoubling, firstDevices(6)).find("power-of-two"), std::string::npos);
    EXPECT_NE(why(CollectiveOp::AllReduce, CollectiveAlgorithm::Hierarchical, firstDevices(6)).find("one node"), std::string::npos);
    EXPECT_NE(why(CollectiveOp::AllReduce, CollectiveAlgorithm::Ring, {0, 1, 1}).find("twice"), std::string::npos);
    EXPECT_NE(why(CollectiveOp::AllReduce, CollectiveAlgorithm::Ring, {0, 9}).find("not in the topology"), std::string::npos);
    EXPECT_EQ(collectiveTime(t, CollectiveOp::AllReduce, CollectiveAlgorithm::Ring, {3}, 1e6).total_s, 0);
    EXPECT_EQ(parseCollectiveAlgorithm("halving-doubling"), CollectiveAlgorithm::HalvingDoubling);
    EXPECT_THROW(parseCollectiveOp("allreduce"), std::invalid_argument);
    // Quadratic expansions stop before their transfers are made: 300 members are 89,700 of them.
    const Topology wide = switchOf(300, 50e9, 0);
    for (CollectiveAlgorithm a : {CollectiveAlgorithm::Direct, CollectiveAlgorithm::Ring}) {
        try {
            collectivePhases(wide, CollectiveOp::AllToAll, a, firstDevices(300), 1e6);
            ADD_FAILURE() << collectiveAlgorithmName(a);
        } catch (const std::invalid_argument& e) {
            EXPECT_NE(std::string(e.what()).find("300 members make more than 65536 transfers"), std::string::npos) << e.what();
        }
    }
    EXPECT_EQ(collectiveAlgorithmName(CollectiveAlgorithm::DoubleBinaryTree), std::string("tree"));
    EXPECT_EQ(collectiveOpName(CollectiveOp::AllToAll), std::string("all-to-all"));
}

}  // namespace
}  // namespace partita::sim

namespace partita::sim {
namespace {

// Across nodes the two trees are built over nodes: a chain inside each node to its leader (opposite
// directions for the two trees) and a tree of leaders, so only 2(N - 1) transfers a phase cross nodes.
TEST(Collectives, TheTreesSpanNodesThroughOneLeaderEach) {
    ClusterSpec spec = p100ClusterSpec();  // 4 nodes x 4 GPUs
    const Topology t = clusterTopology(spec);
    const auto phases = collectivePhases(t, CollectiveOp::AllReduce, CollectiveAlgorithm::DoubleBinaryTree, firstDevices(16), 8e6);
    ASSERT_EQ(phases.size(), 2u);
    size_t across = 0, inside = 0;
    for (const Transfer& x : phases[0].round) {
        (t.devices[static_cast<size_t>(x.from)].node == t.devices[static_cast<size_t>(x.to)].node ? inside : across) += 1;
        EXPECT_EQ(x.bytes, 4e6);
    }
    EXPECT_EQ(across, 2u * (4 - 1));
    EXPECT_EQ(inside, 2u * 4 * (4 - 1));
    EXPECT_EQ(phases[0].latency_rounds, 3 + 2);  // a chain of 4, then a tree of 4 leaders
    // The two halves cross each node's chain in opposite directions: no chain link carries both.
    std::set<std::pair<int, int>> used;
    for (const Transfer& x : phases[0].round) {
        if (t.devices[static_cast<size_t>(x.from)].node != t.devices[static_cast<size_t>(x.to)].node) continue;
        EXPECT_TRUE(used.insert({x.from, x.to}).second) << x.from << "->" << x.to;
    }
    // On one node (or uneven nodes) the trees are over members.
    EXPECT_EQ(collectivePhases(t, CollectiveOp::AllReduce, CollectiveAlgorithm::DoubleBinaryTree, {0, 1, 2, 3}, 8e6)[0].round.size(),
              2u * 3);
}

// The hand counts behind the ASTRA-sim comparison (docs/methods/flexflow.md#side-by-side-with-astra-sim).
TEST(Collectives, HierarchicalOnATorusIsTheDimensionWiseAllReduce) {
    // A x C torus, dimension 0 the node: a ring reduce-scatter over A, a ring all-reduce over C on
    // S/A, a ring all-gather over A, as ASTRA-sim's multi-dimensional all-reduce on two rings.
    for (const auto& [a, c] : {std::pair{8, 8}, std::pair{2, 4}, std::pair{4, 2}}) {
        const double B = 50e9, alpha = 0.5e-6, S = 1 << 20;
        const Topology t =
            regularTopology(Dimension::Shape::Ring, {a, c}, {B, alpha}, namedDevice("npu"), "torus");
        const CollectiveTime h =
            collectiveTime(t, CollectiveOp::AllReduce, CollectiveAlgorithm::Hierarchical, firstDevices(a * c), S);
        const double expected = 2.0 * (a - 1) * (alpha + S / a / B) + 2.0 * (c - 1) * (alpha + S / (a * c) / B);
        EXPECT_NEAR(h.total_s, expected, 1e-12 * expected) << a << "x" << c;
    }
}

TEST(Collectives, RingAllToAllOnARingTakesTheShortWayRound) {
    // Round k goes min(k, p - k) hops; all its transfers turn the same way, so each link carries
    // min(k, p - k) of them: the round costs min(k, p - k) (alpha + S/(pB)).
    for (int p : {5, 8}) {
        const double B = 50e9, alpha = 0.5e-6, S = 1 << 20;
        const Topology t = ringOf(p, B, alpha);
        const CollectiveTime c = collectiveTime(t, CollectiveOp::AllToAll, CollectiveAlgorithm::Ring, firstDevices(p), S);
        int hops = 0;
        for (int k = 1; k < p; ++k) hops += std::min(k, p - k);
        const double expected = hops * (alpha + S / p / B);
        EXPECT_NEAR(c.total_s, expected, 1e-12 * expected) << p;
    }
}

}  // namespace
}  // namespace partita::sim
