#include "core/study/teaching.h"

#include <algorithm>

#include "core/util/enum_names.h"

namespace partita {

Region heldRegion(Layout layout, double rho, int group) {
    const bool first = group == 0;
    switch (layout) {
    case Layout::Rows: return first ? Region{0, 0, 1, rho} : Region{0, rho, 1, 1};
    case Layout::Cols: return first ? Region{0, 0, rho, 1} : Region{rho, 0, 1, 1};
    case Layout::Full: break;
    }
    return {};
}

std::vector<Region> subtract(const Region& a, const Region& b) {
    const double ix0 = std::max(a.x0, b.x0), ix1 = std::min(a.x1, b.x1);
    const double iy0 = std::max(a.y0, b.y0), iy1 = std::min(a.y1, b.y1);
    if (!(ix0 < ix1 && iy0 < iy1)) return {a};  // no overlap
    std::vector<Region> out;
    // Full-width bands above and below the overlap, then the sides within its rows.
    if (a.y0 < iy0) out.push_back({a.x0, a.y0, a.x1, iy0});
    if (iy1 < a.y1) out.push_back({a.x0, iy1, a.x1, a.y1});
    if (a.x0 < ix0) out.push_back({a.x0, iy0, ix0, iy1});
    if (ix1 < a.x1) out.push_back({ix1, iy0, a.x1, iy1});
    return out;
}

std::vector<Region> missingRegions(Layout from, Layout to, double rho, int group) {
    return subtract(heldRegion(to, rho, group), heldRegion(from, rho, group));
}

namespace {
constexpr EnumName<Where> kWheres[] = {
    {Where::Before, "l-1 | l"}, {Where::Intra, "inside l"}, {Where::After, "l | l+1"}};
}  // namespace

const char* whereName(Where w) { return enumName(kWheres, w); }

namespace {

bool isPartial(const Transfer& t) { return t.reason.rfind("partial", 0) == 0; }

// Order of the flow: forward goes l-1 -> l -> l+1, backward comes back from l+1.
int flowRank(const TeachingMove& m) {
    const int w = static_cast<int>(m.where);
    return static_cast<int>(m.transfer.phase) * 10 + (m.transfer.phase == Phase::Backward ? 2 - w : w);
}

}  // namespace

std::vector<const TeachingMove*> TeachingCell::movesIn(Phase p) const {
    std::vector<const TeachingMove*> out;
    for (const auto& m : moves)
        if (m.transfer.phase == p) out.push_back(&m);
    return out;
}

double TeachingCell::phaseElements(Phase p) const {
    double sum = 0;
    for (const auto* m : movesIn(p)) sum += m->transfer.elements;
    return sum;
}

TeachingCell teachCell(const LayerTable& layers, const Grid& grid, const CostParams& params, int level, int layer) {
    TeachingCell t;
    t.cell = explainCell(layers, grid, params, level, layer);
    t.bytes_per_element = params.bytes_per_element;
    const Split here = t.cell.cell.split, before = t.cell.previous_split;
    for (const auto& tr : t.cell.transfers) {
        TeachingMove m{tr, isPartial(tr) ? Where::Intra : Where::Before};
        if (m.where == Where::Before) {
            const bool fwd = tr.phase == Phase::Forward;
            m.from = fwd ? outputLayout(before) : inputLayout(here);
            m.to = fwd ? inputLayout(here) : outputLayout(before);
        }
        t.moves.push_back(m);
    }
    // The consumer of layer l: its boundary is priced with its own input (docs/methods/hypar.md#r3-the-consumer-prices-a-transition).
    for (int n = layer + 1; n < grid.layers(); ++n) {
        const auto& preds = layers[static_cast<size_t>(n)].preds;
        if (std::find(preds.begin(), preds.end(), layer) == preds.end()) continue;
        if (preds.size() != 1) break;  // a join: its boundary is not layer l's alone
        t.next = explainCell(layers, grid, params, level, n);
        const Split after = t.next->cell.split;
        for (const auto& tr : t.next->transfers) {
            if (isPartial(tr)) continue;
            TeachingMove m{tr, Where::After};
            const bool fwd = tr.phase == Phase::Forward;
            m.transfer.tensor = fwd ? "F_l+1" : "E_l+1";
            const double share = fwd ? forwardShare(here, after, t.next->cell.ratio)
                                     : backwardShare(here, after, t.next->cell.ratio);
            m.transfer.formula = formatNumber(share) + " * A(" + m.transfer.tensor + "), priced with " +
                                 t.next->layer + "'s input";
            m.from = fwd ? outputLayout(here) : inputLayout(after);
            m.to = fwd ? inputLayout(after) : outputLayout(here);
            t.moves.push_back(m);
        }
        break;
    }
    std::stable_sort(t.moves.begin(), t.moves.end(),
                     [](const TeachingMove& a, const TeachingMove& b) { return flowRank(a) < flowRank(b); });
    return t;
}

CsvTable teachingCsv(const TeachingCell& t) {
    CsvTable table;
    table.header = {"level", "layer", "split", "phase", "where", "tensor", "why", "formula",
                    "elements (received by the first group)", "bytes (received by the first group)"};
    const std::string level = "H" + std::to_string(t.cell.level + 1);
    for (const auto& m : t.moves)
        table.rows.push_back({level, t.cell.layer, splitTypeName(t.cell.cell.split), phaseName(m.transfer.phase),
                              whereName(m.where), m.transfer.tensor, m.transfer.reason, m.transfer.formula,
                              formatNumber(m.transfer.elements),
                              formatNumber(m.transfer.elements * t.bytes_per_element)});
    return table;
}

}  // namespace partita
