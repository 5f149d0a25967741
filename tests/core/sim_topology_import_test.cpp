// Topologies imported from ASTRA-sim (YAML, newer and older JSON) and Calculon system files:
// device, switch and link counts and bandwidths exact; malformed inputs name file and place.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "core/topology/import.h"
#include "core/util/error.h"
#include "tests/core/test_util.h"

namespace partita::sim {
namespace {

Topology imported(const std::string& stem, std::vector<std::string>* warnings = nullptr) {
    return loadTopology(test::example("topologies/imported/" + stem), warnings);
}

std::set<double> bandwidths(const Topology& t) {
    std::set<double> out;
    for (const auto& l : t.links) out.insert(l.bandwidth_Bps);
    return out;
}

// The neighbours of vertex v by outgoing links, by name.
std::set<std::string> neighbours(const Topology& t, const std::string& v) {
    std::set<std::string> out;
    for (const auto& l : t.links)
        if (t.vertexName(l.from) == v) out.insert(t.vertexName(l.to));
    return out;
}

std::string importError(const std::string& text, const std::string& source) {
    return partita::test::errorOf<InputError>([&] { readAnyTopology(text, source, nullptr); });
}

TEST(TopologyImport, AstraRingOf8) {
    const Topology t = imported("astra-ring-8.yml");
    EXPECT_EQ(t.deviceCount(), 8);
    EXPECT_TRUE(t.switches.empty());
    EXPECT_EQ(t.links.size(), 16u);  // 8 duplex ring links
    EXPECT_EQ(bandwidths(t), std::set<double>{100e9});
    EXPECT_EQ(t.links[0].latency_s, 700e-9);
    EXPECT_EQ(neighbours(t, "npu0"), (std::set<std::string>{"npu1", "npu7"}));
    EXPECT_EQ(t.route(0, 4).size(), 4u);
    EXPECT_EQ(t.devices[3].peak_flops, 312e12);
}

TEST(TopologyImport, AstraTorus4x8) {
    const Topology t = imported("astra-torus-4x8.yml");
    EXPECT_EQ(t.deviceCount(), 32);
    EXPECT_EQ(t.links.size(), 128u);  // 8 rings of 4 and 4 rings of 8, 64 duplex links
    EXPECT_EQ(bandwidths(t), (std::set<double>{50e9, 200e9}));
    // npu1 = (1, 0): ring of 4 through npu0/npu2, ring of 8 through npu5 and npu29.
    EXPECT_EQ(neighbours(t, "npu1"), (std::set<std::string>{"npu0", "npu2", "npu5", "npu29"}));
    EXPECT_EQ(t.devices[5].node, 1);
    const auto inner = std::count_if(t.links.begin(), t.links.end(), [](const Link& l) { return l.bandwidth_Bps == 200e9; });
    EXPECT_EQ(inner, 64);
}

TEST(TopologyImport, AstraSwitchOf8NewerJson) {
    const Topology t = imported("astra-switch-8.json");
    EXPECT_EQ(t.deviceCount(), 8);
    EXPECT_EQ(t.switches, std::vector<std::string>{"d0.sw0"});
    EXPECT_EQ(t.links.size(), 16u);
    EXPECT_EQ(bandwidths(t), std::set<double>{300e9});
    EXPECT_EQ(t.route(0, 7).size(), 2u);
}

TEST(TopologyImport, AstraLegacyJson) {
    std::vector<std::string> warnings;
    const Topology t = imported("astra-legacy-2d.json", &warnings);
    EXPECT_EQ(t.deviceCount(), 16);
    EXPECT_EQ(t.switches.size(), 4u);
    EXPECT_EQ(t.links.size(), 80u);  // 4 x 12 fully connected, 4 switches x 8
    // 3 links per NPU reach the 3 others of its group once each: 150 GB/s per pair.
    EXPECT_EQ(bandwidths(t), (std::set<double>{25e9, 150e9}));
    ASSERT_GE(warnings.size(), 1u);
    EXPECT_NE(warnings[0].find("ignored dimension-type, hbm-bandwidth, hbm-latency, hbm-scale, nic-latency, "
                               "router-latency, topology-name"),
              std::string::npos)
        << warnings[0];
}

TEST(TopologyImport, CalculonA100) {
    std::vector<std::string> warnings;
    const Topology t = imported("calculon-a100.json", &warnings);
    EXPECT_EQ(t.deviceCount(), 16);  // the 8-GPU tier whole, two of them under the second tier
    EXPECT_EQ(t.switches, (std::vector<std::string>{"tier0.sw0", "tier0.sw1", "tier1.sw0"}));
    EXPECT_EQ(t.links.size(), 64u);
    const ComputeDevice& d = t.devices[9];
    EXPECT_EQ(d.peak_flops, 312e12);
    EXPECT_EQ(d.efficiency, 0.9);
    EXPECT_EQ(d.mem_bandwidth_Bps, 2039e9);
    EXPECT_EQ(d.mem_capacity_B, 80.0 * 1024 * 1024 * 1024);
    EXPECT_EQ(d.node, 1);
    const auto bw = bandwidths(t);
    ASSERT_EQ(bw.size(), 2u);
    EXPECT_DOUBLE_EQ(*bw.begin(), 25e9 * 0.9);
    EXPECT_DOUBLE_EQ(*bw.rbegin(), 300e9 * 0.8);
    // Inside a node through its NVLink-class switch (2 x 0.5 us), across nodes through tier 1.
    EXPECT_EQ(t.route(0, 7).size(), 2u);
    EXPECT_EQ(t.links[t.route(0, 7)[0]].kind, "tier0");
    EXPECT_EQ(t.links[t.route(0, 8)[0]].kind, "tier1");
    ASSERT_FALSE(warnings.empty());
    EXPECT_NE(warnings[0].find("/mem2"), std::string::npos) << warnings[0];
    EXPECT_NE(warnings[0].find("/networks/0/ops"), std::string::npos) << warnings[0];
    EXPECT_NE(warnings[0].find("/vector"), std::string::npos) << warnings[0];
}

TEST(TopologyImport, CalculonOlderPerTypeMatrix) {
    const std::string text = R"({"matrix": {"float32": {"tflops": 19.5}, "float16": {"tflops": 312,
        "gflops_efficiency": [[1, 0.7]]}}, "mem1": {"GiB": 40, "GBps": 1555},
        "networks": [{"bandwidth": 100, "efficiency": 1, "size": 4, "latency": 0}]})";
    const Topology t = readAnyTopology(text, "c.json", nullptr);
    EXPECT_EQ(t.deviceCount(), 4);
    EXPECT_EQ(t.devices[0].peak_flops, 312e12);
    EXPECT_EQ(t.devices[0].efficiency, 0.7);
    EXPECT_EQ(bandwidths(t), std::set<double>{100e9});
}

TEST(TopologyImport, YamlErrorsNamePlace) {
    EXPECT_EQ(importError("topology: [ Torus ]\nnpus_count: [ 8 ]\nbandwidth: [ 1 ]\nlatency: [ 1 ]\n", "a.yml"),
              "a.yml: line 1, column 13: unknown topology 'Torus' (use Ring, FullyConnected or Switch)");
    EXPECT_EQ(importError("topology: [ Ring ]\nnpus_count: [ 0 ]\nbandwidth: [ 1 ]\nlatency: [ 1 ]\n", "a.yml"),
              "a.yml: line 2, column 15: npus_count must be a positive number, got '0'");
    EXPECT_EQ(importError("topology: [ Ring ]\nnpus_count: [ 8 ]\nbandwidth: [ -1 ]\nlatency: [ 1 ]\n", "a.yml"),
              "a.yml: line 3, column 14: bandwidth (GB/s) must be a positive number, got '-1'");
    EXPECT_EQ(importError("topology: [ Ring, Ring ]\nnpus_count: [ 8 ]\nbandwidth: [ 1 ]\nlatency: [ 1 ]\n", "a.yml"),
              "a.yml: 'npus_count' has 1 entries but 'topology' has 2");
    EXPECT_EQ(importError("topology: [ Ring ]\nnpus_count: [ 8 ]\nbandwidth: [ 1 ]\n", "a.yml"), "a.yml: missing 'latency'");
    EXPECT_NE(importError("topology: [ Ring\n", "a.yml").find("a.yml: line "), std::string::npos);
    EXPECT_EQ(importError("- 1\n- 2\n", "a.yml"), "a.yml: line 1, column 1: expected a mapping of per-dimension lists");
    // yaml-cpp stops deep nesting with its generic "bad file"; the message says what is wrong instead.
    const std::string deep = "bandwidth: " + std::string(5000, '[') + std::string(5000, ']') + "\n";
    const std::string message = importError(deep, "a.yml");
    EXPECT_EQ(message.rfind("a.yml: line 1, column ", 0), 0u) << message;
    EXPECT_NE(message.find(": nested deeper than "), std::string::npos) << message;
}

TEST(TopologyImport, LimitsAreCheckedNotCrashed) {
    // 4096 x 2 devices, and a fully connected group of 4096 (16.8 million links).
    EXPECT_EQ(importError("topology: [ Ring, Ring ]\nnpus_count: [ 4096, 2 ]\nbandwidth: [ 1, 1 ]\nlatency: [ 1, 1 ]\n",
                    "a.yml"),
              "a.yml: line 2, column 21: the device count (4096 x 2) exceeds the limit of 4096");
    EXPECT_EQ(importError(R"({"topology": ["FullyConnected"], "npus_count": [4096], "bandwidth": [1], "latency": [0]})",
                    "f.json"),
              "f.json: /npus_count/0: the network needs 16773120 or more links, over the limit of 262144");
    EXPECT_EQ(importError(R"({"topology": ["Ring"], "npus_count": [1e300], "bandwidth": [1], "latency": [0]})", "f.json"),
              "f.json: /npus_count/0: npus_count must be an integer in 1..4096, got '1e+300'");
}

TEST(TopologyImport, JsonErrorsNamePlace) {
    EXPECT_EQ(importError(R"({"dimensions-count": 2, "topologies-per-dim": ["Ring"], "units-count": [2],
        "links-count": [2], "link-latency": [1], "link-bandwidth": [1]})", "old.json"),
              "old.json: /topologies-per-dim: has 1 entries but dimensions-count is 2");
    EXPECT_EQ(importError(R"({"matrix": {"tflops": 1}, "mem1": {"GiB": 1, "GBps": 1},
        "networks": [{"bandwidth": 1, "efficiency": 1.5, "size": 2}]})", "c.json"),
              "c.json: /networks/0/efficiency: must be in (0, 1]");
    EXPECT_EQ(importError(R"({"matrix": {"tflops": 1}, "mem1": {"GiB": 1, "GBps": 1},
        "networks": [{"bandwidth": 1, "efficiency": 1, "size": 3}, {"bandwidth": 1, "efficiency": 1, "size": 4}]})",
                    "c.json"),
              "c.json: /networks/1/size: the tier's size must be a multiple of the tier below");
    EXPECT_EQ(importError(R"({"matrix": {"tflops": 1}, "mem1": {"GiB": 1}, "networks": []})", "c.json"),
              "c.json: /mem1: missing key 'GBps'");
    EXPECT_EQ(importError(R"({"name": "x"})", "x.json"),
              "x.json: /: not a topology: expected \"format\": \"partita-topology/1\", ASTRA-sim's \"npus_count\" or "
              "\"dimensions-count\", or Calculon's \"networks\"");
}

}  // namespace
}  // namespace partita::sim
