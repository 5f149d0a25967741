#pragma once
// SOAP strategies in words, for summaries and comparisons: which devices a strategy occupies and
// one operator's configuration as a short line ("sample 4 × channel 2 on devices 0-7").
#include <string>
#include <vector>

#include "core/sim/soap.h"

namespace partita::sim {

// The distinct devices any operator of `strategy` places a task on.
int devicesUsed(const SoapStrategy& strategy);

// Device ids as ascending runs: {0,1,2,3,8} -> "0-3, 8"; long lists end in ", ... (N devices)".
std::string deviceRanges(std::vector<int> devices);

// "sample 4 × channel 2, reduce 2 on devices 0-15"; "whole on device 3" for one task.
std::string configText(const OpConfig& config);

}  // namespace partita::sim
