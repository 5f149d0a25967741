#pragma once
// Decomposed normalisations: below opset 17 PyTorch (and other exporters) write nn.LayerNorm as
//   m = ReduceMean(X) → d = Sub(X, m) → Pow(d, 2) → ReduceMean → Add(·, eps) → Sqrt → Div(d, ·)
//   [→ Mul(·, γ) [→ Add(·, β)]]
// (Mul(d, d) for the Pow also matches). The conversion (convert.h) gives each match one element-wise
// operator with source_op "LayerNormalization", as it gives opset 17's LayerNormalization. A match
// needs: both reductions over the same trailing axes of X (never the batch axis), keepdims, the
// exponent a constant 2, eps, γ and β constants, the output shaped like X, and no tensor inside the
// pattern read by anything outside it or listed as a graph output. Otherwise every node converts on
// its own (reductions as layouts, the rest element-wise).
#include <cstddef>
#include <string>
#include <vector>

#include "core/onnx/graph.h"

namespace partita::onnx {

struct Fusion {
    std::string name;        // the native operator's name: the nodes' common path + "LayerNormalization"
    std::string source_op;   // "LayerNormalization"
    std::string input;       // X
    std::string output;      // the last node's output
    std::vector<std::size_t> nodes;  // indices into Graph::nodes, in order; the last produces `output`
};

// Every match, in graph order; a node belongs to at most one.
std::vector<Fusion> findDecomposedLayerNorms(const Graph& graph);

}  // namespace partita::onnx
