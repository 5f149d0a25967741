#pragma once
// The utilisation column of the result tables (simulation resources, simulated comparison's
// devices): a bar behind the percentage.
class QAbstractItemView;

namespace partita {

// Column `column` draws a bar as long as each cell's RawValueRole value (a fraction in 0..1) behind its text.
void setBarColumn(QAbstractItemView* table, int column);

}  // namespace partita
