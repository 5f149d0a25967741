// The graph algorithms on large inputs (issue 27 item 8):
//   PropagateReversed  propagate() of a generated 5,000-operator network whose file lists the
//                      operators last first, so the topological order does real work (BM_PropagateWholeNetwork
//                      in edit_bench.cpp times the usual, already ordered case);
//   OnnxImport         importOnnxData of an MLP of 1,000 MatMul + Add + Relu blocks (3,000 nodes), in
//                      file order (arg 0) and with the nodes listed last first (arg 1);
//   CriticalPath       criticalPath() of a simulated data-parallel training step (the task graph and
//                      the simulation are built once).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <string>

#include "core/io/network_io.h"
#include "core/onnx/import.h"
#include "core/sim/critical_path.h"
#include "core/sim/simulator.h"
#include "tests/core/onnx_builder.h"
#include "tests/core/sim_test_util.h"
#include "tests/generated_network.h"

namespace {

using namespace partita;

void BM_PropagateReversed(benchmark::State& state) {
    Network net = test::generatedNetwork(5000);
    std::reverse(net.ops.begin(), net.ops.end());
    for (auto _ : state) {
        Network copy = net;
        propagate(copy, "bench");
        benchmark::DoNotOptimize(copy.ops.back().out_shape);
    }
    state.counters["operators"] = static_cast<double>(net.ops.size());
}

std::string mlpModel(int blocks, bool reversed) {
    test::OnnxBuilder b;
    b.input("x", {std::int64_t{1}, std::int64_t{16}});
    std::string x = "x";
    for (int k = 0; k < blocks; ++k) {
        const std::string n = std::to_string(k);
        b.weight("w" + n, {16, 16});
        b.weight("b" + n, {16});
        b.node("MatMul", {x, "w" + n}, {"mm" + n}, "mm" + n);
        b.node("Add", {"mm" + n, "b" + n}, {"add" + n}, "add" + n);
        b.node("Relu", {"add" + n}, {"relu" + n}, "relu" + n);
        x = "relu" + n;
    }
    b.output(x);
    if (reversed) {
        auto* nodes = b.graph().mutable_node();
        std::reverse(nodes->begin(), nodes->end());
    }
    return b.bytes();
}

void BM_OnnxImport(benchmark::State& state) {
    const std::string bytes = mlpModel(1000, state.range(0) != 0);
    for (auto _ : state) {
        const partita::onnx::Graph g = partita::onnx::importOnnxData(bytes, "mlp.onnx");
        benchmark::DoNotOptimize(g.nodes.size());
    }
    state.counters["nodes"] = 3000;
}

void BM_CriticalPath(benchmark::State& state, const std::string& name, int devices) {
    const Network net = loadNetwork(std::string(PARTITA_EXAMPLES_DIR) + "/networks/" + name + ".json");
    const sim::Topology topo = devices == 16 ? sim::p100Cluster16() : sim::k80Cluster64();
    const std::int64_t batch = 64 * static_cast<std::int64_t>(devices);
    const sim::TaskGraph g = sim::buildTaskGraph(net, static_cast<double>(batch), sim::dataParallel(net, batch, devices), topo);
    const sim::SimResult r = sim::simulate(g);
    size_t length = 0;
    for (auto _ : state) {
        const auto path = sim::criticalPath(g, r);
        length = path.size();
        benchmark::DoNotOptimize(path.data());
    }
    state.counters["tasks"] = static_cast<double>(g.taskCount());
    state.counters["path"] = static_cast<double>(length);
}

}  // namespace

BENCHMARK(BM_PropagateReversed)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_OnnxImport)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_CriticalPath, resnet_101_16, "resnet-101", 16)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_CriticalPath, inception_v3_64, "inception-v3", 64)->Unit(benchmark::kMicrosecond);
