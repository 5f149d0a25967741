#pragma once
// Pieces the method views (MPT, Learn-to-Scale) share: the one-line summary
// above their grid and the comparison table whose last columns are the
// paper-reported figures, drawn in grey so they never read as engine output.
#include <vector>

#include <QStringList>

class QLabel;
class QTableWidget;
class QWidget;

namespace partita {

QLabel* makeSummaryLabel(QWidget* parent, const QString& object_name);
void showSummaryError(QLabel* summary, const QString& message);  // red, escaped

QTableWidget* makeComparisonTable(QWidget* parent, const QString& object_name);
// Columns at or after `first_paper_column` are grey; row `bold_row` (-1: none) is bold;
// `tooltips` (optional, same shape as rows) per cell.
void fillComparisonTable(QTableWidget* table, const QStringList& headers, const std::vector<QStringList>& rows,
                         int first_paper_column, int bold_row, const std::vector<QStringList>& tooltips = {});

}  // namespace partita
