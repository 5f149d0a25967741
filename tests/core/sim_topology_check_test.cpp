// checkTopology lists every problem of a topology with its element and message; the presets and
// examples have none; a file's problems carry their JSON pointers.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "core/topology/check.h"
#include "core/util/error.h"
#include "core/util/limits.h"
#include "test_util.h"

namespace partita::sim {

void PrintTo(const TopologyProblem& p, std::ostream* os) {
    *os << static_cast<int>(p.element) << " " << p.index << " \"" << p.message << "\" " << p.place;
}

namespace {

using Element = TopologyError::Element;

ComputeDevice device(const std::string& name) {
    ComputeDevice d;
    d.name = name;
    d.kind = "npu";
    d.peak_flops = 1e12;
    d.mem_bandwidth_Bps = 1e11;
    return d;
}

void duplex(Topology& t, int a, int b, double bw = 1e9) {
    for (const auto& [f, z] : {std::pair{a, b}, std::pair{b, a}})
        t.links.push_back({"link " + t.vertexName(f) + "->" + t.vertexName(z), f, z, bw, 1e-6, "link"});
}

// d0 .. d(n-1) joined as a ring of duplex links.
Topology ring(int n) {
    Topology t;
    t.name = "ring";
    for (int k = 0; k < n; ++k) t.devices.push_back(device("d" + std::to_string(k)));
    for (int k = 0; k < n; ++k) duplex(t, k, (k + 1) % n);
    return t;
}

TEST(TopologyCheck, PresetsExamplesAndARingHaveNoProblems) {
    for (const auto& name : builtinTopologyNames()) {
        EXPECT_TRUE(checkTopology(builtinTopology(name)).empty()) << name;
        EXPECT_TRUE(topologyWarnings(builtinTopology(name)).empty()) << name;
    }
    for (const auto& e : std::filesystem::directory_iterator(std::string(PARTITA_EXAMPLES_DIR) + "/topologies"))
        if (e.path().extension() == ".json") {
            EXPECT_TRUE(checkTopologyFile(e.path().string()).empty()) << e.path();
        }
    Topology t = ring(4);
    EXPECT_TRUE(checkTopology(t).empty());
    EXPECT_NO_THROW(t.finalize());
}

TEST(TopologyCheck, EmptyTopology) {
    Topology t;
    t.name = "blank";
    const std::vector<TopologyProblem> want{{Element::Topology, -1, "topology 'blank' has no compute devices", ""}};
    EXPECT_EQ(checkTopology(t), want);
}

TEST(TopologyCheck, DeviceFieldsAllListed) {
    Topology t = ring(2);
    t.links.resize(2);  // a ring of two is one duplex link, not two
    t.devices[0].peak_flops = 0;
    t.devices[0].efficiency = 1.5;
    t.devices[1].mem_bandwidth_Bps = -1;
    t.devices[1].task_overhead_s = -2e-6;
    const std::vector<TopologyProblem> want{
        {Element::Device, 0, "device 'd0': peak FLOP/s must be positive, got 0", ""},
        {Element::Device, 0, "device 'd0': efficiency must be in (0, 1], got 1.5", ""},
        {Element::Device, 1, "device 'd1': memory bandwidth must be positive, got -1 B/s", ""},
        {Element::Device, 1, "device 'd1': per-task overhead must not be negative, got -2e-06 s", ""}};
    EXPECT_EQ(checkTopology(t), want);
}

// Finite but absurd values would turn times into 0 or infinity; the limits (docs/formats/limits.md) refuse
// them, and their edges are accepted.
TEST(TopologyCheck, RatesAndDurationsOutsideTheLimits) {
    Topology t = ring(2);
    t.links.resize(2);
    t.devices[0].peak_flops = 1e21;
    t.devices[0].mem_bandwidth_Bps = 1;
    t.devices[0].task_overhead_s = 86400;
    t.links[0].bandwidth_Bps = 1e21;
    EXPECT_TRUE(checkTopology(t).empty());
    t.devices[0].peak_flops = 1e308;
    t.devices[1].mem_bandwidth_Bps = 0.5;
    t.devices[1].mem_capacity_B = 1e30;
    t.devices[1].task_overhead_s = 1e5;
    t.links[0].bandwidth_Bps = 1e308;
    t.links[1].latency_s = 1e300;
    const std::vector<TopologyProblem> want{
        {Element::Device, 0, "device 'd0': peak FLOP/s must be between 1 and 1e+21, got 1e+308", ""},
        {Element::Device, 1, "device 'd1': memory bandwidth must be between 1 and 1e+21 B/s, got 0.5 B/s", ""},
        {Element::Device, 1, "device 'd1': memory capacity must be at most 2^60 B, got 1e+30 B", ""},
        {Element::Device, 1, "device 'd1': per-task overhead must be at most 86400 s, got 100000 s", ""},
        {Element::Link, 0, "link 'link d0->d1': bandwidth must be between 1 and 1e+21 B/s, got 1e+308 B/s", ""},
        {Element::Link, 1, "link 'link d1->d0': latency must be at most 86400 s, got 1e+300 s", ""}};
    EXPECT_EQ(checkTopology(t), want);
    EXPECT_THROW(t.finalize(), TopologyError);
}

TEST(TopologyCheck, NamesLinksAndDuplicates) {
    Topology t = ring(3);
    t.devices[2].name = "d0";
    t.links[0].bandwidth_Bps = 0;
    t.links[1].latency_s = -1;
    t.links.push_back(t.links[2]);                          // link 6: same from and to as link 2
    t.links.push_back({"", 1, 7, 1e9, 0, "link"});          // link 7: unknown vertex
    t.links.push_back({"self", 1, 1, 1e9, 0, "link"});      // link 8
    const std::vector<TopologyProblem> want{
        {Element::Device, 2, "device 'd0': the name is also used by device 0", ""},
        {Element::Link, 0, "link 'link d0->d1': bandwidth must be positive, got 0 B/s", ""},
        {Element::Link, 1, "link 'link d1->d0': latency must not be negative, got -1 s", ""},
        {Element::Link, 6, "link 'link d1->d2': duplicates link 'link d1->d2' (same from and to)", ""},
        {Element::Link, 7, "link 7: to is not a device or switch (vertex 7, expected 0..2)", ""},
        {Element::Link, 8, "link 'self': connects a vertex to itself", ""}};
    EXPECT_EQ(checkTopology(t), want);
}

TEST(TopologyCheck, UnlinkedDeviceAndSeparateGroupsOncePerGroup) {
    Topology t = ring(3);                      // d0 d1 d2
    for (const char* n : {"e0", "e1", "lone"}) t.devices.push_back(device(n));
    t.switches.push_back("s");                 // vertex 6 joins e0 and e1
    duplex(t, 3, 6);
    duplex(t, 4, 6);
    const std::vector<TopologyProblem> want{
        {Element::Device, 5, "device 'lone' is not connected: it has no links", ""},
        {Element::Device, 3,
         "no route between the group of device 'e0' (2 devices) and the group of device 'd0' (3 devices): no link joins "
         "them",
         ""}};
    EXPECT_EQ(checkTopology(t), want);
}

TEST(TopologyCheck, OneWayLinks) {
    Topology t;
    t.name = "chain";
    for (const char* n : {"a", "b", "c"}) t.devices.push_back(device(n));
    t.links.push_back({"a->b", 0, 1, 1e9, 0, "link"});
    t.links.push_back({"b->c", 1, 2, 1e9, 0, "link"});
    t.links.push_back({"c->b", 2, 1, 1e9, 0, "link"});
    const std::vector<TopologyProblem> want{
        {Element::Device, 0, "device 'a' is not connected: it has no incoming link", ""},
        {Element::Device, 1, "no route from device 'b' to device 'a' (nor from 1 device more of its group): links go one way only", ""}};
    EXPECT_EQ(checkTopology(t), want);
}

// Issue 26, item 6: switches no route can use are said once, as a warning; they do not stop a
// simulation (routes leave them out), but an unlinked switch is most likely a mistake.
TEST(TopologyCheck, UnusedSwitchesAreOneWarningEach) {
    Topology t = ring(4);
    for (int k = 0; k < 300'000; ++k) t.switches.push_back("spare" + std::to_string(k));
    EXPECT_TRUE(checkTopology(t).empty());
    std::vector<TopologyProblem> want{
        {Element::Switch, 0, "300,000 switches (the first 'spare0') have no links: no route passes them", ""}};
    EXPECT_EQ(topologyWarnings(t), want);
    t.switches.resize(3);
    t.switches[0] = "lone";
    duplex(t, 5, 6);                                   // spare1 <-> spare2: linked, to no device
    t.links.push_back({"d0->lone", 0, 4, 1e9, 0, "link"});  // reached, never left
    want = {{Element::Switch, 0,
             "3 switches (the first 'lone') are on no route between devices: no device reaches them, or they reach no device",
             ""}};
    EXPECT_EQ(topologyWarnings(t), want);
    t.switches.push_back("unlinked");
    want.insert(want.begin(), {Element::Switch, 3, "switch 'unlinked' has no links: no route passes it", ""});
    EXPECT_EQ(topologyWarnings(t), want);
    EXPECT_NO_THROW(t.finalize());
}

TEST(TopologyCheck, CountsBeyondTheLimits) {
    Topology t = ring(2);
    t.switches.assign(static_cast<size_t>(limits::kTopologySwitches) + 1, "");
    for (size_t k = 0; k < t.switches.size(); ++k) t.switches[k] = "s" + std::to_string(k);
    const auto problems = checkTopology(t);
    ASSERT_FALSE(problems.empty());
    EXPECT_EQ(problems[0], (TopologyProblem{Element::Topology, -1,
                                            "the topology has 1,048,577 switches, more than the limit of 1,048,576", ""}));
    EXPECT_THROW(t.finalize(), TopologyError);
}

// A file's repetitions are counted before they are built: the entry past a limit is named.
TEST(TopologyCheck, FileCountsBeyondTheLimitsAreRefusedAtTheirEntry) {
    const std::string text = R"({"format": "partita-topology/1", "name": "big",
  "devices": [{"name": "g{i}", "peak_flops": 1e12, "mem_bandwidth_Bps": 1e11, "for": [["i", 2]]}],
  "switches": [{"name": "a{i}", "for": [["i", 1000000]]}, {"name": "b{i}", "for": [["i", 48577]]}]})";
    const std::string error = partita::test::errorOf<InputError>([&] { readTopologyJson(text, "big.json"); });
    EXPECT_EQ(error, "big.json: /switches/1: this entry makes 48,577 switches after 1,000,000: more than the limit of "
                     "1,048,576 switches");
    EXPECT_EQ(partita::test::errorOf<InputError>([&] { readTopologyJsonUnchecked(text, "big.json", nullptr); }), error);
}

TEST(TopologyCheck, FileProblemsCarryTheirPlaces) {
    const auto path = (std::filesystem::temp_directory_path() / "partita-check-zero-bw.json").string();
    std::ofstream(path) << R"({"format": "partita-topology/1", "name": "pair",
  "devices": [{"name": "g0", "peak_flops": 1e12, "mem_bandwidth_Bps": 1e11},
              {"name": "g1", "peak_flops": 1e12, "mem_bandwidth_Bps": 1e11, "efficiency": 2}],
  "links": [{"from": "g0", "to": "g1", "bandwidth_Bps": 0, "duplex": true, "kind": "nvlink"}]})";
    Topology read;
    const auto problems = checkTopologyFile(path, &read);
    ASSERT_EQ(problems.size(), 3u);
    EXPECT_EQ(describeProblem("f.json", problems[0]), "f.json: /devices/1: device 'g1': efficiency must be in (0, 1], got 2");
    EXPECT_EQ(describeProblem("f.json", problems[1]),
              "f.json: /links/0: link 'nvlink g0->g1': bandwidth must be positive, got 0 B/s");
    EXPECT_EQ(describeProblem("f.json", problems[2]),
              "f.json: /links/0: link 'nvlink g1->g0': bandwidth must be positive, got 0 B/s");
    EXPECT_EQ(read.links.size(), 2u);
    EXPECT_THROW(loadTopology(path), std::exception);  // the strict reader still refuses it
    std::filesystem::remove(path);
}

}  // namespace
}  // namespace partita::sim
