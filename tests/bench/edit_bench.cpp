// The editor's live shapes (issue 16; target < 16 ms): one parameter edit applied to a document of a
// generated 1,000-operator network (residual blocks with and without a projection, two-branch concats),
// timing Document::apply (checks, the inverse, re-derivation of the touched node and everything
// downstream). Near the input nearly every node is re-derived; at the end only the last few are.
// Each iteration toggles the edit, so every one is a real change.
#include <benchmark/benchmark.h>

#include <string>

#include "core/edit/document.h"

namespace {

using namespace partita;

Operator conv(const std::string& name, std::vector<std::string> inputs, std::int64_t out) {
    Operator o;
    o.name = name;
    o.type = OpType::Conv;
    o.inputs = std::move(inputs);
    o.out_channels = out;
    o.window = {3, 3, 1, 1, 1, 1, Rounding::Exact};
    return o;
}

Operator join(const std::string& name, OpType type, std::vector<std::string> inputs) {
    Operator o;
    o.name = name;
    o.type = type;
    o.inputs = std::move(inputs);
    return o;
}

Network generated(int operators) {
    Network net;
    net.name = "generated";
    net.input = {16, 16, 16};
    std::string x = "input";
    for (int b = 0; static_cast<int>(net.ops.size()) + 5 <= operators; ++b) {
        const std::string n = std::to_string(b);
        if (b % 3 == 0) {  // 16 -> 32 -> 16 channels: a projection each way
            net.ops.push_back(conv("a" + n, {x}, 32));
            net.ops.push_back(conv("b" + n, {"a" + n}, 16));
            net.ops.push_back(conv("p" + n, {x}, 16));
            net.ops.push_back(join("add" + n, OpType::Add, {"b" + n, "p" + n}));
        } else if (b % 3 == 1) {
            net.ops.push_back(conv("a" + n, {x}, 16));
            net.ops.push_back(conv("b" + n, {"a" + n}, 16));
            net.ops.push_back(join("add" + n, OpType::Add, {"b" + n, x}));
        } else {
            net.ops.push_back(conv("l" + n, {x}, 8));
            net.ops.push_back(conv("r" + n, {x}, 8));
            net.ops.push_back(join("add" + n, OpType::Concat, {"l" + n, "r" + n}));
        }
        x = "add" + n;
    }
    while (static_cast<int>(net.ops.size()) < operators) {
        const std::string n = "pad" + std::to_string(net.ops.size());
        net.ops.push_back(conv(n, {x}, 16));
        x = n;
    }
    propagate(net, net.name);
    return net;
}

// Toggles operator `index`'s kernel between 3 (padding 1) and 5 (padding 2): the same shapes, so the
// document stays valid, but everything downstream is re-derived. `shape_change` toggles the output
// channels instead, which turns the nodes below into problems and back.
void BM_EditOneOperator(benchmark::State& state, bool near_input, bool shape_change) {
    const Network net = generated(1000);
    edit::Document doc = edit::Document::fromNetwork(net);
    const edit::NodeId id = near_input ? 1 : static_cast<edit::NodeId>(net.ops.size());
    Operator changed = doc.node(id)->op;
    if (shape_change) changed.out_channels *= 2;
    else changed.window = {5, 5, 1, 1, 2, 2, Rounding::Exact};
    edit::Patch patch = edit::setOperator(doc, id, changed);
    for (auto _ : state) patch = doc.apply(patch);
    state.counters["operators"] = static_cast<double>(doc.ids().size());
}

void BM_PropagateWholeNetwork(benchmark::State& state) {
    const Network net = generated(1000);
    for (auto _ : state) {
        Network copy = net;
        propagate(copy, "bench");
        benchmark::DoNotOptimize(copy.ops.back().out_shape);
    }
}

}  // namespace

BENCHMARK_CAPTURE(BM_EditOneOperator, near_input_1000, true, false)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_EditOneOperator, near_input_1000_breaks_shapes, true, true)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_EditOneOperator, at_end_1000, false, false)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_PropagateWholeNetwork)->Unit(benchmark::kMicrosecond);
