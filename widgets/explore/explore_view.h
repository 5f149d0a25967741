#pragma once
// The exploration tab: pick the (level, layer) cells to enumerate, see the
// space's size, and read the result — the least-communication and fastest
// points against HyPar's greedy answer, the 2^N surface (ExploreSurface) and
// the best points in a table; a surface point or a table row applies to the grid.
#include <vector>

#include <QWidget>

#include "core/run/run.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QListWidget;
class QPushButton;
class QTableView;

namespace partita {

class ResultTableModel;

class ExploreSurface;

class ExploreView : public QWidget {
    Q_OBJECT
public:
    explicit ExploreView(QWidget* parent = nullptr);

    // New inputs reset the selection to a sensible default (the whole space
    // when it has at most 2^16 points, else the last conv and first fc at every level).
    void setInputs(const InputsPtr& inputs);
    void setResult(const RunPtr& run);  // an Explore run; nullptr clears
    RunPtr result() const { return result_; }

    std::vector<CellRef> cells() const;  // levels x layers chosen, level-major
    void setSelection(const std::vector<int>& levels, const std::vector<int>& layers);
    QTableView* table() const { return table_; }  // over a ResultTableModel, sorted through its ResultSortModel
    int currentPoint() const;                      // the current row in the model's order; -1: none
    QPushButton* exploreButton() const { return explore_; }
    ExploreSurface* surface() const { return surface_; }

signals:
    void exploreRequested(const std::vector<partita::CellRef>& cells);
    void applyRequested(const partita::Grid& grid);

private:
    void updateCount();
    QListWidget* levels_ = nullptr;
    QListWidget* layers_ = nullptr;
    QLabel* count_ = nullptr;
    QPushButton* explore_ = nullptr;
    QPushButton* apply_ = nullptr;
    QLabel* summary_ = nullptr;
    QTableView* table_ = nullptr;
    ResultTableModel* model_ = nullptr;
    ExploreSurface* surface_ = nullptr;
    QComboBox* metric_ = nullptr;
    QCheckBox* log_ = nullptr;
    InputsPtr inputs_;
    RunPtr result_;
    std::vector<std::uint64_t> row_codes_;
};

}  // namespace partita
