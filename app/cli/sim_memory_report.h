#pragma once
// Peak memory per device in partita-cli simulate and mcmc (docs/methods/flexflow.md#memory-per-device):
// the --optimizer option, the text lines and the JSON object.
#include <ostream>

#include <nlohmann/json.hpp>

#include "app/cli/options.h"
#include "core/sim/memory.h"

namespace partita::cli {

// Exit status of a simulation whose strategy does not fit a device's known capacity: the result is
// printed in full, but a script must not take it for a plan that runs (1 and 2 are errors).
inline constexpr int kDoesNotFit = 3;

// --optimizer sgd|momentum|adam: optimizer state in weight copies (0, 1, 2; momentum by default).
int readOptimizerStates(const Options& a);
// "Memory    ..." lines: the worst device and, when it does not fit, a "does not fit" line.
void printMemory(std::ostream& out, const sim::MemoryReport& r, const sim::Topology& topology);
// {"checked", "fits", "worst", "excess_bytes", "worst_line"}; per device: memoryJson(DeviceMemory).
nlohmann::json memoryJson(const sim::MemoryReport& r, const sim::Topology& topology);
nlohmann::json memoryJson(const sim::DeviceMemory& m);

}  // namespace partita::cli
