#include "core/study/explain.h"

#include <stdexcept>

#include "core/util/enum_names.h"
#include "core/util/format.h"

namespace partita {

namespace {
constexpr EnumName<Layout> kLayouts[] = {{Layout::Rows, "rows"}, {Layout::Cols, "columns"}, {Layout::Full, "full"}};
constexpr EnumName<Phase> kExplainPhases[] = {
    {Phase::Forward, "forward"}, {Phase::Backward, "backward"}, {Phase::Gradient, "gradient"}};
}  // namespace

const char* layoutName(Layout l) { return enumName(kLayouts, l); }
const char* phaseName(Phase p) { return enumName(kExplainPhases, p); }

Layout outputLayout(Split t) {
    return t == Split::Batch ? Layout::Rows : t == Split::Input ? Layout::Full : Layout::Cols;
}

Layout inputLayout(Split t) {
    return t == Split::Batch ? Layout::Rows : t == Split::Input ? Layout::Cols : Layout::Full;
}

double conversionShare(Layout from, Layout to, double rho) {
    if (from == Layout::Full || from == to) return 0.0;
    if (to == Layout::Full) return 1.0 - rho;
    return rho * (1.0 - rho);  // rows <-> columns: the missing quadrant
}

double forwardShare(Split from, Split to, double rho) {
    return conversionShare(outputLayout(from), inputLayout(to), rho);
}

double backwardShare(Split from, Split to, double rho) {
    return conversionShare(inputLayout(to), outputLayout(from), rho);
}

CellExplanation explainCell(const LayerTable& layers, const Grid& grid, const CostParams& params, int level, int layer) {
    if (level < 0 || level >= grid.levels() || layer < 0 || layer >= grid.layers())
        throw std::out_of_range("cell outside the grid");
    auto state = initialState(layers, params.batch);
    for (int h = 0; h < level; ++h) shrink(state, grid.row(h));
    const WeightedLayer& wl = layers[static_cast<size_t>(layer)];
    const LayerState& s = state[static_cast<size_t>(layer)];
    const Cell cell = grid.at(level, layer);
    const Amounts a = amounts(wl, s, params.comm.out_size);
    const double w = params.comm.w_intra;

    CellExplanation ex;
    ex.layer = wl.name;
    ex.level = level;
    ex.cell = cell;
    ex.state = s;
    const Split t = cell.split;
    ex.tensors = {{"F_l", a.input, inputLayout(t), false},
                  {"W_l", a.weights, t == Split::Batch ? Layout::Full : t == Split::Input ? Layout::Rows : Layout::Cols, false},
                  {"F_l+1", a.output, outputLayout(t), t == Split::Input},
                  {"E_l+1", a.output, outputLayout(t), false},
                  {"E_l", a.input, inputLayout(t), t == Split::Output},
                  {"dW_l", a.weights, t == Split::Batch ? Layout::Full : t == Split::Input ? Layout::Rows : Layout::Cols,
                   t == Split::Batch}};
    const std::string weight_note = w == 1.0 ? "" : " (x " + formatNumber(w) + " w_intra)";
    switch (t) {
    case Split::Batch:
        ex.transfers.push_back({Phase::Gradient, "dW_l", "partial sums of dW_l: each group saw part of the batch",
                                "A(dW_l) = K^2 * C_in * C_out" + weight_note, w * a.weights});
        break;
    case Split::Input:
        ex.transfers.push_back({Phase::Forward, "F_l+1", "partial sums of F_l+1: each group saw part of C_in",
                                "A(F_l+1) = b * C_out * H_out * W_out" + weight_note, w * a.output});
        break;
    case Split::Output:
        ex.transfers.push_back({Phase::Backward, "E_l", "partial sums of E_l: each group saw part of C_out",
                                "A(E_l) = b * C_in * H_in * W_in" + weight_note, w * a.input});
        break;
    }
    for (int p : wl.preds) {
        const Split from = grid.split(level, p);
        ex.previous = layers[static_cast<size_t>(p)].name;
        ex.previous_split = from;
        const double f = forwardShare(from, t, cell.ratio), b = backwardShare(from, t, cell.ratio);
        const std::string what = std::string(layoutName(outputLayout(from))) + " -> " + layoutName(inputLayout(t));
        if (f > 0)
            ex.transfers.push_back({Phase::Forward, "F_l", "re-layout of the boundary " + what,
                                    formatNumber(f) + " * A(F_l) = " + formatNumber(f) + " * b * C_in * H_in * W_in",
                                    f * a.input});
        if (b > 0)
            ex.transfers.push_back({Phase::Backward, "E_l",
                                    "re-layout of the boundary error " + std::string(layoutName(inputLayout(t))) + " -> " +
                                        layoutName(outputLayout(from)),
                                    formatNumber(b) + " * A(E_l) = " + formatNumber(b) + " * b * C_in * H_in * W_in",
                                    b * a.input});
    }
    for (const auto& tr : ex.transfers) (tr.reason.rfind("partial", 0) == 0 ? ex.intra : ex.inter) += tr.elements;
    return ex;
}

}  // namespace partita
