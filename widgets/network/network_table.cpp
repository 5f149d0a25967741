#include "widgets/network/network_table.h"

#include <QHeaderView>

#include "core/util/format.h"
#include "widgets/common/op_text.h"
#include "widgets/common/qt_text.h"

namespace partita {

NetworkTable::NetworkTable(QWidget* parent) : QTableWidget(parent) {
    setObjectName("network-table");
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setSelectionBehavior(QAbstractItemView::SelectRows);
    setSelectionMode(QAbstractItemView::SingleSelection);
    verticalHeader()->hide();
    setAlternatingRowColors(true);
}

CsvTable NetworkTable::csv() const {
    CsvTable t;
    t.header = {"layer", "type", "inputs", "in_shape_CxHxW", "out_shape_CxHxW", "weights_elements", "macs_per_sample"};
    if (!inputs_) return t;
    for (const auto& l : inputs_->layers.layers) {
        const Operator& op = inputs_->network.ops[static_cast<size_t>(l.op_id)];
        std::string in;
        for (const auto& i : op.inputs) in += (in.empty() ? "" : " ") + i;
        t.rows.push_back({l.name, opTypeName(op.type), in, shapeText(op.in_shape).toStdString(),
                          shapeText(op.out_shape).toStdString(), formatNumber(l.weights()),
                          formatNumber(l.macsPerSample())});
    }
    return t;
}

void NetworkTable::setInputs(const InputsPtr& inputs) {
    inputs_ = inputs;
    clear();
    setRowCount(0);
    if (!inputs) return;
    const Network& net = inputs->network;
    const QStringList header{tr("operator"), tr("type"), tr("inputs"), tr("output (C×H×W)"), tr("weights"),
                             tr("MACs / sample"), tr("partitioned as")};
    setColumnCount(header.size());
    setHorizontalHeaderLabels(header);
    setRowCount(static_cast<int>(net.ops.size()));
    std::vector<int> layer_of(net.ops.size(), -1);
    for (size_t l = 0; l < inputs->layers.size(); ++l)
        if (const int op = inputs->layers[l].op_id; op >= 0 && static_cast<size_t>(op) < net.ops.size())
            layer_of[static_cast<size_t>(op)] = static_cast<int>(l);
    for (size_t i = 0; i < net.ops.size(); ++i) {
        const Operator& op = net.ops[i];
        QString weights, macs_text, role = tr("folded into its producer");
        if (const int l = layer_of[i]; l >= 0) {
            const WeightedLayer& wl = inputs->layers[static_cast<size_t>(l)];
            weights = q(withCommas(wl.weights()));
            macs_text = q(withCommas(wl.macsPerSample()));
            role = tr("weighted layer (D_i = %1, D_o = %2)").arg(q(withCommas(wl.c_in)), q(withCommas(wl.c_out)));
        }
        QStringList in;
        for (const auto& s : op.inputs) in << q(s);
        const QStringList row{q(op.name), opTypeName(op.type), in.join(", "), shapeText(op.out_shape), weights, macs_text,
                              role};
        for (int c = 0; c < row.size(); ++c) {
            auto* item = new QTableWidgetItem(row[c]);
            if (c == 4 || c == 5) item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            setItem(static_cast<int>(i), c, item);
        }
    }
    resizeColumnsToContents();
    horizontalHeader()->setStretchLastSection(true);
}

}  // namespace partita
