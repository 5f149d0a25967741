#pragma once
// Pieces the method views (MPT, Learn-to-Scale) share: the one-line summary
// above their grid and the comparison table whose last columns are the
// paper-reported figures, drawn in grey so they never read as engine output.
#include <vector>

#include <QStringList>
#include <QVariant>

class QComboBox;
class QHBoxLayout;
class QLabel;
class QTableWidget;
class QWidget;

namespace partita {

QLabel* makeSummaryLabel(QWidget* parent, const QString& object_name);
// One labelled combo box of a row; `tip` says in a sentence what it chooses (label and box share it).
struct Choice {
    QString label;
    QComboBox* box = nullptr;
    QString tip;
};
// A row of labelled combo boxes that may shrink below their longest item (the tab must not
// widen the window's minimum and squeeze the docks); the full text stays in the popup.
void addChoices(QHBoxLayout* row, QWidget* parent, const std::vector<Choice>& choices);
// Per-item tooltips for a box whose items are terse (`tips` in item order; extra items keep none).
void setItemTips(QComboBox* box, const QStringList& tips);
// Selects `value` in `box`, listing it first when it is not one of the presets (a file, a stored run's value).
void choose(QComboBox* box, const QVariant& value, const QString& title);
QString timesText(double x);  // "2.54×", or "—" when not finite
void showSummaryError(QLabel* summary, const QString& message);  // red, escaped

QTableWidget* makeComparisonTable(QWidget* parent, const QString& object_name);
// Columns at or after `first_paper_column` are grey; row `bold_row` (-1: none) is bold;
// `tooltips` (optional, same shape as rows) per cell.
void fillComparisonTable(QTableWidget* table, const QStringList& headers, const std::vector<QStringList>& rows,
                         int first_paper_column, int bold_row, const std::vector<QStringList>& tooltips = {});

}  // namespace partita
