// Command-line values out of range are usage errors (exit 2) that state the range.
#include <gtest/gtest.h>

#include "tests/cli/cli_test_util.h"

namespace partita::cli::test {
namespace {

TEST(CliLimits, BatchMustBeAnIntegerInRange) {
    const std::string net = example("networks/lenet-c.json");
    for (const char* command : {"hypar", "accpar"}) {
        for (const char* batch : {"1e300", "0.5", "0", "-4", "16777217"}) {
            const Result r = cli({command, "--network", net, "--batch", batch});
            EXPECT_EQ(r.status, 2) << command << " --batch " << batch;
            EXPECT_NE(r.err.find("--batch expects an integer from 1 to 16777216"), std::string::npos) << r.err;
        }
    }
    const Result sim = cli({"simulate", "--network", net, "--topology", "p100-16", "--method", "dp", "--batch", "1e300"});
    EXPECT_EQ(sim.status, 2) << sim.err;
}

TEST(CliLimits, CountsAndSeedsAreChecked) {
    const std::string net = example("networks/lenet-c.json");
    EXPECT_EQ(cli({"scale", "--network", net, "--max-levels", "0"}).status, 2);
    EXPECT_EQ(cli({"mcmc", "--network", net, "--topology", "p100-16", "--iterations", "10", "--seed", "1e300"}).status, 2);
    EXPECT_EQ(cli({"mcmc", "--network", net, "--topology", "p100-16", "--iterations", "2.5"}).status, 2);
    EXPECT_EQ(cli({"hypar", "--network", net, "--bytes-per-element", "1e300"}).status, 2);
    EXPECT_EQ(cli({"explore", "--network", net, "--full", "--threads", "-1"}).status, 2);
}

TEST(CliLimits, UnknownEnumValuesAreUsageErrors) {
    const std::string net = example("networks/lenet-c.json");
    const Result f = cli({"hypar", "--network", net, "--network-format", "onnx2"});
    EXPECT_EQ(f.status, 2) << f.err;
    EXPECT_NE(f.err.find("--network-format: unknown network format 'onnx2'"), std::string::npos) << f.err;
    EXPECT_EQ(cli({"accpar", "--network", net, "--network-format", "x"}).status, 2);
    EXPECT_EQ(cli({"evaluate", "--network", net, "--method", "magic"}).status, 2);
}

}  // namespace
}  // namespace partita::cli::test
