#pragma once
// A dense transformer recognised in an ONNX graph (docs/methods/llm.md#from-an-onnx-model): the
// attention blocks (MatMul → Softmax → MatMul fed by Q, K and V projections), the MLP between them,
// the norms before the projections, the token embedding and the LM head give the dimensions the
// planner takes. What is not recognised is refused, naming what was looked for; nothing is guessed.
// The graph comes from the ONNX importer's structure mode (core/onnx/import.h).
#include <cstdint>
#include <string>
#include <vector>

#include "core/llm/transformer.h"
#include "core/onnx/graph.h"

namespace partita::llm {

// One derived dimension and the ONNX nodes (or initializers, graph inputs) it was read from.
struct OnnxEvidence {
    std::string key;    // as in a model file: "layers", "hidden", "heads", …
    std::string value;  // as in a model file's JSON ("2", "swiglu", "true")
    std::vector<std::string> from;
};

struct OnnxTransformer {
    Transformer model;
    std::string file;
    std::string ids_input;    // the graph input holding the token ids
    std::string embedding_table, head_weight;  // the initializers the embedding and the LM head read
    bool seq_static = false;  // the model fixes the sequence length (else it came from the caller)
    std::vector<OnnxEvidence> evidence;
};

// Reads the transformer in `g` (an import in structure mode, the dynamic sizes set); the sequence
// length is the token ids' dim 1 at the import's sizes. Throws InputError naming g.source and what
// was not found.
OnnxTransformer recogniseTransformer(const onnx::Graph& g);

// Imports `path` and recognises its transformer. A sequence length the model leaves dynamic is
// `seq` (> 0), else refused asking for it; a static one is kept (the caller may override it). An LM
// head on its own initializer holding the embedding's values (transposed or not) is tied: exporters
// fold emb.weight.t() into such a copy.
OnnxTransformer loadOnnxTransformer(const std::string& path, std::int64_t seq = 0);

// Whether `path` is an ONNX file: the .onnx extension, or protobuf bytes where JSON would begin.
bool isOnnxFile(const std::string& path);

// One line: "recognised in F: 2 layers, hidden 64, 4 heads (4 KV) of 16, ffn 256 gelu, layernorm, …".
std::string onnxSummary(const OnnxTransformer& t);

}  // namespace partita::llm
