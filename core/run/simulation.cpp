#include "core/run/simulation.h"

#include <stdexcept>

#include "core/sim/baselines.h"
#include "core/sim/critical_path.h"
#include "core/sim/simulator.h"
#include "core/util/error.h"

namespace partita {

namespace {
constexpr SimSource kSources[] = {SimSource::DataParallel, SimSource::OneWeirdTrick, SimSource::ModelParallel,
                                  SimSource::Grid,         SimSource::File,          SimSource::Mcmc};
}  // namespace

const char* simSourceName(SimSource source) {
    switch (source) {
        case SimSource::DataParallel: return "dp";
        case SimSource::OneWeirdTrick: return "owt";
        case SimSource::ModelParallel: return "mp";
        case SimSource::Grid: return "grid";
        case SimSource::File: return "file";
        case SimSource::Mcmc: return "mcmc";
    }
    return "?";
}

const char* simSourceLabel(SimSource source) {
    switch (source) {
        case SimSource::DataParallel: return "DP";
        case SimSource::OneWeirdTrick: return "OWT";
        case SimSource::ModelParallel: return "MP";
        case SimSource::Grid: return "lowered grid";
        case SimSource::File: return "strategy file";
        case SimSource::Mcmc: return "MCMC";
    }
    return "?";
}

SimSource parseSimSource(const std::string& name) {
    for (SimSource s : kSources)
        if (name == simSourceName(s)) return s;
    throw std::invalid_argument("unknown strategy source '" + name + "' (use dp, owt, mp, grid, file or mcmc)");
}

double SimulationResult::trafficBytes() const {
    double total = 0;
    for (const auto& row : traffic)
        for (double bytes : row) total += bytes;
    return total;
}

namespace {

double makespanOf(const Network& net, double batch, const sim::SoapStrategy& strategy, const SimulationSpec& spec) {
    return sim::simulate(sim::buildTaskGraph(net, batch, strategy, *spec.topology, spec.options)).makespan;
}

}  // namespace

SimulationResult simulateStrategy(const Network& net, double batch, const SimulationSpec& spec,
                                  sim::SoapStrategy strategy, std::optional<McmcSummary> mcmc) {
    if (!spec.topology) throw Error("a simulation needs a topology");
    const sim::TaskGraph graph = sim::buildTaskGraph(net, batch, strategy, *spec.topology, spec.options);
    const sim::SimResult result = sim::simulate(graph);
    const sim::Utilisation use = sim::utilisation(graph, result);

    SimulationResult r;
    r.spec = spec;
    r.strategy = std::move(strategy);
    r.makespan_s = result.makespan;
    r.tasks = graph.taskCount();
    r.compute_devices = graph.computeDevices();
    for (int i = 0; i < graph.resourceCount(); ++i) r.resources.push_back(graph.resourceName(i));
    r.busy_s = use.busy_s;
    r.utilisation = use.fraction;
    r.traffic = sim::trafficMatrix(graph);
    r.timeline = sim::timeline(graph, result);
    r.critical_path = sim::criticalPath(graph, result);
    r.op_names = graph.opNames();
    // The baselines on the same devices, so every simulated run says how it compares.
    const std::int64_t b = sim::batchCount(batch);
    const int devices = spec.topology->deviceCount();
    r.dp_makespan_s = makespanOf(net, batch, sim::dataParallelStrategy(net, b, devices), spec);
    r.owt_makespan_s = makespanOf(net, batch, sim::oneWeirdTrickStrategy(net, b, devices), spec);
    r.mcmc = std::move(mcmc);
    return r;
}

}  // namespace partita
