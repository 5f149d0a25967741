#pragma once
// A DNN as a DAG of operators with per-sample shapes (the batch is a run
// parameter). Shapes are derived by propagate(); impossible shapes are errors.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace partita {

struct Shape {
    std::int64_t c = 0, h = 1, w = 1;  // channels, height, width (per sample)
    std::int64_t elements() const { return c * h * w; }
    std::int64_t spatial() const { return h * w; }
    bool operator==(const Shape&) const = default;
};

// Conv, FullyConnected, Pool, Add, Concat: the original five. The kinds imported models add:
// ConvTranspose (weighted, like Conv), MatMul (two activations: batched (G, M, K) x (G, K, N) -> (G, M, N),
// no weights), Elementwise (unary / binary / normalisation ops; NumPy broadcasting over (c, h, w)) and
// Layout (reshape, transpose, slice, pad, resize, reductions: an explicit output shape, no arithmetic).
enum class OpType { Conv, FullyConnected, Pool, Add, Concat, ConvTranspose, MatMul, Elementwise, Layout };

// How a sliding window that does not tile its input exactly is rounded.
enum class Rounding { Exact, Floor, Ceil };

struct Window {
    int kernel_h = 1, kernel_w = 1;
    int stride_h = 1, stride_w = 1;
    int pad_h = 0, pad_w = 0;          // top and left padding (and bottom and right unless given below)
    Rounding rounding = Rounding::Exact;
    int pad_h_end = -1, pad_w_end = -1;  // bottom and right padding; -1: the same as top and left
    int dilation_h = 1, dilation_w = 1;

    int padBottom() const { return pad_h_end < 0 ? pad_h : pad_h_end; }
    int padRight() const { return pad_w_end < 0 ? pad_w : pad_w_end; }
    bool symmetric() const { return padBottom() == pad_h && padRight() == pad_w; }
    int spanH() const { return dilation_h * (kernel_h - 1) + 1; }  // the input rows one output reads
    int spanW() const { return dilation_w * (kernel_w - 1) + 1; }
};

// An elementwise operator that is a transformer's attention core (docs/formats/network.md#attention):
// one sample is one token, `sequence` consecutive samples are one sequence, the channels are `heads`
// heads; its cost is QK^T, softmax, dropout and AV over the sequence (docs/methods/flexflow.md#kernel-curves).
struct AttentionCore {
    std::int64_t sequence = 0, heads = 0;
    bool operator==(const AttentionCore&) const = default;
};

struct Operator {
    std::string name;
    OpType type = OpType::Conv;
    std::vector<std::string> inputs;  // producer names; "input" is the network input
    // Conv: out_channels + window (+ optional pool after it). FC: out_channels.
    // Pool: window. Add/Concat: inputs only.
    std::int64_t out_channels = 0;
    Window window;
    std::optional<Window> pool;  // pooling fused after a conv
    bool average_pool = false;   // pool mode, informational (no cost difference)
    int group = 1;               // Conv, ConvTranspose: channel groups (C_in / group per output channel)
    int output_pad_h = 0, output_pad_w = 0;  // ConvTranspose: extra rows / columns at the end
    Shape layout_shape;          // Layout: the output shape (per sample)
    std::string source_op;       // the imported model's op type ("Softmax", "Reshape"...); informational
    std::optional<AttentionCore> attention;  // Elementwise only

    // Filled by propagate():
    std::vector<int> input_ids;  // -1 = the network input
    Shape in_shape;              // first input's shape
    Shape pre_pool_shape;        // conv output before its fused pool
    Shape out_shape;
};

struct Network {
    std::string name;
    std::string description;
    Shape input;
    std::vector<Operator> ops;  // topological order after propagate()

    int find(const std::string& op_name) const;  // -1 if absent
};

const char* opTypeName(OpType type);

// Resolves inputs, orders operators topologically, and derives every shape.
// Throws InputError(source, "operator 'x'", ...) on cycles, unknown inputs,
// non-positive sizes, windows that do not fit or tile, and mismatched joins.
void propagate(Network& net, const std::string& source);

// The per-operator shape rule (propagate() applies it in order; the editor's document to the nodes an
// edit touches): checks the number of inputs and the parameters against the input shapes, and sets
// op.in_shape, pre_pool_shape and out_shape. Throws std::invalid_argument or std::overflow_error (a
// limit) with the reason; op.inputs and input_ids are not read.
void deriveShapes(Operator& op, const std::vector<Shape>& inputs);
// The number-of-inputs part of that rule alone (std::invalid_argument), for reporting a wrong arity
// before the inputs have shapes.
void checkArity(OpType type, size_t inputs);
// The network input: positive sizes within limits (std::invalid_argument / std::overflow_error).
void checkInputShape(const Shape& input);

// Output size of a window over `in` along one axis; throws std::invalid_argument
// with the reason when it does not fit or (with Rounding::Exact) does not tile. `span` is the
// dilated kernel's extent, `pad` and `pad_end` the padding before and after.
std::int64_t windowOutput(std::int64_t in, int kernel, int stride, int pad, Rounding rounding);
std::int64_t windowOutput(std::int64_t in, int span, int stride, int pad, int pad_end, Rounding rounding);
// A transposed convolution's output size along one axis.
std::int64_t transposedOutput(std::int64_t in, int span, int stride, int pad, int pad_end, int output_pad);
// Broadcasts per-sample shapes (each axis equal, or 1); throws std::invalid_argument when they do not.
Shape broadcastShapes(const std::vector<Shape>& shapes);
// True for operators with learned weights (Conv, FullyConnected, ConvTranspose).
bool hasWeights(OpType type);

}  // namespace partita
