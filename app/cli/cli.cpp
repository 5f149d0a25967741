#include "app/cli/cli.h"

#include <ostream>

#include "app/cli/commands.h"
#include "app/cli/options.h"
#include "core/util/data_dir.h"
#include "core/util/error.h"

namespace partita::cli {

std::string examplesDir() { return partita::examplesDir(); }

void buildApp(CLI::App& app, RunContext& ctx) {
    app.name("partita-cli");
    app.description("Partita's command line: HyPar, AccPar, FlexFlow, MPT, Learn-to-Scale and LLM plans "
                     "(docs/guide/command-line.md)");
    app.footer("partita-cli COMMAND --help lists a command's options.");
    const auto format = app.get_formatter();
    for (const auto& [label, text] : {std::pair{"Usage", "usage"}, {"OPTIONS", "options"}, {"SUBCOMMAND", "command"},
                                      {"SUBCOMMANDS", "commands"}, {"Options", "options"}, {"Subcommands", "commands"},
                                      {"Positionals", "arguments"}})
        format->label(label, text);
    format->column_width(34);
    flag(app, "version", "print the version and exit");
    app.require_subcommand(0, 1);
    addEngineCommands(app, ctx);
    addAccParCommands(app, ctx);
    addSimCommands(app, ctx);
    addMptCommand(app, ctx);
    addL2sCommand(app, ctx);
    addLlmCommands(app, ctx);
    addInspectCommands(app, ctx);
    addTopologyCommands(app, ctx);
    addSweepCommands(app, ctx);
}

namespace {

// "--batch: expects an integer …" (CLI11's validation message) → "option --batch expects an integer …".
std::string usageMessage(const CLI::ParseError& e) {
    std::string text = e.what();
    // "--network: 1 required F missing" → "option --network needs a value".
    if (dynamic_cast<const CLI::ArgumentMismatch*>(&e) && text.rfind("--", 0) == 0 &&
        text.find(" missing") != std::string::npos)
        return "option " + text.substr(0, text.find(": ")) + " needs a value";
    if (dynamic_cast<const CLI::ValidationError*>(&e) && text.rfind("--", 0) == 0)
        if (const auto colon = text.find(": "); colon != std::string::npos)
            text = "option " + text.substr(0, colon) + " " + text.substr(colon + 2);
    return text;
}

// The subcommand a message names: "llm evaluate" for partita-cli llm evaluate.
std::string chosen(const CLI::App& app) {
    std::string path;
    for (const CLI::App* a = &app; !a->get_subcommands().empty();) {
        a = a->get_subcommands().front();
        path += (path.empty() ? "" : " ") + a->get_name();
    }
    return path;
}

}  // namespace

int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    if (!args.empty() && args[0] == "version") return run({"--version"}, out, err);
    if (!args.empty() && args[0] == "help") return run({"--help"}, out, err);
    CLI::App app;
    RunContext ctx{&out, &err};
    buildApp(app, ctx);
    if (args.empty()) {
        err << app.help();
        return 2;
    }
    // CLI11 takes the arguments last first.
    std::vector<std::string> reversed(args.rbegin(), args.rend());
    const std::string first = args[0];
    try {
        app.parse(reversed);
        if (app.count("--version")) {
            out << "partita-cli " << PARTITA_VERSION << "\n";
            return 0;
        }
        // A family named without one of its commands (partita-cli llm, topology generate): its help.
        const CLI::App* leaf = &app;
        while (!leaf->get_subcommands().empty()) leaf = leaf->get_subcommands().front();
        if (!leaf->get_subcommands([](const CLI::App*) { return true; }).empty()) {
            err << "partita-cli " << chosen(app) << ": which command?\n\n" << app.help();
            return 2;
        }
        return ctx.status;
    } catch (const CLI::CallForHelp&) {
        out << app.help();
        return 0;
    } catch (const CLI::ExtrasError& e) {
        if (app.get_subcommands().empty() && first.rfind("-", 0) != 0) {
            err << "partita-cli: unknown command '" << first << "'\n\n" << app.help();
            return 2;
        }
        err << "partita-cli " << chosen(app) << ": " << e.what() << "\n";
        return 2;
    } catch (const CLI::ParseError& e) {
        err << "partita-cli " << chosen(app) << ": " << usageMessage(e) << "\n";
        return 2;
    } catch (const UsageError& e) {
        err << "partita-cli " << chosen(app) << ": " << e.what() << "\n";
        return 2;
    } catch (const std::exception& e) {
        err << "partita-cli " << chosen(app) << ": error: " << e.what() << "\n";
        return 1;
    }
}

int run(int argc, char** argv, std::ostream& out, std::ostream& err) {
    return run(std::vector<std::string>(argv + 1, argv + argc), out, err);
}

}  // namespace partita::cli
