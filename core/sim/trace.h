#pragma once
// What a simulation shows (docs/methods/flexflow.md#what-a-simulation-shows): the
// timeline per compute device and link, the device x device traffic, the
// utilisation, and exports as Chrome trace JSON and Graphviz DOT.
#include <cstdint>
#include <string>
#include <vector>

#include "core/io/json_fields.h"
#include "core/sim/simulator.h"

namespace partita::sim {

struct TimelineRecord {
    int resource = 0;        // compute device d, link l as computeDevices() + l, then collective streams
    std::uint64_t task = 0;  // the task id
    int op = -1;
    Phase phase = Phase::Forward;
    int part = 0;
    double start = 0, end = 0;  // seconds
    double bytes = 0;           // transfers only
    bool operator==(const TimelineRecord&) const = default;
};

// Every live task, ordered by resource, then start, then end, then id.
std::vector<TimelineRecord> timeline(const TaskGraph& graph, const SimResult& result);

// bytes[from][to] between compute devices, each message counted once (not per hop).
std::vector<std::vector<double>> trafficMatrix(const TaskGraph& graph);

// The same traffic as the device pairs that exchange anything, ordered by (from, to): memory in
// messages, not devices^2 (a 4,096-device matrix is 134 MB). Sums equal the matrix's entries.
struct TrafficPair {
    int from = 0, to = 0;
    double bytes = 0;
    bool operator==(const TrafficPair&) const = default;
};
std::vector<TrafficPair> trafficPairs(const TaskGraph& graph);

// Bytes over each link: every hop of every message, and every collective's transfers along their routes.
std::vector<double> linkBytes(const TaskGraph& graph, const Topology& topology);

struct Utilisation {
    std::vector<double> busy_s;      // by resource: sum of task times
    std::vector<double> fraction;    // busy / makespan
    std::vector<double> link_bytes;  // with the topology: linkBytes(), from the same one pass of routes
};
// With the topology, a link's busy time also counts the collectives' bytes over it at its bandwidth
// (collectives are tasks on streams, not on links), and link_bytes is filled.
Utilisation utilisation(const TaskGraph& graph, const SimResult& result, const Topology* topology = nullptr);

// Chrome trace event JSON (loads in Perfetto): process 1 holds one thread per
// compute device, process 2 one per link, process 3 one per collective stream, named by "M" metadata events; every
// task is an "X" complete event with ts/dur in microseconds.
Json chromeTrace(const TaskGraph& graph, const SimResult& result);
std::string chromeTraceJson(const TaskGraph& graph, const SimResult& result);

// Graphviz DOT of the task graph; with a result, nodes show start and end.
std::string taskGraphDot(const TaskGraph& graph, const SimResult* result = nullptr);

}  // namespace partita::sim
