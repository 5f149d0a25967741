#pragma once
// An ONNX model as Partita reads it: every node with its attributes and the
// shapes of every tensor, after ONNX shape inference and our own folding of the
// integer shape subgraphs real exporters emit. No Qt, no protobuf types: the
// importer (import.h) fills this; the conversion to the native network and
// `partita-cli inspect` read it.
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace partita::onnx {

// One attribute value; only the kinds the supported operators use.
struct Attribute {
    std::optional<std::int64_t> i;
    std::optional<double> f;
    std::optional<std::string> s;
    std::vector<std::int64_t> ints;
    std::vector<double> floats;
};

struct Tensor {
    std::string name;
    std::string dtype;               // ONNX element type in lower case: "float", "float16", "int64", "bool"…; "" unknown
    std::vector<std::int64_t> dims;  // full shape including the batch dimension; every entry > 0 once resolved
                                     // (only a folded node's output may hold 0, or -1 for a size left unknown)
    bool constant = false;           // an initializer, a Constant's output, or folded from constants
    // Integer constants small enough to matter for shapes (Reshape targets, Slice starts, axes, pads,
    // Resize scales/sizes as doubles): the folded values. Empty for large tensors (integers beyond
    // 65,536 elements, floats beyond 64: weights keep only their shape).
    std::vector<std::int64_t> int_values;
    std::vector<double> float_values;
    bool has_values = false;
};

struct Subgraphs;

struct Node {
    std::string name;     // the node's name, or "<op_type>_<index>" when the model leaves it empty
    std::string op_type;  // as in the model, e.g. "Conv", "MatMul"
    std::string domain;   // "" or "ai.onnx" for the standard operators
    int index = 0;        // position in the model's node list (for error messages)
    std::vector<std::string> inputs;   // tensor names; "" for an omitted optional input
    std::vector<std::string> outputs;
    std::map<std::string, Attribute> attributes;
    bool folded = false;  // all outputs were computed at import (shape subgraphs): not an operator to cost
    std::shared_ptr<const Subgraphs> subgraphs;  // a Loop's, Scan's or If's bodies; null for other nodes
};

// What a control-flow node's bodies (a Loop's or Scan's body, an If's branches; nested ones flattened
// in) read and do: enough to read a model's structure through them, never costed.
struct Subgraphs {
    std::vector<std::string> captured;  // tensors of the enclosing graph the bodies read by name, in first-use order
    std::vector<std::string> inputs;    // the bodies' own inputs that carry data (a Loop's iteration number and
                                        // condition left out)
    std::vector<Node> nodes;            // every body node, nested ones included, in the file's order
};

struct Graph {
    std::string source;      // the file it was read from, for messages
    std::string name;        // the graph's name, else the file's stem
    std::string producer;    // producer_name + " " + producer_version
    std::int64_t opset = 0;  // the default domain's opset version
    std::vector<std::string> inputs;   // graph inputs that are not initializers, in order
    std::vector<std::string> outputs;
    std::vector<Node> nodes;           // topological order
    std::map<std::string, Tensor> tensors;  // every tensor by name (inputs, initializers, node outputs)

    const Tensor* tensor(const std::string& name) const;  // nullptr if unknown
};

}  // namespace partita::onnx
