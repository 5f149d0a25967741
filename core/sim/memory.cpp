// The memory rule of docs/methods/flexflow.md#memory-per-device.
#include "core/sim/memory.h"

#include <algorithm>
#include <cmath>

#include "core/sim/rect.h"
#include "core/util/format.h"

namespace partita::sim {

double weightElements(const Operator& o) {
    if (!hasWeights(o.type)) return 0;
    // The same expression the weight sync sizes its messages with (graph_sync.cpp).
    return o.type == OpType::FullyConnected ? static_cast<double>(o.in_shape.c) * static_cast<double>(o.out_channels)
                                            : double(o.window.kernel_h) * o.window.kernel_w *
                                                  static_cast<double>(o.in_shape.c) / o.group *
                                                  static_cast<double>(o.out_channels);
}

bool hasCapacities(const Topology& topology) {
    return std::any_of(topology.devices.begin(), topology.devices.end(),
                       [](const ComputeDevice& d) { return d.mem_capacity_B > 0; });
}

namespace {

// Weights: one copy per distinct (shard, device) of each weighted operator.
void addWeights(const Operator& o, const OpConfig& c, double element_bytes, std::vector<DeviceMemory>& mem) {
    const double weights = weightElements(o);
    if (weights == 0) return;
    const int shards = c.degree[1] * c.reduce;
    const double shard_bytes = weights / shards * element_bytes;
    thread_local std::vector<std::int64_t> held;  // device * shards + shard, reused per call
    held.clear();
    for (int k = 0; k < c.parts(); ++k) {
        const int shard = c.coords(k)[1] + c.degree[1] * c.reduceIndex(k);
        held.push_back(std::int64_t{c.devices[static_cast<size_t>(k)]} * shards + shard);
    }
    std::sort(held.begin(), held.end());
    held.erase(std::unique(held.begin(), held.end()), held.end());
    for (const std::int64_t h : held) mem[static_cast<size_t>(h / shards)].weights += shard_bytes;
}

}  // namespace

MemoryReport deviceMemory(const Network& net, std::int64_t batch, const SoapStrategy& strategy,
                          const TaskGraph& graph, const Topology& topology, const SimOptions& options) {
    MemoryReport r;
    r.devices.resize(topology.devices.size());
    for (size_t d = 0; d < r.devices.size(); ++d) r.devices[d].capacity = topology.devices[d].mem_capacity_B;
    const double e = options.element_bytes;
    for (size_t i = 0; i < net.ops.size(); ++i) {
        const Operator& o = net.ops[i];
        const OpConfig& c = strategy.ops[i];
        addWeights(o, c, e, r.devices);
        const Extent extent = outputExtent(o, batch);
        for (int k = 0; k < c.parts(); ++k) {
            DeviceMemory& m = r.devices[static_cast<size_t>(c.devices[static_cast<size_t>(k)])];
            const double out = static_cast<double>(volume(outputBox(extent, c, k))) * e;
            // Training keeps every output until its backward task; inference needs one at a time.
            m.activations = options.training ? m.activations + out : std::max(m.activations, out);
        }
    }
    // In-flight: the largest message arriving at the device (a transfer or a sync step).
    for (size_t t = 0; t < graph.slotCount(); ++t) {
        const int task = static_cast<int>(t);
        if (!graph.alive(task)) continue;
        const TaskInfo& info = graph.info(task);
        if (!info.first_hop || info.to < 0) continue;
        double& b = r.devices[static_cast<size_t>(info.to)].buffers;
        b = std::max(b, info.bytes);
    }
    // A collective's largest transfer of a round arrives at each member it is sent to.
    for (size_t g = 0; g < graph.groupCount(); ++g)
        for (const CollectiveTraffic& c : graph.group(static_cast<int>(g)).collectives)
            for (const Transfer& t : *c.per_byte) {
                double& b = r.devices[static_cast<size_t>(t.to)].buffers;
                b = std::max(b, c.largest_transfer);
            }
    for (DeviceMemory& m : r.devices) {
        if (options.training) {
            m.gradients = m.weights;
            m.optimizer = m.weights * options.optimizer_states;
        }
        if (m.capacity > 0) r.checked = true;
        r.excess += m.overshoot();
    }
    r.fits = r.excess == 0;
    for (size_t d = 0; d < r.devices.size(); ++d) {
        const DeviceMemory& m = r.devices[d];
        const DeviceMemory* w = r.worst >= 0 ? &r.devices[static_cast<size_t>(r.worst)] : nullptr;
        if (!w || m.overshoot() > w->overshoot() || (m.overshoot() == w->overshoot() && m.total() > w->total()))
            r.worst = static_cast<int>(d);
    }
    return r;
}

std::string memoryText(double bytes) {
    // GB with one decimal (decimal units, as capacities are quoted), smaller sizes with their prefix.
    return bytes >= 1e9 ? withCommas(std::round(bytes / 1e8) / 10) + " GB" : withPrefix(bytes, "B");
}

std::string memoryLine(const MemoryReport& report, const Topology& topology, int device) {
    const DeviceMemory& m = report.devices.at(static_cast<size_t>(device));
    std::string s = "device " + topology.devices.at(static_cast<size_t>(device)).name + " needs " + memoryText(m.total());
    s += m.capacity > 0 ? " of " + memoryText(m.capacity) : " (capacity unknown)";
    s += " (weights " + memoryText(m.weights) + ", gradients " + memoryText(m.gradients) + ", optimizer " +
         memoryText(m.optimizer) + ", activations " + memoryText(m.activations) + ", buffers " +
         memoryText(m.buffers) + ")";
    return s;
}

std::string memoryNote(const MemoryReport& report, const Topology& topology) {
    if (report.fits || report.worst < 0) return "";
    const DeviceMemory& m = report.devices[static_cast<size_t>(report.worst)];
    size_t over = 0;
    for (const DeviceMemory& d : report.devices) over += d.overshoot() > 0 ? 1 : 0;
    return "device " + topology.devices[static_cast<size_t>(report.worst)].name + ": " + memoryText(m.total()) + " of " +
           memoryText(m.capacity) + " (" + std::to_string(over) + " of " + std::to_string(report.devices.size()) +
           (report.devices.size() == 1 ? " device" : " devices") + " over capacity)";
}

}  // namespace partita::sim
