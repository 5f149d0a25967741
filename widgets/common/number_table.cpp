#include "widgets/common/number_table.h"

#include <algorithm>

#include <QAbstractItemView>
#include <QPainter>
#include <QStyledItemDelegate>

#include "widgets/common/result_table_model.h"

namespace partita {

namespace {

// A utilisation cell: a bar as long as the fraction behind the percentage, so busy and idle
// resources stand out while scrolling.
class BarDelegate : public QStyledItemDelegate {
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    void paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const override {
        const double fraction = std::clamp(index.data(RawValueRole).toDouble(), 0.0, 1.0);
        QRect bar = option.rect.adjusted(2, 3, -2, -3);
        bar.setWidth(static_cast<int>(bar.width() * fraction));
        painter->fillRect(bar, QColor(86, 150, 214, 110));
        QStyledItemDelegate::paint(painter, option, index);
    }
};

}  // namespace

void setBarColumn(QAbstractItemView* table, int column) {
    if (dynamic_cast<BarDelegate*>(table->itemDelegateForColumn(column))) return;  // a refill keeps its delegate
    table->setItemDelegateForColumn(column, new BarDelegate(table));
}

}  // namespace partita
