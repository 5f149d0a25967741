// Timeline geometry: exact time <-> pixel mapping, zoom about an anchor, pan,
// culling to the visible range and merging of sub-pixel bars.
#include <gtest/gtest.h>

#include "widgets/geometry/timeline.h"

namespace partita::view {
namespace {

TEST(TimeAxis, MapsBothWays) {
    TimeAxis a{0.0, 1e-3, 100, 1100};  // 1 ms over 1000 px
    EXPECT_EQ(a.toPixel(0.0), 100);
    EXPECT_EQ(a.toPixel(0.5e-3), 600);
    EXPECT_EQ(a.toTime(1100), 1e-3);
    EXPECT_EQ(a.pixelsPerSecond(), 1e6);
}

TEST(TimeAxis, ZoomKeepsAnchorTime) {
    TimeAxis a{0.0, 8.0, 0, 800};
    a.zoom(2.0, 200);  // time under x=200 is 2 s
    EXPECT_EQ(a.t0, 1.0);
    EXPECT_EQ(a.t1, 5.0);
    EXPECT_EQ(a.toTime(200), 2.0);
    a.zoom(0.5, 200);
    EXPECT_EQ(a.t0, 0.0);
    EXPECT_EQ(a.t1, 8.0);
}

TEST(TimeAxis, PanAndFit) {
    TimeAxis a{0.0, 8.0, 0, 800};
    a.pan(100);  // dragging right by 100 px shows 1 s earlier
    EXPECT_EQ(a.t0, -1.0);
    EXPECT_EQ(a.t1, 7.0);
    a.fit(2.0, 12.0, 0.1);
    EXPECT_EQ(a.t0, 1.0);
    EXPECT_EQ(a.t1, 13.0);
}

TEST(LayoutLane, CullsToVisibleRange) {
    const std::vector<Bar> bars{{0, 1, 0, 1}, {2, 3, 0, 2}, {4, 5, 0, 3}, {6, 7, 0, 4}};
    TimeAxis a{2.5, 4.5, 0, 200};  // 100 px per second
    const auto r = layoutLane(bars, a);
    ASSERT_EQ(r.size(), 2u);
    EXPECT_EQ(r[0].first, 1);
    EXPECT_EQ(r[0].x0, -50);
    EXPECT_EQ(r[0].x1, 50);
    EXPECT_EQ(r[1].first, 2);
    EXPECT_EQ(r[1].x0, 150);
    EXPECT_EQ(r[1].x1, 250);
}

TEST(LayoutLane, MergesSubPixelBars) {
    // 1000 bars of 1 ms back to back over 1 s shown on 100 px: 0.1 px each.
    std::vector<Bar> bars;
    for (int i = 0; i < 1000; ++i) bars.push_back({i * 1e-3, (i + 1) * 1e-3, 0, i < 500 ? 0 : 1});
    TimeAxis a{0.0, 1.0, 0, 100};
    const auto r = layoutLane(bars, a);
    ASSERT_EQ(r.size(), 1u);
    EXPECT_EQ(r[0].count, 1000);
    EXPECT_EQ(r[0].color_key, -1);  // mixed phases
    EXPECT_DOUBLE_EQ(r[0].x1, 100);
    // Zoomed so every bar is 10 px: no merging.
    a = {0.0, 0.01, 0, 100};
    const auto z = layoutLane(bars, a);
    ASSERT_EQ(z.size(), 11u);  // bars 0..9 and bar 10 touching the right edge
    EXPECT_EQ(z[3].count, 1);
    EXPECT_EQ(z[3].color_key, 0);
}

TEST(LayoutLane, WideBarsStaySeparateAndRunsBreakAtGaps) {
    const std::vector<Bar> bars{{0.0, 0.001, 0, 0}, {0.002, 0.003, 0, 0}, {0.5, 0.9, 0, 1}, {0.95, 0.951, 0, 2}};
    TimeAxis a{0.0, 1.0, 0, 100};
    const auto r = layoutLane(bars, a);
    ASSERT_EQ(r.size(), 3u);
    EXPECT_EQ(r[0].count, 2);  // the two sub-pixel bars 0.1 px apart
    EXPECT_DOUBLE_EQ(r[0].x1, 1.0);  // at least one pixel wide
    EXPECT_EQ(r[1].first, 2);
    EXPECT_DOUBLE_EQ(r[1].x0, 50);
    EXPECT_DOUBLE_EQ(r[1].x1, 90);
    EXPECT_EQ(r[2].first, 3);
}

TEST(LayoutLane, BarAtFindsHit) {
    const std::vector<Bar> bars{{0, 1, 0, 0}, {2, 3, 0, 0}};
    EXPECT_EQ(barAt(bars, 0.5), 0);
    EXPECT_EQ(barAt(bars, 2.0), 1);
    EXPECT_EQ(barAt(bars, 1.5), std::nullopt);
    EXPECT_EQ(barAt(bars, 1.9, 0.2), 1);
    EXPECT_EQ(barAt(bars, 3.5), std::nullopt);
}

TEST(LaneLayout, CollapsingAGroupHidesItsLanes) {
    LaneLayout l({{"node 0", 0, 4, false}, {"links", 4, 2, false}}, 20, 16);
    EXPECT_EQ(l.laneTop(0), 16);
    EXPECT_EQ(l.laneTop(3), 76);
    EXPECT_EQ(l.laneTop(4), 96 + 16);
    EXPECT_EQ(l.height(), 16 + 80 + 16 + 40);
    EXPECT_EQ(l.laneAt(16 + 45), 2);
    l.setCollapsed(0, true);
    EXPECT_EQ(l.laneTop(0), std::nullopt);
    EXPECT_EQ(l.laneTop(4), 32);
    EXPECT_EQ(l.laneAt(5), 0);  // the collapsed header stands for its group
    EXPECT_EQ(l.laneAt(32 + 25), 5);
    EXPECT_EQ(l.laneAt(1000), std::nullopt);
}

TEST(LaneLayout, RowAtTellsHeadersFromLanes) {
    using Hit = LaneLayout::RowHit;
    LaneLayout l({{"node 0", 0, 4, false}, {"links", 4, 2, false}}, 20, 16);
    EXPECT_EQ(l.visibleLaneCount(), 6);
    EXPECT_EQ(l.rowAt(0), (Hit{0, -1}));
    EXPECT_EQ(l.rowAt(15.9), (Hit{0, -1}));
    EXPECT_EQ(l.rowAt(16), (Hit{0, 0}));
    EXPECT_EQ(l.rowAt(95.9), (Hit{0, 3}));
    EXPECT_EQ(l.rowAt(96), (Hit{1, -1}));
    EXPECT_EQ(l.rowAt(112 + 39), (Hit{1, 5}));
    EXPECT_EQ(l.rowAt(112 + 40), std::nullopt);
    EXPECT_EQ(l.rowAt(-1), std::nullopt);
    EXPECT_EQ(l.groupTop(1), 96);
    l.setCollapsed(0, true);
    EXPECT_EQ(l.visibleLaneCount(), 2);
    EXPECT_EQ(l.rowAt(5), (Hit{0, -1}));  // a collapsed group is only its header
    EXPECT_EQ(l.rowAt(16), (Hit{1, -1}));
    EXPECT_EQ(l.rowAt(32), (Hit{1, 4}));
    EXPECT_EQ(l.groupTop(1), 16);
}

}  // namespace
}  // namespace partita::view
