// Parallelism-grid geometry: cells tile and hit-test consistently, widths clamp
// and centre, headers and totals rotate only when their text does not fit, and
// the legend wraps inside the block.
#include <gtest/gtest.h>

#include "widgets/geometry/grid_layout.h"

namespace partita::view {
namespace {

GridMetrics metrics(int levels, int layers) {
    GridMetrics m;
    m.levels = levels;
    m.layers = layers;
    m.header_text_w = 40;
    return m;
}

TEST(GridLayout, CellsTileAndHitTest) {
    const GridGeometry g = layoutGrid(metrics(4, 19), 0, 0, 1280, 800);
    for (int h = 0; h < 4; ++h)
        for (int l = 0; l < 19; ++l) {
            const Box c = g.cell(h, l);
            EXPECT_GT(c.w, 0);
            EXPECT_EQ(g.cellAt(c.x + c.w / 2, c.y + c.h / 2), std::make_pair(h, l));
            if (l + 1 < 19) {
                EXPECT_LT(c.right(), g.cell(h, l + 1).x);  // a gap between neighbours
            }
        }
    EXPECT_EQ(g.cellAt(g.cells.x - 1, g.cells.y + 1), std::nullopt);
    EXPECT_EQ(g.cellAt(g.cells.right() + 1, g.cells.y + 1), std::nullopt);
    EXPECT_LE(g.side.right(), 1280);
    EXPECT_GE(g.side.x, g.cells.right());
}

TEST(GridLayout, WidthClampsAndCentres) {
    GridMetrics m = metrics(2, 3);
    m.max_cell_w = 100;
    const GridGeometry wide = layoutGrid(m, 0, 0, 2000, 400);
    EXPECT_EQ(wide.cell_w, 100);
    const double left = wide.row_labels.x, right = 2000 - wide.side.right();
    EXPECT_NEAR(left, right, 1e-9);  // the block sits in the middle
    m.min_cell_w = 30;
    const GridGeometry narrow = layoutGrid(m, 0, 0, 50, 400);
    EXPECT_EQ(narrow.cell_w, 30);
    EXPECT_EQ(gridWidthFor(m, 30), narrow.total_w);
}

TEST(GridLayout, RowsShareTheHeight) {
    GridMetrics m = metrics(4, 4);
    m.max_cell_h = 1000;
    const GridGeometry g = layoutGrid(m, 0, 0, 800, 600);
    EXPECT_NEAR(g.total_h, 600, 1e-9);  // rows absorb the spare height up to max_cell_h
    m.max_cell_h = 40;
    EXPECT_EQ(layoutGrid(m, 0, 0, 800, 600).cell_h, 40);
    EXPECT_EQ(layoutGrid(m, 0, 0, 800, 0).cell_h, m.min_cell_h);
}

TEST(GridLayout, HeadersAndTotalsRotateWhenTooWide) {
    GridMetrics m = metrics(4, 19);
    m.header_text_w = 50;
    m.totals_h = 30;
    m.totals_text_w = 45;
    const GridGeometry wide = layoutGrid(m, 0, 0, 1600, 800);
    EXPECT_FALSE(wide.rotated_headers);
    EXPECT_FALSE(wide.rotated_totals);
    EXPECT_EQ(wide.totals.h, 30);
    const GridGeometry narrow = layoutGrid(m, 0, 0, 600, 800);
    EXPECT_TRUE(narrow.rotated_headers);
    EXPECT_TRUE(narrow.rotated_totals);
    EXPECT_EQ(narrow.totals.h, 30 + 45);
    EXPECT_GT(narrow.headers.h, wide.headers.h);
    m.header_text_w = 500;  // very long names are elided, not given the whole height
    EXPECT_EQ(layoutGrid(m, 0, 0, 600, 800).headers.h, m.max_rotated_h + 10);
}

TEST(GridLayout, LegendWrapsInsideTheBlock) {
    GridMetrics m = metrics(2, 4);
    m.max_cell_w = 50;
    m.legend_items = {150, 150, 150};
    const GridGeometry g = layoutGrid(m, 0, 0, 1000, 400);
    ASSERT_EQ(g.legend_items.size(), 3u);
    const double block_right = g.side.right();
    for (const Box& b : g.legend_items) EXPECT_LE(b.right(), block_right + 1e-9);
    EXPECT_GT(g.legend_items[2].y, g.legend_items[0].y);  // the third item moved to a new line
    EXPECT_GE(g.legend.y, g.cells.bottom());
    EXPECT_LE(g.legend.bottom(), g.total_h);
}

}  // namespace
}  // namespace partita::view
