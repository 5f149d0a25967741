#pragma once
// Pieces of partita-cli mpt shared between its files.
#include <iosfwd>
#include <string>

#include "core/mpt/options.h"

namespace partita::cli {

// --compare --paper: every paper figure beside the engine's under `options` and the fit preset.
int mptPaperCommand(const mpt::ModelOptions& options, bool json, const std::string& csv_path, std::ostream& out);

}  // namespace partita::cli
