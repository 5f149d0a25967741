#include "core/topology/edit.h"

#include <map>
#include <utility>

namespace partita::sim {

std::vector<LinkRow> linkRows(const Topology& t) {
    // Links by (from, to) not yet in a row, so each finds its reverse in O(log L).
    std::multimap<std::pair<int, int>, int> open;
    for (int k = 0; k < static_cast<int>(t.links.size()); ++k)
        open.emplace(std::pair{t.links[static_cast<size_t>(k)].from, t.links[static_cast<size_t>(k)].to}, k);
    std::vector<bool> used(t.links.size(), false);
    std::vector<LinkRow> rows;
    for (int k = 0; k < static_cast<int>(t.links.size()); ++k) {
        if (used[static_cast<size_t>(k)]) continue;
        used[static_cast<size_t>(k)] = true;
        const Link& l = t.links[static_cast<size_t>(k)];
        LinkRow row{k, -1};
        const auto [lo, hi] = open.equal_range({l.to, l.from});
        for (auto it = lo; it != hi && l.from != l.to; ++it) {
            const Link& r = t.links[static_cast<size_t>(it->second)];
            if (used[static_cast<size_t>(it->second)] || r.kind != l.kind || r.bandwidth_Bps != l.bandwidth_Bps ||
                r.latency_s != l.latency_s)
                continue;
            row.reverse = it->second;
            used[static_cast<size_t>(it->second)] = true;
            break;
        }
        rows.push_back(row);
    }
    return rows;
}

std::string defaultLinkName(const Topology& t, const Link& l) {
    const auto known = [&](int v) { return v >= 0 && v < t.vertexCount(); };
    if (!known(l.from) || !known(l.to)) return "";
    return l.kind + " " + t.vertexName(l.from) + "->" + t.vertexName(l.to);
}

std::string freshVertexName(const Topology& t, const std::string& stem) {
    for (int n = 0;; ++n) {
        const std::string name = stem + std::to_string(n);
        if (t.findVertex(name) < 0) return name;
    }
}

int addDevice(Topology& t, ComputeDevice device) {
    const int id = t.deviceCount();
    device.name = freshVertexName(t, "d");
    for (Link& l : t.links) {  // switches follow the devices
        if (l.from >= id) ++l.from;
        if (l.to >= id) ++l.to;
    }
    t.devices.push_back(std::move(device));
    return id;
}

int addSwitch(Topology& t) {
    t.switches.push_back(freshVertexName(t, "s"));
    return t.vertexCount() - 1;
}

void removeVertices(Topology& t, const std::set<int>& vertices) {
    std::vector<int> to(static_cast<size_t>(t.vertexCount()), -1);  // old id -> new id
    int next = 0;
    for (int v = 0; v < t.vertexCount(); ++v)
        if (!vertices.count(v)) to[static_cast<size_t>(v)] = next++;
    std::vector<ComputeDevice> devices;
    std::vector<std::string> switches;
    for (int v = 0; v < t.vertexCount(); ++v) {
        if (vertices.count(v)) continue;
        if (v < t.deviceCount()) devices.push_back(t.devices[static_cast<size_t>(v)]);
        else switches.push_back(t.switches[static_cast<size_t>(v - t.deviceCount())]);
    }
    const auto mapped = [&](int v) { return v >= 0 && v < static_cast<int>(to.size()) ? to[static_cast<size_t>(v)] : v; };
    std::vector<Link> links;
    for (const Link& l : t.links) {
        if (vertices.count(l.from) || vertices.count(l.to)) continue;
        Link m = l;
        m.from = mapped(l.from);
        m.to = mapped(l.to);
        links.push_back(std::move(m));
    }
    t.devices = std::move(devices);
    t.switches = std::move(switches);
    t.links = std::move(links);
}

int addLink(Topology& t, int from, int to, bool duplex, const Link& props) {
    const int id = static_cast<int>(t.links.size());
    for (const auto& [a, z] : {std::pair{from, to}, std::pair{to, from}}) {
        Link l = props;
        l.from = a;
        l.to = z;
        l.name = defaultLinkName(t, l);
        t.links.push_back(std::move(l));
        if (!duplex) break;
    }
    return id;
}

void removeLinks(Topology& t, const std::set<int>& links) {
    std::vector<Link> kept;
    for (int k = 0; k < static_cast<int>(t.links.size()); ++k)
        if (!links.count(k)) kept.push_back(t.links[static_cast<size_t>(k)]);
    t.links = std::move(kept);
}

void renameVertex(Topology& t, int v, const std::string& name) {
    const Topology before = t;
    if (v < t.deviceCount()) t.devices[static_cast<size_t>(v)].name = name;
    else t.switches[static_cast<size_t>(v - t.deviceCount())] = name;
    refreshLinkNames(before, t);
}

void refreshLinkNames(const Topology& before, Topology& t) {
    for (size_t k = 0; k < t.links.size() && k < before.links.size(); ++k)
        if (before.links[k].name == defaultLinkName(before, before.links[k]))
            t.links[k].name = defaultLinkName(t, t.links[k]);
}

ComputeDevice defaultEditorDevice() {
    ComputeDevice d;
    d.kind = "npu";
    d.peak_flops = 100e12;
    d.mem_bandwidth_Bps = 1000e9;
    d.mem_capacity_B = 32e9;
    return d;
}

Link defaultEditorLink() {
    Link l;
    l.bandwidth_Bps = 100e9;
    l.latency_s = 1e-6;
    return l;
}

}  // namespace partita::sim
