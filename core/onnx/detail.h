#pragma once
// Internals of the ONNX importer shared by its source files; not part of the API (import.h is).
#include <onnx/onnx_pb.h>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/onnx/graph.h"

namespace partita::onnx::detail {

// A model that is wrong for the chosen sizes (or beyond a limit); the importer adds file and node.
class RuleError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// What the importer knows about one tensor while it walks the graph.
struct Info {
    int elem_type = 0;  // ::onnx::TensorProto_DataType; 0 when unknown
    bool rank_known = false;
    std::vector<std::int64_t> dims;  // -1: a size not known
    bool constant = false;
    bool has_values = false;  // ints (integer and bool types) or floats (float types) hold every element
    bool is_float = false;
    std::vector<std::int64_t> ints;
    std::vector<double> floats;

    bool known() const;  // rank and every size known
    std::size_t count() const { return is_float ? floats.size() : ints.size(); }
    double number(std::size_t i) const { return is_float ? floats[i] : static_cast<double>(ints[i]); }
};

// One node as the rules see it.
struct NodeCtx {
    ::onnx::NodeProto& node;
    int opset = 0;
    std::vector<const Info*> in;  // per input slot; nullptr when the input is omitted ("")

    const std::string& op() const { return node.op_type(); }
    const Info* input(std::size_t i) const { return i < in.size() ? in[i] : nullptr; }
    std::size_t outputs() const { return static_cast<std::size_t>(node.output_size()); }
    const ::onnx::AttributeProto* attr(const char* name) const;
    std::int64_t attrInt(const char* name, std::int64_t fallback) const;
    double attrFloat(const char* name, double fallback) const;
    std::string attrString(const char* name, const std::string& fallback) const;
    std::optional<std::vector<std::int64_t>> attrInts(const char* name) const;
    std::optional<std::vector<double>> attrFloats(const char* name) const;
};

// An integer list given by an input (newer opsets) or an attribute (older ones).
struct IntList {
    bool present = false;  // the input or attribute is there
    bool known = false;    // and its values are known
    std::vector<std::int64_t> values;
};
IntList intsFromInput(const NodeCtx& c, std::size_t index);
IntList intsFromAttr(const NodeCtx& c, const char* name);

// Rules, one pass per node. Each returns true when it set every output; RuleError on a bad model.
bool fold(const NodeCtx& c, std::vector<Info>& out);       // values of integer shape subgraphs (fold.cpp)
// Floor, Ceil, Neg, Abs, Sign, Sqrt, Reciprocal, Not, Min, Max, Mod, Pow, the comparisons, And/Or/Xor (fold_math.cpp).
bool foldMath(const NodeCtx& c, Info& out);
bool hasOwnShapeRule(const std::string& op);               // shapes.cpp
bool ownShapes(const NodeCtx& c, std::vector<Info>& out);  // shapes.cpp
// Checks of the operators ONNX's inference functions handle (checks.cpp): their attributes, before ONNX
// divides by a stride or indexes with an axis, and the operands the counts rest on.
void checkNode(const NodeCtx& c);
// ONNX's inference function for the node (onnx_infer.cpp); returns ONNX's message when it fails.
std::string onnxInfer(const NodeCtx& c, std::vector<Info>& out);
// ONNX's check of the node against its schema (input and output counts, attribute types) for opsets the
// library knows; returns ONNX's message when it fails.
std::string verifyNode(const NodeCtx& c);
int maxKnownOpset();

// Helpers (values.cpp).
std::int64_t elementCount(const std::vector<std::int64_t>& dims);  // RuleError beyond kOnnxTensorElements
std::int64_t normalizeAxis(std::int64_t axis, std::size_t rank, const char* what);
std::vector<std::int64_t> broadcastShapes(const std::vector<const Info*>& inputs);  // every input known
// Element i of a tensor of `dims` read from a broadcast input of `from` dims (numpy rules).
std::vector<std::size_t> broadcastIndex(const std::vector<std::int64_t>& from, const std::vector<std::int64_t>& dims);
// Reads an initializer or Constant tensor: type and dims, and its values when small and stored inline.
void readTensor(const ::onnx::TensorProto& t, Info& info);
// Values of `src` at `index` (any element type) into dst, which takes src's type.
void takeValues(const Info& src, const std::vector<std::size_t>& index, Info& dst);
std::vector<std::int64_t> knownDims(const Info& info);  // dims of a known tensor (RuleError if unknown)
bool isFloatType(int elem_type);
std::string dtypeName(int elem_type);
std::string dimsText(const std::vector<std::int64_t>& dims);      // "[1, ?, 224]"
std::string valuesText(const std::vector<std::int64_t>& values);  // "[1, -1, 224]"
Info shaped(int elem_type, std::vector<std::int64_t> dims);  // a known shape without values

// Shape rules shared by folding and shape inference (shapes.cpp).
std::vector<std::int64_t> reshapeDims(const std::vector<std::int64_t>& in, const std::vector<std::int64_t>& shape,
                                      bool allowzero);
// The axes a reduction reduces (sorted, unique): `axes` as given, or all of them when empty and not noop.
std::vector<std::int64_t> reduceAxes(const IntList& axes, std::size_t rank, bool noop_with_empty_axes);
std::vector<std::int64_t> reducedDims(const std::vector<std::int64_t>& in, const std::vector<std::int64_t>& axes,
                                      bool keepdims);
// Slice's per-axis first index, step and output size; nullopt while starts/ends/axes/steps are unknown.
struct SlicePlan {
    std::vector<std::int64_t> first, step, dims;
};
std::optional<SlicePlan> slicePlan(const NodeCtx& c, const std::vector<std::int64_t>& in);  // fold.cpp
// The reduction's axes list for this node's opset: an input from `input_from_opset` on, else an attribute.
IntList reductionAxesOf(const NodeCtx& c, int input_from_opset);

// A node's attributes of the kinds Graph keeps (graph.h), and its graph attributes' bodies, null when it
// has none (subgraphs.cpp); `name` is the node's, to name unnamed body nodes after it.
std::map<std::string, Attribute> attributesOf(const ::onnx::NodeProto& n);
std::shared_ptr<const Subgraphs> subgraphsOf(const ::onnx::NodeProto& n, const std::string& name);

}  // namespace partita::onnx::detail
