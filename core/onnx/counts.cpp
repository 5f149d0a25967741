#include "core/onnx/counts.h"

#include <stdexcept>

#include "core/util/checked.h"
#include "core/util/error.h"
#include "core/util/limits.h"

namespace partita::onnx {

namespace {

const Tensor* operand(const Graph& g, const Node& n, std::size_t i) {
    return i < n.inputs.size() && !n.inputs[i].empty() ? g.tensor(n.inputs[i]) : nullptr;
}

std::int64_t countsProduct(const std::vector<std::int64_t>& dims, std::size_t from = 0) {
    std::int64_t p = 1;
    for (std::size_t i = from; i < dims.size(); ++i) {
        if (dims[i] < 0) throw std::overflow_error("an operand's shape is unknown");
        p = checkedMul(p, dims[i]);
    }
    return p;
}

std::string place(const Node& n) { return "node '" + n.name + "' (" + n.op_type + ", #" + std::to_string(n.index) + ")"; }

}  // namespace

std::int64_t batchSize(const Graph& graph) {
    for (const std::string& name : graph.inputs)
        if (const Tensor* t = graph.tensor(name); t && !t->dims.empty() && t->dims[0] > 0) return t->dims[0];
    return 1;
}

NodeCounts countNode(const Graph& g, const Node& n, std::int64_t batch) {
    NodeCounts c;
    const std::string& op = n.op_type;
    if (n.folded || (op != "Conv" && op != "ConvTranspose" && op != "Gemm" && op != "MatMul")) return c;
    const Tensor* a = operand(g, n, 0);
    const Tensor* b = operand(g, n, 1);
    const Tensor* y = n.outputs.empty() ? nullptr : g.tensor(n.outputs[0]);
    if (!a || !b || !y) throw InputError(g.source, place(n), "an input or the output is missing");
    try {
        // Weights: W of a convolution; any constant operand of Gemm and MatMul.
        for (const Tensor* t : op == "Conv" || op == "ConvTranspose" ? std::vector<const Tensor*>{b}
                                                                      : std::vector<const Tensor*>{a, b})
            if (t->constant) {
                c.weighted = true;
                c.weights = checkedAdd(c.weights, countsProduct(t->dims));
            }
        if (op == "Conv") {
            c.macs = checkedMul(countsProduct(y->dims), countsProduct(b->dims, 1));
        } else if (op == "ConvTranspose") {
            c.macs = checkedMul(countsProduct(a->dims), countsProduct(b->dims, 1));
        } else if (op == "Gemm") {
            if (a->dims.size() != 2) throw InputError(g.source, place(n), "Gemm needs a rank-2 A");
            const bool transA = n.attributes.count("transA") && n.attributes.at("transA").i.value_or(0) != 0;
            c.macs = checkedMul(countsProduct(y->dims), a->dims[transA ? 0 : 1]);
        } else {
            if (a->dims.empty()) throw InputError(g.source, place(n), "MatMul needs an A of rank 1 or more");
            c.macs = checkedMul(countsProduct(y->dims), a->dims.back());
        }
    } catch (const std::overflow_error& e) {
        throw InputError(g.source, place(n), e.what());
    }
    if (c.weights > limits::kLayerWeights)
        throw InputError(g.source, place(n), std::to_string(c.weights) + " weights exceed the limit of " +
                                                 std::to_string(limits::kLayerWeights));
    c.macs_per_sample = static_cast<double>(c.macs) / static_cast<double>(batch);
    if (c.macs_per_sample > static_cast<double>(limits::kLayerMacs))
        throw InputError(g.source, place(n), "multiply-accumulates per sample exceed the limit of " +
                                                 std::to_string(limits::kLayerMacs));
    return c;
}

std::vector<NodeCounts> countNodes(const Graph& graph) {
    const std::int64_t batch = batchSize(graph);
    std::vector<NodeCounts> counts;
    counts.reserve(graph.nodes.size());
    for (const Node& n : graph.nodes) counts.push_back(countNode(graph, n, batch));
    return counts;
}

Summary summarize(const Graph& graph) {
    Summary s;
    s.batch = batchSize(graph);
    const std::vector<NodeCounts> counts = countNodes(graph);
    for (std::size_t i = 0; i < counts.size(); ++i) {
        if (!graph.nodes[i].folded) ++s.operators;
        if (counts[i].weighted) ++s.weighted_layers;
        try {
            s.weights = checkedAdd(s.weights, counts[i].weights);
            s.macs = checkedAdd(s.macs, counts[i].macs);
        } catch (const std::overflow_error& e) {
            throw InputError(graph.source, "totals", e.what());
        }
        s.macs_per_sample += counts[i].macs_per_sample;
    }
    return s;
}

}  // namespace partita::onnx
