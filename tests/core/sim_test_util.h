#pragma once
// Hand-built topologies and networks for the simulator tests and benchmarks.
#include <string>
#include <utility>
#include <vector>

#include "core/model/network.h"
#include "core/sim/soap.h"
#include "core/topology/topology.h"
#include "core/util/error.h"
#include "test_util.h"

namespace partita::sim::test {

// This namespace hides partita::test inside partita::sim.
using partita::test::conv;
using partita::test::example;
using partita::test::fc;
using partita::test::join;
using partita::test::network;
using partita::test::pool;

inline ComputeDevice device(const std::string& name, double peak, double mem_bw, int node = 0) {
    ComputeDevice d;
    d.name = name;
    d.kind = "test";
    d.peak_flops = peak;
    d.mem_bandwidth_Bps = mem_bw;
    d.mem_capacity_B = 16e9;
    d.efficiency = 1.0;
    d.node = node;
    return d;
}

// An operator configuration: `d` pieces along sample, channel, height, width on `devices`.
inline OpConfig on(Degrees d, std::vector<int> devices) {
    OpConfig c;
    c.degree = d;
    c.devices = std::move(devices);
    return c;
}

// Two directed links, a -> b then b -> a.
inline void cable(Topology& t, int a, int b, double bw, double latency, const std::string& kind) {
    const std::string an = t.vertexName(a), bn = t.vertexName(b);
    t.links.push_back({kind + " " + an + "->" + bn, a, b, bw, latency});
    t.links.push_back({kind + " " + bn + "->" + an, b, a, bw, latency});
}

// Two devices and one cable: link 0 is d0 -> d1, link 1 is d1 -> d0.
inline Topology pair(double peak = 1e9, double mem_bw = 1e9, double link_bw = 1e8, double latency = 0.5e-6) {
    Topology t;
    t.name = "pair";
    t.devices = {device("d0", peak, mem_bw), device("d1", peak, mem_bw)};
    cable(t, 0, 1, link_bw, latency, "cable");
    t.finalize();
    return t;
}

// n devices on a bidirectional ring (routes of up to n/2 hops).
inline Topology ring(int n, double peak = 1e12, double mem_bw = 1e11, double link_bw = 1e10, double latency = 1e-6) {
    Topology t;
    t.name = "ring" + std::to_string(n);
    for (int k = 0; k < n; ++k) t.devices.push_back(device("d" + std::to_string(k), peak, mem_bw));
    for (int k = 0; k < n; ++k) cable(t, k, (k + 1) % n, link_bw, latency, "ring");
    t.finalize();
    return t;
}

// `nodes` machines of `per_node` devices: a full mesh of fast links inside a
// machine, each device on its machine's switch, machine switches on one core switch.
inline Topology cluster(int nodes, int per_node, double peak = 10e12, double mem_bw = 700e9) {
    Topology t;
    t.name = "cluster" + std::to_string(nodes * per_node);
    for (int m = 0; m < nodes; ++m)
        for (int k = 0; k < per_node; ++k)
            t.devices.push_back(device("n" + std::to_string(m) + ".g" + std::to_string(k), peak, mem_bw, m));
    const int d = nodes * per_node;
    for (int m = 0; m < nodes; ++m) t.switches.push_back("n" + std::to_string(m) + ".sw");
    t.switches.push_back("core");
    for (int m = 0; m < nodes; ++m) {
        for (int a = 0; a < per_node; ++a)
            for (int b = a + 1; b < per_node; ++b) cable(t, m * per_node + a, m * per_node + b, 20e9, 1e-6, "nvlink");
        for (int a = 0; a < per_node; ++a) cable(t, m * per_node + a, d + m, 12e9, 2e-6, "pcie");
        cable(t, d + m, d + nodes, 12.5e9, 5e-6, "ib");
    }
    t.finalize();
    return t;
}

// A small Inception-like DAG: a stem, one module with four branches joined by
// a concat, a residual add, a pooled head.
inline Network inceptionLike() {
    return network("inception-like", {3, 16, 16},
                   {conv("stem", {"input"}, 16, 3, 1, 1),
                    conv("b1", {"stem"}, 8, 1),
                    conv("b2a", {"stem"}, 8, 1),
                    conv("b2b", {"b2a"}, 8, 3, 1, 1),
                    conv("b3a", {"stem"}, 4, 1),
                    conv("b3b", {"b3a"}, 8, 5, 1, 2),
                    pool("b4a", {"stem"}, 3, 1, 1),
                    conv("b4b", {"b4a"}, 8, 1),
                    join("mix", OpType::Concat, {"b1", "b2b", "b3b", "b4b"}),
                    conv("proj", {"stem"}, 32, 1),
                    join("res", OpType::Add, {"mix", "proj"}),
                    pool("pool", {"res"}, 2, 2),
                    fc("fc", {"pool"}, 10)});
}

// The message of the partita::Error `f` throws, or "no error".
template <class F>
std::string errorOf(F f) {
    return partita::test::errorOf<Error>(f);
}

// fc 8 -> 16 -> 4: the smallest two-operator network for hand-computed timelines.
inline Network fcChain() { return network("fc-chain", {8, 1, 1}, {fc("fc1", {"input"}, 16), fc("fc2", {"fc1"}, 4)}); }

}  // namespace partita::sim::test
