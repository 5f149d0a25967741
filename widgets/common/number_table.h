#pragma once
// Read-only tables of numbers, as the simulation and comparison views show them: cells that sort by
// their value rather than their text, and a utilisation column drawn as a bar behind the percentage.
#include <QString>

class QAbstractItemView;
class QTableWidget;
class QTableWidgetItem;
class QWidget;

namespace partita {

// A read-only, sortable table with alternating rows and no row numbers.
QTableWidget* makeNumberTable(QWidget* parent, const QString& name);
// A right-aligned cell showing `text` that sorts by `value`.
QTableWidgetItem* numberItem(const QString& text, double value);
// Column `column` draws a bar as long as each cell's value (a fraction in 0..1: RawValueRole, else
// Qt::UserRole) behind its text.
void setBarColumn(QAbstractItemView* table, int column);

}  // namespace partita
