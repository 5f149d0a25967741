// GridView's text outputs: tooltips (what a cell means and costs) and the CSV table.
#include <algorithm>

#include "core/study/explain.h"
#include "core/util/format.h"
#include "widgets/common/qt_text.h"
#include "widgets/grid/grid_view.h"

namespace partita {

namespace {

QString commas(double v) { return q(withCommas(v)); }

}  // namespace

QString GridView::toolTipAt(const QPoint& pos, QRect* zone) const {
    if (!hasCells()) return {};
    const view::GridGeometry g = geometryIn(rect());
    const Evaluation& ev = run_->shown();
    auto rectOf = [](const view::Box& b) { return QRectF(b.x, b.y, b.w, b.h).toAlignedRect(); };
    if (const auto hit = g.cellAt(pos.x(), pos.y())) {
        *zone = rectOf(g.cell(hit->first, hit->second));
        return cellToolTip(hit->first, hit->second);
    }
    for (int h = 0; h < g.levels; ++h)
        if (g.sideCell(h).contains(pos.x(), pos.y())) {
            *zone = rectOf(g.sideCell(h));
            const double pairs = static_cast<double>(1LL << h);
            return QStringLiteral("<b>H%1</b>: one group pair exchanges %2 elements (com<sub>H%1</sub>) in %3<br>"
                                  "%4 group pair(s) at this level: %5 elements in all")
                .arg(h + 1)
                .arg(commas(ev.level_comm[static_cast<size_t>(h)]), q(seconds(ev.level_time_s[static_cast<size_t>(h)])),
                     commas(pairs), commas(pairs * ev.level_comm[static_cast<size_t>(h)]));
        }
    const auto totals = layerTotals();
    for (int l = 0; l < g.layers && g.totals.h > 0; ++l)
        if (g.totalCell(l).contains(pos.x(), pos.y())) {
            *zone = rectOf(g.totalCell(l));
            return QStringLiteral("<b>%1</b>: %2 elements over the whole array<br>(sum over levels of 2<sup>h</sup> "
                                  "group pairs x (intra + inter))")
                .arg(q(run_->inputs->layers[static_cast<size_t>(l)].name), commas(totals[static_cast<size_t>(l)]));
        }
    if (g.headers.contains(pos.x(), pos.y())) {
        const int l = std::clamp(static_cast<int>((pos.x() - g.headers.x) / g.cell_w), 0, g.layers - 1);
        *zone = rectOf(g.header(l));
        const auto& wl = run_->inputs->layers[static_cast<size_t>(l)];
        return QStringLiteral("<b>%1</b> (%2): D<sub>i</sub> = %3, D<sub>o</sub> = %4, %5 weights")
            .arg(q(wl.name), wl.is_fc ? QStringLiteral("fc") : QStringLiteral("conv"), commas(wl.c_in),
                 commas(wl.c_out), commas(wl.weights()));
    }
    return {};
}

QString GridView::cellToolTip(int level, int layer) const {
    const RunInputs& in = *run_->inputs;
    const CellExplanation ex = explainCell(in.layers, run_->grid, in.params, level, layer);
    const Evaluation& ev = run_->shown();
    const Cell c = ex.cell;
    QString ratio = c.ratio == 0.5 ? QString() : QStringLiteral(", ratio %1").arg(q(fixed(c.ratio, 3)));
    QString html = QStringLiteral("<b>%1</b> at H%2: <b>%3</b> (%4%5)")
                       .arg(q(ex.layer))
                       .arg(level + 1)
                       .arg(q(splitShortName(c.split)), splitDescription(c.split), ratio);
    html += QStringLiteral("<br>sub-problem: b = %1, D<sub>i</sub> = %2, D<sub>o</sub> = %3")
                .arg(commas(ex.state.b), commas(ex.state.d_in), commas(ex.state.d_out));
    auto tensor = [&ex](const char* name) {
        for (const auto& t : ex.tensors)
            if (t.name == name) return t.elements;
        return 0.0;
    };
    html += QStringLiteral("<br>tensors: A(F<sub>l</sub>) = %1, A(W<sub>l</sub>) = %2, "
                           "A(F<sub>l+1</sub>) = %3 elements")
                .arg(commas(tensor("F_l")), commas(tensor("W_l")), commas(tensor("F_l+1")));
    if (run_->isAccPar()) {
        html += accparToolTip(level, layer);
    } else {
        html += QStringLiteral("<br>intra-layer: <b>%1</b> elements").arg(commas(ev.intra(level, layer)));
        html += QStringLiteral("<br>inter-layer%1: <b>%2</b> elements")
                    .arg(ex.previous.empty() ? QString()
                                             : QStringLiteral(" (from %1, %2)")
                                                   .arg(q(ex.previous), q(splitShortName(ex.previous_split))),
                         commas(ev.inter(level, layer)));
        for (const auto& t : ex.transfers)
            html += QStringLiteral("<br>&nbsp;&nbsp;%1: %2 — %3 elements")
                        .arg(q(phaseName(t.phase)), q(t.reason).toHtmlEscaped(), commas(t.elements));
    }
    const Grid& ref = run_->reference;
    if (run_->edited() && !(ref.at(level, layer) == c))
        html += QStringLiteral("<br><i>edited: the searched optimum has %1 here</i>")
                    .arg(q(splitShortName(ref.split(level, layer))));
    if (have_compare_ && compare_.levels() == run_->grid.levels() && compare_.layers() == run_->grid.layers() &&
        !(compare_.at(level, layer) == c))
        html += QStringLiteral("<br><i>the first run has %1 here</i>")
                    .arg(q(splitShortName(compare_.split(level, layer))));
    if (editable_) html += QStringLiteral("<br><span style='color:gray'>click or Space to toggle</span>");
    return html;
}

// AccPar: who splits at this node, and both groups' balanced compute and communication times.
QString GridView::accparToolTip(int level, int layer) const {
    const PlanTree& plan = run_->accpar->accpar;
    const int node_index = plan.grid_nodes[static_cast<size_t>(level)];
    const PlanNode& node = plan.nodes[static_cast<size_t>(node_index)];
    const GroupTimes t = cellTimes(run_->inputs->layers, plan, node_index, layer, run_->inputs->accpar);
    const double alpha = node.row[static_cast<size_t>(layer)].ratio;
    const auto& groups = acceleratorGroups(run_->inputs->array);
    auto group = [&](const char* name, int child, double c, double b, double share) {
        const std::string label = child >= 0 ? membersLabel(groups, plan.nodes[static_cast<size_t>(child)].members) : "";
        return QStringLiteral("<br>group %1: %2 — %3, %4; share %5")
            .arg(name, q(label).toHtmlEscaped(), q(withPrefix(c, "FLOP/s")), q(withPrefix(b, "B/s")),
                 q(fixed(share, 3)));
    };
    QString html = QStringLiteral("<br>split of %1 (%2):").arg(q(node.label).toHtmlEscaped()).arg(plan.uniform
        ? tr("every node of this level") : tr("the first node of this level"));
    html += group("i", node.child_i, node.pair.c_i, node.pair.b_i, alpha);
    html += group("j", node.child_j, node.pair.c_j, node.pair.b_j, 1 - alpha);
    html += QStringLiteral("<br>balanced times: i %1 compute + %2 comm. = <b>%3</b>; j %4 + %5 = <b>%6</b>")
                .arg(q(seconds(t.compute_i)), q(seconds(t.comm_i)), q(seconds(t.i())), q(seconds(t.compute_j)),
                     q(seconds(t.comm_j)), q(seconds(t.j())));
    html += QStringLiteral("<br>received: i %1, j %2 elements").arg(commas(t.elements_i), commas(t.elements_j));
    return html;
}

CsvTable GridView::csv() const {
    CsvTable t;
    if (!hasCells()) return t;
    const Grid& g = run_->grid;
    const Evaluation& ev = run_->shown();
    t.header.push_back("level");
    for (const auto& layer : run_->inputs->layers.layers) t.header.push_back(layer.name);
    t.header.push_back("comm_elements");
    t.header.push_back("time_s");
    for (int h = 0; h < g.levels(); ++h) {
        std::vector<std::string> row{"H" + std::to_string(h + 1)};
        for (const Cell& c : g.row(h))
            row.push_back(std::string(splitShortName(c.split)) + (c.ratio == 0.5 ? "" : ":" + formatNumber(c.ratio)));
        row.push_back(formatNumber(ev.level_comm[static_cast<size_t>(h)]));
        row.push_back(formatNumber(ev.level_time_s[static_cast<size_t>(h)]));
        t.rows.push_back(std::move(row));
    }
    std::vector<std::string> totals{"total_elements"};
    for (double v : layerTotals()) totals.push_back(formatNumber(v));
    totals.push_back(formatNumber(ev.total_elements));
    totals.push_back(formatNumber(ev.time_comm_s));
    t.rows.push_back(std::move(totals));
    return t;
}

}  // namespace partita
