#include "core/study/plots.h"

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "core/accpar/accpar.h"
#include "core/run/run.h"
#include "core/search/methods.h"
#include "core/study/studies.h"
#include "core/util/error.h"

namespace partita {

namespace {

void report(const ProgressFn& progress, double done, double total) {
    if (progress) progress(total > 0 ? done / total : 1.0);
}

// AccPar's one-accelerator step time: every layer's 6 FLOP per MAC on one device
// (the leaf time of docs/methods/accpar.md#step-time), the same formula as HyPar's T_comp.
double accparOneTime(const LayerTable& layers, const Array& array, const AccParParams& accpar) {
    Array one = array;
    one.levels = 0;
    CostParams p;
    p.batch = accpar.batch;
    return computeTime(layers, one, p);
}

}  // namespace

ScaleStudy scaleStudy(const LayerTable& layers, const Array& array, const CostParams& params,
                      const AccParParams& accpar, int max_levels, const ProgressFn& progress,
                      const CancelFn& cancel) {
    ScaleStudy s;
    s.network = layers.network;
    s.batch = params.batch;
    throwIfCancelled(cancel);
    // HyPar's sweep is cheap next to AccPar's ratio search; count it as one step.
    const double steps = 1.0 + max_levels;
    const auto sweep = scaleSweep(layers, array, params, max_levels);
    report(progress, 1, steps);
    const double t_one = accparOneTime(layers, array, accpar);
    for (const ScalePoint& p : sweep) {
        ScaleRow r;
        r.levels = p.levels;
        r.accelerators = p.accelerators;
        r.dp_gain = p.dp_gain;
        r.hypar_gain = p.hypar_gain;
        r.dp_total_gb = p.dp_total_gb;
        r.hypar_total_gb = p.hypar_total_gb;
        if (p.levels > 0) {  // AccPar needs a split; one accelerator is its own baseline
            throwIfCancelled(cancel);
            Array a = array;
            a.levels = p.levels;
            const AccParResult res = runAccPar(layers, a, accpar);
            r.accpar_gain = t_one / res.accpar.step_time_s;
            r.accpar_total_gb = accparEvaluation(res.accpar, accpar.bytes_per_element).totalGB();
            report(progress, 1 + p.levels, steps);
        }
        s.rows.push_back(r);
    }
    return s;
}

TopologyStudy topologyStudy(const std::vector<LayerTable>& networks, const Array& array, const CostParams& params,
                            const ProgressFn& progress, const CancelFn& cancel) {
    TopologyStudy s;
    s.levels = array.levels;
    Array htree = array, torus = array;
    htree.topology = Topology::HTree;
    torus.topology = Topology::Torus;
    std::vector<double> hh, ht, dt;
    for (size_t i = 0; i < networks.size(); ++i) {
        throwIfCancelled(cancel);
        const LayerTable& layers = networks[i];
        // One partition per network, priced on both topologies (docs/methods/hypar.md#h-tree-against-torus).
        const Grid hypar = hyparSearch(layers, array.levels, params);
        const Grid dp = baselineGrid(Method::DataParallel, layers, array.levels);
        const double t_dp = evaluate(layers, htree, dp, params).time_step_s;
        TopologyRow r;
        r.network = layers.network;
        r.hypar_htree = t_dp / evaluate(layers, htree, hypar, params).time_step_s;
        r.hypar_torus = t_dp / evaluate(layers, torus, hypar, params).time_step_s;
        r.dp_torus = t_dp / evaluate(layers, torus, dp, params).time_step_s;
        hh.push_back(r.hypar_htree);
        ht.push_back(r.hypar_torus);
        dt.push_back(r.dp_torus);
        s.rows.push_back(r);
        report(progress, static_cast<double>(i + 1), static_cast<double>(networks.size()));
    }
    s.geomean = {"geomean", geometricMean(hh), geometricMean(ht), geometricMean(dt)};
    return s;
}

double LayerComm::bytes(int h, int l) const {
    const auto i = static_cast<size_t>(h * static_cast<int>(layers.size()) + l);
    return intra_bytes[i] + inter_bytes[i];
}

double LayerComm::layerTotal(int l) const {
    double sum = 0;
    for (int h = 0; h < levels; ++h) sum += bytes(h, l);
    return sum;
}

LayerComm layerComm(const Evaluation& eval, const std::vector<std::string>& names, const std::string& title) {
    if (static_cast<int>(names.size()) != eval.layers)
        throw std::invalid_argument("layerComm: " + std::to_string(names.size()) + " names for " +
                                    std::to_string(eval.layers) + " layers");
    LayerComm c;
    c.title = title;
    c.layers = names;
    c.levels = eval.levels;
    // The evaluation keeps elements of one group pair; the bytes per element
    // are whatever its model applied to the total.
    const double bpe = eval.total_elements > 0 ? eval.total_bytes / eval.total_elements : 0;
    for (int h = 0; h < eval.levels; ++h) {
        const double pairs = static_cast<double>(std::int64_t{1} << h);
        for (int l = 0; l < eval.layers; ++l) {
            c.intra_bytes.push_back(pairs * bpe * eval.intra(h, l));
            c.inter_bytes.push_back(pairs * bpe * eval.inter(h, l));
        }
    }
    return c;
}

LayerComm layerComm(const Run& run) {
    std::vector<std::string> names;
    for (const auto& layer : run.inputs->layers.layers) names.push_back(layer.name);
    const std::string title = run.inputs->layers.network + " on " + run.inputs->array.name + ", " + run.method;
    return layerComm(run.shown(), names, title);
}

}  // namespace partita
