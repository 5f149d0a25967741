#include "core/mpt/scenario.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>

#include "core/util/enum_names.h"
#include "core/util/format.h"

namespace partita::mpt {

namespace {

constexpr EnumName<Scenario> kScenarios[] = {{Scenario::DDp, "d_dp"},      {Scenario::WDp, "w_dp"},
                                             {Scenario::WMp, "w_mp"},      {Scenario::WMpPlus, "w_mp+"},
                                             {Scenario::WMpStar, "w_mp*"}, {Scenario::WMpPlusStar, "w_mp+*"}};
constexpr EnumName<Objective> kObjectives[] = {
    {Objective::CommVolume, "comm_volume"}, {Objective::CommTime, "comm_time"}, {Objective::TotalTime, "total_time"}};

bool isMpt(Scenario s) { return s != Scenario::DDp && s != Scenario::WDp; }
bool reduces(Scenario s) { return s == Scenario::WMpPlus || s == Scenario::WMpPlusStar; }
bool dynamic(Scenario s) { return s == Scenario::WMpStar || s == Scenario::WMpPlusStar; }

GridConfig fixedGrid(int p) {
    int g = 1;
    for (int d = 1; d * d <= p; ++d)
        if (p % d == 0) g = d;
    return {g, p / g};
}

struct Core {
    std::vector<LayerResult> layers;
    Totals totals;
};

Core evaluateCore(const std::vector<MptLayer>& layers, Scenario s, const ScenarioParams& sp,
                  const std::vector<std::optional<GridConfig>>& overrides) {
    checkLayers(layers);
    checkParams(sp.model);
    if (!overrides.empty() && overrides.size() != layers.size())
        throw std::invalid_argument("overrides: expected one entry per layer (" + std::to_string(layers.size()) +
                                    "), got " + std::to_string(overrides.size()));
    const MptParams& mp = sp.model;
    std::vector<GridConfig> grids = allowedConfigs(mp.p, sp.configs);
    const GridConfig fixed = fixedGrid(mp.p);
    if (std::find(grids.begin(), grids.end(), fixed) == grids.end()) grids.push_back(fixed);
    std::sort(grids.begin(), grids.end(), [](const GridConfig& a, const GridConfig& b) { return a.n_g < b.n_g; });
    std::map<int, double> bw;  // cluster bandwidth per N_g, derived once
    Core out;
    for (size_t i = 0; i < layers.size(); ++i) {
        const MptLayer& l = layers[i];
        const std::optional<GridConfig> forced = overrides.empty() ? std::nullopt : overrides[i];
        LayerResult r;
        r.name = l.name;
        if (forced && !(isMpt(s) && l.winograd))
            throw std::invalid_argument("layer '" + l.name + "': a grid override needs a Winograd layer and an MPT scenario");
        if (!l.winograd || s == Scenario::DDp) {
            r.cost = dataParallelCost(l, false, {}, mp);
        } else if (s == Scenario::WDp) {
            r.cost = dataParallelCost(l, true, transformFor({1, mp.p}, l.kernel, sp.transform), mp);
        } else {
            r.mpt = true;
            auto costOf = [&](const GridConfig& g) {
                const WinogradSize f = transformFor(g, l.kernel, sp.transform);
                if (!bw.count(g.n_g)) bw[g.n_g] = g.n_g > 1 ? clusterBandwidth(g.n_g, mp.network) : 0;
                return mptCost(l, g, f, reduces(s), mp, bw[g.n_g]);
            };
            for (const GridConfig& g : grids)
                if (g.n_g <= transformFor(g, l.kernel, sp.transform).tileElements()) r.options.push_back(costOf(g));
            if (forced) {
                auto it = std::find_if(r.options.begin(), r.options.end(), [&](const LayerCost& c) { return c.grid == *forced; });
                if (it == r.options.end()) {
                    r.options.push_back(costOf(*forced));  // throws naming the layer when invalid
                    it = r.options.end() - 1;
                }
                r.chosen = static_cast<int>(it - r.options.begin());
                r.overridden = true;
            } else if (dynamic(s)) {
                // Ascending N_g and a strict comparison: ties go to the smaller N_g.
                for (size_t k = 0; k < r.options.size(); ++k)
                    if (r.chosen < 0 || objectiveValue(r.options[k], sp.objective, mp.bytes_per_element) <
                                            objectiveValue(r.options[r.chosen], sp.objective, mp.bytes_per_element))
                        r.chosen = static_cast<int>(k);
            } else {
                for (size_t k = 0; k < r.options.size(); ++k)
                    if (r.options[k].grid == fixed) r.chosen = static_cast<int>(k);
                if (r.chosen < 0) r.chosen = 0;  // the fixed grid exceeds T^2: fall back to the smallest valid
            }
            r.cost = r.options.at(static_cast<size_t>(r.chosen));
        }
        out.totals.compute_s += r.cost.compute_s;
        out.totals.weight_comm_s += r.cost.weight_comm_s;
        out.totals.tile_comm_s += r.cost.tile_comm_s;
        out.totals.total_s += r.cost.total_s;
        out.totals.comm_bytes += r.cost.commBytes(mp.bytes_per_element);
        out.totals.energy.compute_J += r.cost.energy.compute_J;
        out.totals.energy.sram_J += r.cost.energy.sram_J;
        out.totals.energy.dram_J += r.cost.energy.dram_J;
        out.totals.energy.link_J += r.cost.energy.link_J;
        out.layers.push_back(std::move(r));
    }
    return out;
}

Core oneWorkerCore(const std::vector<MptLayer>& layers, const ScenarioParams& sp) {
    ScenarioParams one = sp;
    one.model.p = 1;
    return evaluateCore(layers, Scenario::WDp, one, {});
}
double oneWorker(const std::vector<MptLayer>& layers, const ScenarioParams& sp) {
    return oneWorkerCore(layers, sp).totals.total_s;
}

std::vector<double> layerTimes(const Core& c) {
    std::vector<double> t;
    for (const LayerResult& r : c.layers) t.push_back(r.cost.total_s);
    return t;
}

Averages layerAverages(const std::vector<double>& base, const std::vector<LayerResult>& layers) {
    std::vector<std::pair<double, double>> pairs;
    for (size_t i = 0; i < layers.size() && i < base.size(); ++i) pairs.push_back({base[i], layers[i].cost.total_s});
    return averages(pairs);
}

}  // namespace

const char* scenarioName(Scenario s) { return enumName(kScenarios, s); }

Scenario parseScenario(const std::string& name) {
    if (auto s = parseEnum(kScenarios, name)) return *s;
    throw std::invalid_argument("unknown scenario '" + name + "' (use d_dp, w_dp, w_mp, w_mp+, w_mp* or w_mp+*)");
}

std::vector<Scenario> allScenarios() {
    std::vector<Scenario> out;
    for (const auto& row : kScenarios) out.push_back(row.value);
    return out;
}

const char* objectiveName(Objective o) { return enumName(kObjectives, o); }

Objective parseObjective(const std::string& name) {
    if (auto o = parseEnum(kObjectives, name)) return *o;
    throw std::invalid_argument("unknown objective '" + name + "' (use comm_volume, comm_time or total_time)");
}

std::vector<GridConfig> allowedConfigs(int p, ConfigSet set) {
    return set == ConfigSet::Paper ? paperConfigs(p) : divisorConfigs(p);
}

double objectiveValue(const LayerCost& c, Objective o, double bytes_per_element) {
    switch (o) {
        case Objective::CommVolume: return c.commBytes(bytes_per_element);
        case Objective::CommTime: return c.commTime();
        case Objective::TotalTime: return c.total_s;
    }
    return c.total_s;
}

WinogradSize transformFor(const GridConfig& g, int r, TransformRule rule) {
    if (rule == TransformRule::PaperFormula || g.n_g > 1) return multiGroupTransform(r);
    return singleGroupTransform(r);
}

Evaluation evaluate(const std::vector<MptLayer>& layers, Scenario s, const ScenarioParams& params,
                    const std::vector<std::optional<GridConfig>>& overrides) {
    Core core = evaluateCore(layers, s, params, overrides);
    Evaluation e;
    e.scenario = s;
    e.layers = std::move(core.layers);
    e.totals = core.totals;
    if (s == Scenario::WDp) {
        e.w_dp_s = e.totals.total_s;
        for (const LayerResult& r : e.layers) e.w_dp_layer_s.push_back(r.cost.total_s);
    } else {
        const Core dp = evaluateCore(layers, Scenario::WDp, params, {});
        e.w_dp_s = dp.totals.total_s;
        e.w_dp_layer_s = layerTimes(dp);
    }
    const Core one = oneWorkerCore(layers, params);
    e.one_worker_s = one.totals.total_s;
    e.one_worker_layer_s = layerTimes(one);
    return e;
}

Averages averages(const std::vector<std::pair<double, double>>& base_and_time) {
    Averages a;
    if (base_and_time.empty()) return a;
    double base = 0, time = 0, log_sum = 0, sum = 0;
    for (const auto& [b, t] : base_and_time) {
        base += b;
        time += t;
        log_sum += std::log(b / t);
        sum += b / t;
    }
    const double n = static_cast<double>(base_and_time.size());
    a.total = base / time;
    a.geomean = std::exp(log_sum / n);
    a.mean = sum / n;
    return a;
}

Averages Evaluation::vsWdp() const { return layerAverages(w_dp_layer_s, layers); }
Averages Evaluation::vsOne() const { return layerAverages(one_worker_layer_s, layers); }

std::vector<SweepRow> sweep(const std::vector<MptLayer>& layers, const ScenarioParams& params, bool reduction,
                            const std::vector<int>& ps) {
    const double one = oneWorker(layers, params);
    std::vector<SweepRow> rows;
    for (int p : ps) {
        ScenarioParams sp = params;
        sp.model.p = p;
        SweepRow row;
        row.p = p;
        row.fixed = fixedGrid(p);
        const Totals dp = evaluateCore(layers, Scenario::WDp, sp, {}).totals;
        const Totals fx = evaluateCore(layers, reduction ? Scenario::WMpPlus : Scenario::WMp, sp, {}).totals;
        const Totals dy = evaluateCore(layers, reduction ? Scenario::WMpPlusStar : Scenario::WMpStar, sp, {}).totals;
        row.w_dp_bytes = dp.comm_bytes;
        row.fixed_bytes = fx.comm_bytes;
        row.dynamic_bytes = dy.comm_bytes;
        row.w_dp_speedup = one / dp.total_s;
        row.fixed_speedup = one / fx.total_s;
        row.dynamic_speedup = one / dy.total_s;
        rows.push_back(row);
    }
    return rows;
}

const std::vector<PaperNumber>& paperNumbers() {
    static const std::vector<PaperNumber> numbers = {
        {"layers_wmp+*", "w_mp+* speedup, average of the 5 Table II layers (3x3)", 2.74, "x", "w_dp, p = 256"},
        {"layers_wmp+*_5x5", "w_mp+* speedup, 5x5 weights, F(2x2,5x5)", 3.03, "x", "w_dp, p = 256"},
        {"layers_wmp+_mid", "w_mp+ forward+backward time cut, Mid layers", 2.24, "x", "w_dp, p = 256"},
        {"layers_wmp+_late", "w_mp+ forward+backward time cut, Late layers", 4.54, "x", "w_dp, p = 256"},
        {"net_wmp*", "w_mp* speedup, whole networks", 2.2, "x", "w_dp, 256 workers, batch 256"},
        {"net_wmp+", "w_mp+ speedup, whole networks", 1.4, "x", "w_dp, 256 workers, batch 256"},
        {"net_wmp+*", "w_mp+* speedup, whole networks", 2.7, "x", "w_dp, 256 workers, batch 256"},
        {"net_wdp_vs_one", "256-worker w_dp speedup", 71, "x", "1 NDP worker"},
        {"net_wmp+*_vs_one", "256-worker w_mp+* speedup", 191, "x", "1 NDP worker"},
        {"dgx1", "speedup over 8 x V100 (abstract: 21x)", 21.6, "x", "DGX-1, fixed batch 256"},
        {"perf_per_watt", "performance per watt", 9.5, "x", "DGX-1 at its best batch (2K-4K)"},
        {"clustering_comm", "communication saving of dynamic clustering", 1.4, "x", "fixed (16,16), p = 256"},
        {"energy_late", "energy saving, late layers (backward)", 3.0, "x", "w_dp"},
        {"gather_2d", "tile gather cut by 2D prediction (6-bit, N_g = 16)", 34.0, "%", "no prediction"},
        {"gather_1d", "tile gather cut by 1D prediction (5-bit, N_g = 4)", 78.1, "%", "no prediction"},
        {"scatter_2d", "tile scatter cut by zero-skip (N_g = 16)", 39.3, "%", "no zero-skip"},
        {"scatter_1d", "tile scatter cut by zero-skip (N_g = 4)", 64.7, "%", "no zero-skip"},
    };
    return numbers;
}

std::string paperFigure(Scenario s, bool layer_study, bool five_by_five) {
    auto x = [](const std::string& id) {
        for (const PaperNumber& n : paperNumbers())
            if (n.id == id) return formatNumber(n.value) + n.unit;
        throw std::logic_error("no paper number '" + id + "'");
    };
    if (layer_study) {
        if (s == Scenario::WMpPlusStar)
            return five_by_five ? x("layers_wmp+*_5x5") + " vs w_dp (5 layers, 5x5)"
                                : x("layers_wmp+*") + " vs w_dp (5-layer avg)";
        if (s == Scenario::WMpPlus && !five_by_five)
            return x("layers_wmp+_mid") + " Mid / " + x("layers_wmp+_late") + " Late vs w_dp";
        return "";
    }
    switch (s) {
        case Scenario::WDp: return x("net_wdp_vs_one") + " vs 1 worker";
        case Scenario::WMpPlus: return x("net_wmp+") + " vs w_dp (network avg)";
        case Scenario::WMpStar: return x("net_wmp*") + " vs w_dp (network avg)";
        case Scenario::WMpPlusStar: return x("net_wmp+*") + " vs w_dp; " + x("net_wmp+*_vs_one") + " vs 1 worker";
        default: return "";
    }
}

}  // namespace partita::mpt
