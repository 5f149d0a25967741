#include "widgets/common/method_table.h"

#include <cmath>

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>

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

QTableWidget* makeComparisonTable(QWidget* parent, const QString& object_name) {
    auto* table = new QTableWidget(parent);
    table->setObjectName(object_name);
    table->verticalHeader()->hide();
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    return table;
}

void fillComparisonTable(QTableWidget* table, const QStringList& headers, const std::vector<QStringList>& rows,
                         int first_paper_column, int bold_row, const std::vector<QStringList>& tooltips) {
    table->setColumnCount(static_cast<int>(headers.size()));
    table->setHorizontalHeaderLabels(headers);
    table->setRowCount(static_cast<int>(rows.size()));
    for (int r = 0; r < static_cast<int>(rows.size()); ++r)
        for (int c = 0; c < static_cast<int>(headers.size()); ++c) {
            const QStringList& row = rows[static_cast<size_t>(r)];
            auto* item = new QTableWidgetItem(c < row.size() ? row[c] : QString());
            if (c >= first_paper_column) item->setForeground(QColor(110, 110, 110));
            else if (c > 0) item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            if (r == bold_row) {
                QFont bold = item->font();
                bold.setBold(true);
                item->setFont(bold);
            }
            if (static_cast<size_t>(r) < tooltips.size() && c < tooltips[static_cast<size_t>(r)].size())
                item->setToolTip(tooltips[static_cast<size_t>(r)][c]);
            table->setItem(r, c, item);
        }
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
