// Simulated tasks per second, full versus delta simulation (docs/methods/flexflow.md#results-beside-the-paper,
// Table 5), on data-parallel strategies with random single-operator proposals,
// and MCMC proposals per second:
//   SimSpeedup    the acceptance figure: per iteration a full simulation into a
//                 fresh graph, one into a reused graph and a delta simulation of the
//                 same proposal, each timed on the thread's CPU clock (so all see the
//                 same machine load); counters full_tasks_per_s, reuse_tasks_per_s,
//                 delta_tasks_per_s, speedup = full time / delta time and
//                 speedup_vs_reuse;
//   SimFull       build a fresh task graph of (DP with one operator changed) and
//                 simulate it: buildTaskGraph + simulate, as the API and FlexFlow do;
//   SimFullReuse  the same into a reused graph and result (no allocation);
//   SimDelta      DeltaSimulator::propose the same kind of change, then revert() it;
//   SimSimulate   simulate() alone on the data-parallel graph (the list scheduler);
//   McmcDelta, McmcFull  mcmcSearch from DP (beta 1 per ms) with delta simulation
//                 (and early exit) or a full rebuild per proposal: proposals_per_s.
//   SimCluster    ResNet-50 data parallel on a P100 cluster of 8-GPU nodes (1,024 and 4,096 GPUs,
//                 a batch of one sample per GPU): build the task graph and simulate it, as
//                 `partita-cli simulate --method dp` does, with weight sync as collectives.
// tasks_per_s counts the tasks of the simulated graph per proposal, so the rates
// compare directly; changed_per_proposal is how many tasks got new times.
#include <benchmark/benchmark.h>

#include <ctime>
#include <random>
#include <string>

#include "core/io/network_io.h"
#include "core/sim/delta.h"
#include "core/sim/mcmc.h"
#include "core/sim/simulator.h"
#include "core/topology/generate.h"
#include "tests/core/sim_test_util.h"

namespace {

using partita::loadNetwork;
using partita::Network;
using namespace partita::sim;

struct Setup {
    Network net;
    Topology topo;
    std::int64_t batch = 0;
    SoapStrategy dp;
};

Setup setup(const std::string& name, int devices) {
    Setup s;
    s.net = loadNetwork(std::string(PARTITA_EXAMPLES_DIR) + "/networks/" + name + ".json");
    // The paper's clusters: 4 GPUs of one node, 16 P100 (4 x 4), 64 K80 (16 x 4).
    s.topo = devices == 4 ? partita::sim::test::cluster(1, 4) : devices == 16 ? p100Cluster16() : k80Cluster64();
    s.batch = (name == "alexnet" ? 256 : 64) * static_cast<std::int64_t>(devices);  // per-GPU batch as in docs/methods/flexflow.md#results-beside-the-paper
    s.dp = dataParallel(s.net, s.batch, devices);
    return s;
}

std::pair<int, OpConfig> proposal(const Setup& s, std::mt19937_64& rng) {
    const int op = static_cast<int>(rng() % s.net.ops.size());
    return {op, randomConfig(s.net.ops[static_cast<size_t>(op)], s.batch, s.topo.deviceCount(), rng)};
}

// A chain makes thousands of proposals; the first few grow the simulator's arrays.
void warmUp(const Setup& s, DeltaSimulator& sim, std::mt19937_64& rng) {
    for (int k = 0; k < 16; ++k) {
        auto [op, config] = proposal(s, rng);
        sim.propose(op, config);
        sim.revert();
    }
}

double threadSeconds() {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

void BM_SimSpeedup(benchmark::State& state, const std::string& name, int devices) {
    const Setup s = setup(name, devices);
    DeltaSimulator sim(s.net, static_cast<double>(s.batch), s.dp, s.topo);
    std::mt19937_64 rng(1);
    warmUp(s, sim, rng);
    TaskGraph reused;
    SimResult result;
    double full_s = 0, reuse_s = 0, delta_s = 0, tasks = 0;
    for (auto _ : state) {
        auto [op, config] = proposal(s, rng);
        SoapStrategy strategy = s.dp;
        strategy.ops[static_cast<size_t>(op)] = config;
        const double t0 = threadSeconds();
        {
            const TaskGraph fresh = buildTaskGraph(s.net, static_cast<double>(s.batch), strategy, s.topo);
            benchmark::DoNotOptimize(simulate(fresh).makespan);
        }
        const double t1 = threadSeconds();
        buildTaskGraph(reused, s.net, static_cast<double>(s.batch), strategy, s.topo);
        simulate(reused, result);
        const double t2 = threadSeconds();
        benchmark::DoNotOptimize(sim.propose(op, config));
        sim.revert();
        const double t3 = threadSeconds();
        full_s += t1 - t0;
        reuse_s += t2 - t1;
        delta_s += t3 - t2;
        tasks += static_cast<double>(reused.taskCount());  // the same graph in all three
    }
    const double n = static_cast<double>(state.iterations());
    state.counters["full_tasks_per_s"] = tasks / full_s;
    state.counters["reuse_tasks_per_s"] = tasks / reuse_s;
    state.counters["delta_tasks_per_s"] = tasks / delta_s;
    state.counters["full_ms"] = 1e3 * full_s / n;
    state.counters["reuse_ms"] = 1e3 * reuse_s / n;
    state.counters["delta_ms"] = 1e3 * delta_s / n;
    state.counters["speedup"] = full_s / delta_s;
    state.counters["speedup_vs_reuse"] = reuse_s / delta_s;
}

void BM_SimFull(benchmark::State& state, const std::string& name, int devices, bool reuse) {
    const Setup s = setup(name, devices);
    std::mt19937_64 rng(1);
    double tasks = 0;
    TaskGraph g;
    SimResult r;
    for (auto _ : state) {
        SoapStrategy strategy = s.dp;
        auto [op, config] = proposal(s, rng);
        strategy.ops[static_cast<size_t>(op)] = config;
        if (reuse) {
            buildTaskGraph(g, s.net, static_cast<double>(s.batch), strategy, s.topo);
            simulate(g, r);
            benchmark::DoNotOptimize(r.makespan);
            tasks += static_cast<double>(g.taskCount());
        } else {
            const TaskGraph fresh = buildTaskGraph(s.net, static_cast<double>(s.batch), strategy, s.topo);
            benchmark::DoNotOptimize(simulate(fresh).makespan);
            tasks += static_cast<double>(fresh.taskCount());
        }
    }
    state.counters["tasks_per_s"] = benchmark::Counter(tasks, benchmark::Counter::kIsRate);
    state.counters["tasks"] = benchmark::Counter(tasks, benchmark::Counter::kAvgIterations);
}

void BM_SimDelta(benchmark::State& state, const std::string& name, int devices) {
    const Setup s = setup(name, devices);
    DeltaSimulator sim(s.net, static_cast<double>(s.batch), s.dp, s.topo);
    std::mt19937_64 rng(1);
    warmUp(s, sim, rng);
    double tasks = 0;
    const auto changed0 = sim.stats().changed;
    for (auto _ : state) {
        auto [op, config] = proposal(s, rng);
        benchmark::DoNotOptimize(sim.propose(op, config));
        tasks += static_cast<double>(sim.graph().taskCount());
        sim.revert();
    }
    state.counters["tasks_per_s"] = benchmark::Counter(tasks, benchmark::Counter::kIsRate);
    state.counters["tasks"] = benchmark::Counter(tasks, benchmark::Counter::kAvgIterations);
    state.counters["changed_per_proposal"] =
        benchmark::Counter(static_cast<double>(sim.stats().changed - changed0), benchmark::Counter::kAvgIterations);
}

void BM_SimSimulate(benchmark::State& state, const std::string& name, int devices) {
    const Setup s = setup(name, devices);
    const TaskGraph g = buildTaskGraph(s.net, static_cast<double>(s.batch), s.dp, s.topo);
    SimResult r;
    for (auto _ : state) {
        simulate(g, r);
        benchmark::DoNotOptimize(r.makespan);
    }
    const double tasks = static_cast<double>(g.taskCount()) * static_cast<double>(state.iterations());
    state.counters["tasks_per_s"] = benchmark::Counter(tasks, benchmark::Counter::kIsRate);
    state.counters["tasks"] = static_cast<double>(g.taskCount());
}

// One benchmark iteration = one chain of `proposals` iterations from DP.
void BM_Mcmc(benchmark::State& state, const std::string& name, int devices, bool incremental, int proposals) {
    const Setup s = setup(name, devices);
    McmcOptions o;
    o.iterations = proposals;
    o.stop_on_stall = false;
    o.incremental = incremental;
    double total = 0, accepted = 0;
    for (auto _ : state) {
        ++o.seed;
        const McmcResult r = mcmcSearch(s.net, static_cast<double>(s.batch), s.topo, {{"dp", s.dp}}, o);
        total += static_cast<double>(r.iterations);
        accepted += r.acceptance_rate * static_cast<double>(r.iterations);
    }
    state.counters["proposals_per_s"] = benchmark::Counter(total, benchmark::Counter::kIsRate);
    state.counters["acceptance"] = accepted / total;
}

void BM_SimCluster(benchmark::State& state, int nodes) {
    const Network net = loadNetwork(std::string(PARTITA_EXAMPLES_DIR) + "/networks/resnet-50.json");
    ClusterSpec spec = p100ClusterSpec();
    spec.nodes = nodes;
    spec.gpus = 8;
    const Topology topo = clusterTopology(spec);
    const int devices = topo.deviceCount();
    const SoapStrategy dp = dataParallel(net, devices, devices);
    double tasks = 0;
    for (auto _ : state) {
        const TaskGraph g = buildTaskGraph(net, devices, dp, topo);
        const SimResult r = simulate(g);
        benchmark::DoNotOptimize(r.makespan);
        tasks = static_cast<double>(g.taskCount());
        state.counters["makespan_ms"] = 1e3 * r.makespan;
    }
    state.counters["tasks"] = tasks;
    state.counters["devices"] = devices;
}

const bool registered = [] {
    for (int nodes : {128, 512})
        benchmark::RegisterBenchmark(("SimCluster/resnet-50/" + std::to_string(nodes * 8)).c_str(), BM_SimCluster, nodes)
            ->Unit(benchmark::kMillisecond)
            ->MinTime(2.0);
    for (const char* name : {"alexnet", "resnet-18", "resnet-101", "inception-v3"})
        for (int devices : {4, 16, 64}) {
            const std::string suffix = std::string(name) + "/" + std::to_string(devices);
            // At least a few proposals even where one takes a second.
            const double min_time = devices == 64 ? 5.0 : 1.0;
            auto add = [&](const std::string& kind, auto&&... args) {
                benchmark::RegisterBenchmark((kind + "/" + suffix).c_str(), args...)
                    ->Unit(benchmark::kMillisecond)
                    ->MinTime(min_time);
            };
            // The same proposals for both, and enough of them: one proposal's cost depends on its operator.
            benchmark::RegisterBenchmark(("SimSpeedup/" + suffix).c_str(), BM_SimSpeedup, name, devices)
                ->Unit(benchmark::kMillisecond)
                ->Iterations(devices == 64 ? 24 : devices == 16 ? 120 : 400);
            add("SimFull", BM_SimFull, name, devices, false);
            add("SimFullReuse", BM_SimFull, name, devices, true);
            add("SimDelta", BM_SimDelta, name, devices);
            add("SimSimulate", BM_SimSimulate, name, devices);
            // The chain's set-up (one full simulation) is part of each iteration: 200 proposals amortise it.
            add("McmcDelta", BM_Mcmc, name, devices, true, 200);
            add("McmcFull", BM_Mcmc, name, devices, false, devices == 64 ? 4 : 20);
        }
    return true;
}();

}  // namespace
