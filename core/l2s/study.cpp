#include "core/l2s/study.h"

#include <algorithm>
#include <sstream>
#include <stdexcept>

#include "core/util/format.h"

namespace partita::l2s {

std::vector<double> ssKeep(double p) { return {1, p}; }
std::vector<double> ssMaskKeep(const std::vector<double>& hop) {
    if (hop.size() != 3) throw std::invalid_argument("SS_Mask keep: expected 3 probabilities (1, 2, 3 hops)");
    return {1, hop[0], hop[1], hop[2], 0};
}

std::vector<double> parseHopKeep(const std::string& text) {
    std::vector<double> hop;
    std::stringstream ss(text);
    std::string item;
    const std::string expected = "hop keep '" + text + "': expected three probabilities in [0, 1], e.g. 1,0.53,0";
    while (std::getline(ss, item, ',')) {
        size_t used = 0;
        double p = -1;
        try {
            p = std::stod(item, &used);
        } catch (const std::exception&) {
            throw std::invalid_argument(expected);
        }
        if (used != item.size() || !(p >= 0 && p <= 1)) throw std::invalid_argument(expected);
        hop.push_back(p);
    }
    if (hop.size() != 3) throw std::invalid_argument(expected);
    return hop;
}

std::string hopKeepText(const std::vector<double>& hop) {
    std::string s;
    for (double p : hop) s += (s.empty() ? "" : ",") + formatNumber(p);
    return s;
}

namespace {
int layerIndex(const LayerTable& layers, const std::string& name) {
    for (size_t l = 0; l < layers.size(); ++l)
        if (layers[l].name == name) return static_cast<int>(l);
    std::string known;
    for (const auto& w : layers.layers) known += (known.empty() ? "" : ", ") + w.name;
    throw std::invalid_argument("unknown layer '" + name + "' (layers: " + known + ")");
}
// A distinct stream per layer, so one layer's mask does not depend on the others.
std::uint64_t layerSeed(std::uint64_t seed, size_t l) { return seed ^ (0x9E3779B97F4A7C15ull * (l + 1)); }
}  // namespace

Strategy buildStrategy(const LayerTable& layers, const Mesh& mesh, const StrategySpec& spec) {
    const int n = mesh.cores();
    std::vector<Scheme> scheme(layers.size(), Scheme::Traditional);
    std::vector<bool> explicit_choice(layers.size(), false);
    for (size_t l = 1; l < layers.size(); ++l)
        if (spec.scheme != Scheme::Grouped || groupingProblem(layers, l, n).empty()) scheme[l] = spec.scheme;
    for (const auto& [name, mask] : spec.masks) {
        const auto l = static_cast<size_t>(layerIndex(layers, name));
        bool ok = mask.size() == static_cast<size_t>(n);
        for (const auto& row : mask) ok = ok && row.size() == static_cast<size_t>(n);
        if (!ok) throw std::invalid_argument("mask of layer " + name + " is not " + std::to_string(n) + " x " + std::to_string(n));
        scheme[l] = Scheme::Sparse;
    }
    for (const auto& [name, s] : spec.per_layer) {
        const auto l = static_cast<size_t>(layerIndex(layers, name));
        scheme[l] = s;
        explicit_choice[l] = true;
    }
    const Matrix d = mesh.distanceMatrix();
    Strategy strategy(layers.size());
    for (size_t l = 0; l < layers.size(); ++l) {
        strategy[l].scheme = scheme[l];
        if (l == 0 && scheme[l] != Scheme::Traditional)
            throw std::invalid_argument("layer " + layers[l].name + " reads the input image; only traditional applies");
        if (scheme[l] == Scheme::Grouped && explicit_choice[l]) {
            const std::string why = groupingProblem(layers, l, n);
            if (!why.empty()) throw std::invalid_argument("layer " + layers[l].name + " cannot be grouped: " + why);
        }
        if (scheme[l] != Scheme::Sparse) continue;
        const auto it = spec.masks.find(layers[l].name);
        strategy[l].nz = it != spec.masks.end() ? it->second
                                                : spec.exact ? exactMask(d, spec.keep, layerSeed(spec.seed, l))
                                                             : whatIfMask(d, spec.keep, layerSeed(spec.seed, l));
    }
    return strategy;
}

std::map<std::string, Scheme> parsePerLayer(const std::string& text) {
    std::map<std::string, Scheme> out;
    std::stringstream ss(text);
    std::string item;
    while (std::getline(ss, item, ',')) {
        const auto eq = item.find('=');
        if (eq == std::string::npos || eq == 0)
            throw std::invalid_argument("per-layer strategy '" + item + "': expected LAYER=traditional|grouped|sparse");
        if (!out.emplace(item.substr(0, eq), parseScheme(item.substr(eq + 1))).second)
            throw std::invalid_argument("per-layer strategy: layer '" + item.substr(0, eq) + "' given twice");
    }
    if (out.empty()) throw std::invalid_argument("per-layer strategy: empty list");
    return out;
}

std::vector<GroupingAdvice> groupingAdvice(const Evaluator& ev) {
    std::vector<GroupingAdvice> out;
    const int n = ev.mesh().cores();
    for (size_t l = 1; l < ev.layers().size(); ++l) {
        GroupingAdvice a;
        a.layer = l;
        a.name = ev.layers()[l].name;
        a.traditional_B = ev.allGatherBytes(l);
        a.problem = groupingProblem(ev.layers(), l, n);
        a.mac_fraction = a.problem.empty() ? 1.0 / n : 1.0;
        out.push_back(a);
    }
    std::stable_sort(out.begin(), out.end(),
                     [](const GroupingAdvice& a, const GroupingAdvice& b) { return a.traditional_B > b.traditional_B; });
    return out;
}

std::vector<std::string> topGroupable(const Evaluator& ev, size_t k) {
    std::vector<std::string> names;
    for (const GroupingAdvice& a : groupingAdvice(ev))
        if (a.problem.empty() && names.size() < k) names.push_back(a.name);
    return names;
}

std::vector<SweepPoint> coreSweep(const LayerTable& layers, const std::vector<int>& core_counts,
                                  const StrategySpec& spec, const MeshParams& mesh_params, const CoreParams& core) {
    std::vector<SweepPoint> points;
    for (int n : core_counts) {
        MeshParams mp = mesh_params;
        mp.cores = n;
        mp.width = mp.height = 0;
        const Evaluator ev(layers, Mesh(mp), core);
        SweepPoint p;
        p.cores = n;
        p.mesh = std::to_string(ev.mesh().width()) + "x" + std::to_string(ev.mesh().height());
        p.baseline = ev.evaluate(traditionalStrategy(layers));
        p.variant = ev.evaluate(buildStrategy(layers, ev.mesh(), spec));
        p.vs = versus(p.baseline, p.variant);
        points.push_back(std::move(p));
    }
    return points;
}

}  // namespace partita::l2s
