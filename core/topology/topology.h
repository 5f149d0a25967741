#pragma once
// A device topology as a general graph (docs/methods/flexflow.md#device-topologies,
// docs/methods/flexflow.md#partitas-decisions): compute devices and switches are vertices, every link is one
// directed communication device (a duplex cable is two links, so the two
// directions transfer concurrently). Routes are shortest paths, computed per source device on
// demand and cached within a memory bound (core/topology/routes.h).
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/io/json_fields.h"
#include "core/model/array.h"

namespace partita::sim {

class RouteTable;

struct ComputeDevice {
    std::string name;               // "n0.gpu1"
    std::string kind;               // "p100", "k80", "hmc", ...
    double peak_flops = 0;          // FLOP/s
    double mem_bandwidth_Bps = 0;   // bytes/s
    double mem_capacity_B = 0;      // bytes (informational)
    double efficiency = 1.0;        // fraction of peak a kernel reaches, (0, 1]
    int node = 0;                   // machine the device sits in (for grouping in views)
    // Fixed time added to every analytically timed compute task: kernel launch
    // and runtime dispatch (measured costs include it already). 0 = the spec's formula.
    double task_overhead_s = 0;
    bool operator==(const ComputeDevice&) const = default;
};

struct Link {
    std::string name;               // "nvlink n0.gpu0->n0.gpu1"
    int from = 0, to = 0;           // vertex ids: devices 0..D-1, then switches D..D+S-1
    double bandwidth_Bps = 0;       // bytes/s
    double latency_s = 0;           // seconds per transfer
    std::string kind = "link";      // "nvlink", "pcie", "infiniband", ... (names and colours in views)
    bool operator==(const Link&) const = default;
};

// What finalize() rejects. `element` and `index` say which device, switch or
// link is at fault, so a file reader can point at the entry that made it.
class TopologyError : public std::invalid_argument {
public:
    enum class Element { Topology, Device, Switch, Link };
    TopologyError(Element element, int index, const std::string& message)
        : std::invalid_argument(message), element(element), index(index) {}
    Element element;
    int index;
};

class Topology {
public:
    std::string name;
    std::vector<ComputeDevice> devices;
    std::vector<std::string> switches;  // names of the non-compute vertices
    std::vector<Link> links;

    int deviceCount() const { return static_cast<int>(devices.size()); }
    int vertexCount() const { return static_cast<int>(devices.size() + switches.size()); }
    // Validates (positive numbers, known vertices, every device pair connected)
    // and prepares routing. Throws std::invalid_argument naming the element.
    void finalize();
    // Directed link ids from device `from` to device `to`, in order; empty when equal.
    std::vector<int> route(int from, int to) const;
    void route(int from, int to, std::vector<int>& out) const;  // the same into `out`, reusing its memory
    // Many messages (destination, bytes) from device `from`: adds their bytes to `load` (by link id,
    // sized to the links) on every link of their routes, appending links whose load was 0 to
    // `touched`; returns the largest route latency in seconds (RouteTable::fanOut).
    double fanOut(int from, const std::vector<std::pair<int, double>>& to_bytes, std::vector<double>& load,
                  std::vector<int>& touched) const;

    // Additions for readers, views and tests.
    bool finalized() const { return routes_ != nullptr; }
    int findVertex(const std::string& vertex_name) const;   // -1 if absent
    const std::string& vertexName(int vertex) const;        // device or switch name
    // Equal graphs: name, devices, switches and links (routes follow from them).
    bool operator==(const Topology& other) const;

private:
    std::shared_ptr<const RouteTable> routes_;  // shared by copies; finalize() makes a new one
    int routed_devices_ = 0;                    // D when routes_ was made
};

// "partita-topology/1" (docs/formats/topology.md); errors name file and JSON pointer.
Topology readTopologyJson(const std::string& text, const std::string& source);
// Any topology file: partita-topology/1, ASTRA-sim YAML/JSON or Calculon JSON (core/topology/import.h);
// an importer's ignored and approximated fields go to `warnings` when given.
Topology loadTopology(const std::string& path, std::vector<std::string>* warnings = nullptr);
Json topologyToJson(const Topology& topology);
std::string writeTopologyJson(const Topology& topology);

// Presets (docs/methods/flexflow.md#presets): 4 nodes x 4 P100 with NVLink inside and
// InfiniBand EDR between; 16 nodes x 4 K80 with paired PCIe switches; and a
// HyPar/AccPar array (H-tree or torus) expressed as a graph.
Topology p100Cluster16();
Topology k80Cluster64();
Topology fromArray(const Array& array);

// The presets by file stem: "p100-16", "k80-64", "hmc-htree-16", "hmc-torus-16"
// (examples/topologies/<stem>.json hold the same graphs).
std::vector<std::string> builtinTopologyNames();
Topology builtinTopology(const std::string& stem);  // throws std::invalid_argument for other names

}  // namespace partita::sim
