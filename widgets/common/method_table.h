#pragma once
// Pieces the method views (MPT, Learn-to-Scale) share: the one-line summary
// above their grid and the comparison table whose last columns are the
// paper-reported figures, drawn in grey so they never read as engine output.
#include <vector>

#include <QStringList>
#include <QVariant>

#include "widgets/common/result_table_model.h"

class QComboBox;
class QHBoxLayout;
class QLabel;
class QTableView;
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

// A view over a ResultTableModel of `columns` (its CSV is csvFromModel of comparisonModel).
QTableView* makeComparisonTable(QWidget* parent, const QString& object_name, std::vector<ResultColumn> columns);
ResultTableModel* comparisonModel(const QTableView* table);
// Columns at or after `first_paper_column` are grey and left-aligned; row `bold_row` (-1: none) is bold;
// columns with `hidden` (CSV only) are not shown.
void fillComparisonTable(QTableView* table, std::vector<ResultTableModel::Row> rows, int first_paper_column,
                         int bold_row, const std::vector<int>& hidden = {});

}  // namespace partita
