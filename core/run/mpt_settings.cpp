#include "core/run/mpt_settings.h"

#include "core/io/network_io.h"
#include "core/util/error.h"

namespace partita {

bool isMptLayerStudy(const std::string& workload) { return workload == "layers" || workload == "layers-5x5"; }

std::vector<mpt::MptLayer> mptLayers(const MptSettings& s) {
    if (s.workload == "layers") return mpt::layerStudy(3);
    if (s.workload == "layers-5x5") return mpt::layerStudy(5);
    if (s.network_json.empty()) throw Error("MPT workload '" + s.workload + "': no network given");
    return mpt::layersFromNetwork(readNetworkJson(s.network_json, "MPT workload '" + s.workload + "'"));
}

mpt::ScenarioParams mptParams(const MptSettings& s) {
    mpt::ScenarioParams p;
    p.objective = s.objective;
    p.model.collective_passes = s.passes;
    p.model.worker.array_dim = s.array_dim;
    p.model.worker.vector_flops_per_cycle = s.vector_flops_per_cycle;
    return p;
}

mpt::Evaluation evaluateMpt(const MptSettings& s) {
    const std::vector<mpt::MptLayer> layers = mptLayers(s);
    if (!s.overrides.empty() && s.overrides.size() != layers.size())
        throw Error("MPT workload '" + s.workload + "': " + std::to_string(s.overrides.size()) +
                    " layer overrides for " + std::to_string(layers.size()) + " layers");
    return mpt::evaluate(layers, s.scenario, mptParams(s), s.overrides);
}

}  // namespace partita
