#pragma once
// The accelerator groups of an AccPar array (docs/methods/accpar.md#the-hierarchy-over-an-array) as an editable
// table: kind, count, per-accelerator throughput and bandwidth. Cells are
// validated as typed; an invalid cell turns red with its reason and the last
// valid groups are kept.
#include <array>
#include <vector>

#include <QAbstractTableModel>
#include <QGroupBox>
#include <QStringList>

#include "core/model/groups.h"

class QPushButton;
class QTableView;

namespace partita {

// The groups as typed: each cell's text, and its problem once the editor has validated it. A cell
// that reads carries its number in RawValueRole (result_table_model.h).
class GroupsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    using Texts = std::array<QString, 4>;  // by GroupsEditor::Column
    explicit GroupsModel(QObject* parent = nullptr);

    void setRows(std::vector<Texts> rows);
    void appendRow(const Texts& row);
    void removeRowAt(int row);
    QString text(int row, int column) const;
    void setProblem(int row, int column, const QString& reason);  // empty: valid
    void setRaw(int row, int column, QVariant value);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;

signals:
    void typed();  // setData changed a cell's text: the user's edit

private:
    struct Row {
        Texts text, problem;
        std::array<QVariant, 4> raw;
    };
    std::vector<Row> rows_;
};

class GroupsEditor : public QGroupBox {
    Q_OBJECT
public:
    enum Column { Kind, Count, Throughput, Bandwidth, ColumnCount };
    static constexpr int kProblemRole = Qt::UserRole;  // a cell's problem text, empty when valid

    explicit GroupsEditor(QWidget* parent = nullptr);

    void setGroups(const std::vector<AcceleratorGroup>& groups);  // no edited() signal
    std::vector<AcceleratorGroup> groups() const { return groups_; }  // the last valid groups
    bool valid() const { return problems_.isEmpty(); }
    QStringList problems() const { return problems_; }  // "Group 2 bandwidth (B/s): ...", table order

    QTableView* table() const { return table_; }
    GroupsModel* model() const { return model_; }
    QPushButton* addButton() const { return add_; }
    QPushButton* removeButton() const { return remove_; }

signals:
    void edited();  // any edit by the user; groups() moves only when valid()

private:
    void addGroup();
    void removeGroup();
    void revalidate(bool by_user);  // parse every cell, mark the bad ones, adopt the groups when all are good
    void fitHeight();               // show every row (up to a few) without a scroll bar

    int currentRow() const;  // -1: none
    QTableView* table_ = nullptr;
    GroupsModel* model_ = nullptr;
    QPushButton* add_ = nullptr;
    QPushButton* remove_ = nullptr;
    std::vector<AcceleratorGroup> groups_;
    QStringList problems_;
};

}  // namespace partita
