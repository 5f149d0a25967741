#pragma once
// --network in any format: partita-network/1 JSON, AccPar text, or an ONNX model whose dynamic and
// symbolic input dimensions come from --input NAME=d0,d1,… (repeatable) and --dim SYMBOL=V.
#include <set>
#include <string>
#include <vector>

#include "app/cli/options.h"
#include "core/model/network.h"
#include "core/onnx/import.h"

namespace partita::cli {

// --network-format, --input and --dim (and --network F unless `with_network` is false).
void addNetworkOptions(CLI::App& app, bool with_network = true);

// The --input and --dim values; a malformed one is a UsageError naming the option.
onnx::InputDims inputDims(const Options& a);
// `defaulted` (optional): the ONNX inputs whose open dimensions took the importer's defaults.
Network readNetworkArg(const Options& a, const std::string& path, std::vector<onnx::DefaultedInput>* defaulted = nullptr);

}  // namespace partita::cli
