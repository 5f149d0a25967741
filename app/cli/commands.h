#pragma once
// The partita-cli subcommands. Each family file registers its subcommands on the CLI11 app
// (their options with their help, and the callback that runs the command).
#include <iosfwd>
#include <string>
#include <vector>

#include "app/cli/options.h"
#include "core/model/array.h"
#include "core/topology/topology.h"

namespace partita::cli {

using Argv = std::vector<std::string>;

// hypar, evaluate, explore, table, scale (commands.cpp).
void addEngineCommands(CLI::App& app, RunContext& ctx);
// accpar (accpar_commands.cpp); table --study accpar comes here too.
void addAccParCommands(CLI::App& app, RunContext& ctx);
int cmdAccparStudy(const Options& a, std::ostream& out);
// The options accpar and table --study accpar add to the engine options.
void addAccParOptions(CLI::App& app);
// FlexFlow: simulate one SOAP strategy; MCMC search over SOAP strategies (sim_commands.cpp).
void addSimCommands(CLI::App& app, RunContext& ctx);
// MPT (Winograd x data parallel training) and Learn-to-Scale (CMP inference); mpt_commands.cpp, l2s_commands.cpp.
void addMptCommand(CLI::App& app, RunContext& ctx);
void addL2sCommand(CLI::App& app, RunContext& ctx);
// llm evaluate|search|validate|calibrate|profiles|models: LLM training plans (llm_commands.cpp).
void addLlmCommands(CLI::App& app, RunContext& ctx);
// inspect and convert (inspect_commands.cpp).
void addInspectCommands(CLI::App& app, RunContext& ctx);
// topology generate KIND / convert / check (topology_commands.cpp).
void addTopologyCommands(CLI::App& app, RunContext& ctx);
// sweep SPEC --db FILE and merge-db OUT IN... (sweep_commands.cpp); the sweep's progress goes to `err`.
void addSweepCommands(CLI::App& app, RunContext& ctx);
// --machine F|preset of hypar and accpar: the array of a topology's devices, its level
// bandwidths by recursive bisection (core/topology/levels.h).
Array machineArray(const std::string& spec);
// --topology F|PRESET: a file when one exists at that path (or it looks like one), else a preset name.
sim::Topology readTopology(const std::string& spec, std::vector<std::string>* warnings = nullptr);

}  // namespace partita::cli
