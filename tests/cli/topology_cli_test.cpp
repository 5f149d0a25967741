// partita-cli topology generate / convert, and imported topologies in simulate: the four
// presets come back from their generator options graph for graph.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "core/topology/topology.h"
#include "tests/cli/cli_test_util.h"

namespace partita::cli {
namespace {

using test::cli;
using test::example;

std::string tempPath(const std::string& name) {
    return (std::filesystem::temp_directory_path() / ("partita-topology-cli-" + name)).string();
}

sim::Topology generated(std::vector<std::string> args, const std::string& name) {
    const std::string out = tempPath(name);
    args.insert(args.begin(), {"topology", "generate"});
    args.insert(args.end(), {"--out", out});
    const auto r = cli(args);
    EXPECT_EQ(r.status, 0) << r.err;
    sim::Topology t = sim::loadTopology(out);
    std::filesystem::remove(out);
    return t;
}

TEST(TopologyCli, GeneratorsRecreateThePresets) {
    const auto file = [](const std::string& stem) { return sim::loadTopology(example("topologies/" + stem + ".json")); };
    EXPECT_EQ(generated({"cluster", "--nodes", "4", "--gpus", "4", "--device", "p100", "--intra", "nvlink",
                         "--network-GBps", "12.5"},
                        "p100.json"),
              file("p100-16"));
    EXPECT_EQ(generated({"cluster", "--nodes", "16", "--gpus", "4", "--device", "k80", "--intra", "pcie",
                         "--network-GBps", "7"},
                        "k80.json"),
              file("k80-64"));
    EXPECT_EQ(generated({"array", "--levels", "4", "--shape", "htree"}, "htree.json"), file("hmc-htree-16"));
    EXPECT_EQ(generated({"array", "--levels", "4", "--shape", "torus"}, "torus.json"), file("hmc-torus-16"));
}

TEST(TopologyCli, RegularKinds) {
    const auto ring = generated({"ring", "--devices", "6", "--bandwidth-GBps", "25", "--latency-ns", "100"}, "r.json");
    EXPECT_EQ(ring.deviceCount(), 6);
    EXPECT_EQ(ring.links.size(), 12u);
    EXPECT_EQ(ring.links[0].bandwidth_Bps, 25e9);
    EXPECT_EQ(ring.links[0].latency_s, 100e-9);
    EXPECT_EQ(generated({"torus", "--dims", "4x4x2"}, "t3.json").links.size(), 2u * (32 + 32 + 16));
    const auto mesh = generated({"mesh", "--dims", "4x3"}, "m.json");
    EXPECT_EQ(mesh.links.size(), 2u * (3 * 3 + 4 * 2));  // 3 rows of 3 links, 4 columns of 2
    EXPECT_EQ(mesh.route(0, 11).size(), 5u);
    const auto sw = generated({"switch", "--devices", "8"}, "s.json");
    EXPECT_EQ(sw.switches.size(), 1u);
    EXPECT_EQ(generated({"fully-connected", "--devices", "5"}, "fc.json").links.size(), 20u);
    const auto cluster = generated({"cluster", "--nodes", "2", "--gpus", "8"}, "c.json");
    EXPECT_EQ(cluster.name, "P100 cluster (2 nodes x 8 GPUs)");
    EXPECT_EQ(cluster.deviceCount(), 16);
    // A heterogeneous AccPar array (TPU v2 and v3 groups) as a fat tree.
    const auto mixed = generated({"array", "--array", example("arrays/tpu-mixed-128.json")}, "mix.json");
    EXPECT_EQ(mixed.deviceCount(), 128);
    std::set<std::string> kinds;
    for (const auto& d : mixed.devices) kinds.insert(d.kind);
    EXPECT_EQ(kinds.size(), 2u);
}

TEST(TopologyCli, Errors) {
    EXPECT_EQ(cli({"topology", "generate", "ring", "--devices", "8"}).status, 2);  // no --out
    const auto bad = cli({"topology", "generate", "torus", "--dims", "4x0", "--out", "-"});
    EXPECT_EQ(bad.status, 2);
    EXPECT_NE(bad.err.find("--dims: expected sizes such as 4x4"), std::string::npos) << bad.err;
    EXPECT_EQ(cli({"topology", "generate", "hypercube", "--out", "-"}).status, 2);
    const auto big = cli({"topology", "generate", "switch", "--devices", "5000", "--out", "-"});
    EXPECT_EQ(big.status, 2);
    // Too many links: the message names the option given (--devices), not --dims.
    const auto dense = cli({"topology", "generate", "fully-connected", "--devices", "1024", "--out", "-"});
    EXPECT_EQ(dense.status, 2);
    EXPECT_NE(dense.err.find("--devices: "), std::string::npos) << dense.err;
    EXPECT_NE(dense.err.find("1047552 or more links"), std::string::npos) << dense.err;
}

TEST(TopologyCli, ConvertAndSimulateImported) {
    const auto r = cli({"topology", "convert", "--topology", example("topologies/imported/calculon-a100.json"),
                        "--out", "-"});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(sim::readTopologyJson(r.out, "out").deviceCount(), 16);
    const auto j = test::cliJson({"simulate", "--network", example("networks/lenet-c.json"), "--topology",
                                  example("topologies/imported/astra-ring-8.yml"), "--method", "dp", "--json"});
    EXPECT_EQ(j["devices"].size(), 8u);
    EXPECT_GT(j["makespan_s"].get<double>(), 0);
    ASSERT_TRUE(j.contains("topology_warnings"));
    EXPECT_NE(j["topology_warnings"][0].get<std::string>().find("A100-class"), std::string::npos);
}

TEST(TopologyCli, MachineGivesHyParAndAccParTheArrayOfATopology) {
    // The H-tree preset's bisection reproduces the default array: the same plans and figures.
    const auto net = example("networks/vgg-a.json");
    const auto plain = cli({"hypar", "--network", net, "--json"});
    const auto machine = cli({"hypar", "--network", net, "--machine", "hmc-htree-16", "--json"});
    ASSERT_EQ(machine.status, 0) << machine.err;
    EXPECT_EQ(machine.out, plain.out);
    const auto accpar = cli({"accpar", "--network", net, "--machine",
                             example("topologies/imported/astra-switch-8.json"), "--json"});
    ASSERT_EQ(accpar.status, 0) << accpar.err;
    const auto with_levels = cli({"hypar", "--network", net, "--machine", example("topologies/imported/astra-ring-8.yml"),
                            "--levels", "2"});
    EXPECT_EQ(with_levels.status, 2);
}

TEST(TopologyCli, CheckListsEveryProblemWithItsPlace) {
    const auto good = cli({"topology", "check", example("topologies/p100-16.json")});
    EXPECT_EQ(good.status, 0) << good.err;
    EXPECT_EQ(good.out, example("topologies/p100-16.json") +
                            ": topology 'P100 cluster (4 nodes x 4 GPUs)', 16 devices, 5 switches, 88 links: no problems\n");
    const std::string path = tempPath("check.json");
    std::ofstream(path) << R"({"format": "partita-topology/1", "name": "two",
  "devices": [{"name": "a", "peak_flops": 0, "mem_bandwidth_Bps": 1e11}, {"name": "b", "peak_flops": 1e12, "mem_bandwidth_Bps": 1e11}],
  "links": [{"from": "a", "to": "b", "bandwidth_Bps": 1e9, "duplex": true}, {"from": "a", "to": "b", "bandwidth_Bps": 1e9}]})";
    const auto bad = cli({"topology", "check", path});
    EXPECT_EQ(bad.status, 1);
    EXPECT_EQ(bad.out, path + ": /devices/0: device 'a': peak FLOP/s must be positive, got 0\n" + path +
                           ": /links/1: link 'link a->b': duplicates link 'link a->b' (same from and to)\n" + path +
                           ": topology 'two', 2 devices, 0 switches, 3 links: 2 problems\n");
    std::filesystem::remove(path);
}

}  // namespace
}  // namespace partita::cli

namespace partita::cli {
namespace {

// topology collective: a ring all-reduce on a generated ring equals 2(p-1)(alpha + S/(pB)), the JSON
// carries every applicable algorithm, and inapplicable ones are named.
TEST(TopologyCli, CollectiveTimesTheAlgorithmsOnATopology) {
    const std::string ring = tempPath("coll-ring.json");
    ASSERT_EQ(test::cli({"topology", "generate", "ring", "--devices", "6", "--bandwidth-GBps", "25", "--latency-ns", "100",
                         "--out", ring})
                  .status,
              0);
    const auto r = test::cli({"topology", "collective", "--topology", ring, "--bytes", "6e6", "--json"});
    ASSERT_EQ(r.status, 0) << r.err;
    const Json j = Json::parse(r.out);
    ASSERT_FALSE(j["algorithms"].empty());
    EXPECT_EQ(j["algorithms"][0]["algorithm"], "ring");
    const double expected = 2.0 * 5 * (100e-9 + 6e6 / 6 / 25e9);
    EXPECT_NEAR(j["algorithms"][0]["time_s"].get<double>(), expected, 1e-12 * expected);
    // Six devices: no halving-doubling (not a power of two), no hierarchical (one node).
    EXPECT_EQ(j["not_applicable"].size(), 2u);
    const auto hd = test::cli({"topology", "collective", "--topology", ring, "--bytes", "1e6", "--algorithm", "halving-doubling"});
    EXPECT_EQ(hd.status, 1);
    EXPECT_NE(hd.err.find("power-of-two group, not 6"), std::string::npos) << hd.err;
    EXPECT_EQ(test::cli({"topology", "collective", "--topology", ring, "--bytes", "1e6", "--devices", "7"}).status, 2);
    EXPECT_EQ(test::cli({"topology", "collective", "--topology", ring, "--bytes", "1e6", "--op", "gather"}).status, 2);
    const auto text = test::cli({"topology", "collective", "--topology", "p100-16", "--bytes", "1e8", "--algorithm", "best"});
    ASSERT_EQ(text.status, 0) << text.err;
    EXPECT_NE(text.out.find("all-reduce of 100 MB among 16 devices"), std::string::npos) << text.out;
    std::filesystem::remove(ring);
}

}  // namespace
}  // namespace partita::cli
