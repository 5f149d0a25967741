// Every engine job honours cancellation: simulation (between its steps and inside each simulation),
// HyPar's search (per level) and AccPar's plans (per plan). A cancelled job stops early; a cancel
// that never fires changes nothing.
#include <gtest/gtest.h>

#include "core/run/simulation_run.h"
#include "core/sim/simulator.h"
#include "core/util/error.h"
#include "sim_test_util.h"
#include "store_test_util.h"

namespace partita {
namespace {

SimulationSpec dpOn(const std::string& preset) { return test::simulationSpec(SimSource::DataParallel, preset); }

TEST(SimCancel, ACancelThatNeverFiresChangesNothing) {
    const auto in = test::inputs("vgg-a");
    int asked = 0;
    // Per hop, the one-weird-trick reference is 300k tasks: the simulator's loop asks many times.
    SimulationSpec spec = dpOn("k80-64");
    spec.options.collectives = sim::CollectiveModel::PerHop;
    const partita::Run with = simulationRun(in, spec, {}, [&] { return ++asked < 0; });
    const partita::Run without = simulationRun(in, spec);
    EXPECT_GT(asked, 8);  // the steps, and the simulator's loop every 16,384 tasks
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

TEST(PlanCancel, HyparAndAccParStopAtEveryCheck) {
    const auto in = test::inputs("vgg-a");
    for (const bool accpar : {false, true}) {
        int total = 0;
        const auto never = [&] { return ++total < 0; };
        const partita::Run with = accpar ? accparRun(in, nullptr, RunKind::Search, nullptr, never)
                                         : planRun(in, Method::HyPar, never);
        const partita::Run without = accpar ? accparRun(in) : planRun(in, Method::HyPar);
        EXPECT_EQ(with.grid, without.grid);
        EXPECT_EQ(with.stepTime(), without.stepTime());
        EXPECT_EQ(total, 5);  // four plans (or levels) and the step after them
        for (int stop_at = 1; stop_at <= total; ++stop_at) {
            int asked = 0;
            const auto stop = [&] { return ++asked >= stop_at; };
            EXPECT_THROW(accpar ? accparRun(in, nullptr, RunKind::Search, nullptr, stop) : planRun(in, Method::HyPar, stop),
                         Cancelled)
                << accpar << " " << stop_at;
            EXPECT_EQ(asked, stop_at);
        }
    }
}

TEST(SimCancel, TheGraphBuildAsksBetweenTensorsAndOperators) {
    // A build at thousands of devices takes seconds: it asks once per tensor edge (16 here) and once
    // per operator's weight sync (13), and stops at the first "stop".
    const Network net = sim::test::inceptionLike();
    const sim::Topology t = sim::test::cluster(2, 4);
    const sim::SoapStrategy dp = sim::dataParallel(net, 16, 8);
    int asked = 0;
    const sim::TaskGraph g = sim::buildTaskGraph(net, 16, dp, t, {}, [&] { return ++asked < 0; });
    EXPECT_EQ(asked, 16 + 13);
    EXPECT_EQ(g.taskCount(), sim::buildTaskGraph(net, 16, dp, t).taskCount());
    for (int stop_at : {1, 16, 17, 29}) {
        int n = 0;
        EXPECT_THROW(sim::buildTaskGraph(net, 16, dp, t, {}, [&] { return ++n >= stop_at; }), Cancelled) << stop_at;
        EXPECT_EQ(n, stop_at);
    }
}

}  // namespace
}  // namespace partita
