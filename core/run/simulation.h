#pragma once
// A simulated run (FlexFlow's execution simulator, docs/methods/flexflow.md): a SOAP
// strategy on a device topology, its makespan, per-resource busy time,
// traffic and timeline, beside DP and OWT on the same topology, and for an
// MCMC search its summary. Built once by a worker and never changed after, so
// views, the results database and exports read it like the rest of a Run.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/partition/grid.h"
#include "core/sim/mcmc.h"
#include "core/sim/memory.h"
#include "core/sim/soap.h"
#include "core/sim/task_graph.h"
#include "core/topology/topology.h"
#include "core/sim/trace.h"

namespace partita {

// Where the simulated strategy came from.
enum class SimSource { DataParallel, OneWeirdTrick, ModelParallel, Grid, File, Mcmc };
const char* simSourceName(SimSource source);   // "dp", "owt", "mp", "grid", "file", "mcmc"
const char* simSourceLabel(SimSource source);  // "DP", "OWT", "MP", "lowered grid", "strategy file", "MCMC"
SimSource parseSimSource(const std::string& name);  // throws std::invalid_argument

// An MCMC search's settings (docs/methods/flexflow.md#mcmc-search).
struct McmcSettings {
    double budget_s = 10;          // wall time of the whole search; 0 = none
    std::int64_t iterations = 0;   // proposals of the whole search; 0 = none (set one to be reproducible)
    std::uint64_t seed = 1;
    double beta = 1.0;             // per ms of makespan
    std::vector<std::string> starts{"dp", "owt", "random"};  // "dp", "owt", "mp", "random"
    bool stop_on_stall = false;    // a stalled chain ends instead of restarting (sim::McmcOptions)
    bool operator==(const McmcSettings&) const = default;
};

// A search as `settings` ask for it: the starts by name (sim::namedStarts; `other` builds any
// name besides dp, owt, mp and random, e.g. a strategy file) and the options (budgets, seed,
// beta, stop on stall, `sim`; the rest at McmcOptions' defaults). The application and the CLI both build
// their searches here, so the same settings start from the same strategies.
struct McmcPlan {
    std::vector<sim::McmcStart> starts;
    sim::McmcOptions options;
};
McmcPlan mcmcPlan(const Network& net, std::int64_t batch, int devices, const McmcSettings& settings,
                  const sim::SimOptions& sim,
                  const std::function<sim::SoapStrategy(const std::string&)>& other = {});

// What a simulation was asked for, besides the strategy itself.
struct SimulationSpec {
    std::shared_ptr<const sim::Topology> topology;  // finalized
    std::string topology_origin;   // "built-in:<preset>" or the file it was read from
    SimSource source = SimSource::DataParallel;
    std::string strategy_origin;   // File: the strategy file's path
    sim::SimOptions options;
    McmcSettings mcmc;             // Mcmc only
};

// What an MCMC search did; `best` is the result's strategy.
struct McmcSummary {
    std::vector<sim::McmcStartSummary> starts;
    std::int64_t iterations = 0;
    double acceptance_rate = 0;
    bool cancelled = false;        // stopped by the user: the best found so far
    std::int64_t restarts = 0;     // stalled chains restarted, over all chains
};

struct SimulationResult {
    SimulationSpec spec;
    sim::SoapStrategy strategy;
    double makespan_s = 0;
    std::size_t tasks = 0;
    int compute_devices = 0, links = 0;
    std::vector<std::string> resources;       // compute devices 0..D-1, then links, then collective streams
    std::vector<double> busy_s, utilisation;  // by resource
    std::vector<std::vector<double>> traffic; // bytes[from][to] between compute devices
    std::vector<double> link_bytes;           // by link: what crosses it (messages and collectives)
    std::vector<sim::TimelineRecord> timeline;
    std::vector<std::uint64_t> critical_path;  // task ids, sim::criticalPath(), in time order
    std::vector<std::string> op_names;        // TimelineRecord::op -> operator name
    sim::MemoryReport memory;                 // peak per device against capacity (docs/methods/flexflow.md#memory-per-device)
    double dp_makespan_s = 0, owt_makespan_s = 0;  // the baselines on the same topology
    std::optional<McmcSummary> mcmc;

    const sim::Topology& topology() const { return *spec.topology; }
    bool isLink(int resource) const { return resource >= compute_devices && resource < compute_devices + links; }
    bool isStream(int resource) const { return resource >= compute_devices + links; }
    int streamCount() const { return static_cast<int>(resources.size()) - compute_devices - links; }
    double trafficBytes() const;  // over all device pairs
    double speedupVsDp() const { return dp_makespan_s / makespan_s; }
    double speedupVsOwt() const { return owt_makespan_s / makespan_s; }
    bool cancelled() const { return mcmc && mcmc->cancelled; }
};

// How much of the topology a strategy occupies, and for a baseline that leaves devices idle, why:
// DP over 4,096 devices with batch 512 uses 512 of them ("batch 512 limits data parallelism to
// 512 devices"). The GUI's summary and the CLI's say the same.
struct DeviceUse {
    int used = 0, devices = 0;
    std::string reason;  // empty when every device is used, or the strategy (a file, a search) chose so
};
DeviceUse deviceUse(SimSource source, const sim::SoapStrategy& strategy, std::int64_t batch, int devices);

// Simulates `strategy` under `spec` and measures it (timeline, traffic,
// utilisation, DP and OWT on the same topology). Throws partita::Error for an
// invalid strategy, partita::Cancelled when `cancel` says so (asked between the steps and
// inside each simulation).
SimulationResult simulateStrategy(const Network& net, double batch, const SimulationSpec& spec,
                                  sim::SoapStrategy strategy, std::optional<McmcSummary> mcmc = {},
                                  const CancelFn& cancel = {});

}  // namespace partita
