// Heatmap geometry: colour scale mapping, cells and hit-testing, binning, and
// the exploration-surface indexing of bit patterns.
#include <gtest/gtest.h>

#include "widgets/geometry/heatmap.h"
#include "widgets/geometry/palette.h"
#include "widgets/geometry/ticks.h"

namespace partita::view {
namespace {

TEST(ColorScale, LinearAndLog) {
    const ColorScale lin{0, 10, false};
    EXPECT_EQ(lin.normalize(2.5), 0.25);
    EXPECT_EQ(lin.normalize(-1), 0);
    EXPECT_EQ(lin.normalize(20), 1);
    const ColorScale lg{1, 1000, true};
    EXPECT_DOUBLE_EQ(lg.normalize(10), 1.0 / 3);
    EXPECT_EQ(lg.normalize(0), 0);
    const auto fit = ColorScale::fit({0, 4, 16, -2}, true);
    EXPECT_EQ(fit.lo, 4);
    EXPECT_EQ(fit.hi, 16);
}

TEST(HeatmapLayout, CellsAndHits) {
    const HeatmapLayout h(16, 16, 40, 20, 320, 160);  // 20 x 10 px cells
    const auto c = h.cell(3, 5);
    EXPECT_EQ(c.x, 140);
    EXPECT_EQ(c.y, 50);
    EXPECT_EQ(c.w, 20);
    EXPECT_EQ(c.h, 10);
    EXPECT_EQ(h.cellAt(145, 55), std::make_pair(3, 5));
    EXPECT_EQ(h.cellAt(39, 55), std::nullopt);
    EXPECT_EQ(h.cellAt(360, 55), std::nullopt);
}

TEST(BinMatrix, SumsBlocks) {
    // 4x4 -> 2x2
    std::vector<double> m(16);
    for (int i = 0; i < 16; ++i) m[static_cast<size_t>(i)] = i;
    EXPECT_EQ(binMatrix(m, 4, 4, 2, 2), (std::vector<double>{0 + 1 + 4 + 5, 2 + 3 + 6 + 7, 8 + 9 + 12 + 13, 10 + 11 + 14 + 15}));
    // 3 columns into 2 bins: [0,1.5) -> {0,1}, [1.5,3) -> {2}
    EXPECT_EQ(binMatrix({1, 2, 4}, 1, 3, 1, 2), (std::vector<double>{3, 4}));
    EXPECT_THROW(binMatrix(m, 4, 4, 5, 1), std::invalid_argument);
}

TEST(SurfaceIndex, BitPatternsOfTwoGroups) {
    const SurfaceIndex s{2, 4, 4};
    EXPECT_EQ(s.rows(), 16);
    EXPECT_EQ(s.cols(), 16);
    EXPECT_EQ(s.code(0b0011, 0b0011), 0b00110011u);
    EXPECT_EQ(s.position(0b00010111), std::make_pair(0b0001, 0b0111));
    const SurfaceIndex t{3, 2, 1};
    EXPECT_EQ(t.rows(), 9);
    EXPECT_EQ(t.code(4, 2), 14u);
    EXPECT_EQ(t.position(14), std::make_pair(4, 2));
}

TEST(SurfaceIndex, RowsAreTheLeadingLayerOrLevelRun) {
    // Lenet-c, H1 and H4 free, level-major: rows = H1's four layers.
    std::vector<std::pair<int, int>> lenet;
    for (int h : {0, 3})
        for (int l = 0; l < 4; ++l) lenet.push_back({h, l});
    EXPECT_EQ(surfaceRowDigits(lenet), 4);
    // VGG-A, conv5_2 (7) and fc1 (8) at H1-H4, layer-major: rows = conv5_2's four levels.
    std::vector<std::pair<int, int>> vgg;
    for (int l : {7, 8})
        for (int h = 0; h < 4; ++h) vgg.push_back({h, l});
    EXPECT_EQ(surfaceRowDigits(vgg), 4);
    EXPECT_EQ(surfaceRowDigits({{0, 1}, {0, 2}, {0, 3}}), 1);  // one level: half of the cells
    EXPECT_EQ(surfaceRowDigits({{2, 5}}), 1);
    EXPECT_EQ(surfaceRowDigits({}), 0);
}

TEST(SurfaceIndex, BestCodesKeepTies) {
    EXPECT_EQ(bestCodes({1.0, 3.0, 2.0, 3.0}, false), (std::vector<unsigned long long>{1, 3}));
    EXPECT_EQ(bestCodes({1.0, 3.0, 2.0, 1.0 + 1e-15}, true), (std::vector<unsigned long long>{0, 3}));
    EXPECT_EQ(bestCodes({5.0}, true), (std::vector<unsigned long long>{0}));
    EXPECT_TRUE(bestCodes({}, true).empty());
}

TEST(Palette, OkabeItoAndViridis) {
    EXPECT_EQ(okabeIto(1), (Rgb{230, 159, 0}));
    EXPECT_EQ(okabeIto(9), okabeIto(1));
    EXPECT_EQ(viridis(0), (Rgb{68, 1, 84}));
    EXPECT_EQ(viridis(1), (Rgb{253, 231, 37}));
    EXPECT_EQ(viridis(0.0625), (Rgb{70, 23, 103}));  // halfway between the first two anchors
    EXPECT_EQ(textOn(viridis(0)), (Rgb{255, 255, 255}));
    EXPECT_EQ(textOn(viridis(1)), (Rgb{0, 0, 0}));
}

TEST(Ticks, OneTwoFiveSteps) {
    EXPECT_EQ(niceStep(10, 5), 2);
    EXPECT_EQ(niceStep(1, 4), 0.5);
    EXPECT_EQ(niceStep(7, 10), 1);
    const auto t = niceTicks(0, 10, 5);
    ASSERT_EQ(t.size(), 6u);
    EXPECT_EQ(t[1].label, "2");
    const auto s = timeTicks(0, 2.5e-3, 5);
    ASSERT_EQ(s.size(), 6u);
    EXPECT_EQ(s[1].value, 0.5e-3);
    EXPECT_EQ(s[1].label, "0.5 ms");
    EXPECT_EQ(s[5].label, "2.5 ms");
    EXPECT_EQ(timeTicks(0, 3, 3)[1].label, "1 s");
}

}  // namespace
}  // namespace partita::view
