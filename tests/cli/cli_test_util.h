#pragma once
// Shared helpers for the in-process CLI tests: run partita-cli and capture
// its status and both streams (or the JSON it prints); paths to the built-in examples.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/cli/cli.h"

namespace partita::cli::test {

struct Result {
    int status;
    std::string out, err;
};

inline Result cli(std::vector<std::string> args) {
    std::ostringstream out, err;
    const int status = run(args, out, err);
    return {status, out.str(), err.str()};
}

// The JSON a command prints. A failing command is reported with its error output, and its
// output then fails to parse, which ends the test.
inline nlohmann::json cliJson(std::vector<std::string> args) {
    const Result r = cli(std::move(args));
    EXPECT_EQ(r.status, 0) << r.err;
    return nlohmann::json::parse(r.out);
}

inline std::string example(const std::string& rel) { return std::string(PARTITA_EXAMPLES_DIR) + "/" + rel; }

}  // namespace partita::cli::test
