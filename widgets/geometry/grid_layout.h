#pragma once
// Parallelism-grid geometry without Qt: where the title, the layer headers,
// the cells, the per-level column, the totals row and the legend go for a
// given area, from text sizes the view measures. Painting, hit-testing and
// cellRect() all read one GridGeometry, so what is drawn is what is clicked.
#include <optional>
#include <utility>
#include <vector>

namespace partita::view {

struct Box {
    double x = 0, y = 0, w = 0, h = 0;
    double right() const { return x + w; }
    double bottom() const { return y + h; }
    bool contains(double px, double py) const { return px >= x && px < x + w && py >= y && py < y + h; }
};

// What the layout needs to know, in pixels (text widths measured by the view).
struct GridMetrics {
    int levels = 0, layers = 0;
    double margin = 10;
    double gap = 2;                // white space between cells
    double row_label_w = 40;       // "H1" ... "HH", "total"
    double side_w = 110;           // per-level communication column
    double side_gap = 10;          // between the last cell and the side column
    double title_h = 0;            // 0 = no title line
    double header_text_w = 40;     // widest layer name, unrotated
    double header_line_h = 16;     // height of one header text line
    int side_header_lines = 1;     // the side column's heading may take two lines
    double max_rotated_h = 96;     // rotated names are elided beyond this
    double totals_h = 0;           // 0 = no totals row; its height with horizontal numbers
    double totals_text_w = 0;      // widest per-layer total; rotated (adding height) when wider than a cell
    double min_cell_w = 22, max_cell_w = 120;
    double min_cell_h = 22, max_cell_h = 56;
    // Legend items (swatch + text) as widths; wrapped onto lines of legend_line_h.
    std::vector<double> legend_items;
    double legend_line_h = 20, legend_spacing = 18, legend_top = 10;
};

struct GridGeometry {
    int levels = 0, layers = 0;
    double gap = 2;
    double cell_w = 0, cell_h = 0;
    bool rotated_headers = false;  // names drawn vertically when they do not fit a cell
    bool rotated_totals = false;   // per-layer totals likewise
    Box title;                     // full block width
    Box headers;                   // above the cells
    Box cells;                     // the levels x layers block (cells include their gap)
    Box row_labels;                // left of the cells
    Box side;                      // right of the cells, same rows
    Box totals;                    // below the cells, same columns (h = 0 when off)
    Box legend;                    // below everything (h = 0 when off)
    std::vector<Box> legend_items; // one per GridMetrics::legend_items, wrapped
    double total_w = 0, total_h = 0;  // the natural size of the whole figure

    // The painted cell (gap removed).
    Box cell(int level, int layer) const;
    Box header(int layer) const;      // column header slot
    Box rowLabel(int level) const;    // "H1" slot
    Box sideCell(int level) const;    // per-level communication slot
    Box totalCell(int layer) const;   // per-layer total slot
    std::optional<std::pair<int, int>> cellAt(double px, double py) const;  // (level, layer)
};

// Lays the figure out in (x, y, width, height): columns share the width
// (clamped to [min_cell_w, max_cell_w], block centred horizontally), rows share
// what is left of the height (clamped likewise), everything top-aligned.
GridGeometry layoutGrid(const GridMetrics& m, double x, double y, double width, double height);

// The width a figure needs to show every column at `cell_w` (for size hints).
double gridWidthFor(const GridMetrics& m, double cell_w);

}  // namespace partita::view
