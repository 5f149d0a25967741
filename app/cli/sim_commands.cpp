// partita-cli simulate and mcmc: the FlexFlow execution simulator and its MCMC
// search over SOAP strategies (docs/methods/flexflow.md).
#include <cmath>
#include <filesystem>
#include <fstream>
#include <ostream>

#include "app/cli/network_input.h"
#include "app/cli/commands.h"
#include "app/cli/report.h"
#include "app/cli/sim_memory_report.h"
#include "core/accpar/accpar.h"
#include "core/io/network_io.h"
#include "core/llm/profile.h"
#include "core/model/array.h"
#include "core/model/layers.h"
#include "core/run/simulation.h"
#include "core/run/simulation_run.h"
#include "core/search/methods.h"
#include "core/sim/baselines.h"
#include "core/sim/compute_cost.h"
#include "core/sim/lowering.h"
#include "core/sim/mcmc.h"
#include "core/sim/simulator.h"
#include "core/sim/trace.h"
#include "core/util/error.h"
#include "core/util/finite.h"

namespace partita::cli {

namespace {

struct SimSetup {
    Network net;
    sim::Topology topology;
    std::vector<std::string> topology_warnings;  // an importer's ignored and approximated fields
    std::int64_t batch = 0;
};

SimSetup readSimSetup(const Options& a) {
    SimSetup s;
    s.batch = a.integer64("batch", 256);
    s.net = readNetworkArg(a, a.required("network"));
    s.topology = readTopology(a.required("topology"), &s.topology_warnings);
    return s;
}

// --sync ring (default: ring all-reduce overlapped with the backward pass) or ps (a parameter
// server on each weight's first replica, as FlexFlow's own simulator does).
sim::SyncMode readSync(const Options& a) {
    return usage("sync", [&] { return sim::parseSyncMode(a.get("sync", "ring")); });
}

// --collectives algorithm (default: a ring sync is a collective priced by the fastest algorithm over
// the topology) or per-hop (FlexFlow's model: every hop of every ring message is a task).
sim::CollectiveModel readCollectives(const Options& a) {
    return usage("collectives", [&] { return sim::parseCollectiveModel(a.get("collectives", "algorithm")); });
}

// --collective-algorithm best (default) or one algorithm, used wherever it applies.
std::optional<sim::CollectiveAlgorithm> readCollectiveAlgorithm(const Options& a) {
    const std::string name = a.get("collective-algorithm", "best");
    if (name == "best") return std::nullopt;
    return usage("collective-algorithm", [&] { return sim::parseCollectiveAlgorithm(name); });
}

// The simulator's settings both commands read, each once: --sync, --collectives,
// --collective-algorithm, --optimizer, and --profile / --precision (an LLM hardware profile prices
// compute with its kernel curves, docs/methods/flexflow.md#kernel-curves; --precision sets the element
// size and, with a profile, the unit).
sim::SimOptions readSimOptions(const Options& a) {
    sim::SimOptions o;
    o.training = !a.flag("inference");
    o.sync = readSync(a);
    o.collectives = readCollectives(a);
    o.collective_algorithm = readCollectiveAlgorithm(a);
    o.optimizer_states = readOptimizerStates(a);
    const bool has_precision = a.has("precision");
    const llm::Dtype precision =
        has_precision ? usage("precision", [&] { return llm::parseDtype(a.get("precision")); }) : llm::Dtype::Fp32;
    if (a.has("profile")) {
        const llm::Profile profile = usage("profile", [&] { return llm::loadProfile(a.get("profile")); });
        const llm::Dtype dtype = has_precision ? precision : profile.precision.param;
        usage("precision", [&] { sim::useKernelCurves(o, profile, dtype, a.get("profile")); });
    } else {
        o.element_bytes = llm::dtypeBytes(precision);
    }
    return o;
}

Json kernelsJson(const sim::SimOptions& o) {
    if (!o.kernels) return nullptr;
    return {{"profile", o.kernels->profile}, {"precision", llm::dtypeName(o.kernels->dtype)},
            {"gradient_bytes", o.gradient_bytes}};
}

// The strategy a method names, through the GUI's lowering path (methodStrategy).
sim::SoapStrategy methodStrategy(const std::string& method, const SimSetup& s) {
    const MethodInfo* m = findMethod(method);
    if (!m || !m->strategySource())
        throw UsageError("--method must be " + strategyMethodList() + ", got '" + method + "'");
    const int d = s.topology.deviceCount();
    // HyPar and AccPar search on 2^H identical accelerators (HyPar's default array), so every level is uniform.
    const auto inputs = [&] {
        const int levels = static_cast<int>(std::floor(std::log2(d)));
        if (levels < 1) throw UsageError("--method " + method + " needs at least 2 devices");
        CostParams params;
        params.batch = static_cast<double>(s.batch);
        return makeInputs(s.net, defaultArray(levels), params);
    };
    return partita::methodStrategy(*m, StrategyRequest{s.net, s.batch, d, inputs, {}});
}

// "network 'lenet-c' on topology 'ring-8'" for messages.
std::string inputsText(const SimSetup& s) { return "network '" + s.net.name + "' on topology '" + s.topology.name + "'"; }

// Up to this many devices the JSON carries the whole device x device matrix; beyond it, the pairs
// that exchange anything (a 4,096-device matrix would be 16.7 million numbers).
constexpr int kDenseTrafficDevices = 256;

Json trafficSummary(const std::vector<sim::TrafficPair>& pairs, int devices) {
    double total = 0, peak = 0;
    for (const auto& p : pairs) {
        total += p.bytes;
        peak = std::max(peak, p.bytes);
    }
    Json j{{"total_bytes", total}, {"max_pair_bytes", peak}};
    if (devices <= kDenseTrafficDevices) {
        std::vector<std::vector<double>> m(static_cast<size_t>(devices), std::vector<double>(static_cast<size_t>(devices), 0.0));
        for (const auto& p : pairs) m[static_cast<size_t>(p.from)][static_cast<size_t>(p.to)] = p.bytes;
        j["bytes"] = m;
    } else {
        Json list = Json::array();
        for (const auto& p : pairs) list.push_back({p.from, p.to, p.bytes});
        j["pairs"] = std::move(list);
    }
    return j;
}

// What a --method or --strategy simulation occupies (the same words as the GUI's summary).
DeviceUse methodDeviceUse(const Options& a, const sim::SoapStrategy& strategy, const SimSetup& s) {
    SimSource source = SimSource::File;
    if (!a.has("strategy")) source = method(a.get("method")).strategySource().value_or(SimSource::File);
    return deviceUse(source, strategy, s.batch, s.topology.deviceCount());
}

int cmdSimulate(const Options& a, std::ostream& out) {
    if (a.has("strategy") == a.has("method")) throw UsageError("give exactly one of --strategy or --method");
    const SimSetup s = readSimSetup(a);
    const sim::SoapStrategy strategy =
        a.has("strategy") ? sim::loadSoap(a.get("strategy"), s.net) : methodStrategy(a.get("method"), s);
    const sim::SimOptions options = readSimOptions(a);
    const sim::TaskGraph graph = sim::buildTaskGraph(s.net, static_cast<double>(s.batch), strategy, s.topology, options);
    const sim::SimResult result = sim::simulate(graph);
    requireFinite(result.makespan, "the simulated makespan", inputsText(s));
    if (a.has("trace")) writeOutputFile(a.get("trace"), sim::chromeTraceJson(graph, result));
    if (a.has("dot")) writeOutputFile(a.get("dot"), sim::taskGraphDot(graph, &result));
    const sim::Utilisation use = sim::utilisation(graph, result, &s.topology);
    const auto traffic = sim::trafficPairs(graph);
    const DeviceUse use_of = methodDeviceUse(a, strategy, s);
    const sim::MemoryReport memory = sim::deviceMemory(s.net, s.batch, strategy, graph, s.topology, options);
    // A strategy that does not fit is still shown, but never with the status of one that runs.
    const int status = memory.fits ? 0 : kDoesNotFit;
    if (a.flag("json")) {
        Json devices = Json::array();
        for (int r = 0; r < graph.computeDevices(); ++r)
            devices.push_back({{"name", graph.resourceName(r)},
                               {"busy_s", use.busy_s[static_cast<size_t>(r)]},
                               {"utilisation", use.fraction[static_cast<size_t>(r)]},
                               {"memory", memoryJson(memory.devices[static_cast<size_t>(r)])}});
        Json j{{"network", s.net.name},
               {"topology", s.topology.name},
               {"batch", s.batch},
               {"sync", a.get("sync", "ring")},
               {"collectives", sim::collectiveModelName(options.collectives)},
               {"collective_algorithm", options.collective_algorithm ? sim::collectiveAlgorithmName(*options.collective_algorithm) : "best"},
               {"strategy", a.has("strategy") ? a.get("strategy") : a.get("method")},
               {"kernels", kernelsJson(options)},
               {"makespan_s", result.makespan},
               {"tasks", graph.taskCount()},
               {"devices", devices},
               {"devices_used", use_of.used},
               {"traffic", trafficSummary(traffic, graph.computeDevices())},
               {"memory", memoryJson(memory, s.topology)}};
        if (!use_of.reason.empty()) j["devices_used_reason"] = use_of.reason;
        if (!s.topology_warnings.empty()) j["topology_warnings"] = s.topology_warnings;
        out << jsonText(j) << "\n";
        return status;
    }
    out << "Network   " << s.net.name << ", batch " << s.batch << "\n";
    out << "Topology  " << s.topology.name << " (" << s.topology.deviceCount() << " devices)\n";
    for (const auto& w : s.topology_warnings) out << "Warning   " << w << "\n";
    out << "Strategy  " << (a.has("strategy") ? a.get("strategy") : a.get("method")) << " on "
        << (use_of.used < use_of.devices ? withCommas(use_of.used) + " of the " : std::string("the "))
        << withCommas(use_of.devices) << " devices" << (use_of.reason.empty() ? "" : " (" + use_of.reason + ")")
        << "\n";
    if (options.kernels)
        out << "Compute   " << options.kernels->profile << "'s kernel curves, " << llm::dtypeName(options.kernels->dtype)
            << "\n";
    out << "Makespan  " << seconds(result.makespan) << " over " << graph.taskCount() << " tasks\n";
    printMemory(out, memory, s.topology);
    out << "\n";
    TextTable t({"device", "busy", "utilisation", "memory"});
    for (int r = 0; r < graph.computeDevices(); ++r) {
        const sim::DeviceMemory& m = memory.devices[static_cast<size_t>(r)];
        t.add({graph.resourceName(r), seconds(use.busy_s[static_cast<size_t>(r)]),
               fixed(100 * use.fraction[static_cast<size_t>(r)], 1) + " %",
               sim::memoryText(m.total()) + (m.capacity > 0 ? " of " + sim::memoryText(m.capacity) : "") +
                   (m.overshoot() > 0 ? " (over)" : "")});
    }
    t.print(out);
    double total = 0;
    for (const auto& p : traffic) total += p.bytes;
    out << "\nTraffic   " << fixed(total / 1e9, 4)
        << " GB between devices\n";
    return status;
}

int cmdMcmc(const Options& a, std::ostream& out) {
    if (!a.has("budget-s") && !a.has("iterations")) throw UsageError("give --budget-s S or --iterations N (or both)");
    const SimSetup s = readSimSetup(a);
    const int d = s.topology.deviceCount();
    McmcSettings m;
    m.budget_s = a.number("budget-s", 0);
    if (m.budget_s < 0 || m.budget_s > 1e7) throw UsageError("--budget-s must be from 0 to 10,000,000 seconds");
    m.iterations = a.integer64("iterations", 0);
    m.seed = static_cast<std::uint64_t>(a.integer64("seed", 1));
    m.beta = a.numberIn("beta", 1.0, ranges::kMcmcBeta);
    m.starts = Grid::splitList(a.get("init", "dp,owt,random"));
    // --no-stall-stop was the way to keep chains going when they ended at a stall; now the default.
    if (a.flag("stop-on-stall") && a.flag("no-stall-stop"))
        throw UsageError("--stop-on-stall and --no-stall-stop contradict each other");
    m.stop_on_stall = a.flag("stop-on-stall");
    const sim::SimOptions sim_options = readSimOptions(a);

    const sim::SoapStrategy dp = sim::dataParallelStrategy(s.net, s.batch, d);
    const sim::SoapStrategy owt = sim::oneWeirdTrickStrategy(s.net, s.batch, d);
    McmcPlan plan = mcmcPlan(s.net, s.batch, d, m, sim_options,
                             [&](const std::string& file) { return sim::loadSoap(file, s.net); });  // imported
    sim::McmcOptions& o = plan.options;
    o.relative_beta = a.flag("relative-beta");
    o.incremental = !a.flag("full-sim");
    const std::vector<sim::McmcStart>& starts = plan.starts;
    const double batch = static_cast<double>(s.batch);
    const double dp_s = sim::simulate(sim::buildTaskGraph(s.net, batch, dp, s.topology, o.sim)).makespan;
    const double owt_s = sim::simulate(sim::buildTaskGraph(s.net, batch, owt, s.topology, o.sim)).makespan;
    const sim::McmcResult r = sim::mcmcSearch(s.net, batch, s.topology, starts, o);
    for (const double makespan : {dp_s, owt_s, r.best_s}) requireFinite(makespan, "a simulated makespan", inputsText(s));
    if (a.has("export")) writeOutputFile(a.get("export"), sim::writeSoapJson(r.best, s.net));
    // The search returns a strategy that fits whenever one was found (docs/methods/flexflow.md#memory-per-device).
    const sim::MemoryReport memory = sim::deviceMemory(
        s.net, s.batch, r.best, sim::buildTaskGraph(s.net, batch, r.best, s.topology, o.sim), s.topology, o.sim);
    const int status = memory.fits ? 0 : kDoesNotFit;
    if (a.flag("json")) {
        Json chains = Json::array();
        for (const auto& c : r.starts)
            chains.push_back({{"init", c.name}, {"initial_makespan_s", c.initial_s}, {"best_makespan_s", c.best_s},
                              {"iterations", c.iterations}, {"accepted", c.accepted}, {"elapsed_s", c.elapsed_s},
                              {"stop", c.stop}, {"restarts", c.restarts}, {"resets", c.resets},
                              {"early_exits", c.early_exits}, {"initial_excess_bytes", c.initial_excess}});
        Json j{{"network", s.net.name}, {"topology", s.topology.name}, {"batch", s.batch},
               {"sync", a.get("sync", "ring")}, {"collectives", sim::collectiveModelName(o.sim.collectives)}, {"seed", o.seed}, {"beta", o.beta},
               {"relative_beta", o.relative_beta}, {"kernels", kernelsJson(o.sim)}, {"stop_on_stall", o.stop_on_stall}, {"makespan_s", r.best_s},
               {"iterations", r.iterations}, {"restarts", r.restarts}, {"acceptance_rate", r.acceptance_rate}, {"dp_makespan_s", dp_s},
               {"owt_makespan_s", owt_s}, {"speedup_vs_dp", dp_s / r.best_s}, {"speedup_vs_owt", owt_s / r.best_s},
               {"starts", chains}, {"best_strategy", sim::soapToJson(r.best, s.net)},
               {"memory", memoryJson(memory, s.topology)}};
        out << jsonText(j) << "\n";
        return status;
    }
    out << "Network   " << s.net.name << ", batch " << s.batch << " on " << s.topology.name << " (" << d
        << " devices)\n\n";
    TextTable t({"init", "initial", "best", "iterations", "accepted", "restarts", "stop"});
    for (const auto& c : r.starts)
        t.add({c.name, seconds(c.initial_s), seconds(c.best_s), std::to_string(c.iterations),
               std::to_string(c.accepted), std::to_string(c.restarts), c.stop});
    t.print(out);
    out << "\nBest      " << seconds(r.best_s) << "  (DP " << seconds(dp_s) << ", " << fixed(dp_s / r.best_s, 3)
        << "x; OWT " << seconds(owt_s) << ", " << fixed(owt_s / r.best_s, 3) << "x)\n";
    if (!memory.fits) out << "No strategy found fits in memory; the best shown is the closest.\n";
    printMemory(out, memory, s.topology);
    return status;
}

// The network, machine and batch both commands read.
void addSimOptions(CLI::App& app) {
    addNetworkOptions(app);
    value(app, "topology", "T",
          "a preset (p100-16, k80-64, hmc-htree-16, ...) or a topology file: partita-topology/1,\n"
          "ASTRA-sim network .yml/.json or Calculon system .json");
    value(app, "batch", "B", "samples per step (256)")->check(integerIn(1, limits::kBatch));
    value(app, "sync", "ring|ps",
          "weight synchronisation: ring all-reduce overlapped with backward (default) or a parameter server");
    value(app, "collectives", "algorithm|per-hop",
          "a ring sync as a collective by the fastest algorithm over the topology (default), or\n"
          "per hop as FlexFlow simulates it (every hop of every message a task; small cases)");
    value(app, "collective-algorithm", "best|ring|tree|halving-doubling|direct|hierarchical",
          "with --collectives algorithm: the fastest per weight (default) or this one where it applies");
    value(app, "optimizer", "sgd|momentum|adam",
          "optimizer state per weight for the memory check: 0, 1 (momentum, default) or 2 copies");
    value(app, "profile", "P",
          "price compute with an LLM hardware profile's kernel curves: a preset (a100-sxm4-80gb, ...),\n"
          "a partita-llm-hw/1 file or a Calculon system file (default: each device's peak x efficiency)");
    value(app, "precision", "fp32|bf16|fp16|fp8",
          "element size (fp32); with --profile also the compute unit (default the profile's)");
    flag(app, "json", "one JSON object on stdout");
}

}  // namespace

void addSimCommands(CLI::App& app, RunContext& ctx) {
    CLI::App* simulate = command(app, ctx, "simulate", "FlexFlow's execution simulator on one SOAP strategy",
                                 [](const Options& a, std::ostream& out, std::ostream&) { return cmdSimulate(a, out); });
    addSimOptions(*simulate);
    value(*simulate, "strategy", "F", "a partita-soap/1 strategy file");
    value(*simulate, "method", "dp|owt|mp|hypar|accpar", "a method's strategy (give --strategy or --method)");
    value(*simulate, "trace", "FILE", "write the timeline as a Chrome trace (JSON)");
    value(*simulate, "dot", "FILE", "write the task graph as Graphviz dot");
    flag(*simulate, "inference", "forward pass only (default: a training step)");

    CLI::App* mcmc = command(app, ctx, "mcmc", "FlexFlow's MCMC search over SOAP strategies",
                             [](const Options& a, std::ostream& out, std::ostream&) { return cmdMcmc(a, out); });
    addSimOptions(*mcmc);
    value(*mcmc, "budget-s", "S", "search time budget in seconds (give it, --iterations, or both)");
    value(*mcmc, "iterations", "N", "proposals per chain")->check(integerIn(0, kMaxSeed));
    value(*mcmc, "seed", "N", "random seed (1)")->check(integerIn(0, kMaxSeed));
    value(*mcmc, "beta", "B", "the acceptance temperature (1)");
    flag(*mcmc, "relative-beta", "beta relative to the current cost");
    value(*mcmc, "init", "LIST", "starting strategies: dp, owt, mp, random or a file (dp,owt,random)");
    value(*mcmc, "export", "FILE", "write the best strategy as partita-soap/1");
    flag(*mcmc, "stop-on-stall", "end a chain when it stalls");
    flag(*mcmc, "no-stall-stop", "(the default now; kept for old scripts)");
    flag(*mcmc, "full-sim", "re-simulate every proposal in full, not incrementally");
}

}  // namespace partita::cli
