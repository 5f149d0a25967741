// Device topologies (docs/methods/flexflow.md#device-topologies, "Partita's decisions"): validation, shortest-path
// routes with deterministic ties, the presets and the partita-topology/1 format.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "core/io/array_io.h"
#include "core/model/array.h"
#include "core/topology/topology.h"
#include "core/topology/template.h"
#include "core/util/error.h"
#include "sim_test_util.h"
#include "test_util.h"

namespace partita::sim {
namespace {

int vertex(const Topology& t, const std::string& name) {
    const int v = t.findVertex(name);
    EXPECT_GE(v, 0) << name;
    return v;
}

// The route from a to b as "a > x > y > b".
std::string path(const Topology& t, const std::string& a, const std::string& b) {
    const auto& r = t.route(vertex(t, a), vertex(t, b));
    std::string s = a;
    for (int k : r) s += " > " + t.vertexName(t.links[static_cast<size_t>(k)].to);
    return s;
}

std::string kinds(const Topology& t, const std::string& a, const std::string& b) {
    std::string s;
    for (int k : t.route(vertex(t, a), vertex(t, b)))
        s += (s.empty() ? "" : " ") + t.links[static_cast<size_t>(k)].kind;
    return s;
}

TEST(Topology, P100ClusterRoutes) {
    const Topology t = p100Cluster16();
    EXPECT_EQ(t.deviceCount(), 16);
    EXPECT_EQ(t.switches.size(), 5u);
    EXPECT_EQ(t.links.size(), 4u * (12 + 8 + 2));
    EXPECT_EQ(t.devices[5].name, "n1.gpu1");
    EXPECT_EQ(t.devices[5].node, 1);
    // Inside a node every GPU pair has its own NVLink: one hop.
    for (int a = 0; a < 4; ++a)
        for (int b = 0; b < 4; ++b)
            if (a != b) {
                EXPECT_EQ(t.route(4 + a, 4 + b).size(), 1u) << a << " " << b;
            }
    EXPECT_EQ(kinds(t, "n2.gpu3", "n2.gpu0"), "nvlink");
    EXPECT_EQ(t.links[static_cast<size_t>(t.route(0, 1)[0])].name, "nvlink n0.gpu0->n0.gpu1");
    // Between nodes: PCIe to the host, InfiniBand through the switch, PCIe down.
    EXPECT_EQ(path(t, "n0.gpu1", "n3.gpu2"), "n0.gpu1 > n0.host > ib > n3.host > n3.gpu2");
    EXPECT_EQ(kinds(t, "n0.gpu1", "n3.gpu2"), "pcie infiniband infiniband pcie");
    const auto& r = t.route(vertex(t, "n0.gpu1"), vertex(t, "n3.gpu2"));
    EXPECT_EQ(t.links[static_cast<size_t>(r[1])].bandwidth_Bps, 12.5e9);  // EDR 100 Gb/s
    EXPECT_EQ(t.links[static_cast<size_t>(r[0])].bandwidth_Bps, 15.75e9);
    EXPECT_TRUE(t.route(7, 7).empty());
}

TEST(Topology, K80ClusterIsAsymmetricInsideANode) {
    const Topology t = k80Cluster64();
    EXPECT_EQ(t.deviceCount(), 64);
    EXPECT_EQ(t.switches.size(), 16u * 3 + 1);
    EXPECT_EQ(t.links.size(), 16u * 7 * 2);
    // Adjacent GPUs share a PCIe switch; the other pair is reached through the host switch.
    EXPECT_EQ(path(t, "n5.gpu0", "n5.gpu1"), "n5.gpu0 > n5.plx0 > n5.gpu1");
    EXPECT_EQ(path(t, "n5.gpu3", "n5.gpu2"), "n5.gpu3 > n5.plx1 > n5.gpu2");
    EXPECT_EQ(path(t, "n5.gpu1", "n5.gpu2"), "n5.gpu1 > n5.plx0 > n5.host > n5.plx1 > n5.gpu2");
    // Both GPUs of a pair leave through the same uplink: the routes share a link.
    const auto& a = t.route(vertex(t, "n5.gpu0"), vertex(t, "n5.gpu2"));
    const auto& b = t.route(vertex(t, "n5.gpu1"), vertex(t, "n5.gpu3"));
    EXPECT_EQ(a[1], b[1]);
    EXPECT_EQ(t.links[static_cast<size_t>(a[1])].name, "pcie n5.plx0->n5.host");
    EXPECT_EQ(path(t, "n0.gpu0", "n15.gpu3"), "n0.gpu0 > n0.plx0 > n0.host > ib > n15.host > n15.plx1 > n15.gpu3");
    EXPECT_EQ(t.links[static_cast<size_t>(t.route(0, 63)[3])].bandwidth_Bps, 7e9);  // FDR 56 Gb/s
}

TEST(Topology, HTreeLinksCarryHyParLevelBandwidth) {
    const Array array = defaultArray(4);
    const Topology t = fromArray(array);
    EXPECT_EQ(t.deviceCount(), 16);
    EXPECT_EQ(t.switches.size(), 15u);
    EXPECT_EQ(t.devices[3].name, "A3");
    EXPECT_EQ(t.devices[3].peak_flops, array.accelerator.throughput_ops);
    EXPECT_EQ(path(t, "A0", "A1"), "A0 > H4.0 > A1");
    EXPECT_EQ(path(t, "A0", "A15"), "A0 > H4.0 > H3.0 > H2.0 > H1 > H2.1 > H3.3 > H4.7 > A15");
    // The link into the level-Hk switch carries that level's bandwidth (bits/s / 8).
    const auto& r = t.route(0, 15);
    for (int up = 0; up < 4; ++up) {
        const double level = array.levelBandwidth(3 - up) / 8;
        EXPECT_EQ(t.links[static_cast<size_t>(r[static_cast<size_t>(up)])].bandwidth_Bps, level) << up;
        EXPECT_EQ(t.links[static_cast<size_t>(r[static_cast<size_t>(7 - up)])].bandwidth_Bps, level) << up;
    }
}

TEST(Topology, TorusRoutesAreMinimalAndDimensionOrdered) {
    const Topology t = fromArray(defaultArray(4, partita::Topology::Torus));
    EXPECT_TRUE(t.switches.empty());
    EXPECT_EQ(t.links.size(), 16u * 4);
    auto ring = [](int a, int b) { return std::min((a - b + 4) % 4, (b - a + 4) % 4); };
    for (int a = 0; a < 16; ++a)
        for (int b = 0; b < 16; ++b)
            EXPECT_EQ(static_cast<int>(t.route(a, b).size()), ring(a / 4, b / 4) + ring(a % 4, b % 4)) << a << " " << b;
    // Ties: columns first, then rows (as torusLoads), towards the lower link ids.
    EXPECT_EQ(path(t, "A0", "A5"), "A0 > A1 > A5");
    EXPECT_EQ(path(t, "A0", "A10"), "A0 > A1 > A2 > A6 > A10");
    // The graph's busiest link per HyPar level (mirror exchanges) equals the analytic torus loads.
    std::vector<int> loads;
    for (int k = 1; k <= 4; ++k) {
        std::map<int, int> flows;
        for (int a = 0; a < 16; ++a)
            for (int l : t.route(a, a ^ (1 << (4 - k)))) ++flows[l];
        int most = 0;
        for (const auto& [link, n] : flows) most = std::max(most, n);
        loads.push_back(most);
    }
    EXPECT_EQ(loads, torusLoads(4));
}

TEST(Topology, AccParGroupsBecomeABisectionTree) {
    const Topology t = fromArray(loadArray(test::example("arrays/tpu-mixed-128.json")));
    EXPECT_EQ(t.deviceCount(), 128);
    EXPECT_EQ(t.devices.front().kind, "tpu-v3");
    EXPECT_EQ(t.devices.back().kind, "tpu-v2");
    EXPECT_EQ(t.devices.back().mem_bandwidth_Bps, 700e9);
    // The first bisection separates the kinds: a v3 reaches a v2 through the root.
    EXPECT_EQ(t.vertexName(t.links[static_cast<size_t>(t.route(0, 127)[6])].to), "H1");
}

// Two devices joined by two equally fast switch paths and a direct link.
Topology diamond(bool second_path_first) {
    Topology t;
    t.name = "diamond";
    t.devices = {{"a", "x", 1e12, 1e11, 0, 1, 0}, {"b", "x", 1e12, 1e11, 0, 1, 0}};
    t.switches = {"s1", "s2"};
    const Link a_s1{"a-s1", 0, 2, 2e9, 0, "l"}, s1_b{"s1-b", 2, 1, 2e9, 0, "l"};
    const Link a_s2{"a-s2", 0, 3, 2e9, 0, "l"}, s2_b{"s2-b", 3, 1, 2e9, 0, "l"};
    t.links = second_path_first ? std::vector<Link>{a_s2, s2_b, a_s1, s1_b} : std::vector<Link>{a_s1, s1_b, a_s2, s2_b};
    t.links.push_back({"b-a", 1, 0, 1e9, 0, "l"});
    return t;
}

TEST(Topology, TiesGoToFewerHopsThenLowerLinkIds) {
    Topology t = diamond(false);
    t.finalize();
    EXPECT_EQ(path(t, "a", "b"), "a > s1 > b");
    t = diamond(true);
    t.finalize();
    EXPECT_EQ(path(t, "a", "b"), "a > s2 > b");
    // A direct link as slow as the two half-length hops together: equal cost, fewer hops wins.
    t.links.push_back({"a-b", 0, 1, 1e9, 0, "l"});
    t.finalize();
    EXPECT_EQ(path(t, "a", "b"), "a > b");
    // Finalizing again (or a copy) gives the same routes.
    Topology copy = t;
    copy.finalize();
    EXPECT_EQ(copy.route(0, 1), t.route(0, 1));
}

template <typename F>
std::string finalizeError(F change) {
    Topology t = diamond(false);
    change(t);
    try {
        t.finalize();
    } catch (const std::invalid_argument& e) {
        return e.what();
    }
    return "no error";
}

TEST(Topology, FinalizeNamesTheFaultyElement) {
    EXPECT_EQ(finalizeError([](Topology& t) { t.links[1].bandwidth_Bps = 0; }),
              "link 's1-b': bandwidth must be positive, got 0 B/s");
    EXPECT_EQ(finalizeError([](Topology& t) { t.links[0].latency_s = -1e-6; }),
              "link 'a-s1': latency must not be negative, got -1e-06 s");
    EXPECT_EQ(finalizeError([](Topology& t) { t.links[2].to = 9; }),
              "link 'a-s2': to is not a device or switch (vertex 9, expected 0..3)");
    EXPECT_EQ(finalizeError([](Topology& t) { t.links[2].to = 0; }), "link 'a-s2': connects a vertex to itself");
    EXPECT_EQ(finalizeError([](Topology& t) { t.devices[1].peak_flops = 0; }),
              "device 'b': peak FLOP/s must be positive, got 0");
    EXPECT_EQ(finalizeError([](Topology& t) { t.devices[0].efficiency = 1.5; }),
              "device 'a': efficiency must be in (0, 1], got 1.5");
    EXPECT_EQ(finalizeError([](Topology& t) { t.switches[1] = "a"; }),
              "switch 'a': the name is also used by device 0");
    EXPECT_EQ(finalizeError([](Topology& t) { t.links.pop_back(); }),
              "device 'a' is not connected: it has no incoming link");
    EXPECT_EQ(finalizeError([](Topology& t) { t.links.back() = {"s1-a", 2, 0, 1e9, 0, "l"}; }),
              "device 'b' is not connected: it has no outgoing link");
    EXPECT_EQ(finalizeError([](Topology& t) { t.devices.clear(); }), "topology 'diamond' has no compute devices");
    try {
        Topology t = diamond(false);
        t.links.pop_back();
        t.finalize();
    } catch (const TopologyError& e) {
        EXPECT_EQ(e.element, TopologyError::Element::Device);
        EXPECT_EQ(e.index, 0);
    }
    Topology raw = diamond(false);
    EXPECT_FALSE(raw.finalized());
    EXPECT_THROW(raw.route(0, 1), std::logic_error);
    raw.finalize();
    EXPECT_THROW(raw.route(0, 2), std::out_of_range);
}

TEST(TopologyPresets, ExampleFilesEqualTheFunctions) {
    for (const auto& stem : builtinTopologyNames()) {
        const Topology file = loadTopology(test::example("topologies/" + stem + ".json"));
        EXPECT_EQ(file, builtinTopology(stem)) << stem;
        EXPECT_TRUE(file.finalized());
    }
    EXPECT_EQ(builtinTopology("p100-16"), p100Cluster16());
    EXPECT_THROW(builtinTopology("tpu"), std::invalid_argument);
}

TEST(TopologyJson, RoundTrips) {
    for (const auto& stem : builtinTopologyNames()) {
        const Topology t = builtinTopology(stem);
        const std::string text = writeTopologyJson(t);
        const Topology again = readTopologyJson(text, "again");
        EXPECT_EQ(again, t) << stem;
        EXPECT_EQ(writeTopologyJson(again), text) << stem;
        for (int a = 0; a < t.deviceCount(); a += 5)
            for (int b = 0; b < t.deviceCount(); b += 3) EXPECT_EQ(again.route(a, b), t.route(a, b));
    }
    // Duplex pairs are written once; one-way links and custom names survive.
    EXPECT_EQ(topologyToJson(p100Cluster16())["links"].size(), 44u);
    Topology d = diamond(false);
    d.finalize();
    const Topology again = readTopologyJson(writeTopologyJson(d), "again");
    EXPECT_EQ(again, d);
    EXPECT_EQ(again.links[4].name, "b-a");
}

}  // namespace
}  // namespace partita::sim

namespace partita::sim {
namespace {

// Built in code, not read from JSON: finalize() still checks the per-task overhead.
TEST(Topology, NegativeTaskOverheadIsRejected) {
    Topology t = sim::test::pair();
    t.devices[1].task_overhead_s = -1e-6;
    try {
        t.finalize();
        FAIL() << "expected an error";
    } catch (const std::exception& e) {
        EXPECT_NE(std::string(e.what()).find("per-task overhead must not be negative"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("'d1'"), std::string::npos) << e.what();
    }
}

}  // namespace
}  // namespace partita::sim
