#pragma once
// A DNN as a DAG of operators with per-sample shapes (the batch is a run
// parameter). Shapes are derived by propagate(); impossible shapes are errors.
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

enum class OpType { Conv, FullyConnected, Pool, Add, Concat };

// How a sliding window that does not tile its input exactly is rounded.
enum class Rounding { Exact, Floor, Ceil };

struct Window {
    int kernel_h = 1, kernel_w = 1;
    int stride_h = 1, stride_w = 1;
    int pad_h = 0, pad_w = 0;
    Rounding rounding = Rounding::Exact;
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

// Output size of a window over `in` along one axis; throws std::invalid_argument
// with the reason when it does not fit or (with Rounding::Exact) does not tile.
std::int64_t windowOutput(std::int64_t in, int kernel, int stride, int pad, Rounding rounding);

}  // namespace partita
