#pragma once
// Weights and multiply-accumulates of an imported ONNX graph, as `partita-cli inspect` reports them:
//   weights  elements of the constant weight tensors of Conv, ConvTranspose, Gemm and MatMul (W, or a
//            constant A/B operand; biases excluded);
//   macs     multiply-accumulates over the whole batch, biases excluded:
//              Conv           elements(Y) · C_in/g · k_h · k_w   (= k_h·k_w·C_in/g·C_out·H_out·W_out per sample)
//              ConvTranspose  elements(X) · C_out/g · k_h · k_w  (= k_h·k_w·C_in·C_out/g·H_in·W_in per sample)
//              Gemm, MatMul   elements(Y) · K (MatMul batched over its leading dims, activation × activation too)
//   macs_per_sample = macs / batch, the batch being dim 0 of the first graph input of rank ≥ 1 (exact in
//   a double; fractional only for a node whose work does not scale with that batch).
// Folded nodes count nothing.
#include <cstdint>
#include <vector>

#include "core/onnx/graph.h"

namespace partita::onnx {

struct NodeCounts {
    bool weighted = false;  // Conv/ConvTranspose/Gemm/MatMul with a constant operand
    std::int64_t weights = 0;
    std::int64_t macs = 0;
    double macs_per_sample = 0;
};

struct Summary {
    std::int64_t batch = 1;
    std::int64_t operators = 0;  // nodes that are not folded
    std::int64_t weighted_layers = 0;
    std::int64_t weights = 0;
    std::int64_t macs = 0;
    double macs_per_sample = 0;
};

std::int64_t batchSize(const Graph& graph);
// Throws InputError naming the node when a count exceeds its limit (kLayerWeights, kLayerMacs per sample).
NodeCounts countNode(const Graph& graph, const Node& node, std::int64_t batch);
std::vector<NodeCounts> countNodes(const Graph& graph);  // one per graph.nodes entry
Summary summarize(const Graph& graph);

}  // namespace partita::onnx
