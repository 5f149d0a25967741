#include "core/study/studies.h"

#include <cmath>
#include <stdexcept>

namespace partita {

const MethodResult& Comparison::get(Method m) const {
    for (const auto& r : results)
        if (r.method == m) return r;
    throw std::logic_error("method missing from comparison");
}

double Comparison::perfVsDp(Method m) const {
    return ratioOf(get(Method::DataParallel).eval.time_step_s, get(m).eval.time_step_s);
}

double Comparison::energyVsDp(Method m) const {
    return ratioOf(get(Method::DataParallel).eval.energy_j, get(m).eval.energy_j);
}

double Comparison::torusPerfVsDp() const { return get(Method::DataParallel).eval.time_step_s / hypar_torus.time_step_s; }

Comparison compareMethods(const LayerTable& layers, const Array& array, const CostParams& params) {
    Comparison c;
    c.network = layers.network;
    for (Method m : kAllMethods) {
        Grid g = planFor(m, layers, array.levels, params);
        Evaluation e = evaluate(layers, array, g, params);
        c.results.push_back({m, std::move(g), std::move(e)});
    }
    Array torus = array;
    torus.topology = Topology::Torus;
    c.hypar_torus = evaluate(layers, torus, c.get(Method::HyPar).grid, params);
    return c;
}

std::vector<ScalePoint> scaleSweep(const LayerTable& layers, const Array& array, const CostParams& params,
                                   int max_levels) {
    std::vector<ScalePoint> points;
    Array one = array;
    one.levels = 0;
    const double t_one = computeTime(layers, one, params);
    for (int h = 0; h <= max_levels; ++h) {
        Array a = array;
        a.levels = h;
        const Evaluation dp = evaluate(layers, a, baselineGrid(Method::DataParallel, layers, h), params);
        const Evaluation hy = evaluate(layers, a, hyparSearch(layers, h, params), params);
        points.push_back({h, 1 << h, t_one / dp.time_step_s, t_one / hy.time_step_s, dp.totalGB(), hy.totalGB()});
    }
    return points;
}

double geometricMean(const std::vector<double>& values) {
    if (values.empty()) return 0;
    double log_sum = 0;
    for (double v : values) log_sum += std::log(v);
    return std::exp(log_sum / static_cast<double>(values.size()));
}

}  // namespace partita

namespace partita {

Assessment assess(const LayerTable& layers, const Array& array, const CostParams& params, const Grid& grid) {
    Assessment a;
    a.eval = evaluate(layers, array, grid, params);
    a.dp = evaluate(layers, array, baselineGrid(Method::DataParallel, layers, array.levels), params,
                    EvalDetail::Totals);
    a.mp = evaluate(layers, array, baselineGrid(Method::ModelParallel, layers, array.levels), params,
                    EvalDetail::Totals);
    a.owt = evaluate(layers, array, baselineGrid(Method::OneWeirdTrick, layers, array.levels), params,
                    EvalDetail::Totals);
    return a;
}

}  // namespace partita
