#include "core/sim/soap.h"

#include <cmath>
#include <numeric>

#include "core/util/enum_names.h"
#include "core/util/error.h"

namespace partita::sim {

DimKind dimKind(OpType type, Dim dim) {
    if (dim == Dim::Sample) return DimKind::Sample;
    switch (type) {
    case OpType::Conv:
    case OpType::ConvTranspose: return dim == Dim::Channel ? DimKind::Parameter : DimKind::Attribute;
    case OpType::FullyConnected: return dim == Dim::Channel ? DimKind::Parameter : DimKind::Fixed;
    case OpType::Pool:
    case OpType::Add:
    case OpType::Concat:
    case OpType::MatMul:  // no weights: every dimension of its (G, M, N) output is an attribute
    case OpType::Elementwise:
    case OpType::Layout: return DimKind::Attribute;
    }
    return DimKind::Fixed;
}

namespace {
constexpr EnumName<Dim> kDimNames[] = {
    {Dim::Sample, "sample"}, {Dim::Channel, "channel"}, {Dim::Height, "height"}, {Dim::Width, "width"}};
}  // namespace

const char* dimName(Dim dim) { return enumName(kDimNames, dim); }


Degrees OpConfig::coords(int k) const {
    Degrees c{};
    k %= pieces();
    for (int d = 0; d < kDims; ++d) {
        c[static_cast<size_t>(d)] = k % degree[static_cast<size_t>(d)];
        k /= degree[static_cast<size_t>(d)];
    }
    return c;
}

int OpConfig::index(const Degrees& c) const {
    int k = 0;
    for (int d = kDims - 1; d >= 0; --d) k = k * degree[static_cast<size_t>(d)] + c[static_cast<size_t>(d)];
    return k;
}

bool canReduce(const Operator& op) {
    return (op.type == OpType::Conv || op.type == OpType::FullyConnected) && op.group == 1;
}

std::int64_t reducedChannels(const Network& net, const Operator& op) {
    const int producer = op.input_ids.empty() ? -1 : op.input_ids.front();
    return producer < 0 ? net.input.c : net.ops[static_cast<size_t>(producer)].out_shape.c;
}

std::int64_t batchCount(double batch) {
    if (!(batch >= 1) || batch != std::floor(batch) || batch > 9.0e15)
        throw Error("the batch must be a positive integer, got " + std::to_string(batch));
    return static_cast<std::int64_t>(batch);
}

Extent outputExtent(const Operator& op, std::int64_t batch) {
    return {batch, op.out_shape.c, op.out_shape.h, op.out_shape.w};
}

namespace {

[[noreturn]] void soapFail(const Operator& op, const std::string& message, const std::string& source = "") {
    if (!source.empty()) throw InputError(source, "operator '" + op.name + "'", message);
    throw Error("operator '" + op.name + "': " + message);
}

std::vector<int> divisorsUpTo(std::int64_t n, int cap) {
    std::vector<int> out;
    for (int d = 1; d <= cap && d <= n; ++d)
        if (n % d == 0) out.push_back(d);
    return out;
}

}  // namespace

void validateConfig(const Network& net, int op_id, std::int64_t batch, const OpConfig& config, int devices,
                    bool allow_shared, const std::string& source) {
    const Operator& op = net.ops.at(static_cast<size_t>(op_id));
    const Extent extent = outputExtent(op, batch);
    // Its keys and values are read per whole sequence (docs/formats/network.md#attention).
    if (op.attention && batch % op.attention->sequence != 0)
        soapFail(op, "the attention core runs over sequences of " + std::to_string(op.attention->sequence) +
                         " samples (tokens), and the batch of " + std::to_string(batch) + " is not a whole number of them",
                 source);
    std::int64_t product = 1;
    for (int d = 0; d < kDims; ++d) {
        const int deg = config.degree[static_cast<size_t>(d)];
        const char* name = dimName(static_cast<Dim>(d));
        if (deg < 1)
            soapFail(op, "the degree along " + std::string(name) + " must be positive, got " + std::to_string(deg), source);
        if (deg > 1 && dimKind(op.type, static_cast<Dim>(d)) == DimKind::Fixed)
            soapFail(op, std::string(opTypeName(op.type)) + " operators cannot be split along " + name, source);
        if (extent[static_cast<size_t>(d)] % deg != 0)
            soapFail(op, "degree " + std::to_string(deg) + " along " + name + " does not divide " +
                         std::to_string(extent[static_cast<size_t>(d)]), source);
        product *= deg;  // stays small: it is checked against the device count at once
        if (product > devices)
            soapFail(op, "the degrees make " + std::to_string(product) + " tasks, more than the " + std::to_string(devices) +
                         " devices", source);
    }
    if (config.reduce < 1) soapFail(op, "the reduce degree must be positive, got " + std::to_string(config.reduce), source);
    if (config.reduce > 1) {
        if (op.type != OpType::Conv && op.type != OpType::FullyConnected)
            soapFail(op, std::string(opTypeName(op.type)) + " operators have no input-channel reduction to split", source);
        if (op.group != 1) soapFail(op, "a grouped conv's input channels are not reduced across groups", source);
        const std::int64_t channels = reducedChannels(net, op);
        if (channels % config.reduce != 0)
            soapFail(op, "reduce degree " + std::to_string(config.reduce) + " does not divide the " +
                         std::to_string(channels) + " input channels", source);
        product *= config.reduce;
    }
    if (product > devices)
        soapFail(op, "the degrees make " + std::to_string(product) + " tasks, more than the " + std::to_string(devices) +
                     " devices", source);
    if (static_cast<std::int64_t>(config.devices.size()) != product)
        soapFail(op, "the degrees make " + std::to_string(product) + " tasks but " + std::to_string(config.devices.size()) +
                     " devices are listed", source);
    std::vector<int> owner(static_cast<size_t>(devices), -1);
    for (size_t k = 0; k < config.devices.size(); ++k) {
        const int dev = config.devices[k];
        if (dev < 0 || dev >= devices)
            soapFail(op, "task " + std::to_string(k) + " is placed on device " + std::to_string(dev) +
                         ", which does not exist (the topology has " + std::to_string(devices) + " devices)", source);
        int& first = owner[static_cast<size_t>(dev)];
        if (first >= 0 && !allow_shared)
            soapFail(op, "tasks " + std::to_string(first) + " and " + std::to_string(k) + " share device " +
                         std::to_string(dev) + " (allow shared devices to permit this)", source);
        if (first < 0) first = static_cast<int>(k);
    }
}

void validateStrategy(const Network& net, std::int64_t batch, const SoapStrategy& strategy, int devices,
                      bool allow_shared) {
    if (strategy.ops.size() != net.ops.size())
        throw Error("the strategy configures " + std::to_string(strategy.ops.size()) + " operators but network '" +
                    net.name + "' has " + std::to_string(net.ops.size()));
    for (size_t i = 0; i < net.ops.size(); ++i)
        validateConfig(net, static_cast<int>(i), batch, strategy.ops[i], devices, allow_shared, strategy.source);
}

SoapStrategy dataParallel(const Network& net, std::int64_t batch, int devices) {
    if (devices < 1 || batch % devices != 0)
        throw Error("data parallelism over " + std::to_string(devices) +
                    " devices needs a batch divisible by it, got " + std::to_string(batch));
    SoapStrategy s;
    s.network = net.name;
    OpConfig c;
    c.degree = {devices, 1, 1, 1};
    c.devices.resize(static_cast<size_t>(devices));
    std::iota(c.devices.begin(), c.devices.end(), 0);
    s.ops.assign(net.ops.size(), c);
    return s;
}

SoapStrategy singleDevice(const Network& net, int device) {
    SoapStrategy s;
    s.network = net.name;
    OpConfig c;
    c.devices = {device};
    s.ops.assign(net.ops.size(), c);
    return s;
}

std::vector<Degrees> validDegrees(const Operator& op, std::int64_t batch, int devices) {
    const Extent extent = outputExtent(op, batch);
    std::array<std::vector<int>, kDims> options;
    for (int d = 0; d < kDims; ++d)
        options[static_cast<size_t>(d)] = dimKind(op.type, static_cast<Dim>(d)) == DimKind::Fixed
                                              ? std::vector<int>{1}
                                              : divisorsUpTo(extent[static_cast<size_t>(d)], devices);
    std::vector<Degrees> out;
    for (int n : options[0])
        for (int c : options[1])
            for (int h : options[2])
                for (int w : options[3])
                    if (static_cast<std::int64_t>(n) * c * h * w <= devices) out.push_back({n, c, h, w});
    return out;
}

OpConfig randomConfig(const Operator& op, std::int64_t batch, int devices, std::mt19937_64& rng,
                      std::int64_t reduce_channels) {
    const auto all = validDegrees(op, batch, devices);
    OpConfig c;
    c.degree = all[std::uniform_int_distribution<size_t>(0, all.size() - 1)(rng)];
    // The input-channel split (docs/methods/flexflow.md#reduce-splits), so a search reaches Megatron's
    // row-parallel layers; in a quarter of the draws, so FlexFlow's own space keeps most proposals.
    if (reduce_channels > 0 && canReduce(op) && c.pieces() < devices &&
        std::uniform_int_distribution<int>(0, 3)(rng) == 0) {
        const auto reduces = divisorsUpTo(reduce_channels, devices / c.pieces());
        if (reduces.size() > 1) c.reduce = reduces[std::uniform_int_distribution<size_t>(1, reduces.size() - 1)(rng)];
    }
    const int m = c.parts();
    c.devices.resize(static_cast<size_t>(m));
    const int kind = std::uniform_int_distribution<int>(0, 2)(rng);
    if (kind == 0 || m == 1) {  // contiguous block
        const int start = std::uniform_int_distribution<int>(0, devices - m)(rng);
        std::iota(c.devices.begin(), c.devices.end(), start);
    } else if (kind == 1) {  // strided view
        const int stride = std::uniform_int_distribution<int>(1, (devices - 1) / (m - 1))(rng);
        const int start = std::uniform_int_distribution<int>(0, devices - 1 - stride * (m - 1))(rng);
        for (int k = 0; k < m; ++k) c.devices[static_cast<size_t>(k)] = start + k * stride;
    } else {  // random set in random order (partial Fisher-Yates)
        std::vector<int> pool(static_cast<size_t>(devices));
        std::iota(pool.begin(), pool.end(), 0);
        for (int k = 0; k < m; ++k) {
            const int j = std::uniform_int_distribution<int>(k, devices - 1)(rng);
            std::swap(pool[static_cast<size_t>(k)], pool[static_cast<size_t>(j)]);
            c.devices[static_cast<size_t>(k)] = pool[static_cast<size_t>(k)];
        }
    }
    return c;
}

}  // namespace partita::sim
