#include "core/cost/evaluate.h"

#include <cmath>
#include <stdexcept>

#include "core/settings/cost_fields.h"
#include "core/util/finite.h"

namespace partita {

namespace {
constexpr double kPico = 1e-12;

void checkShape(const LayerTable& layers, const Array& array, const Grid& grid) {
    if (grid.levels() != array.levels)
        throw std::invalid_argument("the grid has " + std::to_string(grid.levels()) + " levels, the array has " +
                                    std::to_string(array.levels));
    if (grid.layers() != static_cast<int>(layers.size()))
        throw std::invalid_argument("the grid has " + std::to_string(grid.layers()) + " layers, the network has " +
                                    std::to_string(layers.size()) + " weighted layers");
}
}  // namespace

void validate(const CostParams& p) {
    for (const auto& f : costFields())
        if (f.type == FieldType::Number || f.type == FieldType::Integer)
            if (const std::string why = fieldProblem(f.type, f.range, f.get(p)); !why.empty())
                throw std::invalid_argument(f.key + (" " + why));
}

double macsPerSample(const LayerTable& layers) {
    double macs = 0;
    for (const auto& l : layers.layers) macs += l.macsPerSample();
    return macs;
}

double stepTime(double time_compute_s, double time_comm_s) { return time_compute_s + time_comm_s; }  // no overlap [A]

double computeTime(const LayerTable& layers, const Array& array, const CostParams& params) {
    const double ops = 2.0 * 3.0 * macsPerSample(layers) * params.batch;  // fwd + bwd + grad, 2 ops per MAC
    return ops / (static_cast<double>(array.count()) * array.accelerator.throughput_ops);
}

Energy energy(const LayerTable& layers, const Array& array, const CostParams& params, double total_elements) {
    const auto& acc = array.accelerator;
    const double macs = 3.0 * macsPerSample(layers) * params.batch;
    const double words = params.bytes_per_element / 4.0;  // DRAM energy is per 32-bit access
    const double e_word = (2.0 * acc.e_dram_pj * words + 8.0 * params.bytes_per_element * acc.e_link_pj_per_bit) * kPico;
    Energy e;
    e.compute_j = macs * (acc.e_mult_pj + acc.e_add_pj) * kPico;
    e.comm_j = total_elements * e_word;
    if (params.include_sram_energy) e.sram_j = macs * 2.0 * acc.e_sram_pj * kPico;
    return e;
}

Evaluation evaluate(const LayerTable& layers, const Array& array, const Grid& grid, const CostParams& params,
                    EvalDetail detail) {
    checkShape(layers, array, grid);
    Evaluation ev;
    ev.levels = grid.levels();
    ev.layers = grid.layers();
    const bool per_layer = detail == EvalDetail::PerLayer;
    if (per_layer) {
        const size_t cells = static_cast<size_t>(ev.levels) * static_cast<size_t>(ev.layers);
        ev.layer_intra.assign(cells, 0);
        ev.layer_inter.assign(cells, 0);
    }
    auto state = initialState(layers, params.batch);
    const double bits = 8.0 * params.bytes_per_element;
    for (int h = 0; h < ev.levels; ++h) {
        const auto r = grid.row(h);
        const size_t at = static_cast<size_t>(h) * static_cast<size_t>(ev.layers);
        const double com = per_layer ? levelComm(layers, state, r, params.comm, ev.layer_intra.data() + at,
                                                 ev.layer_inter.data() + at)
                                     : levelComm(layers, state, r, params.comm);
        ev.level_comm.push_back(com);
        ev.level_time_s.push_back(com * bits / array.levelBandwidth(h));
        ev.total_elements += static_cast<double>(1LL << h) * com;
        ev.time_comm_s += ev.level_time_s.back();
        shrink(state, r);
    }
    ev.total_bytes = ev.total_elements * params.bytes_per_element;
    ev.macs = macsPerSample(layers) * params.batch;
    ev.time_compute_s = computeTime(layers, array, params);
    ev.time_step_s = stepTime(ev.time_compute_s, ev.time_comm_s);
    const Energy e = energy(layers, array, params, ev.total_elements);
    ev.energy_compute_j = e.compute_j;
    ev.energy_comm_j = e.comm_j;
    ev.energy_sram_j = e.sram_j;
    ev.energy_j = e.total();
    const std::string inputs = "network '" + layers.network + "' on array '" + array.name + "'";
    requireFinite(ev.total_elements, "the communication", inputs);
    requireFinite(ev.time_step_s, "the step time", inputs);
    requireFinite(ev.energy_j, "the energy", inputs);
    return ev;
}

QuickCost quickCost(const LayerTable& layers, const Grid& grid, const CostParams& params,
                    std::vector<LayerState>& scratch, const std::vector<double>& level_bandwidth) {
    scratch.clear();
    for (const auto& l : layers.layers) scratch.push_back({params.batch, l.c_in, l.c_out});
    QuickCost q;
    const double bits = 8.0 * params.bytes_per_element;
    for (int h = 0; h < grid.levels(); ++h) {
        const auto r = grid.row(h);
        const double com = levelComm(layers, scratch, r, params.comm);
        q.total_elements += static_cast<double>(1LL << h) * com;
        q.time_comm_s += com * bits / level_bandwidth[static_cast<size_t>(h)];
        shrink(scratch, r);
    }
    return q;
}

}  // namespace partita
