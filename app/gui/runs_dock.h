#pragma once
// The runs dock: the results database's history, filtered by network, array
// and method; open, compare (2-4), rename and delete stored runs.
#include <cstdint>
#include <vector>

#include <QDockWidget>

#include "widgets/common/runs_model.h"

class QComboBox;
class QGridLayout;
class QLabel;
class QToolButton;
class QSortFilterProxyModel;
class QTableView;

namespace partita::gui {

class RunsDock : public QDockWidget {
    Q_OBJECT
public:
    explicit RunsDock(QWidget* parent = nullptr);

    // Re-lists from `db` (nullptr: no database; `problem` says why).
    void refresh(const ResultsDb* db, const QString& problem = {});
    std::vector<std::int64_t> selectedIds() const;
    void select(const std::vector<std::int64_t>& ids);
    RunsModel* model() const { return model_; }
    QTableView* view() const { return view_; }
    QComboBox* filter(int which) const;  // 0 network, 1 array, 2 method
    QString statusText() const;           // the line under the list: count, file, read-only

signals:
    void openRequested(std::int64_t id);
    void compareRequested(const std::vector<std::int64_t>& ids);
    void deleteRequested(const std::vector<std::int64_t>& ids);
    void renameRequested(std::int64_t id, const QString& name);
    void selectionChanged();  // the toolbar's Compare follows it

private:
    void fillFilter(QComboBox* box, const std::vector<std::string>& values);
    void updateButtons();
    void arrangeButtons(int columns);  // 4: one row; 2: two rows of two
    bool eventFilter(QObject* watched, QEvent* event) override;  // the buttons' row follows its width

    const ResultsDb* db_ = nullptr;
    RunsModel* model_ = nullptr;
    QSortFilterProxyModel* proxy_ = nullptr;
    QTableView* view_ = nullptr;
    QComboBox* filters_[3] = {};
    QLabel* status_ = nullptr;
    QToolButton* open_ = nullptr;
    QToolButton* compare_ = nullptr;
    QToolButton* rename_ = nullptr;
    QToolButton* delete_ = nullptr;
    QWidget* buttons_box_ = nullptr;
    QGridLayout* buttons_ = nullptr;
    int button_columns_ = 0;
};

}  // namespace partita::gui
