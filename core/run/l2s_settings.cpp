#include "core/run/l2s_settings.h"

#include <algorithm>
#include <filesystem>
#include <stdexcept>

#include "core/io/network_io.h"
#include "core/util/enum_names.h"

namespace partita {

namespace {
constexpr EnumName<L2sScenario> kScenarioNames[] = {{L2sScenario::Baseline, "baseline"}, {L2sScenario::Ss, "ss"},
                                                {L2sScenario::SsMask, "ss_mask"}, {L2sScenario::Grouped, "grouped"}};
}  // namespace

const char* l2sScenarioName(L2sScenario s) { return enumName(kScenarioNames, s); }

L2sScenario parseL2sScenario(const std::string& name) {
    if (auto s = parseEnum(kScenarioNames, name)) return *s;
    throw std::invalid_argument("unknown L2S scenario '" + name + "' (baseline, ss, ss_mask, grouped)");
}

std::string l2sPresetKey(const std::string& key_or_path, const std::string& examples_dir) {
    if (!key_or_path.ends_with(".json")) return key_or_path;
    for (const l2s::Preset& p : l2s::presets()) {
        std::error_code ec;  // a missing file is simply not that preset
        if (std::filesystem::equivalent(key_or_path, examples_dir + "/networks/" + p.network_file, ec)) return p.key;
    }
    return key_or_path;
}

L2sSettings withL2sNetwork(L2sSettings s, const std::string& examples_dir) {
    s.preset = l2sPresetKey(s.preset, examples_dir);
    if (s.network_json.empty()) {
        const std::string path =
            s.preset.ends_with(".json") ? s.preset : examples_dir + "/networks/" + l2s::preset(s.preset).network_file;
        s.network_json = writeNetworkJson(loadNetwork(path));
    }
    return s;
}

l2s::Preset l2sPreset(const std::string& key, const LayerTable& layers) {
    if (key.ends_with(".json")) return {key, layers.network, key, {}, 0.5, "a network file"};
    return l2s::preset(key);
}

l2s::Preset l2sPreset(const L2sSettings& s, const LayerTable& layers) {
    l2s::Preset p = l2sPreset(s.preset, layers);
    if (!s.hop_keep.empty()) p.hop_keep = s.hop_keep;
    return p;
}

std::vector<double> l2sHopKeep(const L2sSettings& s) {
    if (!s.hop_keep.empty()) return s.hop_keep;
    return s.preset.ends_with(".json") ? l2s::Preset{}.hop_keep : l2s::preset(s.preset).hop_keep;
}

std::unique_ptr<l2s::Evaluator> l2sEvaluator(const L2sSettings& s) {
    LayerTable layers = weightedLayers(readNetworkJson(s.network_json, "L2S network '" + s.preset + "'"));
    l2s::MeshParams mesh;
    mesh.cores = s.cores;
    mesh.comm = s.comm;
    mesh.burst_rate = s.burst_rate;
    l2s::CoreParams core;
    core.compute = s.compute;
    return std::make_unique<l2s::Evaluator>(std::move(layers), l2s::Mesh(mesh), core);
}

l2s::StrategySpec l2sScenarioSpec(const l2s::Evaluator& ev, const l2s::Preset& p, L2sScenario s) {
    l2s::StrategySpec spec;
    switch (s) {
    case L2sScenario::Baseline: break;
    case L2sScenario::Ss:
        spec.scheme = l2s::Scheme::Sparse;
        spec.keep = l2s::ssKeep(p.ss_keep);
        break;
    case L2sScenario::SsMask:
        spec.scheme = l2s::Scheme::Sparse;
        spec.keep = l2s::ssMaskKeep(p.hop_keep);
        spec.exact = true;
        break;
    case L2sScenario::Grouped:
        // The paper's grouped layers, where they divide on this mesh (LeNet's 20/50 channels never do on 16).
        for (size_t l = 1; l < ev.layers().size(); ++l) {
            const std::string& name = ev.layers()[l].name;
            const bool listed = std::find(p.grouped.begin(), p.grouped.end(), name) != p.grouped.end();
            if (listed && l2s::groupingProblem(ev.layers(), l, ev.mesh().cores()).empty())
                spec.per_layer[name] = l2s::Scheme::Grouped;
        }
        break;
    }
    return spec;
}

l2s::LayerChoice l2sChoice(const l2s::Strategy& sparse, size_t layer, l2s::Scheme scheme) {
    if (scheme != l2s::Scheme::Sparse) return {scheme, {}};
    return layer < sparse.size() ? sparse[layer] : l2s::LayerChoice{l2s::Scheme::Sparse, {}};
}

L2sStrategies l2sStrategies(const l2s::Evaluator& ev, const l2s::Preset& p, L2sScenario s,
                            const std::vector<l2s::Scheme>& schemes) {
    L2sStrategies out;
    out.scenario = l2s::buildStrategy(ev.layers(), ev.mesh(), l2sScenarioSpec(ev, p, s));
    out.sparse = l2s::buildStrategy(ev.layers(), ev.mesh(),
                                    l2sScenarioSpec(ev, p, s == L2sScenario::Ss ? s : L2sScenario::SsMask));
    out.shown = out.scenario;
    if (schemes.empty()) return out;
    if (schemes.size() != out.shown.size())
        throw std::invalid_argument(std::to_string(schemes.size()) + " layer schemes for " +
                                    std::to_string(out.shown.size()) + " layers");
    for (size_t l = 0; l < schemes.size(); ++l)
        if (schemes[l] != out.shown[l].scheme) out.shown[l] = l2sChoice(out.sparse, l, schemes[l]);
    return out;
}

std::vector<l2s::Scheme> schemesOf(const l2s::Strategy& strategy) {
    std::vector<l2s::Scheme> out;
    for (const l2s::LayerChoice& c : strategy) out.push_back(c.scheme);
    return out;
}

L2sResult evaluateL2s(const L2sSettings& s) {
    const auto ev = l2sEvaluator(s);
    const l2s::Preset preset = l2sPreset(s, ev->layers());
    const L2sStrategies st = l2sStrategies(*ev, preset, s.scenario, s.schemes);
    return {ev->evaluate(st.shown), ev->evaluate(l2s::traditionalStrategy(ev->layers()))};
}

}  // namespace partita
