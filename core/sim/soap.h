#pragma once
// SOAP parallel configurations (docs/methods/flexflow.md#soap-configurations, Table 2). Every task of an
// operator computes an equal, disjoint box of the operator's output tensor
// (sample, channel, height, width); the configuration says how many pieces
// each dimension is cut into and which device runs each piece.
#include <array>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "core/io/json_fields.h"
#include "core/model/network.h"

namespace partita::sim {

// Output dimensions of every operator, in this order.
enum class Dim : int { Sample = 0, Channel = 1, Height = 2, Width = 3 };
inline constexpr int kDims = 4;
using Degrees = std::array<int, kDims>;
using Extent = std::array<std::int64_t, kDims>;

// Table 2: how splitting a dimension acts on the operator. Parameter splits
// the weights (conv/fc output channels); Attribute does not (spatial, pool
// channels); Fixed dimensions cannot be split (fc spatial, size-1 dims).
enum class DimKind { Sample, Attribute, Parameter, Fixed };

DimKind dimKind(OpType type, Dim dim);
const char* dimName(Dim dim);  // "sample", "channel", "height", "width"

struct OpConfig {
    Degrees degree{1, 1, 1, 1};
    // Pieces of the input channels (conv/fc only; HyPar's model parallelism,
    // AccPar's Type-II, Megatron's row-parallel): each task sums over 1/reduce of
    // the input channels; the partial outputs are reduce-scattered over the piece's tasks.
    // Not part of FlexFlow's SOAP space; random proposals draw it too (Megatron's row-parallel layers).
    int reduce = 1;
    std::vector<int> devices;  // one per task

    // Output pieces; tasks are pieces x reduce, piece index varying fastest.
    int pieces() const { return degree[0] * degree[1] * degree[2] * degree[3]; }
    int parts() const { return pieces() * reduce; }
    int reduceIndex(int k) const { return k / pieces(); }
    // Task k -> its output piece's coordinates (mixed radix, sample fastest);
    // index() is the inverse for the piece's first task (reduce index 0).
    Degrees coords(int k) const;
    int index(const Degrees& c) const;
    bool operator==(const OpConfig&) const = default;
};

// One configuration per operator, indexed like Network::ops.
struct SoapStrategy {
    std::string network;
    std::vector<OpConfig> ops;
    std::string source{};  // the file it was read from, named by validation errors; not part of equality
    bool operator==(const SoapStrategy& o) const { return network == o.network && ops == o.ops; }
};

// The batch is a run parameter given as a double; it must be a positive integer.
std::int64_t batchCount(double batch);
// Output extent (batch, C, H, W) of an operator.
Extent outputExtent(const Operator& op, std::int64_t batch);

// Whether the operator's input channels can be split (OpConfig::reduce): an ungrouped conv or an fc.
bool canReduce(const Operator& op);
// The channels of a conv/fc operator's input: the dimension `reduce` splits.
std::int64_t reducedChannels(const Network& net, const Operator& op);

// Throws partita::Error naming the operator when a degree does not divide its
// dimension, a Fixed dimension is split, reduce > 1 on an operator without
// weights or not dividing its input channels, the product exceeds `devices`, the
// device list has the wrong length, a device id does not exist, or (unless
// allow_shared) two tasks share a device.
void validateConfig(const Network& net, int op, std::int64_t batch, const OpConfig& config, int devices,
                    bool allow_shared = false, const std::string& source = "");
void validateStrategy(const Network& net, std::int64_t batch, const SoapStrategy& strategy, int devices,
                      bool allow_shared = false);

// Data parallelism: every operator split `devices` ways along the sample on
// devices 0..devices-1 (the batch must be divisible by `devices`).
SoapStrategy dataParallel(const Network& net, std::int64_t batch, int devices);
// Every operator whole on one device.
SoapStrategy singleDevice(const Network& net, int device = 0);

// All degree vectors valid for the operator: each degree divides its
// dimension, Fixed dimensions stay 1, product <= devices.
std::vector<Degrees> validDegrees(const Operator& op, std::int64_t batch, int devices);
// A uniformly random valid degree vector, then (conv/fc, one draw in four) a uniformly random reduce
// degree above 1 among the divisors of the input channels that fit the remaining devices, with devices
// drawn (uniformly among the three kinds) as a contiguous block, a strided view or a random set.
// `reduce_channels`: reducedChannels(net, op), or 0 for no reduce draw (FlexFlow's own space).
OpConfig randomConfig(const Operator& op, std::int64_t batch, int devices, std::mt19937_64& rng,
                      std::int64_t reduce_channels = 0);

// Strategy JSON "partita-soap/1": {"format", "network", "operators": [{"name",
// "degrees": {"sample", "channel", "height", "width", "reduce"} (each optional, default 1),
// "devices": [ids]}]}. Every operator of the network appears exactly once.
Json soapToJson(const SoapStrategy& strategy, const Network& net);
std::string writeSoapJson(const SoapStrategy& strategy, const Network& net);
SoapStrategy readSoapJson(const std::string& text, const std::string& source, const Network& net);
SoapStrategy loadSoap(const std::string& path, const Network& net);

}  // namespace partita::sim
