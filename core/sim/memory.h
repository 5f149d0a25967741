#pragma once
// Peak memory per device of a simulated strategy (docs/methods/flexflow.md#memory-per-device):
// weights of the shards a device holds, their gradients and optimizer state, the activations
// its tasks keep for the backward pass, and the largest message it receives. Compared with
// each device's mem_capacity_B (0 = unknown: not checked).
#include <cstdint>
#include <string>
#include <vector>

#include "core/sim/task_graph.h"

namespace partita::sim {

// Elements of an operator's learned tensor (conv, conv-transpose, fc; 0 otherwise): the
// weights its sync moves and its tasks hold.
double weightElements(const Operator& op);

struct DeviceMemory {
    double weights = 0, gradients = 0, optimizer = 0, activations = 0, buffers = 0;  // bytes
    double capacity = 0;  // the device's mem_capacity_B; 0 = unknown
    double total() const { return weights + gradients + optimizer + activations + buffers; }
    double overshoot() const { return capacity > 0 && total() > capacity ? total() - capacity : 0; }
    bool operator==(const DeviceMemory&) const = default;
};

struct MemoryReport {
    std::vector<DeviceMemory> devices;  // by compute device
    bool checked = false;  // some device has a known capacity
    bool fits = true;      // no device with a known capacity is over it
    int worst = -1;        // the device furthest over its capacity, else the one with the largest total
    double excess = 0;     // sum of overshoots over all devices (0 when it fits)
    bool operator==(const MemoryReport&) const = default;
};

// The strategy's memory on `graph`, which must be built from it (buffers come from its messages).
MemoryReport deviceMemory(const Network& net, std::int64_t batch, const SoapStrategy& strategy,
                          const TaskGraph& graph, const Topology& topology, const SimOptions& options);
// True when some device has a known capacity (else nothing needs checking).
bool hasCapacities(const Topology& topology);

// "2,089.8 GB" (decimal GB, one decimal) from 1 GB up, else "42.47 MB".
std::string memoryText(double bytes);
// "device n0.gpu0 needs 2,088.0 GB of 85.9 GB (weights 696.0 GB, gradients ..., ...)".
std::string memoryLine(const MemoryReport& report, const Topology& topology, int device);

// What the views say of a strategy that does not fit: "device npu0: 2,089.8 GB of 80 GB (64 of 64
// devices over capacity)"; "" when it fits or nothing was checked.
std::string memoryNote(const MemoryReport& report, const Topology& topology);

}  // namespace partita::sim
