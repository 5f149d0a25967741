// Costing one collective as an algorithm over a cluster (issue 30, item 1;
// docs/methods/flexflow.md#collectives-as-algorithms): the phases expanded, every round's transfers
// routed and shared max-min fairly. Clusters of `partita-cli topology generate cluster --nodes N
// --gpus 8`, a 100 MB all-reduce over every GPU; argument = GPUs (1,024 or 4,096).
//   CollectiveRing, CollectiveHierarchical, CollectiveTree  one algorithm;
//   CollectiveFastest                                      every algorithm that applies, the best kept.
// Counter simulated_s: the collective's time (the same every iteration). Routes are warmed first.
#include <benchmark/benchmark.h>

#include <map>
#include <vector>

#include "core/sim/collectives.h"
#include "core/topology/generate.h"

namespace {

using namespace partita::sim;

const Topology& cluster(std::int64_t gpus) {
    static std::map<std::int64_t, Topology> made;
    auto it = made.find(gpus);
    if (it == made.end()) {
        ClusterSpec s = p100ClusterSpec();
        s.gpus = 8;
        s.nodes = static_cast<int>(gpus / 8);
        it = made.emplace(gpus, clusterTopology(s)).first;
        // Routes are computed per source on first use and cached: warm them, as a simulation would.
        std::vector<int> route;
        for (int a = 0; a < it->second.deviceCount(); ++a) it->second.route(a, (a + 1) % it->second.deviceCount(), route);
    }
    return it->second;
}

std::vector<int> everyDevice(const Topology& t) {
    std::vector<int> g;
    for (int d = 0; d < t.deviceCount(); ++d) g.push_back(d);
    return g;
}

void run(benchmark::State& state, bool fastest, CollectiveAlgorithm algorithm) {
    const Topology& t = cluster(state.range(0));
    const std::vector<int> group = everyDevice(t);
    double simulated = 0;
    for (auto _ : state) {
        const CollectiveTime c = fastest ? fastestCollective(t, CollectiveOp::AllReduce, group, 100e6)
                                         : collectiveTime(t, CollectiveOp::AllReduce, algorithm, group, 100e6);
        // The const overload: the non-const one's "+m,r" may hand a double through a general register.
        benchmark::DoNotOptimize(c);
        simulated = c.total_s;
    }
    state.counters["simulated_s"] = benchmark::Counter(simulated);
}

void CollectiveRing(benchmark::State& s) { run(s, false, CollectiveAlgorithm::Ring); }
void CollectiveHierarchical(benchmark::State& s) { run(s, false, CollectiveAlgorithm::Hierarchical); }
void CollectiveTree(benchmark::State& s) { run(s, false, CollectiveAlgorithm::DoubleBinaryTree); }
void CollectiveFastest(benchmark::State& s) { run(s, true, CollectiveAlgorithm::Ring); }

BENCHMARK(CollectiveRing)->Arg(1024)->Arg(4096)->Unit(benchmark::kMillisecond);
BENCHMARK(CollectiveHierarchical)->Arg(1024)->Arg(4096)->Unit(benchmark::kMillisecond);
BENCHMARK(CollectiveTree)->Arg(1024)->Arg(4096)->Unit(benchmark::kMillisecond);
BENCHMARK(CollectiveFastest)->Arg(1024)->Unit(benchmark::kMillisecond);

}  // namespace
