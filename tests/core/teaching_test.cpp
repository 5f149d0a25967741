// The teaching view's blocks and exchanges: exact partitions for dp / mp and
// amounts equal to explainCell's (and so to the cost model's).
#include <gtest/gtest.h>

#include "core/search/methods.h"
#include "core/study/teaching.h"
#include "test_util.h"

namespace partita {
namespace {

double area(const std::vector<Region>& rs) {
    double a = 0;
    for (const auto& r : rs) a += r.area();
    return a;
}

TEST(Teaching, HeldRegionsPartitionTheTensor) {
    // dp holds row halves (batch), mp column halves of activations; Full is replicated.
    EXPECT_EQ(heldRegion(Layout::Rows, 0.5, 0), (Region{0, 0, 1, 0.5}));
    EXPECT_EQ(heldRegion(Layout::Rows, 0.5, 1), (Region{0, 0.5, 1, 1}));
    EXPECT_EQ(heldRegion(Layout::Cols, 0.25, 0), (Region{0, 0, 0.25, 1}));
    EXPECT_EQ(heldRegion(Layout::Cols, 0.25, 1), (Region{0.25, 0, 1, 1}));
    EXPECT_EQ(heldRegion(Layout::Full, 0.25, 1), (Region{0, 0, 1, 1}));
    for (Layout l : {Layout::Rows, Layout::Cols})
        EXPECT_EQ(heldRegion(l, 0.25, 0).area() + heldRegion(l, 0.25, 1).area(), 1.0);
}

TEST(Teaching, MissingRegionsAreTheConversionShares) {
    // dp -> mp (rows -> columns): the missing quadrant.
    EXPECT_EQ(missingRegions(Layout::Rows, Layout::Cols, 0.5, 0), (std::vector<Region>{{0, 0.5, 0.5, 1}}));
    EXPECT_EQ(missingRegions(Layout::Rows, Layout::Cols, 0.5, 1), (std::vector<Region>{{0.5, 0, 1, 0.5}}));
    EXPECT_TRUE(missingRegions(Layout::Full, Layout::Cols, 0.5, 0).empty());
    EXPECT_TRUE(missingRegions(Layout::Rows, Layout::Rows, 0.5, 1).empty());
    const Layout all[] = {Layout::Rows, Layout::Cols, Layout::Full};
    for (Layout from : all)
        for (Layout to : all)
            for (double rho : {0.5, 0.25, 0.75})
                EXPECT_DOUBLE_EQ(area(missingRegions(from, to, rho, 0)), conversionShare(from, to, rho));
    EXPECT_EQ(subtract({0, 0, 1, 1}, {0.25, 0.25, 0.75, 0.75}).size(), 4u);
}

TEST(Teaching, AmountsEqualExplainCellOnLenet) {
    const auto [t, p, g, e] = test::lenetPlan();
    for (int h = 0; h < 4; ++h)
        for (int l = 0; l < 4; ++l) {
            const auto tc = teachCell(t, g, p, h, l);
            double here = 0, after = 0;
            for (const auto& m : tc.moves) (m.where == Where::After ? after : here) += m.transfer.elements;
            EXPECT_EQ(here, e.intra(h, l) + e.inter(h, l)) << h << "," << l;
            EXPECT_EQ(tc.chargedHere(), here);
            EXPECT_EQ(tc.next.has_value(), l < 3);
            EXPECT_EQ(after, l < 3 ? e.inter(h, l + 1) : 0.0) << h << "," << l;
            double phases = 0;
            for (Phase ph : {Phase::Forward, Phase::Backward, Phase::Gradient}) phases += tc.phaseElements(ph);
            EXPECT_EQ(phases, here + after);
        }
}

TEST(Teaching, DpConvBeforeMpFcOnLenet) {
    // conv2 at H2 is dp and fc1 (mp) follows: the gradient reduces dW, the
    // boundary to fc1 sends a quarter of fc1's input each way (b = 256, c_in = 400).
    const auto [t, p, g, e] = test::lenetPlan();
    ASSERT_EQ(g.split(1, 1), Split::Batch);
    ASSERT_EQ(g.split(1, 2), Split::Input);
    const auto tc = teachCell(t, g, p, 1, 1);
    ASSERT_EQ(tc.moves.size(), 3u);
    EXPECT_EQ(tc.moves[0].transfer.phase, Phase::Forward);
    EXPECT_EQ(tc.moves[0].where, Where::After);
    EXPECT_EQ(tc.moves[0].from, Layout::Rows);
    EXPECT_EQ(tc.moves[0].to, Layout::Cols);
    EXPECT_EQ(tc.moves[0].transfer.elements, 0.25 * 256 * 400);
    EXPECT_EQ(tc.moves[1].transfer.phase, Phase::Backward);
    EXPECT_EQ(tc.moves[1].transfer.tensor, "E_l+1");
    EXPECT_EQ(tc.moves[2].transfer.phase, Phase::Gradient);
    EXPECT_EQ(tc.moves[2].where, Where::Intra);
    EXPECT_EQ(tc.moves[2].transfer.elements, tc.cell.intra);
    const auto csv = teachingCsv(tc);
    ASSERT_EQ(csv.rows.size(), 3u);
    EXPECT_EQ(csv.rows[0][4], "l | l+1");
    EXPECT_EQ(csv.rows[0][8], formatNumber(25600));
    EXPECT_EQ(csv.rows[0][9], formatNumber(102400));
}

TEST(Teaching, OutsideTheGridThrows) {
    const auto t = test::builtin("lenet-c");
    const Grid g = hyparSearch(t, 2, CostParams{});
    EXPECT_THROW(teachCell(t, g, CostParams{}, 2, 0), std::out_of_range);
}

}  // namespace
}  // namespace partita
