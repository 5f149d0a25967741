// The teaching view's explanation agrees with the cost model it explains.
#include <gtest/gtest.h>

#include "core/search/methods.h"
#include "core/study/explain.h"
#include "test_util.h"

namespace partita {
namespace {

TEST(Explain, ForwardPlusBackwardIsTheTransitionCoefficient) {
    for (int a = 0; a < kSplitCount; ++a)
        for (int b = 0; b < kSplitCount; ++b)
            for (double rho : {0.5, 0.25, 0.75}) {
                const auto from = static_cast<Split>(a), to = static_cast<Split>(b);
                EXPECT_DOUBLE_EQ(forwardShare(from, to, rho) + backwardShare(from, to, rho),
                                 interCoefficient(from, to, rho));
            }
    // docs/methods/accpar.md#the-nine-transitions one-sided entries: I->III forward only, II->I backward only.
    EXPECT_EQ(forwardShare(Split::Batch, Split::Output, 0.5), 0.5);
    EXPECT_EQ(backwardShare(Split::Batch, Split::Output, 0.5), 0.0);
    EXPECT_EQ(forwardShare(Split::Input, Split::Batch, 0.5), 0.0);
    EXPECT_EQ(backwardShare(Split::Input, Split::Batch, 0.5), 0.5);
}

TEST(Explain, AmountsMatchEvaluationOnLenet) {
    const auto [t, p, g, e] = test::lenetPlan();
    for (int h = 0; h < 4; ++h)
        for (int l = 0; l < 4; ++l) {
            const auto ex = explainCell(t, g, p, h, l);
            EXPECT_EQ(ex.intra, e.intra(h, l)) << h << "," << l;
            EXPECT_EQ(ex.inter, e.inter(h, l)) << h << "," << l;
        }
    // fc1 at H2 is mp after conv2's dp: partial sums of F_l+1, and the dp -> mp
    // boundary costs a quarter of A(F_l) each way (O7: b = 256, c_in = 400).
    const auto ex = explainCell(t, g, p, 1, 2);
    EXPECT_EQ(ex.state.d_in, 400);
    EXPECT_EQ(ex.cell.split, Split::Input);
    EXPECT_EQ(ex.previous_split, Split::Batch);
    ASSERT_EQ(ex.transfers.size(), 3u);
    EXPECT_EQ(ex.transfers[0].phase, Phase::Forward);
    EXPECT_EQ(ex.transfers[0].elements, 2 * 256 * 500);
    EXPECT_EQ(ex.transfers[1].phase, Phase::Forward);
    EXPECT_EQ(ex.transfers[1].elements, 0.25 * 256 * 400);
    EXPECT_EQ(ex.transfers[2].phase, Phase::Backward);
    EXPECT_EQ(ex.transfers[2].elements, 0.25 * 256 * 400);
}

}  // namespace
}  // namespace partita
