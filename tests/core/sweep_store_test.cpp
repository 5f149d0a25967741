// Issue 26 item 4: a sweep point whose run the database refuses (a metric that is not finite, a
// constraint) is recorded as failed with the reason; the other points of its batch are stored.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "core/store/run_rows.h"
#include "store_test_util.h"

namespace partita {
namespace {

using test::errorOf;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

using test::TempDir;

TEST(SweepStore, ARunTheDatabaseRefusesFailsItsPointAloneWithTheReason) {
    TempDir dir;
    ResultsDb db(dir.file("s.sqlite"));
    const partita::Run run = planRun(test::inputs(), Method::HyPar);
    const store::RunRows good = store::runRows(run);
    store::RunRows bad = good;
    bad.perf_vs_dp = kNaN;  // what a metric of a point beyond the limits would have been
    bad.params_json += " ";  // another run, not the stored one re-used
    std::vector<std::string> refused;
    const auto ids = db.storeSweepRows({{{"a", "s", "{}", "", 0}, &good}, {{"b", "s", "{}", "", 0}, &bad}}, &refused);
    EXPECT_GT(ids[0], 0);
    EXPECT_EQ(ids[1], 0);
    EXPECT_EQ(refused[0], "");
    EXPECT_EQ(refused[1], "its run cannot be stored: " + dir.file("s.sqlite") +
                              ": cannot store a value that is not a finite number (nan)");
    const auto states = db.sweepPointStates();
    EXPECT_EQ(states.at("a"), "");
    EXPECT_EQ(states.at("b"), refused[1]);
    EXPECT_EQ(test::scalar(dir.file("s.sqlite"), "SELECT count(*) FROM runs"), 1);
}

}  // namespace
}  // namespace partita
