// store::RunRows (what storing a run writes, built without a database): its byte form comes back
// bit for bit, a damaged one is refused, and storing the rows gives the rows storing the run gives.
#include <gtest/gtest.h>

#include <cmath>

#include "core/run/simulation_run.h"
#include "core/store/run_rows.h"
#include "store_test_util.h"

namespace partita::store {
namespace {

using test::TempDir;

TEST(RunRows, TheByteFormComesBackBitForBit) {
    const partita::Run simulated = simulationRun(test::inputs("alexnet"), test::simulationSpec(SimSource::DataParallel));
    RunRows rows = runRows(simulated);
    ASSERT_TRUE(rows.simulated);
    rows.perf_vs_dp = std::nan("");  // a NaN too: the form keeps the bits, where JSON would not
    rows.energy_j = -0.0;
    const std::string bytes = encode(rows);
    const RunRows back = decodeRunRows(bytes);
    EXPECT_EQ(encode(back), bytes);
    EXPECT_TRUE(std::isnan(back.perf_vs_dp));
    EXPECT_TRUE(std::signbit(back.energy_j));
    EXPECT_EQ(back.strategy_json, rows.strategy_json);
    EXPECT_EQ(back.level_time_s, rows.level_time_s);

    EXPECT_THROW(decodeRunRows(bytes.substr(0, bytes.size() - 1)), Error);
    EXPECT_THROW(decodeRunRows(bytes + "x"), Error);
    std::string huge = bytes;
    huge[7] = '\x7f';  // the first string's length's top byte: far beyond the message
    EXPECT_THROW(decodeRunRows(huge), Error);
}

TEST(RunRows, StoringTheRowsStoresWhatStoringTheRunStores) {
    TempDir dir;
    const partita::Run run = planRun(test::inputs("vgg-a"), Method::HyPar);
    ResultsDb a(dir.file("a.sqlite")), b(dir.file("b.sqlite"));
    const SweepPointRow point{"k", "s", "{}", "", 0};
    a.storeSweepPoints({{point, &run}});
    const RunRows rows = decodeRunRows(encode(runRows(run)));
    b.storeSweepRows({{point, &rows}});
    const char* sql = "SELECT r.params_json || r.grid_json || r.total_elements || r.time_step_s || r.energy_j || "
                      "(SELECT group_concat(comm_elements || '/' || time_s) FROM run_levels) FROM runs r";
    EXPECT_EQ(test::query(dir.file("a.sqlite"), sql), test::query(dir.file("b.sqlite"), sql));
    EXPECT_EQ(b.storeSweepRows({{point, &rows}}).front(), 1);  // identical: the stored run is re-used
}

}  // namespace
}  // namespace partita::store
