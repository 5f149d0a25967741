#include "core/cost/comm_model.h"

namespace partita {

std::vector<LayerState> initialState(const LayerTable& layers, double batch) {
    std::vector<LayerState> state;
    state.reserve(layers.size());
    for (const auto& l : layers.layers) state.push_back({batch, l.c_in, l.c_out});
    return state;
}

Amounts amounts(const WeightedLayer& layer, const LayerState& s, OutSize out_size) {
    const double out_hw = out_size == OutSize::PostPool ? layer.out_hw : layer.conv_hw;
    return {layer.kernel_area * s.d_in * s.d_out, s.b * s.d_in * layer.in_hw, s.b * s.d_out * out_hw};
}

double intraAmount(const Amounts& a, Split split) {
    switch (split) {
    case Split::Batch: return a.weights;   // partial sums of dW
    case Split::Input: return a.output;    // partial sums of F_l+1
    case Split::Output: return a.input;    // partial sums of E_l
    }
    return 0;
}

double interCoefficient(Split from, Split to, double rho) {
    using S = Split;
    const bool zero = (from == S::Batch && to == S::Batch) || (from == S::Input && to == S::Output) ||
                      (from == S::Output && to == S::Input);
    if (zero) return 0.0;
    const bool two_sided = (from == S::Batch && to == S::Input) || (from == S::Output && to == S::Batch);
    return two_sided ? 2.0 * rho * (1.0 - rho) : 1.0 - rho;
}

double levelComm(const LayerTable& layers, std::span<const LayerState> state, std::span<const Cell> row,
                 const CommModel& model, double* intra_out, double* inter_out) {
    double total = 0;
    for (size_t l = 0; l < layers.size(); ++l) {
        const WeightedLayer& layer = layers[l];
        const Amounts a = amounts(layer, state[l], model.out_size);
        const double intra = model.w_intra * intraAmount(a, row[l].split);
        double inter = 0;
        for (int p : layer.preds) inter += interCoefficient(row[static_cast<size_t>(p)].split, row[l].split) * a.input;
        if (intra_out) intra_out[l] = intra;
        if (inter_out) inter_out[l] = inter;
        total += intra + inter;
    }
    return total;
}

void shrink(std::span<LayerState> state, std::span<const Cell> row) {
    for (size_t l = 0; l < state.size(); ++l) {
        switch (row[l].split) {
        case Split::Batch: state[l].b *= row[l].ratio; break;
        case Split::Input: state[l].d_in *= row[l].ratio; break;
        case Split::Output: state[l].d_out *= row[l].ratio; break;
        }
    }
}

}  // namespace partita
