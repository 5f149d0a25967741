// partita-cli answers --version and --help like any installed program.
#include <gtest/gtest.h>

#include "tests/cli/cli_test_util.h"

namespace partita::cli::test {
namespace {

TEST(CliVersion, VersionAndHelpExitZero) {
    const Result v = cli({"--version"});
    EXPECT_EQ(v.status, 0);
    EXPECT_EQ(v.out, std::string("partita-cli ") + PARTITA_VERSION + "\n");
    const Result h = cli({"--help"});
    EXPECT_EQ(h.status, 0);
    EXPECT_NE(h.out.find("usage: partita-cli [options] [command]"), std::string::npos) << h.out;
    EXPECT_NE(h.out.find("--version"), std::string::npos);
    EXPECT_EQ(cli({}).status, 2);  // no command: usage on stderr
}

}  // namespace
}  // namespace partita::cli::test
