// Issue 26 item 8 through partita-cli: a FIFO given as any input (network, array, strategy, topology,
// spec, results database, merge input) is refused by name without blocking (guarded by a harness time
// limit, cliWithin), and merge-db creates no output for it.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include "tests/cli/sweep_test_util.h"

namespace partita::cli::test {
namespace {

TEST(InputFilesCli, AFifoGivenAsAnyInputIsRefusedWithoutBlocking) {
    Dir d;
    const std::string fifo = d.file("fifo");
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    const std::string net = example("networks/lenet-c.json");
    const std::string why = "it is a FIFO (named pipe), not a regular file";
    const std::vector<std::vector<std::string>> runs{
        {"hypar", "--network", fifo},
        {"inspect", "--network", fifo, "--network-format", "onnx"},
        {"hypar", "--network", net, "--array", fifo},
        {"evaluate", "--network", net, "--strategy", fifo},
        {"simulate", "--network", net, "--topology", fifo, "--method", "dp"},
        {"topology", "check", fifo},
        {"sweep", fifo, "--dry-run"},
        {"sweep", d.write("s.json", kSmall), "--db", fifo},
        {"merge-db", fifo},
        {"merge-db", d.file("out.sqlite"), fifo},
    };
    for (const auto& args : runs) {
        const Result r = cliWithin(60, args);
        EXPECT_EQ(r.status, 1) << args.front() << " " << args.back() << ": " << r.err;
        EXPECT_NE(r.err.find(fifo + ": "), std::string::npos) << r.err;
        EXPECT_NE(r.err.find(why), std::string::npos) << r.err;
    }
    EXPECT_FALSE(fs::exists(d.file("out.sqlite")));  // merge-db refused its input before creating OUT
}

}  // namespace
}  // namespace partita::cli::test
