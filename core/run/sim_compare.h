#pragma once
// Simulated runs side by side (issue 26 item 16): on one topology, network and batch, each run's
// makespan and its speed-up over the first, each device's utilisation, the traffic in total and per
// link kind, and the operators whose SOAP configurations differ. Runs that cannot be compared (a
// run not simulated; another topology, network or batch) are refused with the reason. The Compare
// tab shows exactly these numbers.
#include <string>
#include <vector>

#include "core/run/run.h"
#include "core/run/simulation.h"

namespace partita {

struct SimCompareRun {
    std::string name, strategy;       // the run's name; "DP", "MCMC", "strategy file", ...
    double makespan_s = 0;
    double speedup = 0;               // the first run's makespan / this one's
    int devices_used = 0;
    std::vector<double> utilisation;  // by compute device, busy time / makespan
    double traffic_bytes = 0;         // between devices, each message once (SimulationResult::trafficBytes)
    std::vector<double> link_bytes;   // by SimComparison::link_kinds: bytes the links of that kind carried
};

struct SimOpDifference {
    std::string op;
    std::vector<std::string> configs;  // by run, sim::configText
};

struct SimComparison {
    std::string refusal;                  // why the runs cannot be compared; empty when they can
    std::string topology, network;
    double batch = 0;
    std::vector<std::string> devices;     // compute device names
    std::vector<int> device_nodes;        // each device's node (machine)
    std::vector<std::string> link_kinds;  // sorted
    std::vector<SimCompareRun> runs;
    std::vector<SimOpDifference> differences;  // operators whose configuration differs from the first run's
    bool ok() const { return refusal.empty(); }
};

// Needs two or more runs; any run that is not simulated, or on another topology, network or batch
// than the first, makes the comparison a refusal naming it.
SimComparison compareSimulations(const std::vector<RunPtr>& runs);

// Devices gathered for a chart of at most `max_groups` bars per run: one device each when they fit,
// else whole nodes when the machine's nodes fit, else runs of consecutive devices. `utilisation` is
// each run's mean over the group's devices.
struct DeviceGroup {
    std::string label;  // "gpu3", "node 2", "devices 0-31"
    int first = 0, count = 1;
    std::vector<double> utilisation;  // by run
};
std::vector<DeviceGroup> deviceGroups(const SimComparison& c, int max_groups);

}  // namespace partita
