#include "core/topology/topology.h"

#include <utility>

#include "core/topology/check.h"
#include "core/topology/routes.h"

namespace partita::sim {

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
    // One checker for files, the editor and here: the first problem it lists is the one refused.
    const std::vector<TopologyProblem> problems = checkTopology(*this);
    if (!problems.empty()) throw TopologyError(problems.front().element, problems.front().index, problems.front().message);
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

double Topology::fanOut(int from, const std::vector<std::pair<int, double>>& to_bytes, std::vector<double>& load,
                        std::vector<int>& touched) const {
    if (!routes_) throw std::logic_error("topology '" + name + "': fanOut() before finalize()");
    auto valid = [&](int d) { return d >= 0 && d < routed_devices_; };
    if (!valid(from)) throw std::out_of_range("fanOut from device " + std::to_string(from) + ": topology '" + name +
                                              "' has " + std::to_string(routed_devices_) + " devices");
    for (const auto& m : to_bytes)
        if (!valid(m.first))
            throw std::out_of_range("fanOut to device " + std::to_string(m.first) + ": topology '" + name + "' has " +
                                    std::to_string(routed_devices_) + " devices");
    if (load.size() < links.size()) throw std::invalid_argument("fanOut: the load vector is shorter than the links");
    return routes_->fanOut(from, to_bytes, load, touched);
}

std::vector<int> Topology::route(int from, int to) const {
    std::vector<int> r;
    route(from, to, r);
    return r;
}

}  // namespace partita::sim
