// Regular networks of identical devices (docs/guide/machines.md#generating-a-topology).
#include <stdexcept>
#include <string>

#include "core/topology/generate.h"
#include "core/util/checked.h"
#include "core/util/error.h"

namespace partita::sim {

namespace {

std::vector<Dimension> dimensions(Dimension::Shape shape, const std::vector<std::int64_t>& dims, const LinkSpec& link) {
    if (!(link.bandwidth_Bps > 0) || !(link.latency_s >= 0) || link.bandwidth_Bps > 1e300 || link.latency_s > 1e300)
        throw std::invalid_argument("a link needs a positive bandwidth and a non-negative latency");
    std::vector<Dimension> out;
    for (size_t k = 0; k < dims.size(); ++k)
        out.push_back({shape, dims[k], link.bandwidth_Bps, link.latency_s, "dimension " + std::to_string(k + 1)});
    return out;
}

// The generators' errors name no file: InputError's source becomes "generate".
template <class F>
Topology asArgumentError(F f) {
    try {
        return f();
    } catch (const InputError& e) {
        throw std::invalid_argument(e.what());
    }
}

}  // namespace

Topology regularTopology(Dimension::Shape shape, const std::vector<std::int64_t>& dims, const LinkSpec& link,
                         const ComputeDevice& device, const std::string& name) {
    const auto d = dimensions(shape, dims, link);
    return asArgumentError([&] { return expandDimensions(d, device, name, "generate"); });
}

Topology meshTopology(const std::vector<std::int64_t>& dims, const LinkSpec& link, const ComputeDevice& device,
                      const std::string& name) {
    // Checks the sizes and builds the devices: a torus of the same sizes, whose links are replaced.
    Topology t = regularTopology(Dimension::Shape::Ring, dims, link, device, name);
    t.links.clear();
    const int devices = t.deviceCount();
    int stride = 1;
    for (const auto n : dims) {
        for (int v = 0; v < devices; ++v) {
            if ((v / stride) % n == n - 1) continue;  // last along this axis: no wrap-around
            const int w = v + stride;
            for (const auto& [a, b] : {std::pair{v, w}, std::pair{w, v}})
                t.links.push_back({"mesh " + t.vertexName(a) + "->" + t.vertexName(b), a, b, link.bandwidth_Bps,
                                   link.latency_s, "mesh"});
        }
        stride *= static_cast<int>(n);
    }
    t.finalize();
    return t;
}

}  // namespace partita::sim
