#pragma once
// The parallelism grid: rows = levels H1..HH, columns = weighted layers; each
// cell shows the split (dp / mp, Type-III later) in a colour-blind-safe colour,
// per-level communication on the right, per-layer totals below, a legend, and
// a tooltip with the layer's tensor sizes and the cell's intra/inter amounts.
// The view never evaluates: it reports toggles and its owner supplies a new run.
#include <vector>

#include <QFont>
#include <QString>
#include <QWidget>

#include "core/run/run.h"
#include "widgets/common/figure_export.h"
#include "widgets/geometry/grid_layout.h"

namespace partita {

class GridView : public QWidget, public FigureSource {
    Q_OBJECT
public:
    explicit GridView(QWidget* parent = nullptr);

    // Shows run->grid and its evaluation; cells differing from run->reference
    // (a hand edit) are outlined. nullptr clears the view.
    void setRun(RunPtr run);
    RunPtr run() const { return run_; }

    // Cells differing from `other` are highlighted (comparison view); nullptr = off.
    void setCompareGrid(const Grid* other);
    // When false, clicks and keys only move the current cell.
    void setEditable(bool editable);
    bool editable() const { return editable_; }
    // Compact: no legend and no totals (small multiples in the comparison view).
    void setCompact(bool compact);

    int currentLevel() const { return current_level_; }
    int currentLayer() const { return current_layer_; }
    void setCurrentCell(int level, int layer);
    // The cell's rectangle in widget coordinates (for tests and tooltips).
    QRect cellRect(int level, int layer) const;

    // Compact views: the height that shows every row at a comfortable cell height for this width.
    bool hasHeightForWidth() const override;
    int heightForWidth(int width) const override;
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;
    QSize figureSize() const override;
    void paintFigure(QPainter& painter, const QRect& area) const override;
    // The grid as a table: one row per level with the per-layer choices and the
    // level's communication, plus a per-layer totals row (units in the header).
    CsvTable csv() const;
    // Layer l's traffic over the whole array: sum over levels h (0 = H1) of
    // 2^h * (intra + inter); the values sum to eval().total_elements.
    std::vector<double> layerTotals() const;
    // Cells shown as differing (from run->reference, or from the compare grid).
    bool cellDiffers(int level, int layer) const;

signals:
    // The user asked to flip this cell (click, Space or Enter) while editable.
    void cellToggled(int level, int layer);
    void currentCellChanged(int level, int layer);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    bool event(QEvent* event) override;  // tooltips

private:
    QString accparToolTip(int level, int layer) const;
    struct Fonts {
        QFont cell, cell_small, label, small, header, title;  // cell_small: for narrow columns
    };
    struct LegendEntry {
        enum Kind { Swatch, Outline } kind = Swatch;
        int colour = 0;  // swatches: the Split they stand for
        QString text;
    };
    static QString splitDescription(Split s);  // "Type-I, split the batch"
    static QString shortNumber(double v);      // withPrefix without a unit: "70.78 M"
    static QString sideHeading();              // "comm (elements)"
    QString titleSummary() const;              // "total 3,901,560 elements · step 10.28 ms"
    Fonts fonts() const;
    std::vector<LegendEntry> legendEntries() const;
    view::GridMetrics metrics() const;
    view::GridGeometry geometryIn(const QRect& area) const;
    // One paint routine for screen and export; `interactive` adds the current-cell focus mark.
    void paintGrid(QPainter& painter, const QRect& area, bool interactive) const;
    void paintCells(QPainter& painter, const view::GridGeometry& g, const Fonts& f, bool interactive) const;
    void paintMargins(QPainter& painter, const view::GridGeometry& g, const Fonts& f) const;
    void paintLegend(QPainter& painter, const view::GridGeometry& g, const Fonts& f) const;
    QString toolTipAt(const QPoint& pos, QRect* zone) const;
    QString cellToolTip(int level, int layer) const;
    bool hasCells() const;

    RunPtr run_;
    Grid compare_;
    bool have_compare_ = false;
    bool editable_ = true;
    bool compact_ = false;
    int current_level_ = 0, current_layer_ = 0;
};

}  // namespace partita
