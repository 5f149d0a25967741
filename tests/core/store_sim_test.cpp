// Simulated runs in the results database: Simulate and MCMC round trips (the
// stored strategy re-simulated gives the same numbers; the search summary comes
// back as stored), a cancelled search, removal, and the migration from schema 1.
#include <gtest/gtest.h>

#include "core/llm/profile.h"
#include "core/run/simulation_run.h"
#include "core/sim/compute_cost.h"
#include "core/store/results_db.h"
#include "core/store/sim_codec.h"
#include "store_test_util.h"

namespace partita {
namespace {

using test::inputs;
using test::scalar;
using test::simulationSpec;
using test::TempDir;

SimulationSpec mcmcSpec(std::int64_t iterations, std::uint64_t seed) {
    SimulationSpec s = simulationSpec(SimSource::Mcmc);
    s.mcmc.budget_s = 0;
    s.mcmc.iterations = iterations;
    s.mcmc.seed = seed;
    s.mcmc.beta = 2.5;
    return s;
}

void expectSameSimulation(const Run& stored, const Run& back) {
    ASSERT_TRUE(back.isSimulation());
    const SimulationResult& a = *stored.simulation;
    const SimulationResult& b = *back.simulation;
    EXPECT_EQ(back.method, stored.method);
    EXPECT_EQ(back.kind, stored.kind);
    EXPECT_EQ(back.name, stored.name);
    EXPECT_EQ(back.grid, stored.grid);
    EXPECT_EQ(b.makespan_s, a.makespan_s);  // deterministic: exactly the same
    EXPECT_EQ(b.strategy, a.strategy);
    EXPECT_TRUE(b.topology() == a.topology());
    EXPECT_EQ(b.spec.source, a.spec.source);
    EXPECT_EQ(b.spec.topology_origin, a.spec.topology_origin);
    EXPECT_EQ(b.spec.options.element_bytes, a.spec.options.element_bytes);
    EXPECT_EQ(b.spec.options.training, a.spec.options.training);
    EXPECT_EQ(b.tasks, a.tasks);
    EXPECT_EQ(b.busy_s, a.busy_s);
    EXPECT_EQ(b.traffic, a.traffic);
    EXPECT_EQ(b.timeline, a.timeline);
    EXPECT_EQ(b.dp_makespan_s, a.dp_makespan_s);
    EXPECT_EQ(b.owt_makespan_s, a.owt_makespan_s);
    EXPECT_EQ(back.stepTime(), stored.stepTime());
    EXPECT_EQ(back.perfVsDp(), stored.perfVsDp());
}

void expectSameSummary(const McmcSummary& a, const McmcSummary& b) {
    EXPECT_EQ(b.iterations, a.iterations);
    EXPECT_EQ(b.acceptance_rate, a.acceptance_rate);
    EXPECT_EQ(b.cancelled, a.cancelled);
    ASSERT_EQ(b.starts.size(), a.starts.size());
    for (size_t k = 0; k < a.starts.size(); ++k) {
        EXPECT_EQ(b.starts[k].name, a.starts[k].name);
        EXPECT_EQ(b.starts[k].initial_s, a.starts[k].initial_s);
        EXPECT_EQ(b.starts[k].best_s, a.starts[k].best_s);
        EXPECT_EQ(b.starts[k].iterations, a.starts[k].iterations);
        EXPECT_EQ(b.starts[k].accepted, a.starts[k].accepted);
        EXPECT_EQ(b.starts[k].elapsed_s, a.starts[k].elapsed_s);
        EXPECT_EQ(b.starts[k].stop, a.starts[k].stop);
    }
}

TEST(StoreSimulation, SimulateRoundTrips) {
    TempDir tmp;
    ResultsDb db(tmp.file("sim.sqlite"));
    for (SimSource source : {SimSource::DataParallel, SimSource::OneWeirdTrick, SimSource::ModelParallel}) {
        const partita::Run run = simulationRun(inputs(), simulationSpec(source));
        EXPECT_EQ(run.method, "simulate");
        EXPECT_EQ(run.grid.levels(), 0);
        const std::int64_t id = db.store(run);
        EXPECT_TRUE(db.hasSimulation(id));
        expectSameSimulation(run, db.load(id));
        const RunSummary listed = db.list().front();
        EXPECT_EQ(listed.id, id);
        EXPECT_EQ(listed.topology_name, run.simulation->topology().name);
        EXPECT_EQ(listed.devices, 16);
        EXPECT_EQ(listed.time_step_s, run.simulation->makespan_s);
    }
    EXPECT_EQ(scalar(tmp.file("sim.sqlite"), "SELECT count(*) FROM topologies"), 1);  // stored once
}

// A grid of dp cells lowers to SOAP; the run keeps the grid and HyPar's analytic view of it.
TEST(StoreSimulation, LoweredGridRoundTrips) {
    TempDir tmp;
    const InputsPtr in = inputs();
    const Grid grid(in->array.levels, static_cast<int>(in->layers.size()));
    const partita::Run run = simulationRun(in, simulationSpec(SimSource::Grid), grid);
    EXPECT_EQ(run.grid, grid);
    EXPECT_GT(run.eval().total_elements, 0);
    ResultsDb db(tmp.file("sim.sqlite"));
    const partita::Run back = db.load(db.store(run));
    expectSameSimulation(run, back);
    EXPECT_EQ(back.eval().total_elements, run.eval().total_elements);
}

TEST(StoreSimulation, McmcReopensWithItsSummary) {
    TempDir tmp;
    const partita::Run run = mcmcRun(inputs(), mcmcSpec(300, 7));
    ASSERT_TRUE(run.simulation->mcmc);
    EXPECT_EQ(run.kind, RunKind::Search);
    EXPECT_GT(run.simulation->mcmc->iterations, 0);
    EXPECT_LE(run.simulation->mcmc->iterations, 300);  // the stall rule may stop chains early
    EXPECT_EQ(run.simulation->mcmc->starts.size(), size_t{3});
    EXPECT_LE(run.simulation->makespan_s, run.simulation->dp_makespan_s);  // DP is one of the starts
    // The baselines beside the search are its dp and owt starts' makespans, exactly those of
    // simulating DP and OWT on their own.
    EXPECT_EQ(run.simulation->dp_makespan_s, simulationRun(inputs(), simulationSpec(SimSource::DataParallel)).simulation->makespan_s);
    EXPECT_EQ(run.simulation->owt_makespan_s, simulationRun(inputs(), simulationSpec(SimSource::OneWeirdTrick)).simulation->makespan_s);
    ResultsDb db(tmp.file("sim.sqlite"));
    const partita::Run back = db.load(db.store(run));
    expectSameSimulation(run, back);
    ASSERT_TRUE(back.simulation->mcmc);
    expectSameSummary(*run.simulation->mcmc, *back.simulation->mcmc);
    EXPECT_EQ(back.simulation->spec.mcmc, run.simulation->spec.mcmc);
    EXPECT_EQ(back.job_ms, run.job_ms);  // the stored figure: the search is not run again
}

TEST(StoreSimulation, CancelledMcmcKeepsTheBestSoFar) {
    TempDir tmp;
    int calls = 0;
    const CancelFn cancel = [&calls] { return ++calls > 50; };
    const partita::Run run = mcmcRun(inputs(), mcmcSpec(1'000'000, 1), {}, cancel);
    ASSERT_TRUE(run.simulation->cancelled());
    EXPECT_GT(run.simulation->makespan_s, 0);
    EXPECT_NE(run.name.find("(cancelled)"), std::string::npos) << run.name;
    ResultsDb db(tmp.file("sim.sqlite"));
    const partita::Run back = db.load(db.store(run));
    expectSameSimulation(run, back);
    EXPECT_TRUE(back.simulation->cancelled());
}

TEST(StoreSimulation, RemovingTheLastRunOnATopologyRemovesIt) {
    TempDir tmp;
    const std::string path = tmp.file("sim.sqlite");
    ResultsDb db(path);
    const std::int64_t id = db.store(simulationRun(inputs(), simulationSpec(SimSource::DataParallel)));
    db.remove(id);
    EXPECT_EQ(scalar(path, "SELECT count(*) FROM simulations"), 0);
    EXPECT_EQ(scalar(path, "SELECT count(*) FROM topologies"), 0);
}

// A schema-1 file (before simulated runs) is migrated in place and keeps its runs.
TEST(StoreSimulation, SchemaOneIsMigrated) {
    TempDir tmp;
    const std::string path = tmp.file("v1.sqlite");
    const std::int64_t old_id = test::oneRunDatabase(
        path, "DROP TABLE sweep_points; DROP TABLE method_runs; DROP TABLE simulations; DROP TABLE topologies; "
              "PRAGMA user_version = 1");
    ResultsDb db(path);
    EXPECT_EQ(scalar(path, "PRAGMA user_version"), ResultsDb::kSchemaVersion);
    EXPECT_EQ(db.load(old_id).grid.toStrings(), test::kLenetHyparGrid);
    const partita::Run run = simulationRun(inputs(), simulationSpec(SimSource::DataParallel));
    expectSameSimulation(run, db.load(db.store(run)));
    EXPECT_TRUE(db.list().back().topology_name.empty());  // the HyPar run has no simulation
    EXPECT_FALSE(db.hasSimulation(old_id));
}

}  // namespace
}  // namespace partita

namespace partita {
namespace {

// The collective model is stored with a run; runs stored before it existed were simulated per hop.
TEST(StoreSimulation, CollectiveModelIsStoredAndAbsentMeansPerHop) {
    sim::SimOptions o;
    EXPECT_EQ(o.collectives, sim::CollectiveModel::Algorithm);
    o.collective_algorithm = sim::CollectiveAlgorithm::Hierarchical;
    const Json j = store::simOptionsToJson(o, nullptr);
    EXPECT_EQ(j.at("collectives"), "algorithm");
    EXPECT_EQ(j.at("collective_algorithm"), "hierarchical");
    const sim::SimOptions back = store::readSimOptionsJson(j, "run 1", nullptr);
    EXPECT_EQ(back.collectives, sim::CollectiveModel::Algorithm);
    EXPECT_EQ(back.collective_algorithm, sim::CollectiveAlgorithm::Hierarchical);
    Json old = j;
    old.erase("collectives");
    old.erase("collective_algorithm");
    const sim::SimOptions before = store::readSimOptionsJson(old, "run 1", nullptr);
    EXPECT_EQ(before.collectives, sim::CollectiveModel::PerHop);
    EXPECT_FALSE(before.collective_algorithm);
    Json bad = j;
    bad["collectives"] = "per-message";
    try {
        store::readSimOptionsJson(bad, "run 7", nullptr);
        FAIL() << "no error";
    } catch (const std::exception& e) {
        EXPECT_NE(std::string(e.what()).find("run 7"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("collectives"), std::string::npos) << e.what();
    }
}

// Kernel curves are stored by the profile's name and precision and reloaded (docs/methods/flexflow.md#kernel-curves).
TEST(StoreSimulation, KernelCurvesAreStoredByNameAndReloaded) {
    sim::SimOptions o;
    sim::useKernelCurves(o, llm::profilePreset("a100-sxm4-80gb"), llm::Dtype::Bf16, "a100-sxm4-80gb");
    EXPECT_EQ(o.element_bytes, 2);
    EXPECT_EQ(o.gradient_bytes, 4);  // the preset reduces gradients in fp32
    const Json j = store::simOptionsToJson(o, nullptr);
    EXPECT_EQ(j.at("kernels").at("profile"), "a100-sxm4-80gb");
    EXPECT_EQ(j.at("kernels").at("precision"), "bf16");
    const sim::SimOptions back = store::readSimOptionsJson(j, "run 2", nullptr);
    ASSERT_TRUE(back.kernels);
    EXPECT_EQ(back.kernels->profile, "a100-sxm4-80gb");
    EXPECT_EQ(back.kernels->dtype, llm::Dtype::Bf16);
    EXPECT_EQ(back.kernels->matrix, o.kernels->matrix);
    EXPECT_EQ(back.element_bytes, 2);
    EXPECT_EQ(back.gradient_bytes, 4);
    EXPECT_FALSE(store::readSimOptionsJson(store::simOptionsToJson(sim::SimOptions{}, nullptr), "run 3", nullptr).kernels);
    Json bad = j;
    bad["kernels"]["profile"] = "/gone/profile.json";
    try {
        store::readSimOptionsJson(bad, "run 8", nullptr);
        FAIL() << "no error";
    } catch (const std::exception& e) {
        EXPECT_NE(std::string(e.what()).find("run 8"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("/gone/profile.json"), std::string::npos) << e.what();
    }
}

}  // namespace
}  // namespace partita
