#pragma once
// The Learn-to-Scale chip multiprocessor (docs/methods/l2s.md#the-mesh, feature L1): n
// DianNao-style cores on an X x Y 2-D mesh, core id = y*X + x. The mesh is a
// sim::Topology (so the topology views show it); traffic is routed with
// dimension-ordered XY routing computed here, never with Topology::route's
// shortest-path tie-breaking, because the paper's distance mask assumes XY.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/topology/topology.h"

namespace partita::l2s {

using Matrix = std::vector<std::vector<double>>;  // n x n, [row][col]

// How a layer boundary's communication is timed (docs/methods/l2s.md#l2-noc-under-bursts).
// Burst (default): the busiest injection port, ejection port or link drains at an effective
// `burst_rate` flits/cycle, because the all-gather's transfers start together and block each
// other (paper SIII-B). Ideal (docs/methods/l2s.md#model-options, the old default): the busiest link at `channels` flits/cycle.
// Both add the longest path's latency, longest hops x (router + link) cycles.
enum class CommModel { Burst, Ideal };
const char* commModelName(CommModel m);             // "burst", "ideal"
CommModel parseCommModel(const std::string& name);  // throws std::invalid_argument

// Table II values [P] and engine defaults [A]; every one is a parameter.
struct MeshParams {
    int cores = 16;
    int width = 0, height = 0;       // X x Y; 0 = defaultMeshShape(cores)
    double flit_bytes = 64;          // 512-bit flits [P]
    int packet_flits = 20;           // [P]
    int router_cycles = 3;           // 3-stage routers [P]
    int link_cycles = 1;             // [A]
    int channels = 2;                // physical channels per direction, 1 flit/cycle each [P]/[A]
    double clock_hz = 1e9;           // [A]
    int mc_core = 0;                 // memory controller location [A] (informational)
    double e_link_j = 10e-12;        // energy per flit per link traversal [A], DSENT-order
    double e_router_j = 20e-12;      // energy per flit per router traversal [A]
    // Also bound communication by each core's injection and ejection port
    // (channels flits per cycle each), where an all-gather's burst queues [A].
    // Off by default: the old ideal model (docs/methods/l2s.md#l2-noc-under-bursts) times the busiest mesh link only.
    bool count_ports = false;
    CommModel comm = CommModel::Burst;
    double burst_rate = 0.4;         // effective flits/cycle/node under Burst [A] (docs/methods/l2s.md#model-options: ~ BookSim saturation)
};

// The largest mesh. Routes and link tables are O(cores), but an evaluation keeps, for every layer
// boundary, a cores x cores traffic matrix and link-load matrix of doubles (2 MB each at 512 cores;
// a sparse mask is cores x cores too), the all-gather sends cores^2 messages, and --json prints the
// matrices. 512 cores (32 x 16, 16 times the paper's largest mesh) keep VGG-19 with --json at
// 0.75 GB and 1.6 s; 1,024 cores would take 2.9 GB.
constexpr int kMaxCores = 512;

// 4 -> 2x2, 8 -> 4x2, 16 -> 4x4, 32 -> 8x4; in general X*Y = n with Y the
// largest divisor of n not above sqrt(n). Throws std::invalid_argument for n < 1 or n > kMaxCores.
std::pair<int, int> defaultMeshShape(int cores);
// "4x4" -> {4, 4}; throws std::invalid_argument naming the text (also for a side above kMaxCores).
std::pair<int, int> parseMeshShape(const std::string& text);

class Mesh {
public:
    // Throws std::invalid_argument when a parameter is not positive, X*Y != n or n > kMaxCores.
    explicit Mesh(MeshParams params = {});

    const MeshParams& params() const { return p_; }
    int cores() const { return p_.cores; }
    int width() const { return p_.width; }
    int height() const { return p_.height; }
    int xOf(int core) const { return core % p_.width; }
    int yOf(int core) const { return core / p_.width; }
    int distance(int a, int b) const;           // Manhattan = XY hop count
    Matrix distanceMatrix() const;              // D
    const sim::Topology& topology() const { return topology_; }
    int linkId(int from, int to) const;         // directed link between neighbours, -1 otherwise
    std::vector<int> xyRoute(int from, int to) const;  // link ids, X first then Y
    double linkBytesPerCycle() const { return p_.flit_bytes * p_.channels; }
    double linkBandwidthBps() const { return linkBytesPerCycle() * p_.clock_hz; }

private:
    MeshParams p_;
    sim::Topology topology_;
    // Link id from core c to its neighbour in +x, -x, +y and -y, or -1 at the edge (4 per core,
    // not a cores x cores table: routes are walked when asked for).
    std::vector<int> east_, west_, south_, north_;
};

std::string coreName(int core);  // "c5"

}  // namespace partita::l2s
