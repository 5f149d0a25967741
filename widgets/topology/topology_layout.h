#pragma once
// Where the topology view puts a device graph (issue 17, item 1), in plain numbers: no Qt.
// A duplex cable (links a->b and b->a of one kind) is one drawn edge; the placement is chosen from
// the graph's structure, not from names, so a hand-written or imported file is drawn like a
// generated one:
//  - a ring (devices only, each with two neighbours, one cycle): a circle;
//  - a 2-D or 3-D mesh or torus (devices only, devices numbered innermost dimension first, every
//    edge one step along one dimension or a wrap-around): a regular grid, a 3-D one as its planes
//    offset diagonally;
//  - a machine of several nodes (devices' `node`; no link joins two nodes but through a switch
//    between them): one box per node in a grid, its devices inside below its own switches, the
//    switches between nodes in rows above (topology_machines.cpp);
//  - any other graph with switches: a tree by Graphviz dot, ranked by hops from the most central switch;
//  - anything else: Graphviz neato.
#include <string>
#include <vector>

#include "core/run/simulation.h"
#include "core/topology/topology.h"
#include "widgets/geometry/graph_layout.h"

namespace partita::view {

// One drawn edge between vertices a < b (devices 0..D-1, then switches): the links it stands for.
struct TopologyEdge {
    int a = 0, b = 0;
    int forward = -1, backward = -1;  // link ids a->b and b->a; -1: none (a one-way link gets an arrow)
    bool duplex() const { return forward >= 0 && backward >= 0; }
    int anyLink() const { return forward >= 0 ? forward : backward; }
};
std::vector<TopologyEdge> topologyEdges(const sim::Topology& topology);

enum class TopologyShape { Ring, Grid, Nodes, Tree, Spring };

// Nodes: one machine's box, scene points (y down).
struct MachineBox {
    int node = 0;            // the devices' `node`
    double x = 0, y = 0, w = 0, h = 0;
    int row = 0, column = 0;  // in the grid of boxes
    int devices = 0;          // how many devices it holds
};

struct TopologyPlacement {
    TopologyShape shape = TopologyShape::Spring;
    std::vector<int> dims;  // Grid: sizes, innermost (drawn across) first
    bool wrap = false;      // Grid: a torus (some edges wrap around)
    std::vector<Point> centre;  // per vertex, scene points, y down, the bounding box at the origin
    double width = 0, height = 0;
    // How far a bent edge may stray from its straight line sideways and up or down (points).
    double bulge_x = 40, bulge_y = 40;
    std::string description;  // "2-D torus 4 × 4", "tree (Graphviz dot)", ...
    // Nodes: the machines, and per vertex the index of its machine (-1: a switch between machines).
    std::vector<MachineBox> machines;
    std::vector<int> machine_of;
};

// The grid sizes the edges fit (fewest dimensions first), or empty; `wrap` tells a torus.
std::vector<int> gridDimensions(const sim::Topology& topology, const std::vector<TopologyEdge>& edges, bool* wrap);

// The Nodes placement when the topology has that structure (else false, `out` untouched): as many
// columns of node boxes as draw it largest in an area `area_aspect` wide per unit of height.
bool placeMachines(TopologyPlacement& out, const sim::Topology& topology, const std::vector<TopologyEdge>& edges,
                   double box_w, double box_h, double area_aspect);

// Vertex boxes are `box_w` x `box_h` points (switches drawn inside the same box); `area_aspect` is
// the width / height of where it is shown. Throws GraphLayoutError when Graphviz fails.
TopologyPlacement placeTopology(const sim::Topology& topology, const std::vector<TopologyEdge>& edges, double box_w,
                                double box_h, double area_aspect = 1.6);

// What a simulation did on each device and link of its topology.
struct TopologyLoad {
    std::vector<double> device_busy_s, device_utilisation;  // by device
    std::vector<double> link_bytes, link_busy_s, link_utilisation;  // by link: the sum of its transfers' bytes
    double makespan_s = 0;
};
TopologyLoad topologyLoad(const SimulationResult& result);

}  // namespace partita::view
