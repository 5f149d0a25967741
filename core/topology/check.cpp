#include "core/topology/check.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <utility>

#include "core/topology/import.h"
#include "core/util/error.h"
#include "core/util/format.h"
#include "core/util/graph.h"
#include "core/util/limits.h"

namespace partita::sim {

namespace {

using Element = TopologyError::Element;

std::string number(double v) { return formatNumber(v); }

bool positive(double v) { return v > 0 && std::isfinite(v); }
bool nonNegative(double v) { return v >= 0 && std::isfinite(v); }

// "" when v is a valid rate (positive, within the limits), else why not.
std::string rateProblem(const std::string& what, double v, const std::string& unit) {
    if (!positive(v)) return what + " must be positive, got " + number(v) + unit;
    if (v < limits::kRateMin || v > limits::kRateMax)
        return what + " must be between " + number(limits::kRateMin) + " and " + number(limits::kRateMax) + unit +
               ", got " + number(v) + unit;
    return {};
}

std::string durationProblem(const std::string& what, double v) {
    if (!nonNegative(v)) return what + " must not be negative, got " + number(v) + " s";
    if (v > limits::kLatencyMax)
        return what + " must be at most " + number(limits::kLatencyMax) + " s, got " + number(v) + " s";
    return {};
}

struct Checker {
    const Topology& t;
    std::vector<TopologyProblem> out;

    void add(Element e, int index, std::string message) { out.push_back({e, index, std::move(message), {}}); }

    static std::string deviceLabel(const Topology& t, int k) {
        const std::string& n = t.devices[static_cast<size_t>(k)].name;
        return n.empty() ? "device " + std::to_string(k) : "device '" + n + "'";
    }
    static std::string linkLabel(const Link& l, int k) {
        return l.name.empty() ? "link " + std::to_string(k) : "link '" + l.name + "'";
    }
    bool vertex(int v) const { return v >= 0 && v < t.vertexCount(); }
    bool usable(const Link& l) const { return vertex(l.from) && vertex(l.to) && l.from != l.to; }

    void devices() {
        for (int k = 0; k < t.deviceCount(); ++k) {
            const ComputeDevice& d = t.devices[static_cast<size_t>(k)];
            const std::string at = deviceLabel(t, k) + ": ";
            if (auto why = rateProblem("peak FLOP/s", d.peak_flops, ""); !why.empty()) add(Element::Device, k, at + why);
            if (auto why = rateProblem("memory bandwidth", d.mem_bandwidth_Bps, " B/s"); !why.empty())
                add(Element::Device, k, at + why);
            if (!nonNegative(d.mem_capacity_B))
                add(Element::Device, k, at + "memory capacity must not be negative, got " + number(d.mem_capacity_B) + " B");
            else if (d.mem_capacity_B > limits::kMemoryBytes)
                add(Element::Device, k, at + "memory capacity must be at most 2^60 B, got " + number(d.mem_capacity_B) + " B");
            if (!(d.efficiency > 0 && d.efficiency <= 1))
                add(Element::Device, k, at + "efficiency must be in (0, 1], got " + number(d.efficiency));
            else if (d.efficiency < limits::kEfficiencyMin)  // the simulated time would overflow to inf
                add(Element::Device, k, at + "efficiency must be at least " + number(limits::kEfficiencyMin) +
                                            " (the limit), got " + number(d.efficiency));
            if (auto why = durationProblem("per-task overhead", d.task_overhead_s); !why.empty())
                add(Element::Device, k, at + why);
            if (d.node < 0) add(Element::Device, k, at + "node must not be negative, got " + std::to_string(d.node));
        }
    }

    // Names identify vertices in files and views: present, unique, free of template braces.
    void names() {
        std::map<std::string, int> first;
        for (int v = 0; v < t.vertexCount(); ++v) {
            const bool device = v < t.deviceCount();
            const Element e = device ? Element::Device : Element::Switch;
            const int index = device ? v : v - t.deviceCount();
            const std::string what = device ? "device " : "switch ";
            const std::string& name = t.vertexName(v);
            if (name.empty()) {
                add(e, index, what + std::to_string(index) + ": name must not be empty");
                continue;
            }
            if (name.find_first_of("{}") != std::string::npos)
                add(e, index, what + "'" + name + "': '{' and '}' are reserved for file templates");
            const auto [it, fresh] = first.emplace(name, v);
            if (!fresh) {
                const int w = it->second;
                const std::string other = w < t.deviceCount() ? "device " + std::to_string(w)
                                                              : "switch " + std::to_string(w - t.deviceCount());
                add(e, index, what + "'" + name + "': the name is also used by " + other);
            }
        }
    }

    void links() {
        const int n = t.vertexCount();
        std::map<std::pair<int, int>, int> first;
        for (int k = 0; k < static_cast<int>(t.links.size()); ++k) {
            const Link& l = t.links[static_cast<size_t>(k)];
            const std::string at = linkLabel(l, k) + ": ";
            for (const auto& [end, v] : {std::pair{"from", l.from}, std::pair{"to", l.to}})
                if (!vertex(v))
                    add(Element::Link, k, at + end + " is not a device or switch (vertex " + std::to_string(v) +
                                              ", expected 0.." + std::to_string(n - 1) + ")");
            if (vertex(l.from) && l.from == l.to) add(Element::Link, k, at + "connects a vertex to itself");
            if (l.name.find_first_of("{}") != std::string::npos)
                add(Element::Link, k, at + "'{' and '}' are reserved for file templates");
            if (auto why = rateProblem("bandwidth", l.bandwidth_Bps, " B/s"); !why.empty()) add(Element::Link, k, at + why);
            if (auto why = durationProblem("latency", l.latency_s); !why.empty()) add(Element::Link, k, at + why);
            if (!usable(l)) continue;
            const auto [it, fresh] = first.emplace(std::pair{l.from, l.to}, k);
            if (!fresh)
                add(Element::Link, k, at + "duplicates " + linkLabel(t.links[static_cast<size_t>(it->second)], it->second) +
                                          " (same from and to)");
        }
    }

    // A device without links is named once; the route check below leaves it out.
    std::vector<bool> linkedDevices() {
        std::vector<int> out_deg(static_cast<size_t>(t.vertexCount()), 0), in_deg(out_deg);
        for (const Link& l : t.links)
            if (usable(l)) {
                ++out_deg[static_cast<size_t>(l.from)];
                ++in_deg[static_cast<size_t>(l.to)];
            }
        std::vector<bool> linked(static_cast<size_t>(t.deviceCount()), true);
        if (t.deviceCount() < 2) return linked;
        for (int k = 0; k < t.deviceCount(); ++k) {
            const int o = out_deg[static_cast<size_t>(k)], i = in_deg[static_cast<size_t>(k)];
            if (o && i) continue;
            const std::string why = !o && !i ? "it has no links" : !o ? "it has no outgoing link" : "it has no incoming link";
            add(Element::Device, k, deviceLabel(t, k) + " is not connected: " + why);
            linked[static_cast<size_t>(k)] = o || i;
        }
        return linked;
    }

    // Usable links as a graph, made once for every reachability search.
    std::optional<graph::Digraph> links_;

    const graph::Digraph& linkGraph() {
        if (!links_) {
            links_.emplace(static_cast<size_t>(t.vertexCount()));
            for (const Link& l : t.links)
                if (usable(l)) boost::add_edge(static_cast<size_t>(l.from), static_cast<size_t>(l.to), *links_);
        }
        return *links_;
    }

    std::vector<bool> reach(const std::vector<int>& sources, bool forward) { return graph::reachable(linkGraph(), sources, forward); }

    static std::string devicesCount(size_t n) { return std::to_string(n) + (n == 1 ? " device" : " devices"); }

    // Counts beyond the limits (docs/formats/limits.md); the other checks still run on what is there.
    void sizes() {
        const auto over = [&](size_t n, std::int64_t limit, const std::string& what) {
            if (static_cast<std::int64_t>(n) > limit)
                add(Element::Topology, -1,
                    "the topology has " + withCommas(static_cast<double>(n)) + " " + what + ", more than the limit of " +
                        withCommas(static_cast<double>(limit)));
        };
        over(t.devices.size(), limits::kTopologyDevices, "compute devices");
        over(t.switches.size(), limits::kTopologySwitches, "switches");
        over(t.links.size(), limits::kTopologyLinks, "links");
    }

    // One warning for all the switches in `which` (ascending), naming the first.
    void switchesWarning(const std::vector<int>& which, const std::string& one, const std::string& many) {
        if (which.empty()) return;
        const int first = which.front();
        const std::string name = "'" + t.switches[static_cast<size_t>(first)] + "'";
        add(Element::Switch, first,
            which.size() == 1 ? "switch " + name + " " + one
                              : withCommas(static_cast<double>(which.size())) + " switches (the first " + name + ") " + many);
    }

    void unusedSwitches() {
        const int d = t.deviceCount();
        std::vector<int> degree(static_cast<size_t>(t.vertexCount()), 0);
        for (const Link& l : t.links)
            if (usable(l)) {
                ++degree[static_cast<size_t>(l.from)];
                ++degree[static_cast<size_t>(l.to)];
            }
        std::vector<int> devices(static_cast<size_t>(d));
        for (int k = 0; k < d; ++k) devices[static_cast<size_t>(k)] = k;
        const std::vector<bool> there = d ? reach(devices, true) : std::vector<bool>(degree.size(), false);
        const std::vector<bool> back = d ? reach(devices, false) : there;
        std::vector<int> unlinked, aside;
        for (int v = d; v < t.vertexCount(); ++v) {
            if (degree[static_cast<size_t>(v)] == 0) unlinked.push_back(v - d);
            else if (!there[static_cast<size_t>(v)] || !back[static_cast<size_t>(v)]) aside.push_back(v - d);
        }
        switchesWarning(unlinked, "has no links: no route passes it", "have no links: no route passes them");
        switchesWarning(aside, "is on no route between devices: no device reaches it, or it reaches no device",
                        "are on no route between devices: no device reaches them, or they reach no device");
    }

    // Groups of devices joined by links in either direction: each group after the first is named once
    // against the first; inside a group, links that go one way are named once per direction.
    void routes(const std::vector<bool>& linked) {
        const int d = t.deviceCount();
        const std::vector<int> component = graph::weakComponents(linkGraph());
        std::vector<int> group(component.size(), -1);  // by component
        std::vector<std::vector<int>> groups;          // devices of each, ascending
        for (int v = 0; v < d; ++v) {
            if (!linked[static_cast<size_t>(v)]) continue;
            int& g = group[static_cast<size_t>(component[static_cast<size_t>(v)])];
            if (g < 0) {
                g = static_cast<int>(groups.size());
                groups.emplace_back();
            }
            groups[static_cast<size_t>(g)].push_back(v);
        }
        for (size_t g = 1; g < groups.size(); ++g) {
            const int a = groups[0].front(), b = groups[g].front();
            add(Element::Device, b,
                "no route between the group of " + deviceLabel(t, b) + " (" + devicesCount(groups[g].size()) +
                    ") and the group of " + deviceLabel(t, a) + " (" + devicesCount(groups[0].size()) +
                    "): no link joins them");
        }
        for (const auto& members : groups) {
            const int r = members.front();
            for (const bool forward : {true, false}) {
                const std::vector<bool> seen = reach({r}, forward);
                std::vector<int> missed;
                for (int k : members)
                    if (!seen[static_cast<size_t>(k)]) missed.push_back(k);
                if (missed.empty()) continue;
                const int m = missed.front();
                const int from = forward ? r : m, to = forward ? m : r;
                const std::string more = missed.size() < 2 ? ""
                                         : (forward ? " (nor to " : " (nor from ") +
                                               devicesCount(missed.size() - 1) + " more of its group)";
                add(Element::Device, from,
                    "no route from " + deviceLabel(t, from) + " to " + deviceLabel(t, to) + more +
                        ": links go one way only");
            }
        }
    }
};

}  // namespace

std::vector<TopologyProblem> checkTopology(const Topology& topology) {
    Checker c{topology, {}, {}};
    if (topology.devices.empty())
        c.add(Element::Topology, -1,
              (topology.name.empty() ? "the topology" : "topology '" + topology.name + "'") + " has no compute devices");
    c.sizes();
    c.devices();
    c.names();
    c.links();
    c.routes(c.linkedDevices());
    return std::move(c.out);
}

std::vector<TopologyProblem> topologyWarnings(const Topology& topology) {
    Checker c{topology, {}, {}};
    c.unusedSwitches();
    return std::move(c.out);
}

std::vector<TopologyProblem> checkTopologyFile(const std::string& path, Topology* read,
                                               std::vector<TopologyProblem>* warnings) {
    const std::string text = readTextFile(path);
    const auto first = text.find_first_not_of(" \t\r\n");
    const bool native = first != std::string::npos && text[first] == '{' && text.find("\"format\"") != std::string::npos;
    TopologyPlaces places;
    Topology t = native ? readTopologyJsonUnchecked(text, path, &places) : readAnyTopology(text, path, nullptr);
    std::vector<TopologyProblem> problems = checkTopology(t);
    const auto placed = [&](std::vector<TopologyProblem>& all) {
        for (TopologyProblem& p : all) {
            const auto* list = p.element == Element::Device   ? &places.devices
                               : p.element == Element::Switch ? &places.switches
                               : p.element == Element::Link   ? &places.links
                                                              : nullptr;
            if (list && p.index >= 0 && p.index < static_cast<int>(list->size()))
                p.place = (*list)[static_cast<size_t>(p.index)];
        }
    };
    placed(problems);
    if (warnings) {
        *warnings = topologyWarnings(t);
        placed(*warnings);
    }
    if (read) *read = std::move(t);
    return problems;
}

std::string describeProblem(const std::string& source, const TopologyProblem& p) {
    return source + ": " + (p.place.empty() ? "" : p.place + ": ") + p.message;
}

}  // namespace partita::sim
