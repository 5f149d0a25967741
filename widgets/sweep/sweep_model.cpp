#include "widgets/sweep/sweep_model.h"

#include <cmath>

#include <QColor>
#include <QFont>

#include "widgets/common/qt_text.h"

namespace partita {

using sweep::kMetricCount;
using sweep::kMetrics;
using sweep::metricInfo;

QString sweepMetricText(const sweep::Table& table, sweep::Metric metric, double value) {
    if (std::isnan(value)) return QStringLiteral("—");
    // A group's mean of a yes/no column is the share of its points that say yes.
    if (table.column(metric).yes_no)
        return value == 1 ? QObject::tr("yes") : value == 0 ? QObject::tr("no") : q(fixed(100 * value, 0)) + " % yes";
    if (const auto& figure = table.column(metric).figure) return q(figure->value(value));
    switch (metric) {
        case sweep::Metric::StepTime: return q(seconds(value));
        case sweep::Metric::Energy: return q(joules(value));
        case sweep::Metric::Communication: return q(withCommas(value)) + " el";
        case sweep::Metric::Speedup: return q(fixed(value, 2)) + "×";
    }
    return {};
}

SweepTableModel::SweepTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void SweepTableModel::setTable(std::shared_ptr<const sweep::Table> table) {
    beginResetModel();
    table_ = std::move(table);
    columns_ = table_ ? sweep::pointColumns(*table_) : std::vector<sweep::PointColumn>{};
    if (group_axis_ >= static_cast<int>(table_ ? table_->axes.size() : 0)) group_axis_ = -1;
    all_rows_ = true;
    regroup();
    endResetModel();
}

void SweepTableModel::setGroupAxis(int axis) {
    beginResetModel();
    group_axis_ = axis;
    regroup();
    endResetModel();
}

void SweepTableModel::setGroupRows(std::vector<std::size_t> rows) {
    group_rows_ = std::move(rows);
    all_rows_ = false;
    if (group_axis_ < 0) return;  // the point rows do not change
    beginResetModel();
    regroup();
    endResetModel();
}

void SweepTableModel::regroup() {
    groups_.clear();
    if (!table_ || group_axis_ < 0) return;
    std::vector<std::size_t> rows = group_rows_;
    if (all_rows_) {
        rows.resize(table_->rows.size());
        for (std::size_t i = 0; i < rows.size(); ++i) rows[i] = i;
    }
    groups_ = sweep::groupBy(*table_, rows, group_axis_);
}

int SweepTableModel::axisColumn(int axis) const {
    if (!table_ || group_axis_ >= 0) return -1;
    for (std::size_t c = 0; c < columns_.size(); ++c)
        if (columns_[c].kind == Column::Axis && columns_[c].index == static_cast<std::size_t>(axis)) return static_cast<int>(c);
    return -1;
}

bool SweepTableModel::isMetricOrAxis(int column) const {
    return group_axis_ < 0 && column >= 0 && column < static_cast<int>(columns_.size()) &&
           (columns_[static_cast<std::size_t>(column)].kind == Column::Axis ||
            columns_[static_cast<std::size_t>(column)].kind == Column::Metric);
}


int SweepTableModel::rowCount(const QModelIndex& parent) const {
    if (parent.isValid() || !table_) return 0;
    return static_cast<int>(group_axis_ < 0 ? table_->rows.size() : groups_.size());
}

int SweepTableModel::columnCount(const QModelIndex& parent) const {
    if (parent.isValid() || !table_) return 0;
    // Points: axes and metrics (pointColumn), status, run. Groups: value, points, failed, best and mean of each metric.
    return group_axis_ < 0 ? static_cast<int>(columns_.size())
                           : static_cast<int>(3 + 2 * kMetricCount);
}

QVariant SweepTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    // The CSV names a column as the header shows it, on one line; the header puts a metric's unit on a
    // second line, so that its column is as narrow as its values (a 1024-pixel window).
    if (orientation != Qt::Horizontal || (role != Qt::DisplayRole && role != CsvTextRole) || !table_) return {};
    QString text = headerText(section);
    const auto unit = text.lastIndexOf(" (");
    if (role == Qt::DisplayRole && unit > 0 && text.endsWith(')')) text[unit] = '\n';
    return text;
}

QString SweepTableModel::headerText(int section) const {
    const auto s = static_cast<std::size_t>(section);
    if (group_axis_ >= 0) {
        if (s == 0) return q(table_->axes[static_cast<std::size_t>(group_axis_)]);
        if (s == 1) return tr("points");
        if (s == 2) return tr("failed");
        const std::size_t m = (s - 3) % kMetricCount;
        return ((s - 3) < kMetricCount ? tr("best ") : tr("mean ")) + q(table_->columns[m].label);
    }
    const Column col = pointColumn(section);
    if (col.kind == Column::Axis) return q(table_->axes[col.index]);
    if (col.kind == Column::Metric) return q(table_->columns[col.index].label);
    return col.kind == Column::Status ? tr("status") : tr("run");
}

QVariant SweepTableModel::data(const QModelIndex& index, int role) const {
    if (!table_ || !index.isValid()) return {};
    const auto r = static_cast<std::size_t>(index.row());
    if (group_axis_ >= 0) {
        if (r >= groups_.size()) return {};
        if (role == RunIdRole) return qint64(0);
        if (role == RowRole) return -1;
        return groupData(groups_[r], index.column(), role);
    }
    if (r >= table_->rows.size()) return {};
    if (role == RunIdRole) return qint64(table_->rows[r].run_id);
    if (role == RowRole) return index.row();
    return pointData(table_->rows[r], index.column(), role);
}

QVariant SweepTableModel::pointData(const sweep::TableRow& row, int column, int role) const {
    const Column col = pointColumn(column);
    const std::size_t c = col.index;
    if (role == Qt::TextAlignmentRole && col.kind != Column::Axis)
        return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
    if (role == Qt::ForegroundRole) return table_->unfit(row) ? QVariant(QColor(0xb0, 0x1c, 0x1c)) : QVariant();
    if (role == Qt::FontRole && table_->unfit(row) && col.kind == Column::Metric && table_->columns[c].yes_no) {
        QFont bold;
        bold.setBold(true);
        return bold;
    }
    if (role != Qt::DisplayRole && role != RawValueRole && role != CsvTextRole && role != Qt::ToolTipRole) return {};
    if (col.kind == Column::Axis) {
        const QString text = q(row.axes[c]);
        bool number = false;
        const double v = text.toDouble(&number);
        return role == RawValueRole && number ? QVariant(v) : QVariant(text);
    }
    if (col.kind == Column::Metric) {
        const double v = row.metrics[c];
        if (role == RawValueRole) return std::isnan(v) ? QVariant(-INFINITY) : QVariant(v);
        if (role == CsvTextRole && table_->columns[c].yes_no && !std::isnan(v)) return v != 0 ? "yes" : "no";
        if (role == CsvTextRole) return std::isnan(v) ? QString() : q(formatNumber(v));
        if (role == Qt::ToolTipRole) return {};
        return sweepMetricText(*table_, kMetrics[c], v);
    }
    if (col.kind == Column::Status) {
        if (role == Qt::ToolTipRole) return row.ok() ? QVariant() : QVariant(q(row.error));
        return row.ok() ? tr("stored") : tr("failed: %1").arg(q(row.error));
    }
    if (role == Qt::ToolTipRole) return {};
    if (role == RawValueRole) return qint64(row.run_id);
    if (role == CsvTextRole) return row.run_id ? QString::number(row.run_id) : QString();
    return row.run_id ? QVariant(qint64(row.run_id)) : QVariant(QStringLiteral("—"));
}

QVariant SweepTableModel::groupData(const sweep::Group& g, int column, int role) const {
    const auto c = static_cast<std::size_t>(column);
    if (role == Qt::TextAlignmentRole && c > 0)
        return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
    if (role != Qt::DisplayRole && role != RawValueRole && role != CsvTextRole) return {};
    if (c == 0) {
        bool number = false;
        const double v = q(g.value).toDouble(&number);
        return role == RawValueRole && number ? QVariant(v) : QVariant(q(g.value));
    }
    if (c == 1) return qint64(g.rows.size());
    if (c == 2) return qint64(g.failed);
    const std::size_t m = (c - 3) % kMetricCount;
    const double v = (c - 3) < kMetricCount ? g.best[m] : g.mean[m];
    if (role == RawValueRole) return std::isnan(v) ? QVariant(-INFINITY) : QVariant(v);
    if (role == CsvTextRole) return std::isnan(v) ? QString() : q(formatNumber(v));
    return sweepMetricText(*table_, kMetrics[m], v);
}

SweepFilter::SweepFilter(QObject* parent) : QSortFilterProxyModel(parent) { setSortRole(RawValueRole); }

void SweepFilter::setText(const QString& text) {
    text_ = text.trimmed();
    invalidateFilter();
}

bool SweepFilter::filterAcceptsRow(int row, const QModelIndex& parent) const {
    if (text_.isEmpty()) return true;
    // Group rows aggregate the points the filter kept (setGroupRows): they are not filtered again.
    const QAbstractItemModel* m = sourceModel();
    if (m->index(row, 0, parent).data(SweepTableModel::RowRole).toInt() < 0) return true;
    // Every word must appear in some column: "vgg hypar 256" narrows as a user expects.
    for (const QString& word : text_.split(' ', Qt::SkipEmptyParts)) {
        bool found = false;
        for (int c = 0; c < m->columnCount() && !found; ++c)
            found = m->index(row, c, parent).data().toString().contains(word, Qt::CaseInsensitive);
        if (!found) return false;
    }
    return true;
}

}  // namespace partita
