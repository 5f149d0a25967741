#include "widgets/common/number_table.h"

#include "widgets/common/result_table_model.h"

#include <algorithm>

#include <QHeaderView>
#include <QPainter>
#include <QStyledItemDelegate>
#include <QTableWidget>

namespace partita {

namespace {

// Sorts by the raw number in Qt::UserRole instead of the displayed text.
class NumberItem : public QTableWidgetItem {
public:
    NumberItem(const QString& text, double value) : QTableWidgetItem(text) {
        setData(Qt::UserRole, value);
        setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    }
    bool operator<(const QTableWidgetItem& other) const override {
        return data(Qt::UserRole).toDouble() < other.data(Qt::UserRole).toDouble();
    }
};

// A utilisation cell: a bar as long as the fraction behind the percentage, so busy and idle
// resources stand out while scrolling.
class BarDelegate : public QStyledItemDelegate {
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    void paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const override {
        const QVariant raw = index.data(RawValueRole);  // a ResultTableModel's; a QTableWidget's is UserRole
        const double fraction = std::clamp((raw.isValid() ? raw : index.data(Qt::UserRole)).toDouble(), 0.0, 1.0);
        QRect bar = option.rect.adjusted(2, 3, -2, -3);
        bar.setWidth(static_cast<int>(bar.width() * fraction));
        painter->fillRect(bar, QColor(86, 150, 214, 110));
        QStyledItemDelegate::paint(painter, option, index);
    }
};

}  // namespace

QTableWidget* makeNumberTable(QWidget* parent, const QString& name) {
    auto* t = new QTableWidget(parent);
    t->setObjectName(name);
    t->setEditTriggers(QAbstractItemView::NoEditTriggers);
    t->setSelectionBehavior(QAbstractItemView::SelectRows);
    t->setAlternatingRowColors(true);
    t->verticalHeader()->hide();
    t->verticalHeader()->setDefaultSectionSize(t->fontMetrics().height() + 8);
    t->horizontalHeader()->setHighlightSections(false);
    t->setWordWrap(false);
    return t;
}

QTableWidgetItem* numberItem(const QString& text, double value) { return new NumberItem(text, value); }

void setBarColumn(QAbstractItemView* table, int column) {
    if (dynamic_cast<BarDelegate*>(table->itemDelegateForColumn(column))) return;  // a refill keeps its delegate
    table->setItemDelegateForColumn(column, new BarDelegate(table));
}

}  // namespace partita
