#include "core/llm/calibrate.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/util/format.h"

namespace partita::llm {

namespace {

void scaleCurve(Curve& c, double f) {
    for (auto& p : c.points) p[1] = std::clamp(p[1] * f, 1e-4, 1.0);
}

double topEfficiency(const Curve& c) {
    double best = 0;
    for (const auto& p : c.points) best = std::max(best, p[1]);
    return best;
}

struct Sample {
    const Run* run;
    Plan plan;
    double measured;
};

constexpr double kPrior = 1e-3;  // weight of the ridge term, per squared log multiplier
// The overhead's search coordinate is its value in units of this many milliseconds per layer.
constexpr double kOverheadUnitMs = 10;

}  // namespace

const std::vector<std::string>& calibrationParameterNames() {
    static const std::vector<std::string> names = {"matrix", "memory", "tier0", "tier1", "overhead"};
    return names;
}

Profile scaledProfile(const Profile& base, const std::vector<double>& f) {
    Profile p = base;
    for (auto& u : p.device.matrix) scaleCurve(u.efficiency, f.at(0));
    for (auto& u : p.device.vector) scaleCurve(u.efficiency, f.at(1));
    scaleCurve(p.device.hbm_efficiency, f.at(1));
    if (!p.tiers.empty()) p.tiers[0].efficiency = std::clamp(p.tiers[0].efficiency * f.at(2), 1e-4, 1.0);
    if (p.tiers.size() > 1) p.tiers[1].efficiency = std::clamp(p.tiers[1].efficiency * f.at(3), 1e-4, 1.0);
    if (f.size() > 4) p.device.layer_overhead_s = std::max(0.0, base.device.layer_overhead_s + f[4] * 1e-3);
    return p;
}

CalibrationResult calibrate(const std::vector<Run>& runs, const Profile& base, const std::string& fit_set,
                            ModelKind kind, const std::vector<std::string>& fit) {
    const std::vector<std::string>& names = calibrationParameterNames();
    const int n = static_cast<int>(names.size());
    std::vector<bool> asked(static_cast<size_t>(n), fit.empty());
    // By default the efficiencies only (docs/methods/llm.md#calibrating-on-your-own-runs).
    if (fit.empty()) asked[4] = false;
    for (const std::string& name : fit) {
        const auto it = std::find(names.begin(), names.end(), name);
        if (it == names.end())
            throw std::invalid_argument("unknown parameter '" + name + "' (matrix, memory, tier0, tier1 or overhead)");
        asked[static_cast<size_t>(it - names.begin())] = true;
    }
    // The runs the fit can use: a measured time and a plan the model accepts.
    std::vector<Sample> samples;
    for (const auto& r : runs) {
        const auto measured = measuredIterationSeconds(r);
        if (!measured) continue;
        const RunPrediction pr = predictRun(r, &base, kind);
        if (!pr.error.empty()) continue;
        samples.push_back({&r, runPlan(r), *measured});
    }
    if (samples.empty()) throw std::invalid_argument("no run has a measured time the model can predict");

    auto errors = [&](const std::vector<double>& f, double& sq, double& ape) {
        const Profile p = scaledProfile(base, f);
        sq = 0, ape = 0;
        for (const auto& s : samples) {
            const Profile rp = applyOverrides(p, s.run->cluster);
            const double t = evaluate(s.run->model, s.plan, rp, kind).iteration_s;
            const double e = std::log(t / s.measured);
            sq += e * e;
            ape += std::abs(t / s.measured - 1);
        }
        ape = 100 * ape / static_cast<double>(samples.size());
    };
    std::vector<double> one(static_cast<size_t>(n), 1.0);
    one[4] = 0;  // the overhead is added
    double sq0 = 0, ape0 = 0;
    errors(one, sq0, ape0);
    // Which parameters matter: one not asked for, or that no run is sensitive to, stays as it is.
    std::vector<bool> active(static_cast<size_t>(n), false);
    for (int i = 0; i < n; ++i) {
        if (!asked[static_cast<size_t>(i)]) continue;
        std::vector<double> f = one;
        f[static_cast<size_t>(i)] = i == 4 ? 1.0 : 0.9;
        double sq = 0, ape = 0;
        errors(f, sq, ape);
        active[static_cast<size_t>(i)] = std::abs(sq - sq0) > 1e-12 * std::max(1.0, sq0);
    }
    std::vector<int> idx;
    for (int i = 0; i < n; ++i)
        if (active[static_cast<size_t>(i)]) idx.push_back(i);
    // Nelder-Mead in log-multiplier space over the active parameters.
    auto factors = [&](const std::vector<double>& x) {
        std::vector<double> f = one;
        for (size_t k = 0; k < idx.size(); ++k)
            f[static_cast<size_t>(idx[k])] = idx[k] == 4 ? std::clamp(x[k], -100.0, 100.0) * kOverheadUnitMs
                                                         : std::exp(std::clamp(x[k], -2.0, 2.0));
        return f;
    };
    // A small pull towards the input profile (ridge on the log multipliers) picks, among fits
    // that explain the runs equally well, the one that changes the profile least: a few runs
    // rarely pin every parameter.
    auto cost = [&](const std::vector<double>& x) {
        double sq = 0, ape = 0;
        errors(factors(x), sq, ape);
        double prior = 0;
        for (double v : x) prior += v * v;
        return sq + kPrior * prior;
    };
    const size_t k = idx.size();
    std::vector<double> best_x(k, 0.0);
    if (k > 0) {
        std::vector<std::vector<double>> simplex(k + 1, std::vector<double>(k, 0.0));
        for (size_t i = 0; i < k; ++i) simplex[i + 1][i] = 0.2;
        std::vector<double> val(k + 1);
        for (size_t i = 0; i <= k; ++i) val[i] = cost(simplex[i]);
        for (int iter = 0; iter < 400; ++iter) {
            std::vector<size_t> order(k + 1);
            std::iota(order.begin(), order.end(), 0);
            std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return val[a] < val[b]; });
            if (val[order[k]] - val[order[0]] < 1e-12 * std::max(1e-12, val[order[0]]) && iter > 20) break;
            std::vector<double> centroid(k, 0.0);
            for (size_t i = 0; i < k; ++i)
                for (size_t j = 0; j < k; ++j) centroid[j] += simplex[order[i]][j] / static_cast<double>(k);
            auto along = [&](double t) {
                std::vector<double> x(k);
                for (size_t j = 0; j < k; ++j) x[j] = centroid[j] + t * (simplex[order[k]][j] - centroid[j]);
                return x;
            };
            const auto xr = along(-1);
            const double fr = cost(xr);
            if (fr < val[order[0]]) {
                const auto xe = along(-2);
                const double fe = cost(xe);
                if (fe < fr) simplex[order[k]] = xe, val[order[k]] = fe;
                else simplex[order[k]] = xr, val[order[k]] = fr;
            } else if (fr < val[order[k - 1]]) {
                simplex[order[k]] = xr, val[order[k]] = fr;
            } else {
                const auto xc = along(0.5);
                const double fc = cost(xc);
                if (fc < val[order[k]]) {
                    simplex[order[k]] = xc, val[order[k]] = fc;
                } else {
                    for (size_t i = 1; i <= k; ++i) {
                        for (size_t j = 0; j < k; ++j)
                            simplex[order[i]][j] = simplex[order[0]][j] + 0.5 * (simplex[order[i]][j] - simplex[order[0]][j]);
                        val[order[i]] = cost(simplex[order[i]]);
                    }
                }
            }
        }
        size_t bi = 0;
        for (size_t i = 1; i <= k; ++i)
            if (val[i] < val[bi]) bi = i;
        best_x = simplex[bi];
    }
    const std::vector<double> f = factors(best_x);
    CalibrationResult res;
    res.profile = scaledProfile(base, f);
    res.runs_used = static_cast<int>(samples.size());
    double sq1 = 0, ape1 = 0;
    errors(f, sq1, ape1);
    res.mape_before = ape0;
    res.mape_after = ape1;
    res.rms_log_before = std::sqrt(sq0 / static_cast<double>(samples.size()));
    res.rms_log_after = std::sqrt(sq1 / static_cast<double>(samples.size()));
    const Profile& p = res.profile;
    const char* whats[] = {"GEMM efficiency curves", "element-wise and HBM efficiency curves",
                           "tier 0 bandwidth efficiency", "tier 1 bandwidth efficiency",
                           "framework time per layer per micro-batch (ms)"};
    for (int i = 0; i < n; ++i) {
        FittedParameter fp;
        fp.name = names[static_cast<size_t>(i)];
        fp.what = whats[i];
        fp.factor = f[static_cast<size_t>(i)];
        fp.asked = asked[static_cast<size_t>(i)];
        fp.fitted = active[static_cast<size_t>(i)];
        if (i == 0 && !p.device.matrix.empty()) fp.value = topEfficiency(p.device.matrix.front().efficiency);
        if (i == 1) fp.value = topEfficiency(p.device.hbm_efficiency);
        if (i == 2 && !p.tiers.empty()) fp.value = p.tiers[0].efficiency;
        if (i == 3 && p.tiers.size() > 1) fp.value = p.tiers[1].efficiency;
        if (i == 4) fp.value = p.device.layer_overhead_s * 1e3;
        res.parameters.push_back(fp);
    }
    std::string summary;
    for (const auto& fp : res.parameters)
        if (fp.fitted)
            summary += (summary.empty() ? "" : ", ") + fp.name +
                       (fp.name == "overhead" ? " " + fixed(fp.value, 2) + " ms" : " x" + fixed(fp.factor, 4));
    res.profile.provenance = base.provenance + "; calibrated by partita-cli llm calibrate on " + fit_set + " (" +
                             std::to_string(res.runs_used) + " runs; " + (summary.empty() ? "nothing fitted" : summary) +
                             "; MAPE " + fixed(ape0, 1) + " % -> " + fixed(ape1, 1) + " %)";
    return res;
}

}  // namespace partita::llm
