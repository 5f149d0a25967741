// NetworkGraphView's text: node labels, tooltips, the node table (CSV) and the DOT text.
#include <QString>

#include "core/model/counts.h"
#include "core/study/plots.h"
#include "core/util/format.h"
#include "widgets/common/op_text.h"
#include "widgets/common/qt_text.h"
#include "widgets/network/network_graph.h"

namespace partita {

namespace {

// "118 M" for 118,013,952: four significant digits and an SI prefix.

std::string hex(const QColor& c) { return c.name(QColor::HexRgb).toStdString(); }

// "dp", or "III, α 0.735" for an AccPar split that is not even (α: the first group's share).
QString choiceText(const Cell& cell) {
    const QString name = q(splitShortName(cell.split));
    return cell.ratio == 0.5 ? name : QStringLiteral("%1, α %2").arg(name).arg(cell.ratio, 0, 'f', 3);
}

}  // namespace

QString NetworkGraphView::colourModeName(ColourMode mode) {
    switch (mode) {
    case ColourMode::Partition: return tr("Partition");
    case ColourMode::Macs: return tr("MACs");
    case ColourMode::Weights: return tr("Weights");
    case ColourMode::Communication: return tr("Communication");
    }
    return {};
}

QStringList NetworkGraphView::nodeLinesFor(const Node& node) const {
    const Network& net = inputs_->network;
    if (node.run >= 0) return runLines(node.run);
    const int op = node.op, layer = node.layer;
    if (op < 0) return {tr("input"), shapeText(net.input)};
    const Operator& o = net.ops[static_cast<size_t>(op)];
    QStringList lines{q(o.name), opKindText(o) + QStringLiteral(" · ") + shapeText(o.out_shape)};
    if (const double macs = nodeMacs(op, layer); macs > 0) lines << tr("%1 MACs").arg(prefixed(macs));
    return lines;
}

double NetworkGraphView::nodeMacs(int op, int layer) const {
    if (layer >= 0) return inputs_->layers[static_cast<size_t>(layer)].macsPerSample();
    // Not a weighted layer, yet it may multiply: a matmul of two activations (attention).
    return op >= 0 ? countOperator(inputs_->network.ops[static_cast<size_t>(op)]).macs_per_sample : 0;
}

QString NetworkGraphView::runName(int run) const {
    if (!inputs_ || run < 0 || static_cast<size_t>(run) >= runs_.size()) return {};
    const RepeatedRun& r = runs_[static_cast<size_t>(run)];
    const Network& net = inputs_->network;
    const QString what = r.block_ops == 1          ? opKindText(net.ops[static_cast<size_t>(r.first_op)])
                         : isResidual(net, r) ? tr("residual block")
                                              : tr("block");
    return tr("%1 × %2").arg(r.members).arg(what);
}

// "3 × residual block"; one member's kinds ("conv, conv, add", the first three of a long block) and
// output shape; the run's MACs and weights (all members).
QStringList NetworkGraphView::runLines(int run) const {
    const RepeatedRun& r = runs_[static_cast<size_t>(run)];
    const Network& net = inputs_->network;
    QStringList kinds;
    for (int op = r.first_op; op < r.first_op + r.block_ops && kinds.size() < 3; ++op)
        kinds << opKindText(net.ops[static_cast<size_t>(op)]);
    QString member = kinds.join(QStringLiteral(", "));
    if (r.block_ops > 3) member += tr(", … (%1 operators)").arg(r.block_ops);
    QStringList lines{runName(run)};
    if (r.block_ops > 1) lines << member;
    lines << shapeText(net.ops[static_cast<size_t>(r.lastOp())].out_shape);
    QStringList totals;
    if (const double macs = runMacs(run); macs > 0) totals << tr("%1 MACs").arg(prefixed(macs));
    if (const double weights = runWeights(run); weights > 0) totals << tr("%1 weights").arg(prefixed(weights));
    if (!totals.isEmpty()) lines.back() += QStringLiteral(" · ") + totals.join(QStringLiteral(", "));
    return lines;
}

QString NetworkGraphView::runToolTip(int run) const {
    const RepeatedRun& r = runs_[static_cast<size_t>(run)];
    const Network& net = inputs_->network;
    const auto name = [&](int op) { return q(net.ops[static_cast<size_t>(op)].name).toHtmlEscaped(); };
    QStringList kinds;
    for (int op = r.first_op; op < r.first_op + r.block_ops; ++op) kinds << opKindText(net.ops[static_cast<size_t>(op)]);
    QString html = tr("<b>%1</b>: %2 … %3, %4 operators<br>each member: %5<br>output %6 (C×H×W)<br>"
                      "%7 weights, %8 MACs per sample (all members)")
                       .arg(runName(run), name(r.first_op), name(r.lastOp()))
                       .arg(r.block_ops * r.members)
                       .arg(kinds.join(", ").toHtmlEscaped(), shapeText(net.ops[static_cast<size_t>(r.lastOp())].out_shape),
                            q(withCommas(runWeights(run))), q(withCommas(runMacs(run))));
    if (levels() > 0) {
        QStringList choices;
        for (int op = r.first_op; op <= r.lastOp(); ++op)
            if (const int l = layerOfOperator(op); l >= 0) choices << q(splitShortName(run_->grid.split(level_, l)));
        html += tr("<br>H%1 choices of %2: %3").arg(level_ + 1).arg(runLabel().toHtmlEscaped(), choices.join(" "));
    }
    return html + tr("<br>double-click to expand");
}

QString NetworkGraphView::runLabel() const { return runMatches() ? q(run_->name) : QString(); }

QString NetworkGraphView::nodeToolTip(int node) const {
    if (!inputs_ || node < 0 || node >= nodeCount()) return {};
    const Node& n = nodes_[static_cast<size_t>(node)];
    const Network& net = inputs_->network;
    if (n.run >= 0) return runToolTip(n.run);
    if (n.op < 0)
        return tr("<b>input</b><br>%1 per sample (C×H×W)").arg(shapeText(net.input));
    const Operator& o = net.ops[static_cast<size_t>(n.op)];
    QStringList in;
    for (const auto& s : o.inputs) in << q(s).toHtmlEscaped();
    QString html = tr("<b>%1</b> (%2)<br>inputs: %3<br>input %4 → output %5 (C×H×W)")
                       .arg(q(o.name).toHtmlEscaped(), opKindText(o), in.join(", "), shapeText(o.in_shape),
                            shapeText(o.out_shape));
    if (const int run = runOfOperator(n.op); run >= 0)
        html += tr("<br>in %1 (member %2): double-click to collapse")
                    .arg(runName(run))
                    .arg(runs_[static_cast<size_t>(run)].memberOf(n.op) + 1);
    if (n.layer < 0) return html + tr("<br>no weights: not partitioned (folded into its producer)");
    const WeightedLayer& l = inputs_->layers[static_cast<size_t>(n.layer)];
    html += tr("<br>weighted layer %1: D<sub>i</sub> = %2, D<sub>o</sub> = %3<br>%4 weights, %5 MACs per sample")
                .arg(n.layer + 1)
                .arg(q(withCommas(l.c_in)), q(withCommas(l.c_out)), q(withCommas(l.weights())),
                     q(withCommas(l.macsPerSample())));
    if (levels() > 0) {
        QStringList choices;
        for (int h = 0; h < levels(); ++h)
            choices << QStringLiteral("H%1 %2").arg(h + 1).arg(choiceText(run_->grid.at(h, n.layer)));
        html += tr("<br>%1: %2").arg(runLabel().toHtmlEscaped(), choices.join("; "));
    }
    if (colourModeAvailable(ColourMode::Communication))
        html += tr("<br>communication: %1 over the whole array").arg(byteText(layerComm(*run_).layerTotal(n.layer)));
    return html;
}

CsvTable NetworkGraphView::csv() const {
    CsvTable t;
    t.header = {"node", "operator", "type", "inputs", "out_shape_CxHxW", "weighted_layer", "weights_elements",
                "macs_per_sample"};
    const int shown_levels = levels();
    for (int h = 0; h < shown_levels; ++h) t.header.push_back("choice_H" + std::to_string(h + 1));
    const bool comm = colourModeAvailable(ColourMode::Communication);
    if (comm) t.header.push_back("communication_bytes");
    for (const char* h : {"x_pt", "y_pt", "width_pt", "height_pt"}) t.header.push_back(h);
    if (!inputs_) return t;
    const LayerComm lc = comm ? layerComm(*run_) : LayerComm{};
    for (int i = 0; i < nodeCount(); ++i) {
        const Node& n = nodes_[static_cast<size_t>(i)];
        std::vector<std::string> row{std::to_string(i)};
        std::vector<int> layers{n.layer};  // the node's weighted layers (a collapsed run's members')
        if (n.run >= 0) {
            const RepeatedRun& r = runs_[static_cast<size_t>(n.run)];
            const auto& ops = inputs_->network.ops;
            layers.clear();
            for (int op = r.first_op; op <= r.lastOp(); ++op)
                if (layerOfOperator(op) >= 0) layers.push_back(layerOfOperator(op));
            row.insert(row.end(), {ops[static_cast<size_t>(r.first_op)].name + "…" + ops[static_cast<size_t>(r.lastOp())].name,
                                   runName(n.run).toStdString(), r.first_op > 0 ? ops[static_cast<size_t>(r.first_op) - 1].name : "input",
                                   shapeText(ops[static_cast<size_t>(r.lastOp())].out_shape).toStdString(), "",
                                   formatNumber(runWeights(n.run)), formatNumber(runMacs(n.run))});
        } else if (n.op < 0) {
            row.insert(row.end(), {"input", "input", "", shapeText(inputs_->network.input).toStdString(), "", "", ""});
        } else {
            const Operator& o = inputs_->network.ops[static_cast<size_t>(n.op)];
            std::string in;
            for (const auto& s : o.inputs) in += (in.empty() ? "" : " ") + s;
            row.insert(row.end(), {o.name, opTypeName(o.type), in, shapeText(o.out_shape).toStdString()});
            if (n.layer >= 0) {
                const WeightedLayer& l = inputs_->layers[static_cast<size_t>(n.layer)];
                row.insert(row.end(), {std::to_string(n.layer), formatNumber(l.weights()), formatNumber(l.macsPerSample())});
            } else {
                row.insert(row.end(), {"", "", ""});
            }
        }
        if (layers.size() == 1 && layers[0] < 0) layers.clear();
        for (int h = 0; h < shown_levels; ++h) {
            std::string choices;  // a collapsed run's members' choices, space-separated
            for (int l : layers) choices += (choices.empty() ? std::string() : " ") + splitShortName(run_->grid.split(h, l));
            row.push_back(choices);
        }
        if (comm) {
            double bytes = 0;
            for (int l : layers) bytes += lc.layerTotal(l);
            row.push_back(layers.empty() ? "" : formatNumber(bytes));
        }
        if (static_cast<size_t>(i) < layout_.nodes.size()) {
            const view::Box& b = layout_.nodes[static_cast<size_t>(i)];
            for (double v : {b.x, b.y, b.w, b.h}) row.push_back(formatNumber(v));
        } else {
            row.insert(row.end(), 4, "");
        }
        t.rows.push_back(std::move(row));
    }
    return t;
}

QString NetworkGraphView::dot() const {
    if (!inputs_) return {};
    view::GraphSpec spec = spec_.nodes.size() == nodes_.size() ? spec_ : layoutSpec();
    for (size_t i = 0; i < spec.nodes.size() && i < fills_.size(); ++i) spec.nodes[i].fill = hex(fills_[i]);
    return q(view::graphDot(spec, inputs_->network.name));
}

}  // namespace partita
