// Simulation honours cancellation: asked between its steps and inside each simulation, so a
// cancelled job stops early; a cancel that never fires changes nothing.
#include <gtest/gtest.h>

#include "core/run/simulation_run.h"
#include "core/util/error.h"
#include "store_test_util.h"

namespace partita {
namespace {

SimulationSpec dpOn(const std::string& preset) { return test::simulationSpec(SimSource::DataParallel, preset); }

TEST(SimCancel, ACancelThatNeverFiresChangesNothing) {
    const auto in = test::inputs("vgg-a");
    int asked = 0;
    const partita::Run with = simulationRun(in, dpOn("k80-64"), {}, [&] { return ++asked < 0; });
    const partita::Run without = simulationRun(in, dpOn("k80-64"));
    EXPECT_GT(asked, 4);  // the steps, and the simulator's loop on this 64-GPU graph
    EXPECT_EQ(with.simulation->makespan_s, without.simulation->makespan_s);
    EXPECT_EQ(with.simulation->dp_makespan_s, without.simulation->dp_makespan_s);
    EXPECT_EQ(with.simulation->timeline, without.simulation->timeline);
}

TEST(SimCancel, EachCheckStopsTheRun) {
    const auto in = test::inputs("vgg-a");
    int total = 0;
    simulationRun(in, dpOn("k80-64"), {}, [&] { return ++total < 0; });
    for (int stop_at : {1, 2, 3, total / 2, total}) {
        int asked = 0;
        EXPECT_THROW(simulationRun(in, dpOn("k80-64"), {}, [&] { return ++asked >= stop_at; }), Cancelled)
            << stop_at;
        EXPECT_EQ(asked, stop_at);  // nothing more is asked once it said stop
    }
}

}  // namespace
}  // namespace partita
