#pragma once
// A per-layer choice table: columns are layers, rows the options a layer can
// take (MPT's cluster shapes, Learn-to-Scale's boundary strategies), each cell
// the cost of that option for that layer. The chosen option is filled, the
// optimiser's pick marked with a dot, an override outlined like an edited grid
// cell. Laid out by the parallelism grid's geometry (view::layoutGrid) and
// painted in its palette, so both grids read alike. The view never evaluates:
// it reports the cell the user picked and its owner supplies new data.
#include <string>
#include <vector>

#include <QStringList>
#include <QWidget>

#include "widgets/common/figure_export.h"
#include "widgets/geometry/grid_layout.h"

namespace partita {

struct ChoiceGridData {
    std::string title;                  // heads the figure
    std::string row_title;              // what a row is: "cluster (N_g, N_c)", "strategy"
    std::vector<std::string> rows;      // option names
    std::vector<std::string> columns;   // layer names
    std::vector<double> values;         // row-major rows x columns; NaN = not allowed there
    std::string unit;                   // "s", "B", "cycles": values are formatted with SI prefixes
    std::vector<int> chosen;            // per column: the row in effect (-1: none)
    std::vector<int> best;              // per column: the optimiser's pick (-1: none)
    std::vector<std::string> notes;     // optional row-major tooltip text per cell
    std::string best_label = "optimiser's pick";  // what `best` stands for (legend and tooltips)

    double at(int row, int col) const { return values[static_cast<size_t>(row) * columns.size() + col]; }
    bool allowed(int row, int col) const;
    bool overridden(int col) const;     // chosen differs from best
};

class ChoiceGrid : public QWidget, public FigureSource {
    Q_OBJECT
public:
    explicit ChoiceGrid(QWidget* parent = nullptr);

    // Throws std::invalid_argument when the vectors' sizes disagree.
    void setData(ChoiceGridData data);
    const ChoiceGridData& data() const { return data_; }

    QRect cellRect(int row, int col) const;  // widget coordinates (tests click there)
    QString cellText(int row, int col) const;  // the tooltip of a cell
    int currentColumn() const { return current_col_; }

    // Rows: one per layer with every option's value, the chosen one and the optimiser's (units in the header).
    CsvTable csv() const;
    QSize figureSize() const override;
    void paintFigure(QPainter& painter, const QRect& area) const override;
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override { return {360, 180}; }

signals:
    // The user picked option `row` for layer `col` (click, or arrows + Space).
    void choiceRequested(int row, int col);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    bool event(QEvent* event) override;  // tooltips

private:
    QStringList legendTexts() const;
    view::GridMetrics metrics() const;
    view::GridGeometry geometryIn(const QRect& area) const;
    void paint(QPainter& p, const QRect& area, bool interactive) const;

    ChoiceGridData data_;
    int current_row_ = 0, current_col_ = 0;
};

}  // namespace partita
