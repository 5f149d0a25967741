#include "core/run/simulation.h"

#include <algorithm>
#include <stdexcept>

#include "core/sim/baselines.h"
#include "core/sim/critical_path.h"
#include "core/sim/simulator.h"
#include "core/sim/soap_text.h"
#include "core/util/enum_names.h"
#include "core/util/error.h"
#include "core/util/finite.h"
#include "core/util/ranges.h"
#include "core/util/format.h"

namespace partita {

namespace {
constexpr EnumName<SimSource> kSources[] = {
    {SimSource::DataParallel, "dp", "DP"},      {SimSource::OneWeirdTrick, "owt", "OWT"},
    {SimSource::ModelParallel, "mp", "MP"},     {SimSource::Grid, "grid", "lowered grid"},
    {SimSource::File, "file", "strategy file"}, {SimSource::Mcmc, "mcmc", "MCMC"}};
}  // namespace

const char* simSourceName(SimSource source) { return enumName(kSources, source); }
const char* simSourceLabel(SimSource source) { return enumLabel(kSources, source); }

SimSource parseSimSource(const std::string& name) {
    if (auto s = parseEnum(kSources, name)) return *s;
    throw std::invalid_argument("unknown strategy source '" + name + "' (use dp, owt, mp, grid, file or mcmc)");
}

McmcPlan mcmcPlan(const Network& net, std::int64_t batch, int devices, const McmcSettings& settings,
                  const sim::SimOptions& sim, const std::function<sim::SoapStrategy(const std::string&)>& other) {
    if (const std::string why = rangeProblem(settings.beta, ranges::kMcmcBeta); !why.empty())
        throw Error("MCMC beta " + why);
    McmcPlan plan;
    plan.starts = sim::namedStarts(net, batch, devices, settings.starts, settings.seed, other);
    plan.options.beta = settings.beta;
    plan.options.budget_s = settings.budget_s;
    plan.options.iterations = settings.iterations;
    plan.options.seed = settings.seed;
    plan.options.stop_on_stall = settings.stop_on_stall;
    plan.options.sim = sim;
    return plan;
}

DeviceUse deviceUse(SimSource source, const sim::SoapStrategy& strategy, std::int64_t batch, int devices) {
    DeviceUse u{sim::devicesUsed(strategy), devices, {}};
    if (u.used >= devices) return u;
    int samples = 1, channels = 1;  // the widest split of each kind
    for (const sim::OpConfig& c : strategy.ops) {
        samples = std::max(samples, c.degree[0]);
        channels = std::max(channels, c.degree[1]);
    }
    const std::string b = withCommas(static_cast<double>(batch));
    // Data parallelism splits the batch evenly: at most the largest divisor of the batch up to the devices.
    const std::string by_batch = batch < devices ? "batch " + b + " limits data parallelism to " + withCommas(samples) +
                                                       " devices"
                                                 : "batch " + b + " splits evenly over at most " + withCommas(samples) +
                                                       " devices";
    switch (source) {
        case SimSource::DataParallel: u.reason = by_batch; break;
        case SimSource::OneWeirdTrick:
            u.reason = by_batch + "; the fully connected layers split their output features over at most " +
                       withCommas(channels);
            break;
        case SimSource::ModelParallel:
            u.reason = "the operators' channel counts limit model parallelism to " + withCommas(channels) + " devices";
            break;
        case SimSource::Grid:
            u.reason = "the grid's levels split the work into " + withCommas(u.used) + " groups";
            break;
        case SimSource::File:
        case SimSource::Mcmc: break;  // the strategy's own choice
    }
    return u;
}

double SimulationResult::trafficBytes() const {
    double total = 0;
    for (const auto& row : traffic)
        for (double bytes : row) total += bytes;
    return total;
}

namespace {

void stopIf(const CancelFn& cancel) {
    if (cancel && cancel()) throw Cancelled();
}

std::string simulationInputs(const Network& net, const SimulationSpec& spec) {
    return "network '" + net.name + "' on topology '" + spec.topology->name + "'";
}

double makespanOf(const Network& net, double batch, const sim::SoapStrategy& strategy, const SimulationSpec& spec,
                  const CancelFn& cancel) {
    const sim::TaskGraph graph = sim::buildTaskGraph(net, batch, strategy, *spec.topology, spec.options, cancel);
    sim::SimResult result;
    sim::simulate(graph, result, cancel);
    requireFinite(result.makespan, "the simulated makespan", simulationInputs(net, spec));
    return result.makespan;
}

}  // namespace

SimulationResult simulateStrategy(const Network& net, double batch, const SimulationSpec& spec,
                                  sim::SoapStrategy strategy, std::optional<McmcSummary> mcmc,
                                  const CancelFn& cancel) {
    if (!spec.topology) throw Error("a simulation needs a topology");
    const sim::TaskGraph graph = sim::buildTaskGraph(net, batch, strategy, *spec.topology, spec.options, cancel);
    sim::SimResult result;
    sim::simulate(graph, result, cancel);
    requireFinite(result.makespan, "the simulated makespan", simulationInputs(net, spec));
    const sim::Utilisation use = sim::utilisation(graph, result, &*spec.topology);

    SimulationResult r;
    r.spec = spec;
    r.strategy = std::move(strategy);
    r.makespan_s = result.makespan;
    r.tasks = graph.taskCount();
    r.compute_devices = graph.computeDevices();
    r.links = graph.linkCount();
    for (int i = 0; i < graph.resourceCount(); ++i) r.resources.push_back(graph.resourceName(i));
    r.busy_s = use.busy_s;
    r.utilisation = use.fraction;
    r.traffic = sim::trafficMatrix(graph);
    r.link_bytes = use.link_bytes;
    r.timeline = sim::timeline(graph, result);
    r.critical_path = sim::criticalPath(graph, result);
    r.op_names = graph.opNames();
    r.memory = sim::deviceMemory(net, sim::batchCount(batch), r.strategy, graph, *spec.topology, spec.options);
    stopIf(cancel);
    // The baselines on the same devices, so every simulated run says how it compares.
    const std::int64_t b = sim::batchCount(batch);
    const int devices = spec.topology->deviceCount();
    // An MCMC search simulated its dp and owt starts already (the same strategies, sim::namedStarts):
    // their makespans are reused, so a cancelled search ends two simulations sooner.
    const auto started = [&](const char* name) -> std::optional<double> {
        if (mcmc)
            for (const sim::McmcStartSummary& s : mcmc->starts)
                if (s.name == name) return s.initial_s;
        return std::nullopt;
    };
    const std::optional<double> dp = started("dp"), owt = started("owt");
    r.dp_makespan_s = dp ? *dp : makespanOf(net, batch, sim::dataParallelStrategy(net, b, devices), spec, cancel);
    r.owt_makespan_s = owt ? *owt : makespanOf(net, batch, sim::oneWeirdTrickStrategy(net, b, devices), spec, cancel);
    r.mcmc = std::move(mcmc);
    return r;
}

}  // namespace partita
