#include "core/run/sim_compare.h"

#include <algorithm>
#include <map>

#include "core/io/network_io.h"
#include "core/sim/soap_text.h"
#include "core/util/format.h"

namespace partita {

namespace {

std::string label(const Run& run, std::size_t i) { return "#" + std::to_string(i + 1) + " " + run.name; }

// Why `run` cannot stand beside `first`, or empty.
std::string mismatch(const Run& first, const Run& run, std::size_t i) {
    if (!run.simulation || !run.inputs)
        return label(run, i) + " is not simulated: its numbers come from an analytic model, not from the simulator";
    const sim::Topology& a = first.simulation->topology();
    const sim::Topology& b = run.simulation->topology();
    if (!(a == b))
        return label(run, i) + " ran on topology '" + b.name + "' (" + withCommas(b.deviceCount()) +
               " devices), #1 on '" + a.name + "' (" + withCommas(a.deviceCount()) + " devices)";
    if (writeNetworkJson(first.inputs->network) != writeNetworkJson(run.inputs->network))
        return label(run, i) + " simulated network '" + run.inputs->network.name + "', #1 '" +
               first.inputs->network.name + "'";
    if (first.inputs->params.batch != run.inputs->params.batch)
        return label(run, i) + " has batch " + formatNumber(run.inputs->params.batch) + ", #1 batch " +
               formatNumber(first.inputs->params.batch);
    return {};
}

std::string strategyName(const SimulationResult& sim) {
    return sim.spec.source == SimSource::File ? "file " + sim.spec.strategy_origin : simSourceLabel(sim.spec.source);
}

}  // namespace

SimComparison compareSimulations(const std::vector<RunPtr>& runs) {
    SimComparison c;
    if (runs.size() < 2) {
        c.refusal = "choose two to four simulated runs to compare";
        return c;
    }
    for (std::size_t i = 0; i < runs.size() && c.ok(); ++i)
        if (!runs[i]->simulation || !runs[i]->inputs) c.refusal = mismatch(*runs[i], *runs[i], i);
    for (std::size_t i = 1; i < runs.size() && c.ok(); ++i) c.refusal = mismatch(*runs[0], *runs[i], i);
    if (!c.ok()) {
        c.refusal += "; only simulated runs on the same topology, network and batch can be compared";
        return c;
    }
    const SimulationResult& first = *runs[0]->simulation;
    const sim::Topology& topo = first.topology();
    c.topology = topo.name;
    c.network = runs[0]->inputs->network.name;
    c.batch = runs[0]->inputs->params.batch;
    for (const auto& d : topo.devices) {
        c.devices.push_back(d.name);
        c.device_nodes.push_back(d.node);
    }
    for (const auto& l : topo.links)
        if (std::find(c.link_kinds.begin(), c.link_kinds.end(), l.kind) == c.link_kinds.end()) c.link_kinds.push_back(l.kind);
    std::sort(c.link_kinds.begin(), c.link_kinds.end());
    const std::int64_t batch = sim::batchCount(c.batch);
    for (const RunPtr& run : runs) {
        const SimulationResult& s = *run->simulation;
        SimCompareRun r;
        r.name = run->name;
        r.strategy = strategyName(s);
        r.makespan_s = s.makespan_s;
        r.speedup = first.makespan_s / s.makespan_s;
        r.devices_used = deviceUse(s.spec.source, s.strategy, batch, topo.deviceCount()).used;
        r.utilisation.assign(s.utilisation.begin(), s.utilisation.begin() + s.compute_devices);
        r.traffic_bytes = s.trafficBytes();
        r.link_bytes.assign(c.link_kinds.size(), 0.0);
        for (std::size_t l = 0; l < s.link_bytes.size(); ++l) {
            const std::string& kind = topo.links[l].kind;
            const auto k = std::lower_bound(c.link_kinds.begin(), c.link_kinds.end(), kind) - c.link_kinds.begin();
            r.link_bytes[static_cast<std::size_t>(k)] += s.link_bytes[l];
        }
        c.runs.push_back(std::move(r));
    }
    const Network& net = runs[0]->inputs->network;
    for (std::size_t op = 0; op < net.ops.size(); ++op) {
        SimOpDifference d{net.ops[op].name, {}};
        bool differs = false;
        for (const RunPtr& run : runs) {
            const sim::OpConfig& config = run->simulation->strategy.ops[op];
            differs = differs || !(config == first.strategy.ops[op]);
            d.configs.push_back(sim::configText(config));
        }
        if (differs) c.differences.push_back(std::move(d));
    }
    return c;
}

std::vector<DeviceGroup> deviceGroups(const SimComparison& c, int max_groups) {
    const int devices = static_cast<int>(c.devices.size());
    std::vector<DeviceGroup> groups;
    const auto mean = [&](const std::vector<int>& members) {
        std::vector<double> by_run;
        for (const SimCompareRun& r : c.runs) {
            double sum = 0;
            for (int d : members) sum += r.utilisation[static_cast<std::size_t>(d)];
            by_run.push_back(members.empty() ? 0 : sum / static_cast<double>(members.size()));
        }
        return by_run;
    };
    if (devices <= max_groups) {
        for (int d = 0; d < devices; ++d)
            groups.push_back({c.devices[static_cast<std::size_t>(d)], d, 1, mean({d})});
        return groups;
    }
    std::map<int, std::vector<int>> nodes;
    for (int d = 0; d < devices; ++d) nodes[c.device_nodes[static_cast<std::size_t>(d)]].push_back(d);
    if (nodes.size() > 1 && static_cast<int>(nodes.size()) <= max_groups) {
        for (const auto& [node, members] : nodes)
            groups.push_back({"node " + std::to_string(node), members.front(), static_cast<int>(members.size()),
                              mean(members)});
        return groups;
    }
    const int per = (devices + max_groups - 1) / max_groups;
    for (int first = 0; first < devices; first += per) {
        const int n = std::min(per, devices - first);
        std::vector<int> members(static_cast<std::size_t>(n));
        for (int k = 0; k < n; ++k) members[static_cast<std::size_t>(k)] = first + k;
        groups.push_back({"devices " + std::to_string(first) + "-" + std::to_string(first + n - 1), first, n, mean(members)});
    }
    return groups;
}

}  // namespace partita
