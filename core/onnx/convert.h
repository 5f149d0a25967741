#pragma once
// An imported ONNX graph (graph.h) as a native partita-network/1 network.
//
// Tensors keep their ONNX dimensions; the native model sees each per sample (the batch dimension
// stripped) as (c, h, w). An operator reads its inputs in the view its kind needs — a conv
// (C, H, W), a linear layer (features, positions, 1), a matmul (G, M, K) — and where the producer's
// view differs, a `layout` operator "<tensor>@view" in between reinterprets the same elements (it
// changes no cost: docs/formats/network.md#operator-types). The default view of a tensor with per-sample dims
// d1..dk is: k = 1 (d1, 1, 1); k = 2 (d2, d1, 1), features last; k = 3 (d1, d2, d3), channels first;
// k >= 4 (d1, d2·…·dk-1, dk). A decomposed LayerNorm (fuse.h) becomes one element-wise operator.
#include <string>
#include <vector>

#include "core/model/network.h"
#include "core/onnx/graph.h"

namespace partita::onnx {

struct Converted {
    Network network;                    // propagated
    std::vector<std::string> warnings;  // e.g. extra graph inputs treated as constants
};

// Throws InputError naming `source` and the node when an operator cannot be expressed, and when a
// native shape disagrees with ONNX shape inference (which would make every count wrong).
Converted toNetwork(const Graph& graph, const std::string& source);

// Per-sample dims in the default view (above).
Shape defaultView(const std::vector<std::int64_t>& per_sample);

}  // namespace partita::onnx
