#include "app/cli/sim_memory_report.h"

#include "core/util/format.h"

namespace partita::cli {

int readOptimizerStates(const Options& a) {
    const std::string o = a.get("optimizer", "momentum");
    if (o == "sgd") return 0;
    if (o == "momentum") return 1;
    if (o == "adam") return 2;
    throw UsageError("--optimizer must be sgd, momentum or adam, got '" + o + "'");
}

void printMemory(std::ostream& out, const sim::MemoryReport& r, const sim::Topology& topology) {
    if (r.worst < 0) return;
    int over = 0;
    for (const auto& m : r.devices) over += m.overshoot() > 0 ? 1 : 0;
    if (!r.fits) {
        out << "Memory    does not fit: " << sim::memoryLine(r, topology, r.worst) << "; " << over << " of "
            << r.devices.size() << " devices over capacity\n";
        return;
    }
    out << "Memory    " << (r.checked ? "fits; largest: " : "not checked (no device capacity known); largest: ")
        << sim::memoryLine(r, topology, r.worst) << "\n";
}

nlohmann::json memoryJson(const sim::DeviceMemory& m) {
    return {{"weights_bytes", m.weights},         {"gradients_bytes", m.gradients}, {"optimizer_bytes", m.optimizer},
            {"activations_bytes", m.activations}, {"buffers_bytes", m.buffers},     {"total_bytes", m.total()},
            {"capacity_bytes", m.capacity}};
}

nlohmann::json memoryJson(const sim::MemoryReport& r, const sim::Topology& topology) {
    nlohmann::json j{{"checked", r.checked}, {"fits", r.fits}, {"excess_bytes", r.excess}};
    if (r.worst >= 0) {
        j["worst"] = topology.devices[static_cast<size_t>(r.worst)].name;
        j["worst_line"] = sim::memoryLine(r, topology, r.worst);
    }
    return j;
}

}  // namespace partita::cli
