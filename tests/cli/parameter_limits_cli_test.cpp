// Issue 26 item 3 through partita-cli: a parameter beyond its limit is refused with the limit (exit 2,
// nothing printed), never "nan" or "inf" printed with exit 0; a topology's efficiency too.
#include <gtest/gtest.h>

#include "tests/cli/sweep_test_util.h"

namespace partita::cli::test {
namespace {

TEST(ParameterLimitsCli, ParametersBeyondTheirLimitsAreRefusedWithTheLimit) {
    const std::string net = example("networks/lenet-c.json");
    // Each class of parameter: a rate, the fat-tree factor, an energy, the bytes per element.
    const std::vector<std::pair<std::string, std::string>> options{
        {"throughput-ops", "between 1 and 1e+21 ops/s"}, {"link-bps", "between 1 and 1e+21 b/s"},
        {"level-bw-factor", "between 0.0009765625 and 1024"}, {"e-mult-pj", "between 0 and 1000000 pJ"},
        {"e-link-pj-per-bit", "between 0 and 1000000 pJ"}, {"bytes-per-element", "between 0.125 and 64 B"}};
    for (const auto& [option, range] : options)
        for (const char* value : {"1e-300", "1e300", "-1", "nan"}) {
            if (option.starts_with("e-") && std::string(value) == "1e-300") continue;  // a tiny energy is fine
            for (const char* command : {"hypar", "evaluate", "table", "scale"}) {
                std::vector<std::string> args{command, "--" + option, value};
                if (std::string(command) != "table") args.insert(args.end(), {"--network", net});
                if (std::string(command) == "evaluate") args.insert(args.end(), {"--method", "dp"});
                const Result r = cli(args);
                EXPECT_EQ(r.status, 2) << command << " --" << option << " " << value << ": " << r.out;
                EXPECT_EQ(r.out, "");
                if (std::string(value) != "nan") {
                    EXPECT_NE(r.err.find("--" + option + " must be " + range), std::string::npos) << r.err;
                }
            }
        }
    // Zero where a rate or factor must be positive; derived: each level's bandwidth is a rate too.
    EXPECT_EQ(cli({"hypar", "--network", net, "--throughput-ops", "0"}).status, 2);
    const Result level = cli({"hypar", "--network", net, "--levels", "12", "--link-bps", "2", "--level-bw-factor", "0.01"});
    EXPECT_EQ(level.status, 2);
    EXPECT_NE(level.err.find("the bandwidth of level H1 (link_bps x level_bw_factor^11) must be between 1 and 1e+21 b/s"),
              std::string::npos)
        << level.err;
    // All energies zero: energy ratios of equal zeros are 1, never NaN.
    const auto j = cliJson({"hypar", "--network", net, "--e-mult-pj", "0", "--e-add-pj", "0", "--e-dram-pj", "0",
                            "--e-link-pj-per-bit", "0", "--json"});
    EXPECT_EQ(j.at("energy_j").get<double>(), 0.0);
    EXPECT_EQ(j.at("energy_vs_dp").get<double>(), 1.0);
    // The other methods' rates.
    EXPECT_EQ(cli({"mcmc", "--network", net, "--topology", "p100-16", "--iterations", "5", "--beta", "1e300"}).status, 2);
    EXPECT_EQ(cli({"mpt", "--vector-flops", "1e-300"}).status, 2);
    EXPECT_EQ(cli({"mpt", "--bytes-per-element", "1e300"}).status, 2);
    EXPECT_EQ(cli({"l2s", "--preset", "convnet", "--rate", "1e-300"}).status, 2);
    EXPECT_EQ(cli({"l2s", "--preset", "convnet", "--e-link-pj", "1e300"}).status, 2);
}

TEST(ParameterLimitsCli, ATopologyDeviceEfficiencyBeyondItsLimitIsAProblemNotInf) {
    Dir d;
    const std::string topology = d.write("t.json", R"({"format": "partita-topology/1", "name": "t",
      "devices": [{"name": "a", "peak_flops": 1e12, "mem_bandwidth_Bps": 1e11, "efficiency": 5e-324},
                  {"name": "b", "peak_flops": 1e12, "mem_bandwidth_Bps": 1e11}],
      "links": [{"from": "a", "to": "b", "bandwidth_Bps": 1e10, "duplex": true}]})");
    const Result check = cli({"topology", "check", topology});
    EXPECT_EQ(check.status, 1);
    EXPECT_NE(check.out.find(topology + ": /devices/0: device 'a': efficiency must be at least 1e-06 (the limit), got "),
              std::string::npos)
        << check.out;
    const Result sim = cli({"simulate", "--network", example("networks/lenet-c.json"), "--topology", topology,
                            "--method", "dp"});
    EXPECT_EQ(sim.status, 1);
    EXPECT_EQ(sim.out, "");
    EXPECT_NE(sim.err.find(topology + ": /devices/0: device 'a': efficiency must be at least 1e-06"), std::string::npos)
        << sim.err;
}

}  // namespace
}  // namespace partita::cli::test
