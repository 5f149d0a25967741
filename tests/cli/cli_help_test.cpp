// Every partita-cli subcommand, taken from the CLI11 app itself (so a new one is covered without
// editing this file): --help and -h exit 0 and name every option registered; an unknown option is
// a usage error naming it; and each runs one small example.
#include <gtest/gtest.h>

#include <filesystem>
#include <functional>
#include <map>
#include <sstream>

#include <CLI/CLI.hpp>

#include "app/cli/cli.h"
#include "app/cli/options.h"
#include "tests/cli/cli_test_util.h"

namespace partita::cli {
namespace {

namespace fs = std::filesystem;
using test::cli;
using test::example;

struct Command {
    std::vector<std::string> path;  // {"topology", "generate", "ring"}
    const CLI::App* app;
    bool leaf;
};

void walk(const CLI::App& app, std::vector<std::string> path, std::vector<Command>& out) {
    for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
        auto p = path;
        p.push_back(sub->get_name());
        const bool leaf = sub->get_subcommands([](const CLI::App*) { return true; }).empty();
        out.push_back({p, sub, leaf});
        walk(*sub, p, out);
    }
}

// Every command of a freshly built app; `app` keeps them alive.
std::vector<Command> commands(CLI::App& app, RunContext& ctx) {
    buildApp(app, ctx);
    std::vector<Command> all;
    walk(app, {}, all);
    return all;
}

std::string joined(const std::vector<std::string>& path) {
    std::string s;
    for (const auto& p : path) s += (s.empty() ? "" : " ") + p;
    return s;
}

std::vector<std::string> with(std::vector<std::string> path, std::initializer_list<std::string> more) {
    path.insert(path.end(), more);
    return path;
}

TEST(CliHelp, EveryCommandAnswersHelpWithEachOfItsOptions) {
    CLI::App app;
    std::ostringstream out, err;
    RunContext ctx{&out, &err};
    const auto all = commands(app, ctx);
    ASSERT_GE(all.size(), 20u);
    for (const Command& c : all) {
        for (const char* help : {"--help", "-h"}) {
            const test::Result r = cli(with(c.path, {help}));
            EXPECT_EQ(r.status, 0) << joined(c.path) << " " << help << ": " << r.err;
            EXPECT_NE(r.out.find("usage: partita-cli " + joined(c.path)), std::string::npos) << r.out;
            for (const CLI::Option* o : c.app->get_options()) {
                const std::string name = o->get_lnames().empty() ? o->get_name() : "--" + o->get_lnames().front();
                EXPECT_NE(r.out.find(name), std::string::npos) << joined(c.path) << " --help lacks " << name;
            }
            for (const CLI::App* sub : c.app->get_subcommands([](const CLI::App*) { return true; }))
                EXPECT_NE(r.out.find(sub->get_name()), std::string::npos) << joined(c.path) << " --help lacks "
                                                                          << sub->get_name();
        }
    }
    const test::Result top = cli({"--help"});
    for (const Command& c : all) {
        if (c.path.size() != 1) continue;
        EXPECT_NE(top.out.find("  " + c.path[0] + " "), std::string::npos) << c.path[0];
    }
}

TEST(CliHelp, AnUnknownOptionIsAUsageErrorNamingIt) {
    CLI::App app;
    std::ostringstream out, err;
    RunContext ctx{&out, &err};
    for (const Command& c : commands(app, ctx)) {
        if (!c.leaf) continue;
        const test::Result r = cli(with(c.path, {"--no-such-option", "1"}));
        EXPECT_EQ(r.status, 2) << joined(c.path);
        EXPECT_NE(r.err.find("partita-cli " + joined(c.path) + ": unknown option --no-such-option"), std::string::npos)
            << r.err;
    }
    // A family without one of its commands: its help on stderr, status 2.
    for (const std::vector<std::string>& family : {std::vector<std::string>{"llm"}, {"topology"}, {"topology", "generate"}}) {
        const test::Result r = cli(family);
        EXPECT_EQ(r.status, 2) << joined(family);
        EXPECT_NE(r.err.find("usage: partita-cli " + joined(family)), std::string::npos) << r.err;
    }
}

TEST(CliHelp, MissingValuesAndBadNumbersNameTheOption) {
    const std::string net = example("networks/lenet-c.json");
    const test::Result missing = cli({"hypar", "--network"});
    EXPECT_EQ(missing.status, 2);
    EXPECT_EQ(missing.err, "partita-cli hypar: option --network needs a value\n");
    const test::Result text = cli({"scale", "--network", net, "--max-levels", "six"});
    EXPECT_EQ(text.status, 2);
    EXPECT_EQ(text.err, "partita-cli scale: option --max-levels expects a number, got 'six'\n");
    const test::Result range = cli({"explore", "--network", net, "--full", "--threads", "2000"});
    EXPECT_EQ(range.status, 2);
    EXPECT_EQ(range.err, "partita-cli explore: option --threads expects an integer from 0 to 1024, got '2000'\n");
    const test::Result seed = cli({"mcmc", "--network", net, "--topology", "p100-16", "--iterations", "1", "--seed",
                                   "1e16"});
    EXPECT_EQ(seed.status, 2);
    EXPECT_NE(seed.err.find("option --seed expects an integer from 0 to 9007199254740992"), std::string::npos)
        << seed.err;
}

// One small example per command; a command added without one fails here.
TEST(CliHelp, EveryCommandRunsOneExample) {
    const std::string dir = testing::TempDir() + "partita-cli-help-test/";
    fs::create_directories(dir);
    const std::string net = example("networks/lenet-c.json");
    const std::string runs = example("llm/measured/narayanan-sc21.json");
    const std::map<std::string, std::vector<std::string>> examples{
        {"hypar", {"--network", net, "--levels", "2"}},
        {"evaluate", {"--network", net, "--method", "dp"}},
        {"explore", {"--network", net, "--explore-levels", "1", "--levels", "2"}},
        {"table", {"--networks", net, "--levels", "2"}},
        {"scale", {"--network", net, "--max-levels", "2"}},
        {"methods", {}},
        {"run", {"dp", "--network", net, "--levels", "2"}},
        {"accpar", {"--network", net, "--levels", "2"}},
        {"simulate", {"--network", net, "--topology", "p100-16", "--method", "dp"}},
        {"mcmc", {"--network", net, "--topology", "p100-16", "--iterations", "5"}},
        {"mpt", {"--layers", "study"}},
        {"l2s", {"--preset", "lenet"}},
        {"llm evaluate", {"--model", "gpt3-1.3b", "--tp", "2", "--global-batch", "8"}},
        {"llm search", {"--model", "gpt3-1.3b", "--gpus", "4", "--global-batch", "8", "--top", "1"}},
        {"llm validate", {"--runs", runs}},
        {"llm calibrate", {"--runs", runs, "--profile", "a100-sxm4-80gb", "--out", dir + "calibrated.json"}},
        {"llm simulate", {"--model", "gpt3-1.3b", "--tp", "2", "--pp", "2", "--global-batch", "4", "--topology", "p100-16"}},
        {"llm profiles", {}},
        {"llm models", {}},
        {"llm network", {"--model", "gpt3-1.3b", "--layers", "1", "--out", dir + "gpt-1l.json", "--tp", "2", "--dp", "2",
                         "--global-batch", "2", "--strategy-out", dir + "gpt-1l-t2d2.json"}},
        {"inspect", {"--network", net}},
        {"convert", {"--network", net, "--out", dir + "lenet.json"}},
        {"topology generate ring", {"--devices", "4", "--out", "-"}},
        {"topology generate switch", {"--devices", "4", "--out", "-"}},
        {"topology generate fully-connected", {"--devices", "4", "--out", "-"}},
        {"topology generate torus", {"--dims", "2x2", "--out", "-"}},
        {"topology generate mesh", {"--dims", "2x2", "--out", "-"}},
        {"topology generate cluster", {"--nodes", "2", "--gpus", "2", "--out", "-"}},
        {"topology collective", {"--topology", "p100-16", "--bytes", "1e6"}},
        {"topology generate array", {"--levels", "2", "--out", "-"}},
        {"topology convert", {"--topology", example("topologies/imported/astra-ring-8.yml"), "--out", "-"}},
        {"topology check", {example("topologies/p100-16.json")}},
        {"sweep", {example("sweeps/analytic.json"), "--dry-run"}},
        {"sweep-table", {"--db", dir + "table.sqlite"}},
        {"merge-db", {dir + "merged.sqlite"}},
    };
    ASSERT_EQ(cli({"merge-db", dir + "table.sqlite"}).status, 0);  // an empty database for sweep-table
    CLI::App app;
    std::ostringstream out, err;
    RunContext ctx{&out, &err};
    for (const Command& c : commands(app, ctx)) {
        if (!c.leaf) continue;
        const auto it = examples.find(joined(c.path));
        if (it == examples.end()) {
            ADD_FAILURE() << "no example for partita-cli " << joined(c.path);
            continue;
        }
        std::vector<std::string> args = c.path;
        args.insert(args.end(), it->second.begin(), it->second.end());
        const test::Result r = cli(args);
        EXPECT_EQ(r.status, 0) << joined(args) << ": " << r.err;
        EXPECT_FALSE(r.out.empty()) << joined(args);
    }
}

}  // namespace
}  // namespace partita::cli
