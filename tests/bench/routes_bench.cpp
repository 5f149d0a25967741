// Routes per second on large topologies (issue 26, item 6), asked as the simulator asks: every
// device in turn to its ring neighbour (a ring all-reduce) and to a device on another node, cycle
// after cycle.
//   ClusterRoutesCold  a 4,096-GPU cluster (partita-cli topology generate cluster --nodes 512
//                      --gpus 8): routes made afresh each iteration (one tree per source computed);
//   ClusterRoutesWarm  the same topology routed again: the trees come from the cache;
//   RingSpareSwitches  a 4,096-device ring with 300,000 unlinked switches, warm.
// Counter routes_per_s. Only Topology::route is used, so the same file measures any RouteTable.
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "core/topology/topology.h"
#include "core/topology/generate.h"
#include "tests/core/sim_test_util.h"

namespace {

using namespace partita::sim;

Topology cluster4096() {
    ClusterSpec s = p100ClusterSpec();
    s.nodes = 512;
    s.gpus = 8;
    s.name = "P100 cluster (512 nodes x 8 GPUs)";
    return clusterTopology(s);
}

Topology ringWithSpares() {
    Topology t = test::ring(4096);
    for (int k = 0; k < 300'000; ++k) t.switches.push_back("spare" + std::to_string(k));
    t.finalize();
    return t;
}

// One cycle: every device to its neighbour and to the device 37 nodes on (8 GPUs a node).
std::size_t cycle(const Topology& t, std::vector<int>& route) {
    const int d = t.deviceCount();
    std::size_t hops = 0;
    for (int a = 0; a < d; ++a) {
        t.route(a, (a + 1) % d, route);
        hops += route.size();
        t.route(a, (a + 8 * 37) % d, route);
        hops += route.size();
    }
    return hops;
}

void BM_ClusterRoutesCold(benchmark::State& state) {
    const Topology base = cluster4096();
    std::vector<int> route;
    for (auto _ : state) {
        state.PauseTiming();
        Topology t = base;
        state.ResumeTiming();
        t.finalize();  // a new route table: every source's tree is computed in the cycle below
        benchmark::DoNotOptimize(cycle(t, route));
    }
    state.counters["routes_per_s"] =
        benchmark::Counter(2.0 * base.deviceCount() * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}

void warm(benchmark::State& state, const Topology& t) {
    std::vector<int> route;
    cycle(t, route);  // fills the cache (as far as it holds)
    for (auto _ : state) benchmark::DoNotOptimize(cycle(t, route));
    state.counters["routes_per_s"] =
        benchmark::Counter(2.0 * t.deviceCount() * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}

void BM_ClusterRoutesWarm(benchmark::State& state) { warm(state, cluster4096()); }
void BM_RingSpareSwitches(benchmark::State& state) { warm(state, ringWithSpares()); }

BENCHMARK(BM_ClusterRoutesCold)->Unit(benchmark::kMillisecond)->MinTime(2.0);
BENCHMARK(BM_ClusterRoutesWarm)->Unit(benchmark::kMillisecond)->MinTime(2.0);
BENCHMARK(BM_RingSpareSwitches)->Unit(benchmark::kMillisecond)->MinTime(2.0);

}  // namespace
