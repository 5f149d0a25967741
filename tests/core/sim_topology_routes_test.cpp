// Routes computed per source on demand (issue 13): the same routes as all-pairs shortest paths
// with the documented tie rule, a cache that stays within its bound, and topologies of thousands
// of devices that load and route without materialising every pair.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <random>

#include "core/sim/baselines.h"
#include "core/sim/simulator.h"
#include "core/sim/task_graph.h"
#include "core/topology/topology.h"
#include "core/topology/routes.h"
#include "sim_test_util.h"

namespace partita::sim {
namespace {

using Cost = std::pair<std::int64_t, std::int64_t>;
constexpr Cost kNone{std::numeric_limits<std::int64_t>::max(), 0};

// The route weight stated in topology_routes.cpp: picoseconds to move 1 MB (capped at 1000 s), then hops.
Cost hop(const Link& l) {
    const double ps = std::round((l.latency_s + 1e6 / l.bandwidth_Bps) * 1e12);
    return {ps >= 1e15 ? std::int64_t{1'000'000'000'000'000} : static_cast<std::int64_t>(ps), 1};
}

Cost plus(Cost a, Cost b) { return a == kNone || b == kNone ? kNone : Cost{a.first + b.first, a.second + b.second}; }

// All-pairs routes the old way, by a different algorithm (Floyd-Warshall over every vertex): a
// vertex is entered by the lowest-id link that lies on some shortest path from the source.
std::vector<std::vector<std::vector<int>>> allPairsRoutes(const Topology& t) {
    const auto n = static_cast<size_t>(t.vertexCount()), d = static_cast<size_t>(t.deviceCount());
    std::vector<std::vector<Cost>> dist(n, std::vector<Cost>(n, kNone));
    for (size_t v = 0; v < n; ++v) dist[v][v] = {0, 0};
    for (const Link& l : t.links) {
        auto& c = dist[static_cast<size_t>(l.from)][static_cast<size_t>(l.to)];
        c = std::min(c, hop(l));
    }
    for (size_t m = 0; m < n; ++m)
        for (size_t a = 0; a < n; ++a)
            for (size_t b = 0; b < n; ++b) dist[a][b] = std::min(dist[a][b], plus(dist[a][m], dist[m][b]));
    std::vector<std::vector<std::vector<int>>> routes(d, std::vector<std::vector<int>>(d));
    for (size_t s = 0; s < d; ++s)
        for (size_t to = 0; to < d; ++to) {
            for (size_t v = to; v != s;) {
                int entry = -1;
                for (size_t k = 0; k < t.links.size() && entry < 0; ++k)
                    if (static_cast<size_t>(t.links[k].to) == v &&
                        plus(dist[s][static_cast<size_t>(t.links[k].from)], hop(t.links[k])) == dist[s][v])
                        entry = static_cast<int>(k);
                routes[s][to].insert(routes[s][to].begin(), entry);
                v = static_cast<size_t>(t.links[static_cast<size_t>(entry)].from);
            }
        }
    return routes;
}

TEST(TopologyRoutes, OnDemandRoutesEqualAllPairsRoutesOnThePresets) {
    for (const auto& stem : builtinTopologyNames()) {
        const Topology t = builtinTopology(stem);
        const auto expected = allPairsRoutes(t);
        int checked = 0;
        for (int a = 0; a < t.deviceCount(); ++a)
            for (int b = 0; b < t.deviceCount(); ++b, ++checked)
                ASSERT_EQ(t.route(a, b), expected[static_cast<size_t>(a)][static_cast<size_t>(b)])
                    << stem << " " << a << " -> " << b;
        EXPECT_EQ(checked, t.deviceCount() * t.deviceCount()) << stem;
    }
}

TEST(TopologyRoutes, ASmallCacheRecomputesTheSameRoutes) {
    const Topology t = k80Cluster64();
    const RouteTable tight(t, 1, 0);  // on demand, with room for one source tree
    EXPECT_EQ(tight.maxCachedSources(), 1u);
    for (int a = 0; a < t.deviceCount(); a += 3)
        for (int b = 0; b < t.deviceCount(); b += 5) {
            ASSERT_EQ(tight.route(a, b), t.route(a, b)) << a << " -> " << b;
            EXPECT_LE(tight.cachedSources(), 1u);
        }
    const size_t tree = sizeof(int) * static_cast<size_t>(t.vertexCount());
    const RouteTable some(t, 10 * tree, 0);
    EXPECT_EQ(some.maxCachedSources(), 10u);
    for (int a = 0; a < t.deviceCount(); ++a) EXPECT_EQ(some.route(a, (a + 7) % t.deviceCount()), t.route(a, (a + 7) % t.deviceCount()));
    EXPECT_EQ(some.cachedSources(), 10u);
    const RouteTable eager(t);  // 64 devices: every tree up front
    EXPECT_EQ(eager.cachedSources(), 64u);
    EXPECT_EQ(eager.route(5, 60), t.route(5, 60));
}

// A one-way chain d0 -> d1 -> ... with duplex cables: 4,096 devices, 8,190 links.
Topology chain(int n) {
    Topology t;
    t.name = "chain";
    for (int k = 0; k < n; ++k) t.devices.push_back(test::device("d" + std::to_string(k), 1e12, 1e11));
    for (int k = 0; k + 1 < n; ++k) test::cable(t, k, k + 1, 1e10, 1e-6, "c");
    t.finalize();
    return t;
}

// fanOut (a redistribution's messages from one device at once) gives the loads and the largest
// latency that walking every message's route gives: bytes summed per link, latency summed along
// the route from the source, equal to the last bit (integral bytes), from eager and cached tables.
TEST(TopologyRoutes, FanOutEqualsWalkingEveryRoute) {
    std::mt19937_64 rng(11);
    std::vector<Topology> topologies;
    for (const auto& stem : builtinTopologyNames()) topologies.push_back(builtinTopology(stem));
    topologies.push_back(chain(40));
    for (const Topology& t : topologies) {
        SCOPED_TRACE(t.name);
        const RouteTable cached(t, 3 * sizeof(int) * static_cast<size_t>(t.vertexCount()), 0);
        const auto devices = static_cast<std::uint64_t>(t.deviceCount());
        for (int trial = 0; trial < 20; ++trial) {
            const int from = static_cast<int>(rng() % devices);
            std::vector<std::pair<int, double>> messages;
            const auto count = rng() % (2 * devices + 1);  // some destinations twice, some the source
            for (std::uint64_t k = 0; k < count; ++k)
                messages.emplace_back(static_cast<int>(rng() % devices), static_cast<double>(1 + rng() % 1000000));
            std::vector<double> expected(t.links.size(), 0.0);
            double worst = 0;
            for (const auto& [to, bytes] : messages) {
                double latency = 0;
                for (int l : t.route(from, to)) {
                    latency += t.links[static_cast<size_t>(l)].latency_s;
                    expected[static_cast<size_t>(l)] += bytes;
                }
                worst = std::max(worst, latency);
            }
            for (const RouteTable* table : {static_cast<const RouteTable*>(nullptr), &cached}) {
                std::vector<double> load(t.links.size(), 0.0);
                std::vector<int> touched;
                const double latency = table ? table->fanOut(from, messages, load, touched)
                                             : t.fanOut(from, messages, load, touched);
                ASSERT_EQ(latency, worst) << "from " << from;
                ASSERT_EQ(load, expected) << "from " << from;
                std::vector<int> nonzero;
                for (size_t l = 0; l < load.size(); ++l)
                    if (load[l] != 0) nonzero.push_back(static_cast<int>(l));
                std::sort(touched.begin(), touched.end());
                ASSERT_EQ(touched, nonzero) << "each loaded link once";
            }
        }
    }
    const Topology t = test::pair();
    std::vector<double> short_load(0);
    std::vector<int> touched;
    EXPECT_THROW(t.fanOut(0, {{1, 1.0}}, short_load, touched), std::invalid_argument);
    std::vector<double> load(t.links.size(), 0.0);
    EXPECT_THROW(t.fanOut(0, {{2, 1.0}}, load, touched), std::out_of_range);
}


TEST(TopologyRoutes, ALongChainRoutesEndToEnd) {
    const Topology t = chain(4096);
    const auto far = t.route(0, 4095);
    ASSERT_EQ(far.size(), 4095u);
    for (size_t h = 0; h < far.size(); ++h) EXPECT_EQ(far[h], static_cast<int>(2 * h));  // the forward links
    EXPECT_EQ(t.route(4095, 0).size(), 4095u);
    EXPECT_EQ(t.route(100, 103), (std::vector<int>{200, 202, 204}));
    EXPECT_EQ(t.route(103, 100), (std::vector<int>{205, 203, 201}));
}

// Issue 26, item 6: a 4,096-device ring with 300,000 unlinked switches, DP at batch 256 (256
// devices). Trees over every vertex fitted 220 at a time, so the ring all-reduce (each of the 256
// devices a source, in turn) recomputed a search over 304,096 vertices per message and the
// simulation never finished.
TEST(TopologyRoutes, UnlinkedSwitchesCostNothingPerRoute) {
    Topology t = test::ring(4096);
    for (int k = 0; k < 300'000; ++k) t.switches.push_back("spare" + std::to_string(k));
    t.finalize();
    const Network net = test::fcChain();
    const double makespan = partita::test::withinTimeLimit("DP on the ring", std::chrono::seconds(20), [&] {
        const SoapStrategy dp = dataParallelStrategy(net, 256, 4096);
        SimOptions per_hop;  // routes are what this times: the ring's messages use one hop each
        per_hop.collectives = CollectiveModel::PerHop;
        return simulate(buildTaskGraph(net, 256, dp, t, per_hop)).makespan;
    });
    EXPECT_TRUE(std::isfinite(makespan) && makespan > 0) << makespan;

    const RouteTable routes(t);
    EXPECT_EQ(routes.routableVertices(), 4096);  // the switches take no part in a search
    EXPECT_EQ(routes.maxCachedSources(), RouteTable::kDefaultCacheBytes / (4 * 4096));
    for (int round = 0; round < 3; ++round)
        for (int a = 0; a < 4096; ++a) ASSERT_EQ(routes.route(a, (a + 1) % 4096).size(), 1u);
    EXPECT_EQ(routes.treesComputed(), 4096u);  // once per source, then read from the cache
    EXPECT_EQ(routes.route(0, 2048).size(), 2048u);
}

// Sources asked for in cycles longer than the cache (the simulator's order): plain LRU would
// compute a tree on every call; the cache keeps all but one of its trees through each cycle.
TEST(TopologyRoutes, ACacheSmallerThanACycleStillHits) {
    const Topology t = k80Cluster64();
    const size_t tree = sizeof(int) * static_cast<size_t>(t.vertexCount());
    const RouteTable some(t, 10 * tree, 0);
    ASSERT_EQ(some.maxCachedSources(), 10u);
    ASSERT_EQ(some.routableVertices(), t.vertexCount());
    const int cycles = 20, d = t.deviceCount();
    for (int c = 0; c < cycles; ++c)
        for (int a = 0; a < d; ++a) ASSERT_EQ(some.route(a, (a + 1) % d), t.route(a, (a + 1) % d));
    EXPECT_LE(some.cachedSources(), 10u);
    // Plain LRU would compute d x cycles = 1,280 trees; here each later cycle hits on at least 7 of
    // the 10 trees held (one in 32 new trees is promoted and pushes out one held).
    EXPECT_LE(some.treesComputed(), static_cast<size_t>(d + (cycles - 1) * (d - 7)));
    EXPECT_GE(some.treesComputed(), static_cast<size_t>(d + (cycles - 1) * (d - 10)));
}

// Vertices that no route can pass (a dead-end switch, switches linked to no device, a switch only
// reached one way) are left out of the search; the routes among the devices are the same.
TEST(TopologyRoutes, DeadEndsAreLeftOutOfTheSearch) {
    Topology t = test::ring(6);
    t.switches = {"dead-end", "island-a", "island-b", "sink"};
    test::cable(t, 0, 6, 1e12, 0, "stub");      // a fast stub: a dead end all the same
    test::cable(t, 7, 8, 1e12, 0, "island");    // linked, but to no device
    t.links.push_back({"one-way", 3, 9, 1e12, 0, "oneway"});  // reached, never left
    t.finalize();
    const RouteTable routes(t, RouteTable::kDefaultCacheBytes, 0);
    EXPECT_EQ(routes.routableVertices(), 6);
    const Topology plain = test::ring(6);
    for (int a = 0; a < 6; ++a)
        for (int b = 0; b < 6; ++b) ASSERT_EQ(routes.route(a, b), plain.route(a, b)) << a << " -> " << b;
}

TEST(TopologyRoutes, UnreachableDevicesAreNamedInOrder) {
    Topology t = chain(5);
    t.links.erase(t.links.begin() + 4);  // d2 -> d3 gone: d0, d1 and d2 cannot reach d3
    try {
        t.finalize();
        FAIL() << "no error";
    } catch (const TopologyError& e) {
        EXPECT_STREQ(e.what(), "no route from device 'd0' to device 'd3' (nor to 1 device more of its group): links go one way only");
        EXPECT_EQ(e.index, 0);
    }
    Topology back = chain(5);
    back.links.erase(back.links.begin() + 7);  // d4 -> d3 gone, d4 -> s leads nowhere: only d4 is cut off
    back.switches = {"s"};
    back.links.push_back({"d4-s", 4, 5, 1e9, 0, "l"});
    try {
        back.finalize();
        FAIL() << "no error";
    } catch (const TopologyError& e) {
        EXPECT_STREQ(e.what(), "no route from device 'd4' to device 'd0': links go one way only");
        EXPECT_EQ(e.index, 4);
    }
}

}  // namespace
}  // namespace partita::sim
