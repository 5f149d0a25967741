#pragma once
// The partita-cli subcommands. Each takes its own arguments (after the
// subcommand name) and writes a report or JSON to `out`.
#include <iosfwd>
#include <string>
#include <vector>

#include "core/model/array.h"

namespace partita::cli {

using Argv = std::vector<std::string>;

int cmdHypar(const Argv& args, std::ostream& out);
int cmdEvaluate(const Argv& args, std::ostream& out);
int cmdExplore(const Argv& args, std::ostream& out);
int cmdTable(const Argv& args, std::ostream& out);
int cmdScale(const Argv& args, std::ostream& out);
int cmdAccpar(const Argv& args, std::ostream& out);
// table --study accpar: OWT, HyPar and AccPar over DP for the study's networks
// (docs/methods/accpar.md#presets-and-the-study).
int cmdAccparStudy(const Argv& args, std::ostream& out);
// FlexFlow: simulate one SOAP strategy; MCMC search over SOAP strategies (sim_commands.cpp).
int cmdSimulate(const Argv& args, std::ostream& out);
int cmdMcmc(const Argv& args, std::ostream& out);
// MPT (Winograd x data parallel training) and Learn-to-Scale (CMP inference); mpt_commands.cpp, l2s_commands.cpp.
int cmdMpt(const Argv& args, std::ostream& out);
int cmdL2s(const Argv& args, std::ostream& out);
int cmdInspect(const Argv& args, std::ostream& out);  // inspect_commands.cpp
// llm evaluate|search|validate|calibrate|profiles|models: LLM training plans (llm_commands.cpp).
int cmdLlm(const Argv& args, std::ostream& out);
int cmdConvert(const Argv& args, std::ostream& out);
// topology generate KIND / topology convert (topology_commands.cpp).
int cmdTopology(const Argv& args, std::ostream& out);
// sweep SPEC --db FILE and merge-db OUT IN... (sweep_commands.cpp); the sweep's progress goes to `err`.
int cmdSweep(const Argv& args, std::ostream& out, std::ostream& err);
int cmdMergeDb(const Argv& args, std::ostream& out);
// --machine F|preset of hypar and accpar: the array of a topology's devices, its level
// bandwidths by recursive bisection (core/sim/topology_levels.h).
Array machineArray(const std::string& spec);

}  // namespace partita::cli
