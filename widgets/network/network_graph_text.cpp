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
QString prefixed(double v) { return q(withPrefix(v, "")).trimmed(); }

std::string hex(const QColor& c) { return c.name(QColor::HexRgb).toStdString(); }

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

QStringList NetworkGraphView::nodeLinesFor(int op, int layer) const {
    const Network& net = inputs_->network;
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

QString NetworkGraphView::runLabel() const { return runMatches() ? q(run_->name) : QString(); }

QString NetworkGraphView::nodeToolTip(int node) const {
    if (!inputs_ || node < 0 || node >= nodeCount()) return {};
    const Node& n = nodes_[static_cast<size_t>(node)];
    const Network& net = inputs_->network;
    if (n.op < 0)
        return tr("<b>input</b><br>%1 per sample (C×H×W)").arg(shapeText(net.input));
    const Operator& o = net.ops[static_cast<size_t>(n.op)];
    QStringList in;
    for (const auto& s : o.inputs) in << q(s).toHtmlEscaped();
    QString html = tr("<b>%1</b> (%2)<br>inputs: %3<br>input %4 → output %5 (C×H×W)")
                       .arg(q(o.name).toHtmlEscaped(), opKindText(o), in.join(", "), shapeText(o.in_shape),
                            shapeText(o.out_shape));
    if (n.layer < 0) return html + tr("<br>no weights: not partitioned (folded into its producer)");
    const WeightedLayer& l = inputs_->layers[static_cast<size_t>(n.layer)];
    html += tr("<br>weighted layer %1: D<sub>i</sub> = %2, D<sub>o</sub> = %3<br>%4 weights, %5 MACs per sample")
                .arg(n.layer + 1)
                .arg(q(withCommas(l.c_in)), q(withCommas(l.c_out)), q(withCommas(l.weights())),
                     q(withCommas(l.macsPerSample())));
    if (levels() > 0) {
        QStringList choices;
        for (int h = 0; h < levels(); ++h)
            choices << QStringLiteral("H%1 %2").arg(h + 1).arg(q(splitShortName(run_->grid.split(h, n.layer))));
        html += tr("<br>%1: %2").arg(runLabel().toHtmlEscaped(), choices.join(", "));
    }
    if (colourModeAvailable(ColourMode::Communication))
        html += tr("<br>communication: %1 over the whole array").arg(q(withPrefix(layerComm(*run_).layerTotal(n.layer), "B")));
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
        if (n.op < 0) {
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
        for (int h = 0; h < shown_levels; ++h) row.push_back(n.layer >= 0 ? splitShortName(run_->grid.split(h, n.layer)) : "");
        if (comm) row.push_back(n.layer >= 0 ? formatNumber(lc.layerTotal(n.layer)) : "");
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
