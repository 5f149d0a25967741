#include "core/sim/soap_text.h"

#include <algorithm>
#include <set>

namespace partita::sim {

namespace {
constexpr std::size_t kMaxRuns = 6;  // a random placement would otherwise print every id
}  // namespace

int devicesUsed(const SoapStrategy& strategy) {
    std::set<int> used;
    for (const OpConfig& c : strategy.ops) used.insert(c.devices.begin(), c.devices.end());
    return static_cast<int>(used.size());
}

std::string deviceRanges(std::vector<int> devices) {
    std::sort(devices.begin(), devices.end());
    devices.erase(std::unique(devices.begin(), devices.end()), devices.end());
    std::string out;
    std::size_t runs = 0;
    for (std::size_t i = 0; i < devices.size();) {
        std::size_t j = i;
        while (j + 1 < devices.size() && devices[j + 1] == devices[j] + 1) ++j;
        if (runs == kMaxRuns) {
            out += ", ... (" + std::to_string(devices.size()) + " devices)";
            break;
        }
        if (runs++) out += ", ";
        out += std::to_string(devices[i]);
        if (j > i) out += "-" + std::to_string(devices[j]);
        i = j + 1;
    }
    return out;
}

std::string configText(const OpConfig& config) {
    std::string split;
    for (int d = 0; d < kDims; ++d) {
        const int n = config.degree[static_cast<std::size_t>(d)];
        if (n == 1) continue;
        split += (split.empty() ? "" : " × ") + std::string(dimName(static_cast<Dim>(d))) + " " + std::to_string(n);
    }
    if (config.reduce != 1) split += (split.empty() ? "reduce " : ", reduce ") + std::to_string(config.reduce);
    if (split.empty()) split = "whole";
    const bool one = config.devices.size() == 1;
    return split + (one ? " on device " : " on devices ") + deviceRanges(config.devices);
}

}  // namespace partita::sim
