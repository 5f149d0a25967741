#include "app/gui/network_view.h"

#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

#include "core/util/format.h"

namespace partita::gui {

namespace {
QString shapeText(const Shape& s) { return QString("%1×%2×%3").arg(s.c).arg(s.h).arg(s.w); }
}  // namespace

NetworkView::NetworkView(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    title_ = new QLabel(this);
    title_->setWordWrap(true);
    layout->addWidget(title_);
    table_ = new QTableWidget(this);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->verticalHeader()->hide();
    table_->setAlternatingRowColors(true);
    layout->addWidget(table_, 1);
}

CsvTable NetworkView::csv() const {
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

void NetworkView::setInputs(const InputsPtr& inputs) {
    inputs_ = inputs;
    table_->clear();
    if (!inputs) return;
    const Network& net = inputs->network;
    const double macs = macsPerSample(inputs->layers);
    title_->setText(tr("<b>%1</b> — %2. Input %3; %4 operators, %5 weighted layers, %6 MACs per sample.")
                        .arg(QString::fromStdString(net.name), QString::fromStdString(net.description),
                             shapeText(net.input))
                        .arg(net.ops.size())
                        .arg(inputs->layers.size())
                        .arg(QString::fromStdString(withCommas(macs))));
    const QStringList header{tr("operator"), tr("type"), tr("inputs"), tr("output (C×H×W)"), tr("weights"),
                             tr("MACs / sample"), tr("partitioned as")};
    table_->setColumnCount(header.size());
    table_->setHorizontalHeaderLabels(header);
    table_->setRowCount(static_cast<int>(net.ops.size()));
    for (size_t i = 0; i < net.ops.size(); ++i) {
        const Operator& op = net.ops[i];
        QString weights, macs_text, role = tr("folded into its producer");
        for (const auto& l : inputs->layers.layers) {
            if (l.op_id != static_cast<int>(i)) continue;
            weights = QString::fromStdString(withCommas(l.weights()));
            macs_text = QString::fromStdString(withCommas(l.macsPerSample()));
            role = tr("weighted layer (D_i = %1, D_o = %2)")
                       .arg(QString::fromStdString(withCommas(l.c_in)), QString::fromStdString(withCommas(l.c_out)));
        }
        QStringList in;
        for (const auto& s : op.inputs) in << QString::fromStdString(s);
        const QStringList row{QString::fromStdString(op.name), opTypeName(op.type), in.join(", "),
                              shapeText(op.out_shape), weights, macs_text, role};
        for (int c = 0; c < row.size(); ++c) {
            auto* item = new QTableWidgetItem(row[c]);
            if (c == 4 || c == 5) item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            table_->setItem(static_cast<int>(i), c, item);
        }
    }
    table_->resizeColumnsToContents();
    table_->horizontalHeader()->setStretchLastSection(true);
}

}  // namespace partita::gui
