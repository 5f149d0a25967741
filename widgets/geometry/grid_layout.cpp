#include "widgets/geometry/grid_layout.h"

#include <algorithm>
#include <cmath>

namespace partita::view {

namespace {

double clampTo(double v, double lo, double hi) { return std::max(lo, std::min(v, hi)); }

}  // namespace

Box GridGeometry::cell(int level, int layer) const {
    return {cells.x + layer * cell_w + gap / 2, cells.y + level * cell_h + gap / 2, cell_w - gap, cell_h - gap};
}

Box GridGeometry::header(int layer) const { return {headers.x + layer * cell_w, headers.y, cell_w, headers.h}; }

Box GridGeometry::rowLabel(int level) const { return {row_labels.x, cells.y + level * cell_h, row_labels.w, cell_h}; }

Box GridGeometry::sideCell(int level) const { return {side.x, cells.y + level * cell_h, side.w, cell_h}; }

Box GridGeometry::totalCell(int layer) const { return {totals.x + layer * cell_w, totals.y, cell_w, totals.h}; }

std::optional<std::pair<int, int>> GridGeometry::cellAt(double px, double py) const {
    if (levels <= 0 || layers <= 0 || !cells.contains(px, py)) return std::nullopt;
    const int level = std::min(levels - 1, static_cast<int>(std::floor((py - cells.y) / cell_h)));
    const int layer = std::min(layers - 1, static_cast<int>(std::floor((px - cells.x) / cell_w)));
    return std::make_pair(level, layer);
}

double gridWidthFor(const GridMetrics& m, double cell_w) {
    return 2 * m.margin + m.row_label_w + std::max(1, m.layers) * cell_w + m.side_gap + m.side_w;
}

GridGeometry layoutGrid(const GridMetrics& m, double x, double y, double width, double height) {
    GridGeometry g;
    g.levels = m.levels;
    g.layers = m.layers;
    g.gap = m.gap;
    const int cols = std::max(1, m.layers), rows = std::max(1, m.levels);

    // Horizontal first: it fixes the cell width, hence header rotation and legend wrapping.
    g.cell_w = clampTo((width - gridWidthFor(m, 0)) / cols, m.min_cell_w, m.max_cell_w);
    const double block_w = gridWidthFor(m, g.cell_w) - 2 * m.margin;
    const double left = x + std::max(m.margin, (width - block_w) / 2);
    g.rotated_headers = m.header_text_w + 8 > g.cell_w;
    const double names_h = g.rotated_headers ? std::min(m.header_text_w, m.max_rotated_h) + 10 : m.header_line_h + 8;
    const double header_h = std::max(names_h, m.side_header_lines * m.header_line_h + 8);

    // Legend items flow left to right and wrap at the block width; each line holds at least one.
    double legend_h = 0;
    std::vector<std::pair<double, int>> placed;  // (x offset, line) per item
    if (!m.legend_items.empty()) {
        double cx = 0;
        int line = 0;
        for (double w : m.legend_items) {
            if (cx > 0 && cx + w > block_w) {
                cx = 0;
                ++line;
            }
            placed.emplace_back(cx, line);
            cx += w + m.legend_spacing;
        }
        legend_h = m.legend_top + (line + 1) * m.legend_line_h;
    }
    const double totals_gap = m.totals_h > 0 ? 4 : 0;
    g.rotated_totals = m.totals_h > 0 && m.totals_text_w + 4 > g.cell_w;
    const double totals_h = g.rotated_totals ? m.totals_h + m.totals_text_w : m.totals_h;

    double top = y + m.margin;
    g.title = {left, top, block_w, m.title_h};
    top += m.title_h;
    const double fixed_h = 2 * m.margin + m.title_h + header_h + totals_gap + totals_h + legend_h;
    g.cell_h = clampTo((height - fixed_h) / rows, m.min_cell_h, m.max_cell_h);
    g.headers = {left + m.row_label_w, top, cols * g.cell_w, header_h};
    top += header_h;
    g.cells = {left + m.row_label_w, top, cols * g.cell_w, rows * g.cell_h};
    g.row_labels = {left, top, m.row_label_w, g.cells.h};
    g.side = {g.cells.right() + m.side_gap, top, m.side_w, g.cells.h};
    top += g.cells.h + totals_gap;
    g.totals = {g.cells.x, top, g.cells.w, totals_h};
    top += totals_h;
    g.legend = {left, top + (legend_h > 0 ? m.legend_top : 0), block_w, legend_h > 0 ? legend_h - m.legend_top : 0};
    for (size_t i = 0; i < placed.size(); ++i)
        g.legend_items.push_back({left + placed[i].first, g.legend.y + placed[i].second * m.legend_line_h,
                                  m.legend_items[i], m.legend_line_h});
    top += legend_h;
    g.total_w = block_w + 2 * m.margin;
    g.total_h = top + m.margin - y;
    return g;
}

}  // namespace partita::view
