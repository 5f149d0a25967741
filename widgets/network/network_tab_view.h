#pragma once
// The Network tab: the network's summary, then its graph (NetworkGraphView, with its colour,
// level and zoom controls) and its table (NetworkTable) as two pages. It mirrors the grid's
// current cell: a weighted layer's node (or table row) selects that grid column, and the grid's
// cell selects the node (and the level the graph is coloured by).
#include <QWidget>

#include "core/io/csv.h"
#include "core/run/run.h"

class QComboBox;
class QLabel;
class QTabWidget;
class QToolButton;

namespace partita {

class NetworkGraphView;
class NetworkTable;

class NetworkTabView : public QWidget {
    Q_OBJECT
public:
    explicit NetworkTabView(QWidget* parent = nullptr);
    void setInputs(const InputsPtr& inputs);
    void setRun(const RunPtr& run);  // colours the graph by its grid and communication

    NetworkGraphView* graph() const { return graph_; }
    NetworkTable* table() const { return table_; }
    QTabWidget* pages() const { return pages_; }  // "Graph", then "Table"
    QComboBox* colourBox() const { return colour_; }
    QComboBox* levelBox() const { return level_; }
    QToolButton* collapseButton() const { return collapse_; }  // "Collapse repeats": checked when every run is
    QLabel* title() const { return title_; }
    CsvTable csv() const;  // the table's (export target "network")

public slots:
    // The grid's current cell: the graph shows that level's choices and selects the layer's node.
    void setCurrentCell(int level, int layer);

signals:
    // A weighted layer's node was clicked: the grid cell (the graph's level, that layer).
    void currentCellChanged(int level, int layer);

private:
    void syncControls();  // the colour modes and levels the shown run offers
    void syncCollapse();  // the toggle: enabled with runs, checked when every run is collapsed

    QLabel* title_ = nullptr;
    QTabWidget* pages_ = nullptr;
    NetworkGraphView* graph_ = nullptr;
    NetworkTable* table_ = nullptr;
    QComboBox* colour_ = nullptr;
    QComboBox* level_ = nullptr;
    QToolButton *zoom_in_ = nullptr, *zoom_out_ = nullptr, *fit_ = nullptr, *collapse_ = nullptr;
};

}  // namespace partita
