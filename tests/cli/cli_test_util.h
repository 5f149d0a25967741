#pragma once
// Shared helpers for the in-process CLI tests: run partita-cli and capture
// its status and both streams; paths to the built-in examples.
#include <sstream>
#include <string>
#include <vector>

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

inline std::string example(const std::string& rel) { return std::string(PARTITA_EXAMPLES_DIR) + "/" + rel; }

}  // namespace partita::cli::test
