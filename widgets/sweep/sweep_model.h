#pragma once
// The sweep view's table (issue 18 item 5): one row per point of a sweep (its axes, its run's
// metrics, status and run id), or, grouped by an axis, one row per value with its aggregates.
// Sorting goes through RawValueRole (numbers as numbers); filtering through SweepFilter; the CSV is
// csvFromModel's, each cell's CsvTextRole text (numbers exact, in the header's unit).
#include <memory>
#include <vector>

#include <QAbstractTableModel>
#include <QSortFilterProxyModel>

#include "core/io/csv.h"
#include "core/sweep/table.h"
#include "widgets/common/result_table_model.h"

namespace partita {

class SweepTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    // RawValueRole: a double for numbers, else the text; CsvTextRole: the exact CSV text.
    // Past result_table_model.h's roles, so csvFromModel reads no HeadingRole here.
    static constexpr int RunIdRole = Qt::UserRole + 8;  // the row's run id (0: failed, or a group)
    static constexpr int RowRole = Qt::UserRole + 9;    // the index into Table::rows (-1 for a group)

    explicit SweepTableModel(QObject* parent = nullptr);
    void setTable(std::shared_ptr<const sweep::Table> table);
    const sweep::Table* table() const { return table_.get(); }
    // -1: one row per point; else grouped by that axis (an index into Table::axes).
    void setGroupAxis(int axis);
    int groupAxis() const { return group_axis_; }
    // The rows the groups aggregate (the filtered points); all rows until set.
    void setGroupRows(std::vector<std::size_t> rows);
    const std::vector<sweep::Group>& groups() const { return groups_; }
    int axisColumn(int axis) const;
    bool isMetricOrAxis(int column) const;  // a point column before status and run  // the column of Table::axes[axis] among the points' (-1 when grouped)
    // Points' columns follow sweep::pointColumns: varying axes, metrics, constant axes, status, run.
    // A point whose plan does not fit (a yes/no column reading no) is drawn in red.

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    using Column = sweep::PointColumn;
    QString headerText(int section) const;  // on one line
    Column pointColumn(int column) const { return columns_[static_cast<std::size_t>(column)]; }
    QVariant pointData(const sweep::TableRow& row, int column, int role) const;
    QVariant groupData(const sweep::Group& group, int column, int role) const;
    void regroup();

    std::shared_ptr<const sweep::Table> table_;
    int group_axis_ = -1;
    std::vector<std::size_t> group_rows_;
    bool all_rows_ = true;
    std::vector<sweep::Group> groups_;
    std::vector<sweep::PointColumn> columns_;  // sweep::pointColumns of the table
};

// Case-insensitive text filter over every column; the points it keeps, in the table's order.
class SweepFilter : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit SweepFilter(QObject* parent = nullptr);
    void setText(const QString& text);

protected:
    bool filterAcceptsRow(int row, const QModelIndex& parent) const override;

private:
    QString text_;
};

// A metric's value as the table shows it, with its unit ("—" for none).
// `value` of `metric` with its unit, as `table` names its metrics (an LLM sweep's: "51.26 %").
QString sweepMetricText(const sweep::Table& table, sweep::Metric metric, double value);

}  // namespace partita
