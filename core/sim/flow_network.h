#pragma once
// A flow-level network (docs/methods/flexflow.md#collectives-as-algorithms): transfers that cross a
// link at the same time share its bandwidth max-min fairly (progressive filling), and the shares are
// recomputed whenever a transfer ends. An oversubscribed uplink or a shared NIC is therefore slower
// than an ideal one, and links no transfer shares run at full speed.
#include <vector>

namespace partita::sim {

struct Flow {
    std::vector<int> links;  // directed link ids it crosses (empty: a local copy, done at once)
    double bytes = 0;
};

// When each flow finishes, all starting together, over links of `capacity_Bps` (bytes/s, > 0).
// Throws std::invalid_argument for a link id out of range or a negative byte count.
std::vector<double> maxMinFinishTimes(const std::vector<double>& capacity_Bps, const std::vector<Flow>& flows);

// The max-min fair rate of each flow (bytes/s) when all of `flows` are active; 0 for a local flow.
std::vector<double> maxMinRates(const std::vector<double>& capacity_Bps, const std::vector<Flow>& flows);

}  // namespace partita::sim
