#pragma once
// The accelerator groups of an AccPar array (docs/methods/accpar.md#the-hierarchy-over-an-array) as an editable
// table: kind, count, per-accelerator throughput and bandwidth. Cells are
// validated as typed; an invalid cell turns red with its reason and the last
// valid groups are kept.
#include <vector>

#include <QGroupBox>
#include <QStringList>

#include "core/model/groups.h"

class QPushButton;
class QTableWidget;

namespace partita {

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

    QTableWidget* table() const { return table_; }
    QPushButton* addButton() const { return add_; }
    QPushButton* removeButton() const { return remove_; }

signals:
    void edited();  // any edit by the user; groups() moves only when valid()

private:
    void addGroup();
    void removeGroup();
    void revalidate(bool by_user);  // parse every cell, mark the bad ones, adopt the groups when all are good
    void fitHeight();               // show every row (up to a few) without a scroll bar

    QTableWidget* table_ = nullptr;
    QPushButton* add_ = nullptr;
    QPushButton* remove_ = nullptr;
    std::vector<AcceleratorGroup> groups_;
    QStringList problems_;
    bool quiet_ = false;            // the table is being filled or styled: itemChanged is not an edit
};

}  // namespace partita
