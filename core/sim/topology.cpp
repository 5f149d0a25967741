#include "core/sim/topology.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <set>
#include <sstream>
#include <utility>

#include "core/sim/topology_routes.h"

namespace partita::sim {

namespace {

using Element = TopologyError::Element;

std::string number(double v) {
    std::ostringstream s;
    s << v;
    return s.str();
}

std::string linkLabel(const Link& l, size_t k) {
    return l.name.empty() ? "link " + std::to_string(k) : "link '" + l.name + "'";
}

void checkDevice(const ComputeDevice& d, int k) {
    const std::string at = "device '" + d.name + "': ";
    auto fail = [&](const std::string& m) { throw TopologyError(Element::Device, k, at + m); };
    if (!(d.peak_flops > 0) || !std::isfinite(d.peak_flops))
        fail("peak_flops must be positive, got " + number(d.peak_flops));
    if (!(d.mem_bandwidth_Bps > 0) || !std::isfinite(d.mem_bandwidth_Bps))
        fail("mem_bandwidth_Bps must be positive, got " + number(d.mem_bandwidth_Bps));
    if (!(d.mem_capacity_B >= 0) || !std::isfinite(d.mem_capacity_B))
        fail("mem_capacity_B must not be negative, got " + number(d.mem_capacity_B));
    if (!(d.efficiency > 0 && d.efficiency <= 1))
        fail("efficiency must be in (0, 1], got " + number(d.efficiency));
    if (!(d.task_overhead_s >= 0) || !std::isfinite(d.task_overhead_s))
        fail("task_overhead_s must not be negative, got " + number(d.task_overhead_s));
    if (d.node < 0) fail("node must not be negative, got " + std::to_string(d.node));
}

void checkLink(const Link& l, size_t k, int vertices) {
    const std::string at = linkLabel(l, k) + ": ";
    auto fail = [&](const std::string& m) { throw TopologyError(Element::Link, static_cast<int>(k), at + m); };
    for (const auto& [end, v] : {std::pair{"from", l.from}, std::pair{"to", l.to}})
        if (v < 0 || v >= vertices)
            fail(std::string(end) + " vertex " + std::to_string(v) + " is not a device or switch (0.." +
                 std::to_string(vertices - 1) + ")");
    if (l.from == l.to) fail("connects a vertex to itself");
    if (l.name.find_first_of("{}") != std::string::npos) fail("'{' and '}' are reserved for file templates");
    if (!(l.bandwidth_Bps > 0) || !std::isfinite(l.bandwidth_Bps))
        fail("bandwidth must be positive, got " + number(l.bandwidth_Bps) + " B/s");
    if (!(l.latency_s >= 0) || !std::isfinite(l.latency_s))
        fail("latency must not be negative, got " + number(l.latency_s) + " s");
}

// Names identify vertices in files and views, so they must be present and unique.
void checkNames(const Topology& t) {
    std::set<std::string> seen;
    for (int v = 0; v < t.vertexCount(); ++v) {
        const bool device = v < t.deviceCount();
        const Element e = device ? Element::Device : Element::Switch;
        const int index = device ? v : v - t.deviceCount();
        const std::string what = device ? "device " : "switch ";
        const std::string& name = t.vertexName(v);
        if (name.empty()) throw TopologyError(e, index, what + std::to_string(index) + ": name must not be empty");
        if (name.find_first_of("{}") != std::string::npos)
            throw TopologyError(e, index, what + "'" + name + "': '{' and '}' are reserved for file templates");
        if (!seen.insert(name).second)
            throw TopologyError(e, index, what + "'" + name + "': the name is used by another device or switch");
    }
}

// A device without links in one direction is the usual mistake; name it before routing.
void checkEveryDeviceLinked(const Topology& t) {
    if (t.deviceCount() < 2) return;
    std::vector<int> out(t.vertexCount(), 0), in(t.vertexCount(), 0);
    for (const Link& l : t.links) {
        ++out[l.from];
        ++in[l.to];
    }
    for (int k = 0; k < t.deviceCount(); ++k)
        if (!out[k] || !in[k])
            throw TopologyError(Element::Device, k, "device '" + t.devices[k].name + "' is not connected: it has no " +
                                                        (out[k] ? "incoming" : "outgoing") + " link");
}

}  // namespace

int Topology::findVertex(const std::string& vertex_name) const {
    for (int v = 0; v < vertexCount(); ++v)
        if (vertexName(v) == vertex_name) return v;
    return -1;
}

const std::string& Topology::vertexName(int vertex) const {
    if (vertex < 0 || vertex >= vertexCount())
        throw std::out_of_range("vertex " + std::to_string(vertex) + " is not in topology '" + name + "'");
    return vertex < deviceCount() ? devices[vertex].name : switches[vertex - deviceCount()];
}

bool Topology::operator==(const Topology& other) const {
    return name == other.name && devices == other.devices && switches == other.switches && links == other.links;
}

void Topology::finalize() {
    routes_.reset();
    routed_devices_ = 0;
    if (devices.empty()) throw TopologyError(Element::Topology, -1, "topology '" + name + "' has no compute devices");
    for (int k = 0; k < deviceCount(); ++k) checkDevice(devices[k], k);
    checkNames(*this);
    for (size_t k = 0; k < links.size(); ++k) checkLink(links[k], k, vertexCount());
    checkEveryDeviceLinked(*this);
    RouteTable::checkReachable(*this);
    routes_ = std::make_shared<const RouteTable>(*this);
    routed_devices_ = deviceCount();
}

void Topology::route(int from, int to, std::vector<int>& out) const {
    if (!routes_) throw std::logic_error("topology '" + name + "': route() before finalize()");
    if (from < 0 || from >= routed_devices_ || to < 0 || to >= routed_devices_)
        throw std::out_of_range("route " + std::to_string(from) + " -> " + std::to_string(to) + ": topology '" +
                                name + "' has " + std::to_string(routed_devices_) + " devices");
    routes_->route(from, to, out);
}

std::vector<int> Topology::route(int from, int to) const {
    std::vector<int> r;
    route(from, to, r);
    return r;
}

}  // namespace partita::sim
