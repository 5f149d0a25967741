#pragma once
// Communication heatmap (issue 6 item 2) over a CommMatrix of bytes: device x
// device traffic of a simulation (or any source), or level x layer traffic of
// a hierarchical run laid out like the grid view (rows H1..HH, columns the
// layers). Viridis colour scale with a colour bar in B/kB/MB/GB and a log
// toggle; zero cells grey; hover shows the cell; large matrices are binned to
// at least 3 px per cell and their labels thinned (view::layoutHeatmap).
#include <optional>
#include <utility>
#include <vector>

#include <QWidget>

#include "core/run/comm_matrix.h"
#include "core/run/run.h"
#include "widgets/common/figure_export.h"
#include "widgets/geometry/heatmap.h"

class QCheckBox;

namespace partita {

// Font sizes the heatmap lays out and paints with.
namespace comm_heatmap {
inline constexpr int kLabelPx = 12, kTitlePx = 14;
}

class CommHeatmap : public QWidget, public FigureSource {
    Q_OBJECT
public:
    explicit CommHeatmap(QWidget* parent = nullptr);

    // Any matrix; `title` heads the figure (a default names the kind).
    void setMatrix(CommMatrix matrix, const QString& title = {});
    // bytes[from][to] between devices, e.g. SimulationResult::traffic with the
    // first compute_devices names of SimulationResult::resources.
    void setDeviceTraffic(const std::vector<std::vector<double>>& bytes, std::vector<std::string> names,
                          const QString& title = {});
    // Level x layer bytes of run->shown(); nullptr clears.
    void setRun(const RunPtr& run);
    void clear();
    const CommMatrix& matrix() const { return matrix_; }
    bool isLevelMode() const { return matrix_.kind == CommMatrix::Kind::LevelsLayers && !matrix_.empty(); }

    void setLogScale(bool log);
    bool logScale() const { return log_; }
    // The scale of the cells as drawn at the widget's size (binned sums when binned).
    view::ColorScale colorScale() const;
    // The grid's current cell in level mode, outlined; (-1, -1) clears.
    void setSelectedCell(int row, int col);
    std::optional<std::pair<int, int>> selectedCell() const { return selected_; }
    std::optional<std::pair<int, int>> hoveredCell() const { return hover_; }  // source (row, col)

    // Where the cell showing source (row, col) is drawn, widget coordinates (tests click there).
    QRectF cellRect(int row, int col) const;
    // The frame at the widget's size (tests check binning and label thinning).
    view::HeatmapFrame frame() const { return frameIn(rect()); }
    // Tooltip text of the shown cell holding source (row, col).
    QString cellText(int row, int col) const;
    QString title() const { return title_; }
    // The data behind the view (every source cell, bytes; units in the header).
    CsvTable csv() const { return commMatrixCsv(matrix_); }

    QSize figureSize() const override;
    void paintFigure(QPainter& painter, const QRect& area) const override;
    QSize sizeHint() const override { return {760, 560}; }

signals:
    void cellClicked(int row, int col);          // source cell (the first of a bin)
    void levelLayerClicked(int level, int layer);  // level mode only: select that grid cell
    void logScaleChanged(bool log);

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;

private:
    struct Shown {  // the drawn cells at one binning
        int rows = 0, cols = 0;
        bool log = false;
        std::vector<double> bytes;
        view::ColorScale scale;
    };
    QFont pxFont(int px, bool bold = false) const;
    view::HeatmapFrame frameIn(const QRect& area) const;
    const Shown& shown(const view::HeatmapFrame& f) const;
    std::optional<std::pair<int, int>> sourceAt(const QRect& area, QPointF pos) const;
    QString label(bool row, int bin, int shown_count) const;  // a name, or "first–last" of a bin
    QString barLabel(double bytes) const;
    void changed();
    void placeLogBox();
    // One paint routine for screen and export; `interactive` adds hover and leaves room for the log box.
    void paint(QPainter& p, const QRect& area, bool interactive) const;
    void paintCells(QPainter& p, const view::HeatmapFrame& f, const Shown& s, bool interactive) const;
    void paintLabels(QPainter& p, const QRect& area, const view::HeatmapFrame& f, const Shown& s) const;
    void paintBar(QPainter& p, const view::HeatmapFrame& f, const Shown& s) const;

    CommMatrix matrix_;
    QString title_;
    bool log_ = false;
    std::optional<std::pair<int, int>> hover_, selected_;
    QCheckBox* log_box_ = nullptr;
    mutable Shown shown_;  // cache: binning and scale depend on the size painted at
    mutable bool shown_valid_ = false;
};

}  // namespace partita
