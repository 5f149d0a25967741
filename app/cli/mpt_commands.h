#pragma once
// Pieces of partita-cli mpt shared between its files (mpt_commands.cpp, mpt_options.cpp,
// mpt_paper_command.cpp).
#include <iosfwd>
#include <string>

#include "core/io/json_fields.h"
#include "core/mpt/options.h"

namespace partita::cli {

class Options;

// --preset default|fit|a9, then --transform-unit, --vector-flops, --overlap, --passes, --objective,
// --array-dim and --bytes-per-element over it. Throws UsageError.
mpt::ModelOptions readMptOptions(const Options& a);
// "fit (not a reproduction): transforms on the vector unit at 192 FLOP/cycle, ..."
std::string mptModelText(const mpt::ModelOptions& o, bool layer_study);
Json mptModelJson(const mpt::ModelOptions& o, bool layer_study);
Json mptAveragesJson(const mpt::Averages& x);

// --compare --paper: every paper figure beside the engine's under `options` and the fit preset.
int mptPaperCommand(const mpt::ModelOptions& options, bool json, const std::string& csv_path, std::ostream& out);

}  // namespace partita::cli
