#pragma once
// Reading an .onnx file into a Graph (graph.h): parse the protobuf, set the sizes the user chose for
// dynamic and symbolic input dimensions, infer every tensor's shape and fold the integer shape
// subgraphs exporters emit. How shapes are found (import.cpp):
//   one pass over the nodes in topological order. A node whose inputs' values are known is folded
//   (fold.cpp: Constant, Shape, Gather, Squeeze, Unsqueeze, Concat, Slice, Split, Cast, ConstantOfShape,
//   Range, Expand, Where, Equal, Add/Sub/Mul/Div, ReduceProd, Reshape, Identity; fold_math.cpp: Floor,
//   Ceil, Neg, Abs, Sign, Sqrt, Reciprocal, Min, Max, Mod, Pow, the comparisons, Not/And/Or/Xor). The
//   operators whose shapes come from such values, and those whose ONNX 1.12 inference falls short,
//   use Partita's own rules (shapes.cpp: Reshape with 0 and -1, Expand, Tile, Resize, Upsample, Slice,
//   Split, Pad, reductions, ConstantOfShape, Range, Shape, LayerNormalization, element-wise and
//   broadcasting ops), which follow each operator's opsets up to 21. The rest (Conv, ConvTranspose, Gemm, MatMul,
//   BatchNormalization, Concat, Flatten, Transpose, Squeeze, Unsqueeze, Gather, the pools) run ONNX's
//   own inference function for the model's opset, fed with the folded values as constant tensors,
//   after their attributes are checked (checks.cpp). Driving ONNX's inference node by node instead
//   of calling InferShapes on the whole model lets every node see what was folded upstream: one pass,
//   where InferShapes would be re-run after every Reshape whose target depends on an earlier one.
//   Nodes are first checked against their ONNX schema (input/output counts, attribute types) for the
//   opsets ONNX 1.12 knows (up to 17).
// Weight data is never read (initializer dims suffice) and external-data files are never opened.
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/onnx/graph.h"
#include "core/util/error.h"

namespace partita::onnx {

// Sizes the user sets: `--input NAME=d0,d1,…` replaces a graph input's whole shape; `--dim SYMBOL=V`
// sets a symbolic dimension wherever it occurs among the graph inputs.
struct InputDims {
    std::map<std::string, std::vector<std::int64_t>> inputs;
    std::map<std::string, std::int64_t> symbols;
};

// One declared dimension of a graph input: a fixed size, a symbol, or unknown.
struct InputDim {
    std::int64_t value = 0;  // > 0 when fixed by the model
    std::string symbol;      // the dim_param, when the model names it
    bool fixed() const { return value > 0; }
};

struct GraphInput {
    std::string name;
    std::string dtype;        // as in Tensor::dtype
    bool rank_known = false;  // false: the model declares no shape, the user must give every dim
    std::vector<InputDim> dims;
};

// One node outside the supported operator set.
struct UnsupportedNode {
    std::string name;
    std::string op_type;
    std::string domain;  // "" for the default ONNX domain
    int index = 0;       // position in the model's node list
};

// The model uses operators Partita cannot cost: every such node, listed once.
class UnsupportedOperators : public InputError {
public:
    UnsupportedOperators(std::string source, std::vector<UnsupportedNode> nodes);
    const std::vector<UnsupportedNode>& nodes() const { return nodes_; }

private:
    std::vector<UnsupportedNode> nodes_;
};

// The operator types Partita imports (default domain), sorted.
const std::vector<std::string>& supportedOperators();

// A model parsed once: its graph inputs, so a user can be asked, then the import at the chosen sizes
// (loadNetwork reads each file once: a large model's protobuf is the slow part).
class OnnxModel {
public:
    // Throws InputError (file-named) for an unreadable or malformed file, or an input beyond the rank limit.
    static OnnxModel read(const std::string& path);
    // The same on a file's bytes; `source` names it in messages (fuzzing, drag and drop of data).
    static OnnxModel parse(std::string_view bytes, const std::string& source);
    OnnxModel(OnnxModel&&) noexcept;
    OnnxModel& operator=(OnnxModel&&) noexcept;
    ~OnnxModel();

    // The graph inputs (initializers excluded) with their declared dims.
    const std::vector<GraphInput>& inputs() const;
    // Throws UnsupportedOperators when a node is outside the supported set (import does the same
    // first): an application checks before it asks the user for sizes.
    void checkOperators() const;
    // Consumes the model (the import annotates it as it walks). Throws InputError, UnsupportedOperators,
    // or for an output whose shape stays unknown (the message names the node, the tensor and the dims to set).
    Graph import(const InputDims& dims = {}) &&;
    // The same for reading a model's structure rather than costing it (core/llm/onnx_transformer.h):
    // nodes outside the supported set are kept (a few shape-preserving ones, such as com.microsoft's
    // SimplifiedLayerNormalization, Trilu, Sin and Cos, pass their input's shape on), and a tensor whose
    // shape cannot be found is left without dims instead of refused. A malformed model is still refused.
    // The model is kept, for sameValues.
    Graph importStructure(const InputDims& dims = {});
    // Whether initializers `a` and `b` (rank 2, the same element type, data stored in the file) hold the
    // same values, `b` read transposed when `transposed`: an exporter's folded copy of a shared weight
    // (torch writes emb.weight.t() as a new initializer). False when either is absent or external.
    bool sameValues(const std::string& a, const std::string& b, bool transposed) const;

private:
    struct Parsed;
    explicit OnnxModel(std::unique_ptr<Parsed> parsed);
    std::unique_ptr<Parsed> parsed_;
};

// One-shot forms of the above.
Graph importOnnx(const std::string& path, const InputDims& dims = {});
Graph importOnnxData(std::string_view bytes, const std::string& source, const InputDims& dims = {});
std::vector<GraphInput> graphInputs(const std::string& path);
std::vector<GraphInput> graphInputsData(std::string_view bytes, const std::string& source);

// Suggested sizes: the model's fixed dims; for dynamic ones, batch 1 for dim 0, 224 for the image
// sides of a rank-4 input (NCHW, or NHWC when dim 3 is fixed to 1, 3 or 4 channels), 3 for its
// channels, 128 for the sequence length (dim 1) of a rank-2 or rank-3 input, 1 otherwise. Empty when
// the model declares no shape.
std::vector<std::int64_t> defaultDims(const GraphInput& input);
// The same, with a named dimension sized once across inputs: `symbols` holds the sizes chosen so far
// (the first input that names a dimension decides; [batch, samples] then [2, batch, 128] is 1 both times).
std::vector<std::int64_t> defaultDims(const GraphInput& input, std::map<std::string, std::int64_t>& symbols);
// defaultDims for every input, as `--input` values.
InputDims defaultInputDims(const std::vector<GraphInput>& inputs);
// Whether the user has a size to give: a dimension the model leaves open, or no declared shape. A
// scalar ([]) and a fully fixed input have none.
bool hasOpenDims(const GraphInput& input);

// An input whose open dimensions took defaultDims' suggestion because nothing set them.
struct DefaultedInput {
    std::string name;
    std::vector<std::int64_t> dims;  // the whole shape used
};
// `given` completed: every input with a declared shape gets its whole shape, open dimensions that
// neither `--input` nor `--dim` set taking defaultDims (such inputs are listed in `defaulted`).
InputDims withDefaults(const std::vector<GraphInput>& inputs, const InputDims& given,
                       std::vector<DefaultedInput>* defaulted = nullptr);

// Exporters' placeholder graph names ("torch_jit", "main_graph", Paddle2ONNX's "Model from
// PaddlePaddle.", a sentence, empty) that say nothing about the model: the file's name is used instead.
bool isPlaceholderGraphName(const std::string& name);

}  // namespace partita::onnx
