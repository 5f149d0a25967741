#include "widgets/common/method_table.h"

#include <cmath>

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QTableView>

namespace partita {

void addChoices(QHBoxLayout* row, QWidget* parent, const std::vector<Choice>& choices) {
    for (const Choice& c : choices) {
        c.box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        c.box->setMinimumContentsLength(8);
        c.box->setToolTip(c.tip);
        auto* label = new QLabel(c.label, parent);
        label->setToolTip(c.tip);
        label->setBuddy(c.box);
        row->addWidget(label);
        row->addWidget(c.box, 1);
    }
    row->addStretch(1);
}

void setItemTips(QComboBox* box, const QStringList& tips) {
    for (int i = 0; i < tips.size() && i < box->count(); ++i) box->setItemData(i, tips[i], Qt::ToolTipRole);
}

QLabel* makeSummaryLabel(QWidget* parent, const QString& object_name) {
    auto* label = new QLabel(parent);
    label->setObjectName(object_name);
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}

void showSummaryError(QLabel* summary, const QString& message) {
    summary->setText(QStringLiteral("<span style='color:#b00'>%1</span>").arg(message.toHtmlEscaped()));
}

QTableView* makeComparisonTable(QWidget* parent, const QString& object_name, std::vector<ResultColumn> columns) {
    return makeModelView(parent, object_name, new ResultTableModel(std::move(columns)));
}

ResultTableModel* comparisonModel(const QTableView* table) { return resultModelOf(table); }

void fillComparisonTable(QTableView* table, std::vector<ResultTableModel::Row> rows, int first_paper_column,
                         int bold_row, const std::vector<int>& hidden) {
    for (int r = 0; r < static_cast<int>(rows.size()); ++r)
        for (int c = 0; c < static_cast<int>(rows[static_cast<size_t>(r)].size()); ++c) {
            ResultCell& cell = rows[static_cast<size_t>(r)][static_cast<size_t>(c)];
            if (c >= first_paper_column) {
                cell.foreground = QColor(110, 110, 110);
                cell.alignment = QVariant::fromValue(Qt::Alignment(Qt::AlignLeft | Qt::AlignVCenter));
            }
            cell.bold = r == bold_row;
        }
    resultModelOf(table)->setRows(std::move(rows));
    for (int c : hidden) table->setColumnHidden(c, true);
    table->resizeColumnsToContents();
}

void choose(QComboBox* box, const QVariant& value, const QString& title) {
    int index = box->findData(value);
    if (index < 0) {
        box->addItem(title, value);
        index = box->count() - 1;
    }
    box->setCurrentIndex(index);
}

QString timesText(double x) { return std::isfinite(x) ? QString::number(x, 'f', 2) + "×" : QStringLiteral("—"); }

}  // namespace partita
