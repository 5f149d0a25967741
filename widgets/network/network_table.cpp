#include "widgets/network/network_table.h"

#include <QHeaderView>

#include "core/util/format.h"
#include "widgets/common/model_csv.h"
#include "widgets/common/op_text.h"
#include "widgets/common/qt_text.h"
#include "widgets/common/result_table_model.h"

namespace partita {

namespace {

std::vector<ResultColumn> operatorColumns() {
    return {{NetworkTable::tr("operator"), "operator", false},
            {NetworkTable::tr("type"), "type", false},
            {NetworkTable::tr("inputs"), "inputs", false},
            {NetworkTable::tr("output (C×H×W)"), "out_shape_CxHxW", false},
            {NetworkTable::tr("weights"), "weights_elements"},
            {NetworkTable::tr("MACs / sample"), "macs_per_sample"},
            {NetworkTable::tr("partitioned as"), "partitioned_as", false}};
}

std::vector<ResultColumn> layerColumns() {
    return {{"layer", "layer", false},         {"type", "type", false},
            {"inputs", "inputs", false},       {"in_shape_CxHxW", "in_shape_CxHxW", false},
            {"out_shape_CxHxW", "out_shape_CxHxW", false}, {"weights_elements", "weights_elements"},
            {"macs_per_sample", "macs_per_sample"}};
}

// A shape sorts by its element count; its text is the cell's.
ResultCell shapeCell(const Shape& s) {
    ResultCell c = textCell(shapeText(s));
    c.raw = static_cast<qint64>(s.elements());
    c.csv = c.text.toStdString();
    return c;
}

}  // namespace

NetworkTable::NetworkTable(QWidget* parent)
    : QTableView(parent), operators_(new ResultTableModel(operatorColumns(), this)),
      layers_(new ResultTableModel(layerColumns(), this)) {
    setObjectName("network-table");
    auto* sorted = new ResultSortModel(this);
    sorted->setSourceModel(operators_);
    setModel(sorted);
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setSelectionBehavior(QAbstractItemView::SelectRows);
    setSelectionMode(QAbstractItemView::SingleSelection);
    verticalHeader()->hide();
    setAlternatingRowColors(true);
    horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);  // network order until a column is clicked
    setSortingEnabled(true);
    connect(selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this, sorted](const QModelIndex& now) {
        if (now.isValid()) emit operatorChosen(sorted->mapToSource(now).row());
    });
}

CsvTable NetworkTable::csv() const { return csvFromModel(*layers_); }

int NetworkTable::rowCount() const { return operators_->rowCount(); }

int NetworkTable::currentOperator() const {
    const QModelIndex i = currentIndex();
    return i.isValid() ? static_cast<const QSortFilterProxyModel*>(model())->mapToSource(i).row() : -1;
}

void NetworkTable::setCurrentOperator(int op) {
    if (op < 0 || op >= rowCount()) return;
    const QModelIndex i = static_cast<const QSortFilterProxyModel*>(model())->mapFromSource(operators_->index(op, 0));
    selectionModel()->setCurrentIndex(i, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    scrollTo(i);
}

void NetworkTable::setInputs(const InputsPtr& inputs) {
    std::vector<ResultTableModel::Row> ops, layers;
    if (inputs) {
        const Network& net = inputs->network;
        std::vector<int> layer_of(net.ops.size(), -1);
        for (size_t l = 0; l < inputs->layers.size(); ++l)
            if (const int op = inputs->layers[l].op_id; op >= 0 && static_cast<size_t>(op) < net.ops.size())
                layer_of[static_cast<size_t>(op)] = static_cast<int>(l);
        for (size_t i = 0; i < net.ops.size(); ++i) {
            const Operator& op = net.ops[i];
            ResultCell weights = numberCell({}, 0), macs = numberCell({}, 0);  // sorts before any layer
            ResultCell role = textCell(tr("folded into its producer"));
            if (const int l = layer_of[i]; l >= 0) {
                const WeightedLayer& wl = inputs->layers[static_cast<size_t>(l)];
                weights = numberCell(q(withCommas(wl.weights())), wl.weights());
                macs = numberCell(q(withCommas(wl.macsPerSample())), wl.macsPerSample());
                role = textCell(tr("weighted layer (D_i = %1, D_o = %2)").arg(q(withCommas(wl.c_in)), q(withCommas(wl.c_out))));
            }
            QStringList in;
            for (const auto& s : op.inputs) in << q(s);
            ResultCell name = textCell(q(op.name));
            name.raw = static_cast<qint64>(i);  // sorts back to network order
            name.csv = op.name;
            ops.push_back({name, textCell(opTypeName(op.type)), textCell(in.join(", ")), shapeCell(op.out_shape),
                           weights, macs, role});
        }
        for (const auto& l : inputs->layers.layers) {
            const Operator& op = net.ops[static_cast<size_t>(l.op_id)];
            QString in;
            for (const auto& i : op.inputs) in += (in.isEmpty() ? "" : " ") + q(i);
            layers.push_back({textCell(q(l.name)), textCell(opTypeName(op.type)), textCell(in), shapeCell(op.in_shape),
                              shapeCell(op.out_shape), numberCell(q(withCommas(l.weights())), l.weights()),
                              numberCell(q(withCommas(l.macsPerSample())), l.macsPerSample())});
        }
    }
    operators_->setRows(std::move(ops));
    layers_->setRows(std::move(layers));
    resizeColumnsToContents();
    horizontalHeader()->setStretchLastSection(true);
}

}  // namespace partita
