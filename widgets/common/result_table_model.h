#pragma once
// A read-only table of results: each cell carries the text shown, the exact value it stands for
// (RawValueRole: a double, a qint64, or text) and an optional tooltip. Views sort through
// ResultSortModel, by the exact value, so 10 sorts after 9 and "1.2 GB" after "900 MB";
// csvFromModel (model_csv.h) writes the exact values.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <QAbstractTableModel>
#include <QSortFilterProxyModel>
#include <QString>
#include <QVariant>

class QTableView;
class QWidget;

namespace partita {

inline constexpr int RawValueRole = Qt::UserRole + 1;  // the exact value a cell shows (and sorts by)
// Header: the column's CSV name (no value: the column is not exported). Cell: its CSV text when
// that is not the raw value (a name column that sorts by an index, a fraction exported as a percent).
inline constexpr int CsvTextRole = Qt::UserRole + 2;
inline constexpr int HeadingRole = Qt::UserRole + 3;  // true in a heading row's cells: not exported

struct ResultColumn {
    ResultColumn(QString header_, std::optional<std::string> csv_, bool number_ = true, QString tooltip_ = {})
        : header(std::move(header_)), csv(std::move(csv_)), number(number_), tooltip(std::move(tooltip_)) {}
    QString header;
    std::optional<std::string> csv;  // the CSV column name, units in it; none: not exported
    bool number = true;              // right-aligned
    QString tooltip;                 // the header's
};

struct ResultCell {
    QString text;
    QVariant raw;                    // double, qint64 or QString; none: the text
    QString tooltip;
    std::optional<std::string> csv;  // the CSV text when it is not the raw value
    QVariant foreground;             // a QColor, or none
    QVariant alignment;              // a Qt::Alignment instead of the column's
    QVariant font;                   // a QFont instead of the view's (bit strings in monospace)
    bool bold = false;
    bool heading = false;            // bold, and its row is a heading, not exported (the first cell says)
};

// A right-aligned number: `text` as shown, `value` exact.
ResultCell numberCell(const QString& text, double value);
ResultCell countCell(const QString& text, qint64 value);
ResultCell textCell(const QString& text);  // sorts and exports as itself

class ResultTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    using Row = std::vector<ResultCell>;

    explicit ResultTableModel(std::vector<ResultColumn> columns = {}, QObject* parent = nullptr);

    void setColumns(std::vector<ResultColumn> columns);  // clears the rows
    void setRows(std::vector<Row> rows);                 // each as wide as the columns
    const ResultCell& cell(int row, int column) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;

private:
    std::vector<ResultColumn> columns_;
    std::vector<Row> rows_;
};

// Sorts by RawValueRole; an optional filter hides source rows (the CSV, read from the source, keeps them).
class ResultSortModel : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit ResultSortModel(QObject* parent = nullptr);
    void setRowFilter(std::function<bool(int source_row)> keep);

protected:
    bool filterAcceptsRow(int source_row, const QModelIndex& source_parent) const override;
    bool lessThan(const QModelIndex& left, const QModelIndex& right) const override;

private:
    std::function<bool(int)> keep_;
};

// A read-only view of `model` through a ResultSortModel (sortable once sorting is enabled), no row numbers.
QTableView* makeModelView(QWidget* parent, const QString& name, ResultTableModel* model);
// makeModelView with the number tables' look: alternating rows, whole-row selection, no wrapping.
QTableView* makeResultView(QWidget* parent, const QString& name, ResultTableModel* model);
ResultSortModel* sortModelOf(const QTableView* view);
ResultTableModel* resultModelOf(const QTableView* view);

}  // namespace partita
