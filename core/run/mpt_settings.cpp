#include "core/run/mpt_settings.h"

#include <filesystem>

#include "core/io/network_io.h"
#include "core/util/error.h"

namespace partita {

bool isMptLayerStudy(const std::string& workload) { return workload == "layers" || workload == "layers-5x5"; }

const std::vector<MptWorkload>& mptWorkloads() {
    static const std::vector<MptWorkload> workloads = {{"layers", "Layer study, Table II (3×3)"},
                                                       {"layers-5x5", "Layer study, Table II (5×5)"},
                                                       {"wrn-40-10", "WRN-40-10 (CIFAR)"},
                                                       {"resnet-34", "ResNet-34 (ImageNet)"},
                                                       {"fractalnet-4x4", "FractalNet 4×4 (ImageNet)"}};
    return workloads;
}

std::string mptWorkloadKey(const std::string& key_or_path, const std::string& examples_dir) {
    if (!key_or_path.ends_with(".json")) return key_or_path;
    for (const MptWorkload& w : mptWorkloads()) {
        std::error_code ec;  // a missing file is simply not that workload
        if (std::filesystem::equivalent(key_or_path, examples_dir + "/networks/" + w.key + ".json", ec)) return w.key;
    }
    return key_or_path;
}

MptSettings withMptNetwork(MptSettings s, const std::string& examples_dir) {
    s.workload = mptWorkloadKey(s.workload, examples_dir);
    if (isMptLayerStudy(s.workload)) s.network_json.clear();
    else if (s.network_json.empty()) {
        const std::string path =
            s.workload.ends_with(".json") ? s.workload : examples_dir + "/networks/" + s.workload + ".json";
        s.network_json = writeNetworkJson(loadNetwork(path));
    }
    return s;
}

std::vector<mpt::MptLayer> mptLayers(const MptSettings& s) {
    if (s.workload == "layers") return mpt::layerStudy(3);
    if (s.workload == "layers-5x5") return mpt::layerStudy(5);
    if (s.network_json.empty()) throw Error("MPT workload '" + s.workload + "': no network given");
    return mpt::layersFromNetwork(readNetworkJson(s.network_json, "MPT workload '" + s.workload + "'"));
}

mpt::ScenarioParams mptParams(const MptSettings& s) {
    mpt::ScenarioParams p;
    mpt::applyOptions(s.model, isMptLayerStudy(s.workload), p);
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
