// Multi-dimensional networks as explicit graphs, the building blocks of ASTRA-sim's analytical
// network (docs/formats/topology-imports.md): dimension 0 is the innermost, as ASTRA-sim counts NPUs.
#include <stdexcept>
#include <string>

#include "core/topology/import.h"
#include "core/util/checked.h"
#include "core/util/error.h"

namespace partita::sim {

namespace {

void duplex(Topology& t, const std::string& kind, int a, int b, const Dimension& d) {
    t.links.push_back({kind + " " + t.vertexName(a) + "->" + t.vertexName(b), a, b, d.bandwidth_Bps, d.latency_s, kind});
    t.links.push_back({kind + " " + t.vertexName(b) + "->" + t.vertexName(a), b, a, d.bandwidth_Bps, d.latency_s, kind});
}

// Directed links one group of n devices needs.
std::int64_t groupLinks(const Dimension& d) {
    const std::int64_t n = d.count;
    if (n < 2) return 0;
    switch (d.shape) {
        case Dimension::Shape::Ring: return n == 2 ? 2 : checkedMul(2, n);
        case Dimension::Shape::FullyConnected: return checkedMul(n, n - 1);
        case Dimension::Shape::Switch: return checkedMul(2, n);
    }
    return 0;
}

const char* kindOf(Dimension::Shape s) {
    return s == Dimension::Shape::Ring ? "ring" : s == Dimension::Shape::FullyConnected ? "fully-connected" : "switch";
}

}  // namespace

ComputeDevice astraDefaultDevice() {
    // [A] An A100-SXM4-80GB-class NPU: 312 TFLOP/s fp16 tensor peak, 2039 GB/s HBM2e, 80 GiB.
    return {"", "npu", 312e12, 2039e9, 80.0 * 1024 * 1024 * 1024, 0.6, 0, 0};
}

Topology expandDimensions(const std::vector<Dimension>& dims, const ComputeDevice& device, const std::string& name,
                          const std::string& source) {
    if (dims.empty()) throw InputError(source, "", "expected at least one dimension");
    if (static_cast<std::int64_t>(dims.size()) > kImportDimensions)
        throw InputError(source, dims[kImportDimensions].place,
                         "more than " + std::to_string(kImportDimensions) + " dimensions");
    std::int64_t devices = 1;
    for (const auto& d : dims) {
        if (d.count < 1 || d.count > kImportDevices)
            throw InputError(source, d.place,
                             "the device count must be in 1.." + std::to_string(kImportDevices) + ", got " +
                                 std::to_string(d.count));
        try {
            devices = boundedMul(devices, d.count, kImportDevices, "the device count");
        } catch (const std::overflow_error& e) {
            throw InputError(source, d.place, e.what());
        }
    }
    std::int64_t links = 0;
    for (const auto& d : dims) {
        try {
            links = checkedAdd(links, checkedMul(devices / d.count, groupLinks(d)));
        } catch (const std::overflow_error& e) {
            throw InputError(source, d.place, e.what());
        }
        if (links > kImportLinks)
            throw InputError(source, d.place,
                             "the network needs " + std::to_string(links) + " or more links, over the limit of " +
                                 std::to_string(kImportLinks));
    }
    Topology t;
    t.name = name;
    const int n_devices = static_cast<int>(devices), inner = static_cast<int>(dims[0].count);
    for (int i = 0; i < n_devices; ++i) {
        ComputeDevice c = device;
        c.name = "npu" + std::to_string(i);
        c.node = i / inner;
        t.devices.push_back(c);
    }
    int stride = 1;
    for (size_t k = 0; k < dims.size(); ++k) {
        const Dimension& d = dims[k];
        const int n = static_cast<int>(d.count);
        const std::string kind = kindOf(d.shape);
        int group = 0;
        for (int base = 0; base < n_devices; ++base) {
            if (n < 2 || (base / stride) % n != 0) continue;  // one base per group: its coordinate k is 0
            const auto at = [&](int i) { return base + i * stride; };
            if (d.shape == Dimension::Shape::Ring) {
                for (int i = 0; i < (n == 2 ? 1 : n); ++i) duplex(t, kind, at(i), at((i + 1) % n), d);
            } else if (d.shape == Dimension::Shape::FullyConnected) {
                for (int i = 0; i < n; ++i)
                    for (int j = i + 1; j < n; ++j) duplex(t, kind, at(i), at(j), d);
            } else {
                t.switches.push_back("d" + std::to_string(k) + ".sw" + std::to_string(group));
                const int sw = t.vertexCount() - 1;
                for (int i = 0; i < n; ++i) duplex(t, kind, at(i), sw, d);
            }
            ++group;
        }
        stride *= n;
    }
    try {
        t.finalize();
    } catch (const std::invalid_argument& e) {  // not expected: the readers check every number
        throw InputError(source, "", e.what());
    }
    return t;
}

}  // namespace partita::sim
