#pragma once
// The runs dock's table: stored runs from the results database, newest first,
// with sorting through a proxy. Holds summaries only; the app loads a run by id.
#include <vector>

#include <QAbstractTableModel>

#include "core/store/results_db.h"

namespace partita {

class RunsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    // TotalElements: a summary has no bytes per element, so the total is shown in elements.
    // TotalGB is its former name, kept so older code compiles.
    enum Column {
        Name, Method, Kind, Network, Array, Accelerators, TotalElements, PerfVsDp, Created, ColumnCount,
        TotalGB = TotalElements
    };
    // Qt::DisplayRole: formatted text. Qt::UserRole: the raw value to sort by (numbers for
    // numeric columns, the ISO time for Created). IdRole: the run's id in every column.
    static constexpr int IdRole = Qt::UserRole + 1;

    explicit RunsModel(QObject* parent = nullptr);

    void setRuns(std::vector<RunSummary> runs);
    const RunSummary& summary(int row) const { return runs_[static_cast<size_t>(row)]; }
    int rowOf(std::int64_t id) const;  // -1 if absent

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    // Editing the Name column emits renameRequested; the app renames in the DB.
    bool setData(const QModelIndex& index, const QVariant& value, int role) override;

signals:
    void renameRequested(std::int64_t id, const QString& name);

private:
    std::vector<RunSummary> runs_;
};

}  // namespace partita
