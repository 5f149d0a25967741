// The sweep view's data: rows from point listings and from a database a sweep wrote, the exact
// Pareto front (directions, ties, duplicates, NaN and failed points left out) and grouping.
#include <gtest/gtest.h>

#include <cmath>

#include "core/store/results_db.h"
#include "core/sweep/runner.h"
#include "core/sweep/table.h"
#include "store_test_util.h"

namespace partita::sweep {
namespace {

using V = std::vector<std::size_t>;
const double kNan = std::nan("");

TEST(SweepPareto, BothMinimisedKeepsExactlyTheUndominatedPoints) {
    //            0  1  2  3  4  5
    const std::vector<double> x{1, 2, 3, 2, 4, 5};
    const std::vector<double> y{5, 3, 1, 4, 1, 0};
    // 3 is dominated by 1 (same x, larger y); 4 by 2 (same y, larger x).
    EXPECT_EQ(paretoFront(x, y, false, false), (V{0, 1, 2, 5}));
}

TEST(SweepPareto, DirectionsPerMetric) {
    const std::vector<double> time{1, 2, 3, 4};
    const std::vector<double> speedup{1, 4, 2, 4};
    // Time minimised, speed-up maximised: 2 and 3 are beaten by 1 (faster, at least as fast a speed-up).
    EXPECT_EQ(paretoFront(time, speedup, false, true), (V{0, 1}));
    // Both maximised: 3 has the largest of both.
    EXPECT_EQ(paretoFront(time, speedup, true, true), (V{3}));
    // Time maximised, speed-up minimised: 3 (largest time), then 2 (smaller speed-up), then 0.
    EXPECT_EQ(paretoFront(time, speedup, true, false), (V{3, 2, 0}));
}

TEST(SweepPareto, DuplicatesAreAllKeptAndNanOrInfiniteLeftOut) {
    const std::vector<double> x{2, 1, 1, kNan, 0, 3, INFINITY};
    const std::vector<double> y{1, 2, 2, 0, kNan, 0.5, 0};
    // 1 and 2 are the same point: neither dominates the other. 3, 4 and 6 are not points.
    EXPECT_EQ(paretoFront(x, y, false, false), (V{1, 2, 0, 5}));
    EXPECT_TRUE(paretoFront({}, {}, false, false).empty());
    EXPECT_TRUE(paretoFront({kNan}, {1}, false, false).empty());
}

TEST(SweepPareto, EqualYAtASmallerXDominates) {
    const std::vector<double> x{1, 2, 2};
    const std::vector<double> y{3, 3, 3};
    EXPECT_EQ(paretoFront(x, y, false, false), (V{0}));
}

store::SweepPointListing point(const std::string& json, double time, double speedup, std::int64_t run,
                               const std::string& error = "") {
    store::SweepPointListing p{"k" + std::to_string(run) + error, "s", json, error, run};
    p.time_step_s = error.empty() ? time : kNan;
    p.energy_j = error.empty() ? 2 * time : kNan;
    p.total_elements = error.empty() ? 100 * time : kNan;
    p.perf_vs_dp = error.empty() ? speedup : kNan;
    return p;
}

Table handMade() {
    return makeTable({point(R"({"method": "hypar", "network": "a", "array": "levels=4", "levels": 2, "batch": 64})", 4, 1, 1),
                      point(R"({"method": "dp", "network": "a", "array": "levels=4", "levels": 2, "batch": 64})", 2, 2, 2),
                      point(R"({"method": "hypar", "network": "a", "array": "levels=4", "levels": 10, "batch": 64})", 1, 3, 3),
                      point(R"({"method": "dp", "network": "b", "array": "levels=4", "levels": 10, "batch": 64})", 1, 3, 4),
                      point(R"({"method": "owt", "network": "b", "array": "levels=4", "levels": 3})", 0, 0, 0, "no file")});
}

TEST(SweepTable, RowsFromPointListings) {
    const Table t = handMade();
    EXPECT_EQ(t.axes, (std::vector<std::string>{"network", "array", "method", "batch", "levels"}));
    ASSERT_EQ(t.rows.size(), 5u);
    // The levels axis decided the generated array's levels: it is named by its shape, not "levels=4".
    EXPECT_EQ(t.rows[2].axes, (std::vector<std::string>{"a", "H-tree", "hypar", "64", "10"}));
    EXPECT_EQ(t.rows[4].axes[3], "");  // no batch
    EXPECT_FALSE(t.rows[4].ok());
    EXPECT_TRUE(std::isnan(t.rows[4].metric(Metric::Speedup)));
    EXPECT_EQ(t.rows[1].metric(Metric::Energy), 4);
    EXPECT_EQ(t.rows[1].metric(Metric::Communication), 200);
    EXPECT_EQ(t.sweeps(), (std::vector<std::string>{"s"}));
}

// Issue 26 item 17: a simulated point (it names a topology) has no energy or element count, whatever
// its run stored; arrays keep their label unless a levels axis rebuilt a generated one.
TEST(SweepTable, SimulatedPointsHaveNoEnergyAndArraysAreNamedAsRun) {
    const Table t = makeTable(
        {point(R"({"method": "simulate", "network": "a", "array": "levels=4", "topology": "p100-16", "batch": 64})", 2, 1.5, 1),
         point(R"({"method": "hypar", "network": "a", "array": "levels=3,torus", "levels": 5})", 4, 1, 2),
         point(R"({"method": "hypar", "network": "a", "array": "tpu-v3-128", "levels": 5})", 4, 1, 3),
         point(R"({"method": "hypar", "network": "a", "array": "levels=3,torus"})", 4, 1, 4)});
    EXPECT_TRUE(t.rows[0].has(Metric::StepTime) && t.rows[0].has(Metric::Speedup));
    EXPECT_FALSE(t.rows[0].has(Metric::Energy));
    EXPECT_FALSE(t.rows[0].has(Metric::Communication));
    EXPECT_TRUE(t.rows[1].has(Metric::Energy) && t.rows[1].has(Metric::Communication));
    const auto array = static_cast<std::size_t>(t.axisIndex("array"));
    EXPECT_EQ(t.rows[0].axes[array], "levels=4");  // no levels axis on the point
    EXPECT_EQ(t.rows[1].axes[array], "torus");
    EXPECT_EQ(t.rows[2].axes[array], "tpu-v3-128 at the levels axis");
    EXPECT_EQ(t.rows[3].axes[array], "levels=3,torus");
}

// The exports read "varying axes -> metrics", the constant axes after; a method without a yes/no
// verdict has no such column.
TEST(SweepTable, ExportsPutTheVaryingAxesFirstAndHaveNoYesNoColumnWithoutAVerdict) {
    const Table t = handMade();
    EXPECT_FALSE(t.varies(t.axisIndex("array")));
    EXPECT_TRUE(t.varies(t.axisIndex("batch")));  // the failed row has none
    const CsvTable csv = tableCsv(t);
    EXPECT_EQ(csv.header, (std::vector<std::string>{"network", "method", "batch", "levels", "time_step_s", "energy_j",
                                                    "comm_elements", "speedup_vs_dp_x", "array", "status", "run_id"}));
    EXPECT_EQ(csv.rows[1], (std::vector<std::string>{"a", "dp", "64", "2", "2", "4", "200", "2", "H-tree", "stored", "2"}));
    for (const MetricColumn& c : t.columns) EXPECT_FALSE(c.yes_no) << c.key;
    const Json j = tableJson(t);
    EXPECT_EQ(j["varying_axes"], (Json{"network", "method", "batch", "levels"}));
    EXPECT_EQ(j["columns"][3]["type"], "number");
}

TEST(SweepTable, FrontOfRowsLeavesFailedOutAndKeepsDuplicates) {
    const Table t = handMade();
    // Step time down, speed-up up: rows 2 and 3 are the same point (1 s, 3×); the failed row is out.
    EXPECT_EQ(paretoFront(t, {0, 1, 2, 3, 4}, Metric::StepTime, Metric::Speedup), (V{2, 3}));
    EXPECT_EQ(paretoFront(t, {0, 1, 4}, Metric::StepTime, Metric::Speedup), (V{1}));
    EXPECT_EQ(paretoFront(t, {0, 4}, Metric::StepTime, Metric::Energy), (V{0}));
}

TEST(SweepTable, GroupsOrderNumbersAsNumbersWithBestAndMean) {
    const Table t = handMade();
    const auto levels = groupBy(t, {0, 1, 2, 3, 4}, t.axisIndex("levels"));
    ASSERT_EQ(levels.size(), 3u);  // 2, 3, 10 (not "10" < "2")
    EXPECT_EQ(levels[0].value, "2");
    EXPECT_EQ(levels[1].value, "3");
    EXPECT_EQ(levels[2].value, "10");
    EXPECT_EQ(levels[0].rows, (V{0, 1}));
    EXPECT_EQ(levels[0].best[0], 2);                 // step time: least
    EXPECT_EQ(levels[0].best[3], 2);                 // speed-up: largest
    EXPECT_EQ(levels[0].mean[0], 3);
    EXPECT_EQ(levels[1].failed, 1u);
    EXPECT_TRUE(std::isnan(levels[1].best[0]));
    const auto methods = groupBy(t, {0, 1, 2}, t.axisIndex("method"));
    ASSERT_EQ(methods.size(), 2u);  // owt's only row is not among the rows
    EXPECT_EQ(methods[0].value, "dp");
    EXPECT_EQ(methods[1].value, "hypar");
    EXPECT_EQ(methods[1].rows, (V{0, 2}));
    std::vector<double> numbers;
    EXPECT_EQ(axisValues(t, t.axisIndex("levels"), &numbers), (std::vector<std::string>{"2", "3", "10"}));
    EXPECT_EQ(numbers, (std::vector<double>{2, 3, 10}));
}

TEST(SweepTable, ReadsWhatASweepStored) {
    test::TempDir dir;
    ResultsDb db(dir.file("r.sqlite"));
    const Spec s = readSpec(R"({"format": "partita-sweep/1", "name": "t", "networks": ["lenet-c", "nope.json"],
                                "methods": ["hypar", "dp"], "axes": {"levels": [2, 3]}})",
                            "s.json", dir.dir.string(), PARTITA_EXAMPLES_DIR);
    const PointInputs inputs(s);
    run(inputs, plan(inputs, db.sweepPointStates(), {}), db, {});
    const Table t = readTable(db);
    EXPECT_EQ(t.axes, (std::vector<std::string>{"network", "array", "method", "levels"}));
    ASSERT_EQ(t.rows.size(), 8u);
    std::size_t failed = 0;
    for (const TableRow& r : t.rows) {
        if (!r.ok()) {
            ++failed;
            EXPECT_EQ(r.axes[0], "nope.json");
            continue;
        }
        const partita::Run stored = db.load(r.run_id);
        EXPECT_EQ(r.metric(Metric::StepTime), stored.stepTime());
        EXPECT_EQ(r.metric(Metric::Communication), stored.eval().total_elements);
        EXPECT_EQ(r.metric(Metric::Speedup), stored.perfVsDp());
    }
    EXPECT_EQ(failed, 4u);
    EXPECT_EQ(readTable(db, "other").rows.size(), 0u);
}

}  // namespace
}  // namespace partita::sweep
