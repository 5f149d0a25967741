#pragma once
#include <iosfwd>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace partita::cli {

struct RunContext;

// Runs one partita-cli invocation; returns the process exit status.
int run(int argc, char** argv, std::ostream& out, std::ostream& err);
int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

// Registers every subcommand on `app` (what run() parses; the help test walks it).
void buildApp(CLI::App& app, RunContext& ctx);

// Where the built-in examples live (the source tree's examples/ unless
// PARTITA_EXAMPLES overrides it in the environment).
std::string examplesDir();

}  // namespace partita::cli
