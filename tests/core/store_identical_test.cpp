// ResultsDb::findIdentical: the run policy stores a run only once, so an identical run is found
// (whatever its name and time) and any difference of inputs, method, parameters, grid,
// exploration request or simulation makes it a different run.
#include <gtest/gtest.h>

#include "core/run/simulation_run.h"
#include "core/topology/topology.h"
#include "core/store/results_db.h"
#include "store_test_util.h"

namespace partita {
namespace {

using test::inputs;
using test::simulationSpec;
using test::TempDir;

TEST(StoreIdentical, SameSearchIsFoundWhateverItsName) {
    TempDir tmp;
    ResultsDb db(tmp.file("r.sqlite"));
    const partita::Run run = planRun(inputs(), Method::HyPar);
    EXPECT_FALSE(db.findIdentical(run));
    const std::int64_t id = db.store(run);
    partita::Run again = planRun(inputs(), Method::HyPar);  // new inputs object, same content
    again.name = "another name";
    again.created_utc = "2030-01-01T00:00:00Z";
    EXPECT_EQ(db.findIdentical(again), id);
}

TEST(StoreIdentical, AnyDifferenceMakesANewRun) {
    TempDir tmp;
    ResultsDb db(tmp.file("r.sqlite"));
    db.store(planRun(inputs(), Method::HyPar));
    EXPECT_FALSE(db.findIdentical(planRun(inputs(), Method::DataParallel)));     // method
    EXPECT_FALSE(db.findIdentical(planRun(inputs("vgg-a"), Method::HyPar)));     // network
    EXPECT_FALSE(db.findIdentical(planRun(inputs("lenet-c", "hmc-torus-16"), Method::HyPar)));  // array
    CostParams params;
    params.batch = 64;
    EXPECT_FALSE(db.findIdentical(planRun(inputs("lenet-c", "hmc-htree-16", params), Method::HyPar)));
    const partita::Run searched = planRun(inputs(), Method::HyPar);
    Grid edited = searched.grid;
    edited.at(0, 0).split = edited.at(0, 0).split == Split::Batch ? Split::Input : Split::Batch;
    EXPECT_FALSE(db.findIdentical(gridRun(searched.inputs, edited, RunKind::Edited, "user", &searched.grid)));
}

TEST(StoreIdentical, ExplorationsDifferByRequest) {
    TempDir tmp;
    ResultsDb db(tmp.file("r.sqlite"));
    ExploreRequest two;
    two.cells = {{0, 0}, {0, 1}};
    const std::int64_t id = db.store(exploreRun(inputs(), two));
    EXPECT_EQ(db.findIdentical(exploreRun(inputs(), two)), id);
    ExploreRequest three = two;
    three.cells.push_back({1, 0});
    EXPECT_FALSE(db.findIdentical(exploreRun(inputs(), three)));
    // The searched grid itself is not the exploration that started from it.
    EXPECT_FALSE(db.findIdentical(planRun(inputs(), Method::HyPar)));
}

TEST(StoreIdentical, SimulationsDifferByTopology) {
    TempDir tmp;
    ResultsDb db(tmp.file("r.sqlite"));
    const std::int64_t id = db.store(simulationRun(inputs(), simulationSpec(SimSource::DataParallel)));
    EXPECT_EQ(db.findIdentical(simulationRun(inputs(), simulationSpec(SimSource::DataParallel))), id);
    EXPECT_FALSE(db.findIdentical(simulationRun(inputs(), simulationSpec(SimSource::DataParallel, "hmc-htree-16"))));
}

}  // namespace
}  // namespace partita
