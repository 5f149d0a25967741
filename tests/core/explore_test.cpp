// Exploration mechanics: progress, cancellation, code <-> grid mapping, and
// agreement with the full evaluation.
#include <gtest/gtest.h>

#include <atomic>

#include "core/search/explore.h"
#include "core/search/methods.h"
#include "core/util/error.h"
#include "test_util.h"

namespace partita {
namespace {

TEST(Explore, PointsAgreeWithEvaluate) {
    const auto t = test::builtin("cifar-c");
    const CostParams p;
    const Array a = defaultArray(3);
    ExploreRequest req;
    req.base = hyparSearch(t, 3, p);
    req.cells = levelCells({1}, 5);
    req.threads = 2;
    const auto r = explore(t, a, p, req);
    ASSERT_EQ(r.size(), 32u);
    for (std::uint64_t c = 0; c < r.size(); ++c) {
        const auto e = evaluate(t, a, r.grid(req.base, c), p);
        EXPECT_EQ(r.total_elements[c], e.total_elements);
        EXPECT_DOUBLE_EQ(r.time_step_s[c], e.time_step_s);
    }
    EXPECT_EQ(r.grid(req.base, r.base_code), req.base);
}

TEST(Explore, ProgressReachesOneAndIsMonotone) {
    const auto t = test::builtin("lenet-c");
    ExploreRequest req;
    req.base = hyparSearch(t, 4, CostParams{});
    req.cells = levelCells({0, 1, 2, 3}, 4);
    std::vector<double> seen;
    explore(t, defaultArray(4), CostParams{}, req, [&](double f) { seen.push_back(f); });
    ASSERT_FALSE(seen.empty());
    EXPECT_EQ(seen.back(), 1.0);
    for (size_t i = 1; i < seen.size(); ++i) EXPECT_LE(seen[i - 1], seen[i]);
}

TEST(Explore, CancelStopsTheWork) {
    const auto t = test::builtin("vgg-a");
    ExploreRequest req;
    req.base = hyparSearch(t, 4, CostParams{});
    req.cells = levelCells({0, 1}, 11);  // 2^22 points
    std::atomic<int> polls{0};
    EXPECT_THROW(explore(t, defaultArray(4), CostParams{}, req, {}, [&] { return ++polls > 2; }), Cancelled);
}

TEST(Explore, RejectsBadRequests) {
    const auto t = test::builtin("lenet-c");
    ExploreRequest req;
    req.base = hyparSearch(t, 4, CostParams{});
    req.cells = {{4, 0}};
    EXPECT_THROW(explore(t, defaultArray(4), CostParams{}, req), std::invalid_argument);
    req.cells = {{0, 0}, {0, 0}};
    EXPECT_THROW(explore(t, defaultArray(4), CostParams{}, req), std::invalid_argument);
    req.cells = {};
    EXPECT_THROW(explore(t, defaultArray(4), CostParams{}, req), std::invalid_argument);
}

TEST(Explore, DigitsAndCodes) {
    Grid g = Grid::fromStrings({"0011", "0010"}, 4);
    const auto cells = levelCells({0, 1}, 4);
    const auto code = codeOf(g, cells, 2);
    EXPECT_EQ(code, 0b00110010u);
    EXPECT_EQ(digits(code, 2, 8, 0, 4), "0011");
    EXPECT_EQ(digits(code, 2, 8, 4, 4), "0010");
    Grid h(2, 4);
    applyCode(h, cells, 2, code);
    EXPECT_EQ(h, g);
}

}  // namespace
}  // namespace partita
