// Writes tests/data/store/*.sqlite and their expected numbers (store_fixtures_test.cpp checks them)
// with the program of main at commit 75d69b8 (2026-11-28; results database schema 4): every
// method's runs, an exploration, edits, a sweep with a failed point. Disabled: kept for the record
// of how the fixtures were made, and to make a new set for the next schema. Runs 15 and 16 of
// every-method-v4 (grids with a Type-II level, reduce degree 2) carry the times of the reduce-scatter
// model of partial sums (docs/methods/flexflow.md#reduce-splits), set by hand when it replaced the
// reduction on one device:
//   build partita_core_tests, then
//   PARTITA_FIXTURE_DIR=tests/data/store build/tests/partita_core_tests
//       --gtest_also_run_disabled_tests --gtest_filter='MakeFixtures.*'
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>

#include "core/io/network_io.h"
#include "core/run/method_run.h"
#include "core/run/simulation_run.h"
#include "core/sim/baselines.h"
#include "core/sim/soap.h"
#include "core/store/results_db.h"
#include "core/sweep/runner.h"
#include "store_fixture_util.h"
#include "store_test_util.h"

namespace partita {
namespace {

using test::example;
using test::expected;
using test::inputs;
using test::simulationSpec;

std::string dir() {
    const char* d = std::getenv("PARTITA_FIXTURE_DIR");
    return d ? d : ".";
}

TEST(MakeFixtures, DISABLED_EveryMethod) {
    const std::string path = dir() + "/every-method-v4.sqlite";
    std::remove(path.c_str());
    Json all = Json::array();
    {
        ResultsDb db(path);
        auto keep = [&](const partita::Run& run) { all.push_back(expected(db, db.store(run), &run, nullptr)); };
        auto keepMethod = [&](const MethodRun& m) { all.push_back(expected(db, db.storeMethod(m), nullptr, &m)); };
        const InputsPtr lenet = inputs();
        for (Method m : kAllMethods) keep(planRun(lenet, m));
        const partita::Run hypar = planRun(lenet, Method::HyPar);
        Grid edited = hypar.grid;
        edited.at(0, 0).split = edited.at(0, 0).split == Split::Batch ? Split::Input : Split::Batch;
        keep(gridRun(lenet, edited, RunKind::Edited, "user", &hypar.grid));
        keep(gridRun(lenet, Grid::fromStrings({"0000", "1111", "0101", "0011"}, 4, Split::Input), RunKind::Evaluate, "user"));
        ExploreRequest request;
        request.cells = levelCells({0}, static_cast<int>(lenet->layers.size()));
        keep(exploreRun(lenet, request));
        CostParams batch64;
        batch64.batch = 64;
        batch64.comm.w_intra = 1;
        keep(planRun(inputs("vgg-a", "hmc-htree-16", batch64), Method::HyPar));
        // AccPar: on the HyPar array, and on mixed TPUs with its own options (searched, then edited).
        keep(accparRun(lenet));
        AccParParams options;
        options.ratio_model = RatioModel::P;
        options.balanced_baselines = true;
        const std::string n = example("networks/alexnet.json"), a = example("arrays/tpu-mixed-128.json");
        const InputsPtr mixed = makeInputs(loadNetwork(n), loadArray(a), CostParams{}, n, a, options);
        const partita::Run searched = accparRun(mixed);
        keep(searched);
        Grid accpar_edit = searched.grid;
        accpar_edit.at(0, 0).split = Split::Output;
        keep(accparRun(mixed, &accpar_edit, RunKind::Edited, &searched.grid));
        // Simulate every source; MCMC with a fixed budget, and one cancelled.
        for (SimSource s : {SimSource::DataParallel, SimSource::OneWeirdTrick, SimSource::ModelParallel})
            keep(simulationRun(lenet, simulationSpec(s)));
        // A grid the lowering takes (LeNet's HyPar grid splits fc1's 50 inputs 8 ways, which it refuses).
        const Grid lowered = Grid::fromStrings({"0100", "0000", "0000", "0000"}, 4, Split::Input);
        keep(simulationRun(lenet, simulationSpec(SimSource::Grid), lowered));
        SimulationSpec ps = simulationSpec(SimSource::Grid, "hmc-htree-16");
        ps.options.sync = sim::SyncMode::ParameterServer;
        ps.options.training = false;
        keep(simulationRun(lenet, ps, lowered));
        const std::string soap = dir() + "/owt.soap.json";
        {
            std::ofstream f(soap);
            f << sim::writeSoapJson(sim::oneWeirdTrickStrategy(lenet->network, 256, 16), lenet->network);
        }
        SimulationSpec file = simulationSpec(SimSource::File);
        file.strategy_origin = soap;
        keep(simulationRun(lenet, file));
        std::remove(soap.c_str());
        SimulationSpec mcmc = simulationSpec(SimSource::Mcmc);
        mcmc.mcmc = McmcSettings{0, 300, 7, 2.5, {"dp", "owt", "random"}};
        keep(mcmcRun(lenet, mcmc));
        int asked = 0;
        mcmc.mcmc = McmcSettings{0, 1'000'000, 3, 1, {"dp", "random"}};
        keep(mcmcRun(lenet, mcmc, {}, [&] { return ++asked > 400; }));
        // MPT: the layer study, 5x5 with model options, WRN-40-10 with an override; L2S: two presets.
        keepMethod(methodRun(MptSettings{}, evaluateMpt(MptSettings{})));
        MptSettings five;
        five.workload = "layers-5x5";
        five.model.array_dim = 96;
        five.model.transform_unit = mpt::TransformUnit::Vector;
        five.model.vector_flops_per_cycle = 1024;
        five.model.overlap = mpt::Overlap::Sum;
        five.model.bytes_per_element = 2;
        keepMethod(methodRun(five, evaluateMpt(five)));
        MptSettings wrn;
        wrn.workload = "wrn-40-10";
        wrn = withMptNetwork(wrn, PARTITA_EXAMPLES_DIR);
        wrn.scenario = mpt::Scenario::WMpPlus;
        const mpt::Evaluation e = evaluateMpt(wrn);
        wrn.overrides.assign(e.layers.size(), std::nullopt);
        for (size_t l = 0; l < e.layers.size() && !wrn.overrides[0]; ++l)
            for (size_t k = 0; e.layers[l].mpt && k < e.layers[l].options.size(); ++k)
                if (static_cast<int>(k) != e.layers[l].chosen && e.layers[l].options[k].buildable) {
                    wrn.overrides[l] = e.layers[l].options[k].grid;
                    break;
                }
        keepMethod(methodRun(wrn, evaluateMpt(wrn)));
        L2sSettings convnet = withL2sNetwork(L2sSettings{}, PARTITA_EXAMPLES_DIR);
        convnet.scenario = L2sScenario::Grouped;
        const auto ev = l2sEvaluator(convnet);
        convnet.schemes = schemesOf(l2sStrategies(*ev, l2sPreset(convnet.preset, ev->layers()), convnet.scenario).shown);
        convnet.schemes[1] = convnet.schemes[1] == l2s::Scheme::Sparse ? l2s::Scheme::Traditional : l2s::Scheme::Sparse;
        keepMethod(methodRun(convnet, evaluateL2s(convnet)));
        L2sSettings lenet_l2s;
        lenet_l2s.preset = "lenet";
        lenet_l2s.cores = 8;
        lenet_l2s = withL2sNetwork(lenet_l2s, PARTITA_EXAMPLES_DIR);
        keepMethod(methodRun(lenet_l2s, evaluateL2s(lenet_l2s)));
        db.rename(all[0]["id"].get<std::int64_t>(), "renamed HyPar");
        all[0]["name"] = "renamed HyPar";
    }
    std::ofstream(dir() + "/every-method-v4.json") << all.dump(1) << "\n";
}

TEST(MakeFixtures, DISABLED_Sweep) {
    const std::string path = dir() + "/sweep-v4.sqlite";
    std::remove(path.c_str());
    const sweep::Spec s = sweep::readSpec(R"({"format": "partita-sweep/1", "name": "fixture",
        "networks": ["lenet-c", "resnet-18"], "topologies": ["p100-16"],
        "methods": ["hypar", "dp", {"method": "accpar", "balanced_baselines": true},
                    {"method": "simulate", "strategy": "grid"}, {"method": "mcmc", "iterations": 60, "seed": 2}],
        "axes": {"batch": [64, 128], "levels": [2, 3]}})",
                                          "fixture.json", "", PARTITA_EXAMPLES_DIR);
    Json all = Json::array();
    {
        ResultsDb db(path);
        const sweep::PointInputs in(s);
        const sweep::Report r = sweep::run(in, sweep::plan(in, db.sweepPointStates(), {}), db, {});
        EXPECT_GT(r.failed, 0u);  // HyPar on ResNet-18 (not a chain)
        for (const RunSummary& sum : db.list()) {
            const partita::Run run = db.load(sum.id);
            all.push_back(expected(db, sum.id, &run, nullptr));
        }
        Json points = Json::array();
        for (const auto& p : db.sweepPoints()) points.push_back({{"key", p.key}, {"run_id", p.run_id}, {"error", p.error}});
        all.push_back({{"points", points}});
    }
    std::ofstream(dir() + "/sweep-v4.json") << all.dump(1) << "\n";
}

}  // namespace
}  // namespace partita
