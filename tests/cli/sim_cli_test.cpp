// partita-cli simulate and mcmc end to end, in-process: JSON structure, a
// deterministic seeded search never worse than DP, a Chrome trace, and errors.
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "app/cli/sim_memory_report.h"
#include "core/io/network_io.h"
#include "core/model/network.h"
#include "tests/cli/cli_test_util.h"

namespace partita::cli {
namespace {

using test::cli;
using test::cliJson;
using test::example;

TEST(SimCli, SimulateLenetDpJson) {
    const auto j = cliJson({"simulate", "--network", example("networks/lenet-c.json"), "--topology", "p100-16",
                            "--method", "dp", "--json"});
    EXPECT_GT(j["makespan_s"].get<double>(), 0);
    EXPECT_GT(j["tasks"].get<int>(), 0);
    ASSERT_EQ(j["devices"].size(), 16u);
    for (const auto& d : j["devices"]) {
        EXPECT_GT(d["utilisation"].get<double>(), 0);
        EXPECT_LE(d["utilisation"].get<double>(), 1.0);
    }
    EXPECT_GT(j["traffic"]["total_bytes"].get<double>(), 0);  // ring all-reduce of the weights
    EXPECT_EQ(j["traffic"]["bytes"].size(), 16u);
    // The same preset given as a file gives the same timeline.
    const auto f = cli({"simulate", "--network", example("networks/lenet-c.json"), "--topology",
                        example("topologies/p100-16.json"), "--method", "dp", "--json"});
    ASSERT_EQ(f.status, 0) << f.err;
    EXPECT_EQ(nlohmann::json::parse(f.out)["makespan_s"], j["makespan_s"]);
}

// Issue 26 item 5: a batch smaller than the devices leaves some idle; the summary says how many work and why.
TEST(SimCli, SimulateSaysHowManyDevicesTheStrategyUses) {
    const std::vector<std::string> args{"simulate", "--network", example("networks/lenet-c.json"), "--topology",
                                        "p100-16", "--method", "dp", "--batch", "8"};
    const auto r = cli(args);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("Strategy  dp on 8 of the 16 devices (batch 8 limits data parallelism to 8 devices)\n"),
              std::string::npos)
        << r.out;
    auto json = args;
    json.push_back("--json");
    const auto j = cliJson(json);
    EXPECT_EQ(j["devices_used"].get<int>(), 8);
    EXPECT_EQ(j["devices_used_reason"], "batch 8 limits data parallelism to 8 devices");
    const auto all = cli({"simulate", "--network", example("networks/lenet-c.json"), "--topology", "p100-16",
                          "--method", "dp"});
    EXPECT_NE(all.out.find("Strategy  dp on the 16 devices\n"), std::string::npos) << all.out;
}

TEST(SimCli, ParameterServerSyncIsAnOption) {
    // FlexFlow's own simulator: every replica pushes its gradient to the first replica and pulls the
    // weights back. On 16 GPUs that funnels data parallelism's traffic into GPU 0: slower than the ring.
    auto makespan = [](const char* sync) {
        const auto r = cli({"simulate", "--network", example("networks/lenet-c.json"), "--topology", "p100-16",
                            "--method", "dp", "--sync", sync, "--json"});
        EXPECT_EQ(r.status, 0) << r.err;
        const auto j = nlohmann::json::parse(r.out);
        EXPECT_EQ(j["sync"], sync);
        return j["makespan_s"].get<double>();
    };
    EXPECT_GT(makespan("ps"), makespan("ring"));
    const auto bad = cli({"simulate", "--network", example("networks/lenet-c.json"), "--topology", "p100-16",
                          "--method", "dp", "--sync", "nccl"});
    EXPECT_EQ(bad.status, 2);
    EXPECT_NE(bad.err.find("--sync: unknown weight sync"), std::string::npos);
}

TEST(SimCli, SimulateOwtMpAndText) {
    for (const char* m : {"owt", "mp"}) {
        const auto r = cli({"simulate", "--network", example("networks/alexnet.json"), "--topology", "p100-16",
                            "--method", m, "--batch", "64"});
        ASSERT_EQ(r.status, 0) << m << r.err;
        EXPECT_NE(r.out.find("Makespan"), std::string::npos);
    }
}

TEST(SimCli, HyParAndAccParPlansSimulate) {
    // Both hierarchical methods lower to SOAP, Type-II (reduce) cells included.
    for (const char* m : {"hypar", "accpar"}) {
        const auto r = cli({"simulate", "--network", example("networks/vgg-a.json"), "--topology", "hmc-htree-16",
                            "--method", m, "--json"});
        ASSERT_EQ(r.status, 0) << m << ": " << r.err;
        const auto j = nlohmann::json::parse(r.out);
        EXPECT_GT(j["makespan_s"].get<double>(), 0) << m;
        EXPECT_EQ(j["strategy"], m);
    }
}

TEST(SimCli, McmcDeterministicAndNeverWorseThanDp) {
    const std::string strategy = testing::TempDir() + "mcmc_best.json";
    const std::vector<std::string> args{"mcmc", "--network", example("networks/lenet-c.json"), "--topology", "p100-16",
                                        "--iterations", "300", "--seed", "5", "--batch", "64", "--json"};
    auto with_export = args;
    with_export.insert(with_export.end(), {"--export", strategy});
    const auto a = cli(with_export), b = cli(args);
    ASSERT_EQ(a.status, 0) << a.err;
    ASSERT_EQ(b.status, 0) << b.err;
    const auto ja = nlohmann::json::parse(a.out), jb = nlohmann::json::parse(b.out);
    EXPECT_EQ(ja["makespan_s"], jb["makespan_s"]);
    EXPECT_EQ(ja["best_strategy"], jb["best_strategy"]);
    EXPECT_EQ(ja["iterations"], jb["iterations"]);
    EXPECT_GT(ja["iterations"].get<int>(), 0);
    EXPECT_LE(ja["iterations"].get<int>(), 300);  // 100 per start, fewer when a chain stalls
    EXPECT_LE(ja["makespan_s"].get<double>(), ja["dp_makespan_s"].get<double>());
    EXPECT_GE(ja["speedup_vs_dp"].get<double>(), 1.0);
    EXPECT_GT(ja["owt_makespan_s"].get<double>(), 0);
    EXPECT_EQ(ja["starts"].size(), 3u);
    for (const auto& chain : ja["starts"]) {  // counted parts of the iterations
        EXPECT_LE(chain["early_exits"].get<int>() + chain["accepted"].get<int>(), chain["iterations"].get<int>());
        EXPECT_GE(chain["resets"].get<int>(), 0);
    }
    // The exported strategy simulates to the reported makespan.
    const auto s = cli({"simulate", "--network", example("networks/lenet-c.json"), "--topology", "p100-16",
                        "--strategy", strategy, "--batch", "64", "--json"});
    ASSERT_EQ(s.status, 0) << s.err;
    EXPECT_DOUBLE_EQ(nlohmann::json::parse(s.out)["makespan_s"].get<double>(), ja["makespan_s"].get<double>());
}

TEST(SimCli, ChromeTraceHasEventsPerDeviceAndLink) {
    const std::string trace = testing::TempDir() + "sim_trace.json";
    const auto r = cli({"simulate", "--network", example("networks/lenet-c.json"), "--topology", "p100-16", "--method",
                        "dp", "--trace", trace});
    ASSERT_EQ(r.status, 0) << r.err;
    std::ifstream f(trace);
    const auto j = nlohmann::json::parse(f);
    const auto& events = j.is_array() ? j : j["traceEvents"];
    std::set<std::pair<int, int>> lanes;
    std::set<int> processes;
    for (const auto& e : events)
        if (e["ph"] == "X") {
            EXPECT_GE(e["dur"].get<double>(), 0);
            lanes.insert({e["pid"].get<int>(), e["tid"].get<int>()});
            processes.insert(e["pid"].get<int>());
        }
    // Compute devices and collective streams: data parallelism moves no activations, and each
    // weight's all-reduce is a collective on every device's stream.
    EXPECT_EQ(processes, (std::set<int>{1, 3}));
    int device_lanes = 0, stream_lanes = 0;
    for (const auto& [pid, tid] : lanes) {
        device_lanes += pid == 1;
        stream_lanes += pid == 3;
    }
    EXPECT_EQ(device_lanes, 16);
    EXPECT_EQ(stream_lanes, 16);
    // Per hop, the all-reduces are messages on links instead.
    const auto hop = cli({"simulate", "--network", example("networks/lenet-c.json"), "--topology", "p100-16", "--method",
                          "dp", "--collectives", "per-hop", "--trace", trace});
    ASSERT_EQ(hop.status, 0) << hop.err;
    std::ifstream g(trace);
    processes.clear();
    const auto per_hop = nlohmann::json::parse(g);
    for (const auto& e : per_hop["traceEvents"])
        if (e["ph"] == "X") processes.insert(e["pid"].get<int>());
    EXPECT_EQ(processes, (std::set<int>{1, 2}));
}

TEST(SimCli, Errors) {
    const std::string lenet = example("networks/lenet-c.json");
    auto r = cli({"simulate", "--network", lenet, "--topology", "p100-16"});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("--strategy or --method"), std::string::npos);
    r = cli({"simulate", "--network", lenet, "--topology", "nowhere-9", "--method", "dp"});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("nowhere-9"), std::string::npos);
    r = cli({"simulate", "--network", lenet, "--topology", "/no/such/topo.json", "--method", "dp"});
    EXPECT_EQ(r.status, 1);
    EXPECT_NE(r.err.find("/no/such/topo.json"), std::string::npos);
    r = cli({"simulate", "--network", lenet, "--topology", "p100-16", "--method", "xx"});
    EXPECT_EQ(r.status, 2);
    r = cli({"simulate", "--network", lenet, "--topology", "p100-16", "--method", "hypar", "--batch", "100"});
    EXPECT_EQ(r.status, 1);  // 16-way data parallelism does not divide the batch
    EXPECT_FALSE(r.err.empty());
    const std::string bad = testing::TempDir() + "bad_soap.json";
    std::ofstream(bad) << R"({"format": "partita-soap/1", "network": "x", "operators": [}})";
    r = cli({"simulate", "--network", lenet, "--topology", "p100-16", "--strategy", bad});
    EXPECT_EQ(r.status, 1);
    EXPECT_NE(r.err.find("bad_soap.json"), std::string::npos);
    r = cli({"mcmc", "--network", lenet, "--topology", "p100-16"});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("--budget-s"), std::string::npos);
    r = cli({"mcmc", "--network", lenet, "--topology", "p100-16", "--iterations", "10", "--init", "/no/strategy.json"});
    EXPECT_EQ(r.status, 1);
    EXPECT_NE(r.err.find("/no/strategy.json"), std::string::npos);
}

// `nodes` x 4 GPUs behind one InfiniBand switch, written with templates in 700 bytes.
std::string cluster(int nodes) {
    const std::string n = std::to_string(nodes);
    const std::string path = testing::TempDir() + "cluster-" + n + ".json";
    std::ofstream(path) << R"({"format": "partita-topology/1", "name": "GPU cluster",
 "devices": [{"for": [["n", )" + n + R"(], ["g", 4]], "name": "n{n}.gpu{g}", "node": "{n}", "kind": "p100",
              "peak_flops": 9.3e12, "mem_bandwidth_Bps": 732e9, "efficiency": 0.6}],
 "switches": [{"for": [["n", )" + n + R"(]], "name": "n{n}.nvswitch"}, "ib"],
 "links": [
  {"for": [["n", )" + n + R"(], ["g", 4]], "kind": "nvlink", "from": "n{n}.gpu{g}", "to": "n{n}.nvswitch",
   "bandwidth_Bps": 20e9, "latency_s": 1e-6, "duplex": true},
  {"for": [["n", )" + n + R"(]], "kind": "infiniband", "from": "n{n}.nvswitch", "to": "ib",
   "bandwidth_Bps": 12.5e9, "latency_s": 0.5e-6, "duplex": true}]})";
    return path;
}

TEST(SimCli, HundredsOfDevicesGiveTrafficAsPairs) {
    const auto j = cliJson({"simulate", "--network", example("networks/lenet-c.json"), "--topology", cluster(75),
                            "--method", "dp", "--sync", "ps", "--batch", "300", "--json"});
    ASSERT_EQ(j["devices"].size(), 300u);
    EXPECT_FALSE(j["traffic"].contains("bytes"));  // more than 256 devices: no dense matrix
    // The server n0.gpu0 exchanges with each of the other 299 replicas, both ways.
    ASSERT_EQ(j["traffic"]["pairs"].size(), 2u * 299);
    double total = 0;
    for (const auto& p : j["traffic"]["pairs"]) {
        EXPECT_TRUE(p[0] == 0 || p[1] == 0) << p;
        total += p[2].get<double>();
    }
    EXPECT_EQ(total, j["traffic"]["total_bytes"].get<double>());
}

TEST(SimCli, AllReduceOverThousandsOfDevicesIsRefusedUpFrontPerHop) {
    // 1,024 replicas in a ring, per hop: 2p(p-1) = 2.1 million messages of 2 to 4 hops per weighted layer.
    const auto ring = cli({"simulate", "--network", example("networks/lenet-c.json"), "--topology", cluster(256),
                           "--method", "dp", "--batch", "1024", "--collectives", "per-hop"});
    EXPECT_EQ(ring.status, 1);
    EXPECT_NE(ring.err.find("more than the limit of 16777216"), std::string::npos) << ring.err;
    EXPECT_NE(ring.err.find("--collectives algorithm"), std::string::npos) << ring.err;
    // As collectives (the default): 2 compute tasks per operator and device, p + 1 per weight.
    const auto collective = cli({"simulate", "--network", example("networks/lenet-c.json"), "--topology", cluster(256),
                                 "--method", "dp", "--batch", "1024", "--json"});
    ASSERT_EQ(collective.status, 0) << collective.err;
    const auto j = nlohmann::json::parse(collective.out);
    EXPECT_EQ(j["collectives"], "algorithm");
    EXPECT_EQ(j["collective_algorithm"], "best");
    EXPECT_GT(j["makespan_s"].get<double>(), 0);
    const Network lenet = loadNetwork(example("networks/lenet-c.json"));
    size_t weighted = 0;
    for (const auto& op : lenet.ops) weighted += hasWeights(op.type);
    EXPECT_EQ(j["tasks"].get<size_t>(), 2 * lenet.ops.size() * 1024 + weighted * 1025);
    const auto bad = cli({"simulate", "--network", example("networks/lenet-c.json"), "--topology", "p100-16",
                          "--method", "dp", "--collectives", "hop"});
    EXPECT_EQ(bad.status, 2);
    EXPECT_NE(bad.err.find("--collectives: unknown collective model"), std::string::npos) << bad.err;
    const auto bad_algorithm = cli({"simulate", "--network", example("networks/lenet-c.json"), "--topology", "p100-16",
                                    "--method", "dp", "--collective-algorithm", "star"});
    EXPECT_EQ(bad_algorithm.status, 2);
    EXPECT_NE(bad_algorithm.err.find("--collective-algorithm"), std::string::npos) << bad_algorithm.err;
}

}  // namespace
}  // namespace partita::cli

namespace partita::cli {
namespace {

std::string simData(const std::string& name) { return std::string(PARTITA_TEST_DATA) + "/sim/" + name; }

// Issue 30 item 5: GPT-3 175B data parallel on 64 x 80 GB simulates, is never reported as fitting,
// and says which device needs how much (docs/methods/flexflow.md#memory-per-device).
TEST(SimCli, Gpt3DataParallelDoesNotFitIn80GB) {
    const std::vector<std::string> args{"simulate", "--network", simData("gpt3-175b-fc.json"), "--topology",
                                        simData("switch-64x80gb.json"), "--batch", "64", "--method", "dp", "--sync",
                                        "ps"};
    const auto text = cli(args);
    EXPECT_EQ(text.status, kDoesNotFit) << text.err;
    EXPECT_NE(text.out.find("Memory    does not fit: device npu0 needs 2,089.8 GB of 80 GB (weights 695.8 GB, "
                            "gradients 695.8 GB, optimizer 695.8 GB, activations 42.47 MB, buffers 2.4 GB); 64 of 64 "
                            "devices over capacity\n"),
              std::string::npos)
        << text.out;
    EXPECT_NE(text.out.find("npu63"), std::string::npos);  // the result is still printed in full
    auto json_args = args;
    json_args.push_back("--json");
    const auto r = cli(json_args);
    ASSERT_EQ(r.status, kDoesNotFit) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["memory"]["fits"], false);
    EXPECT_EQ(j["memory"]["checked"], true);
    EXPECT_EQ(j["memory"]["worst"], "npu0");
    const auto& m = j["devices"][0]["memory"];
    EXPECT_EQ(m["weights_bytes"].get<double>(), 173946175488.0 * 4);
    EXPECT_EQ(m["capacity_bytes"].get<double>(), 80e9);
    EXPECT_EQ(m["total_bytes"].get<double>(), 3 * 173946175488.0 * 4 + 96.0 * 9 * 12288 * 4 + 4.0 * 12288 * 12288 * 4);
    // Adam keeps two copies; plain SGD none.
    auto adam = json_args;
    adam.insert(adam.end(), {"--optimizer", "adam"});
    EXPECT_EQ(nlohmann::json::parse(cli(adam).out)["devices"][0]["memory"]["optimizer_bytes"].get<double>(),
              2 * 173946175488.0 * 4);
    auto bad = args;
    bad.insert(bad.end(), {"--optimizer", "lion"});
    const auto e = cli(bad);
    EXPECT_EQ(e.status, 2);
    EXPECT_EQ(e.err, "partita-cli simulate: --optimizer must be sgd, momentum or adam, got 'lion'\n");
}

TEST(SimCli, AStrategyThatFitsSaysSoAndExitsZero) {
    const auto r = cli({"simulate", "--network", example("networks/lenet-c.json"), "--topology", "p100-16", "--method",
                        "dp"});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("Memory    fits; largest: device "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find(" of 17.2 GB"), std::string::npos) << r.out;  // 16 GiB
}

TEST(SimCli, McmcSaysWhenNothingFits) {
    const auto r = cli({"mcmc", "--network", simData("gpt3-175b-fc.json"), "--topology",
                        simData("switch-64x80gb.json"), "--batch", "64", "--sync", "ps", "--init", "dp",
                        "--iterations", "4", "--json"});
    ASSERT_EQ(r.status, kDoesNotFit) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["memory"]["fits"], false);
    EXPECT_GT(j["starts"][0]["initial_excess_bytes"].get<double>(), 0);
}

}  // namespace
}  // namespace partita::cli

namespace partita::cli {
namespace {

// Issue 30 item 6 from the command line: `llm network` writes a transformer and Megatron's plan as SOAP,
// `topology generate cluster --device a100` DGX nodes, and `simulate --profile` prices compute with the
// profile's kernel curves (docs/methods/flexflow.md#kernel-curves).
TEST(SimCli, LlmNetworkMegatronOnDgxWithKernelCurves) {
    const std::string dir = testing::TempDir();
    const std::string net = dir + "gpt-2l.json", strategy = dir + "gpt-2l-t8d2.json", topo = dir + "dgx2.json";
    auto r = cli({"llm", "network", "--model", "gpt3-1.3b", "--layers", "2", "--out", net, "--tp", "8", "--dp", "2",
                  "--global-batch", "2", "--strategy-out", strategy});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("--batch 4096"), std::string::npos) << r.out;  // 2 sequences of 2,048 tokens
    r = cli({"topology", "generate", "cluster", "--device", "a100", "--nodes", "2", "--out", topo});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("16 devices"), std::string::npos) << r.out;
    const std::vector<std::string> base{"simulate", "--network", net, "--strategy", strategy, "--batch", "4096",
                                        "--topology", topo, "--json"};
    const auto plain = cliJson(base);
    EXPECT_TRUE(plain["kernels"].is_null());
    auto with = base;
    for (const char* a : {"--profile", "a100-sxm4-80gb", "--precision", "bf16"}) with.push_back(a);
    const auto curves = cliJson(with);
    EXPECT_EQ(curves["kernels"]["profile"], "a100-sxm4-80gb");
    EXPECT_EQ(curves["kernels"]["precision"], "bf16");
    EXPECT_EQ(curves["kernels"]["gradient_bytes"], 4.0);  // the profile reduces gradients in fp32
    EXPECT_NE(curves["makespan_s"], plain["makespan_s"]);
    // Half the bytes in bf16: the activations' traffic halves (the weights' is fp32 either way).
    EXPECT_LT(curves["traffic"]["total_bytes"].get<double>(), plain["traffic"]["total_bytes"].get<double>());
    std::vector<std::string> text_args(base.begin(), base.end() - 1);  // without --json: the text names the curves
    for (const char* a : {"--profile", "a100-sxm4-80gb", "--precision", "bf16"}) text_args.push_back(a);
    const auto text = cli(text_args);
    EXPECT_NE(text.out.find("Compute   a100-sxm4-80gb's kernel curves, bf16"), std::string::npos) << text.out;

    // Errors name the option and the value.
    r = cli({"simulate", "--network", net, "--strategy", strategy, "--batch", "4096", "--topology", topo, "--profile",
             "z80"});
    EXPECT_EQ(r.status, 1);  // neither a preset nor a file, as llm evaluate says
    EXPECT_NE(r.err.find("z80"), std::string::npos) << r.err;
    r = cli({"simulate", "--network", net, "--strategy", strategy, "--batch", "4096", "--topology", topo, "--profile",
             "a100-sxm4-80gb", "--precision", "fp64"});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("fp64"), std::string::npos) << r.err;
    r = cli({"llm", "network", "--model", "llama2-70b", "--out", net});
    EXPECT_NE(r.status, 0);
    EXPECT_NE(r.err.find("grouped-query"), std::string::npos) << r.err;
    r = cli({"llm", "network", "--model", "gpt3-1.3b", "--out", net, "--tp", "8"});
    EXPECT_EQ(r.status, 2);  // a plan without a file to write it to
    const std::string untouched = dir + "never-written.json";
    r = cli({"llm", "network", "--model", "gpt3-1.3b", "--out", untouched, "--tp", "8", "--dp", "2",
             "--global-batch", "10000", "--strategy-out", strategy});
    EXPECT_EQ(r.status, 2);  // 20 million tokens: beyond simulate's batch limit, and nothing is written
    EXPECT_NE(r.err.find("batch limit"), std::string::npos) << r.err;
    EXPECT_FALSE(std::ifstream(untouched).good());
    r = cli({"topology", "generate", "cluster", "--device", "p100", "--intra", "nvswitch", "--out", topo});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("NVSwitch nodes are a100 or h100"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace partita::cli
