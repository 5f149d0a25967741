#pragma once
// Shared helpers for the in-process CLI tests: run partita-cli and capture
// its status and both streams (or the JSON it prints); paths to the built-in examples.
#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <sstream>
#include <thread>
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

// `args` run in a worker; a run that has not finished within `seconds` fails the test (and is left
// to the process' end rather than joined, so the test itself cannot hang). A hang guard, not a
// timing check: generous enough for a sanitizer build on a loaded machine.
inline Result cliWithin(int seconds, std::vector<std::string> args) {
    auto* task = new std::packaged_task<Result()>([args] { return cli(args); });
    std::future<Result> done = task->get_future();
    std::thread([task] {
        (*task)();
        delete task;
    }).detach();
    if (done.wait_for(std::chrono::seconds(seconds)) != std::future_status::ready) {
        ADD_FAILURE() << "did not finish within " << seconds << " s: partita-cli " << args.front();
        return {-1, "", "timed out"};
    }
    return done.get();
}

inline std::string example(const std::string& rel) { return std::string(PARTITA_EXAMPLES_DIR) + "/" + rel; }

}  // namespace partita::cli::test
