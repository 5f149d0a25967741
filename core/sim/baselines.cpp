#include "core/sim/baselines.h"

#include <numeric>

#include "core/util/error.h"

namespace partita::sim {

namespace {

// `parts` pieces along `dim` on devices 0..parts-1.
OpConfig baselinesSplit(Dim dim, int parts) {
    OpConfig c;
    c.degree[static_cast<size_t>(dim)] = parts;
    c.devices.resize(static_cast<size_t>(parts));
    std::iota(c.devices.begin(), c.devices.end(), 0);
    return c;
}

void requireDevices(int devices) {
    if (devices < 1) throw Error("a strategy needs at least one device, got " + std::to_string(devices));
}

}  // namespace

int largestDivisorUpTo(std::int64_t n, int cap) {
    for (int d = cap; d > 1; --d)
        if (n % d == 0) return d;
    return 1;
}

SoapStrategy dataParallelStrategy(const Network& net, std::int64_t batch, int devices) {
    requireDevices(devices);
    SoapStrategy s;
    s.network = net.name;
    s.ops.assign(net.ops.size(), baselinesSplit(Dim::Sample, largestDivisorUpTo(batch, devices)));
    return s;
}

SoapStrategy oneWeirdTrickStrategy(const Network& net, std::int64_t batch, int devices) {
    SoapStrategy s = dataParallelStrategy(net, batch, devices);
    for (size_t i = 0; i < net.ops.size(); ++i)
        if (net.ops[i].type == OpType::FullyConnected)
            s.ops[i] = baselinesSplit(Dim::Channel, largestDivisorUpTo(net.ops[i].out_shape.c, devices));
    return s;
}

SoapStrategy modelParallelStrategy(const Network& net, std::int64_t /*batch*/, int devices) {
    requireDevices(devices);
    SoapStrategy s;
    s.network = net.name;
    for (const Operator& op : net.ops) s.ops.push_back(baselinesSplit(Dim::Channel, largestDivisorUpTo(op.out_shape.c, devices)));
    return s;
}

SoapStrategy randomStrategy(const Network& net, std::int64_t batch, int devices, std::mt19937_64& rng) {
    requireDevices(devices);
    SoapStrategy s;
    s.network = net.name;
    for (const Operator& op : net.ops) s.ops.push_back(randomConfig(op, batch, devices, rng));
    return s;
}

}  // namespace partita::sim
