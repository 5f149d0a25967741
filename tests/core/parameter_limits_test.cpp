// Issue 26 item 3: every class of model parameter (rates, efficiencies, factors, energies, bytes per
// element, weights, MCMC's beta, vector and burst rates) is refused beyond its documented limit, tiny,
// huge, zero, negative or NaN, wherever it is read or built; an engine result that is not finite is an
// error naming its inputs.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>

#include "core/io/array_io.h"
#include "core/io/params_json.h"
#include "core/l2s/mesh.h"
#include "core/mpt/cost.h"
#include "core/run/simulation.h"
#include "core/topology/check.h"
#include "core/util/ranges.h"
#include "store_test_util.h"

namespace partita {
namespace {

using test::errorOf;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

using test::contains;

TEST(ParameterLimits, TheRangeMessageStatesTheLimitForEveryClassOfValue) {
    for (const double v : {1e-300, 1e300, 0.0, -1.0, kNaN, std::numeric_limits<double>::infinity()})
        EXPECT_FALSE(rangeProblem(v, ranges::kOpsPerSecond).empty()) << v;
    EXPECT_EQ(rangeProblem(1e-300, ranges::kOpsPerSecond), "must be between 1 and 1e+21 ops/s, got 1e-300 ops/s");
    EXPECT_EQ(rangeProblem(kNaN, ranges::kEfficiency), "must be between 1e-06 and 1, got nan");
    EXPECT_EQ(rangeProblem(2e6, ranges::kEnergyPj), "must be between 0 and 1000000 pJ, got 2000000 pJ");
    EXPECT_EQ(rangeProblem(0.0, ranges::kEnergyPj), "");
    EXPECT_EQ(rangeProblem(4.2e11, ranges::kOpsPerSecond), "");
}

TEST(ParameterLimits, AnArrayOutsideItsLimitsIsRefusedInMemoryAndInAFile) {
    const auto problem = [](const std::function<void(Array&)>& change) {
        Array a = defaultArray(4);
        change(a);
        return test::errorOf<std::invalid_argument>([&] { validate(a); });
    };
    for (const double v : {1e-300, 1e300, 0.0, -1.0, kNaN}) {
        EXPECT_TRUE(contains(problem([&](Array& a) { a.accelerator.throughput_ops = v; }), "throughput_ops must be")) << v;
        EXPECT_TRUE(contains(problem([&](Array& a) { a.link_bps = v; }), "link_bps must be")) << v;
        EXPECT_TRUE(contains(problem([&](Array& a) { a.level_bw_factor = v; }), "level_bw_factor must be")) << v;
    }
    for (const double v : {1e300, -1.0, kNaN})
        EXPECT_TRUE(contains(problem([&](Array& a) { a.accelerator.e_dram_pj = v; }), "e_dram_pj must be")) << v;
    EXPECT_EQ(problem([](Array& a) { a.accelerator.e_dram_pj = 0; }), "no error");
    EXPECT_EQ(problem([](Array& a) { a.level_bw_factor = 1e-300; }),
              "level_bw_factor must be between 0.0009765625 and 1024, got 1e-300");
    // Within its own limits, a factor may still take a level's bandwidth out of the rates' range.
    EXPECT_TRUE(contains(problem([](Array& a) {
                             a.levels = 12;
                             a.link_bps = 2;
                             a.level_bw_factor = 0.01;
                         }),
                         "the bandwidth of level H1 (link_bps x level_bw_factor^11) must be between 1 and 1e+21 b/s, got 2"));
    const std::string text = R"({"format": "partita-array/1", "name": "a", "levels": 2, "accelerator": {"throughput_ops": 1e-300}})";
    EXPECT_EQ(errorOf<InputError>([&] { readArrayJson(text, "a.json"); }),
              "a.json: /accelerator/throughput_ops: must be between 1 and 1e+21 ops/s, got 1e-300 ops/s");
    const std::string groups = R"({"format": "partita-array/1", "name": "g", "accelerators": [
        {"kind": "x", "count": 4, "throughput_flops": 1e12, "bandwidth_Bps": 1e300}]})";
    EXPECT_EQ(errorOf<InputError>([&] { readArrayJson(groups, "g.json"); }),
              "g.json: /accelerators/0/bandwidth_Bps: must be between 1 and 1e+21 B/s, got 1e+300 B/s");
}

TEST(ParameterLimits, CostParametersAreCheckedInFilesAndBeforeARun) {
    const auto read = [](const std::string& body) {
        return errorOf<InputError>([&] { readParamsJson(Json::parse(body), "p.json", ""); });
    };
    EXPECT_EQ(read(R"({"w_intra": 1e-300})"), "p.json: /w_intra: must be between 0.0009765625 and 1024, got 1e-300");
    EXPECT_EQ(read(R"({"bytes_per_element": 1e300})"), "p.json: /bytes_per_element: must be between 0.125 and 64 B, got 1e+300 B");
    EXPECT_EQ(read(R"({"batch": 0.5})"), "p.json: /batch: must be an integer from 1 to 16777216, got 0.5");
    EXPECT_EQ(read(R"({"batch": 256.0, "w_intra": 2, "bytes_per_element": 4})"), "no error");
    CostParams p;
    p.bytes_per_element = 1e-300;
    EXPECT_EQ(test::anyErrorOf([&] { makeInputs(loadNetwork(test::example("networks/lenet-c.json")), defaultArray(4), p); }),
              "parameters: bytes_per_element must be between 0.125 and 64 B, got 1e-300 B");
    Array slow = defaultArray(4);
    slow.accelerator.throughput_ops = 1e-300;
    EXPECT_EQ(test::anyErrorOf([&] { makeInputs(loadNetwork(test::example("networks/lenet-c.json")), slow, {}, "", "slow.json"); }),
              "slow.json: throughput_ops must be between 1 and 1e+21 ops/s, got 1e-300 ops/s");
}

TEST(ParameterLimits, AnEngineResultThatIsNotFiniteIsAnErrorNamingTheInputs) {
    // The last line: an array past the checks (built in memory, never validated) cannot print inf.
    Array slow = defaultArray(4);
    slow.accelerator.throughput_ops = 1e-300;
    const LayerTable layers = test::builtin("lenet-c");
    EXPECT_EQ(test::errorOf<Error>([&] { evaluate(layers, slow, Grid(4, static_cast<int>(layers.size())), {}); }),
              "network 'Lenet-c' on array 'HMC H-tree 16': the step time is not a finite number (inf); a parameter "
              "lies outside what the model computes (docs/formats/limits.md)");
}

TEST(ParameterLimits, TopologyMcmcMptAndL2sParametersHaveTheirLimits) {
    sim::Topology t = sim::builtinTopology("p100-16");
    for (const double v : {5e-324, 1e-9, 0.0, -1.0, 2.0, kNaN}) {
        t.devices[0].efficiency = v;
        const auto problems = sim::checkTopology(t);
        ASSERT_FALSE(problems.empty()) << v;
        EXPECT_TRUE(contains(problems.front().message, "efficiency must be")) << problems.front().message;
    }
    t.devices[0].efficiency = 1e-6;
    EXPECT_TRUE(sim::checkTopology(t).empty());
    for (const double v : {1e-300, 1e300, 0.0, -1.0, kNaN}) {
        t.links[0].bandwidth_Bps = v;
        EXPECT_FALSE(sim::checkTopology(t).empty()) << v;
    }

    const Network net = loadNetwork(test::example("networks/lenet-c.json"));
    for (const double beta : {1e300, -1.0, kNaN}) {
        McmcSettings m;
        m.beta = beta;
        EXPECT_TRUE(contains(test::anyErrorOf([&] { mcmcPlan(net, 64, 4, m, {}); }), "MCMC beta must be between 0 and"))
            << beta;
    }

    const auto mpt = [](const std::function<void(mpt::MptParams&)>& change) {
        mpt::MptParams p;
        change(p);
        return test::errorOf<std::invalid_argument>([&] { mpt::checkParams(p); });
    };
    for (const double v : {1e-300, 1e300, 0.0, -1.0, kNaN}) {
        EXPECT_NE(mpt([&](mpt::MptParams& p) { p.worker.vector_flops_per_cycle = v; }), "no error") << v;
        EXPECT_NE(mpt([&](mpt::MptParams& p) { p.bytes_per_element = v; }), "no error") << v;
        EXPECT_NE(mpt([&](mpt::MptParams& p) { p.network.full_link_Bps = v; }), "no error") << v;
    }
    EXPECT_EQ(mpt([](mpt::MptParams& p) { p.worker.e_dram_pj_per_B = 1e300; }),
              "worker: e_dram_pj_per_B must be between 0 and 1000000 pJ, got 1e+300 pJ");

    const auto mesh = [](const std::function<void(l2s::MeshParams&)>& change) {
        l2s::MeshParams p;
        change(p);
        return test::errorOf<std::invalid_argument>([&] { l2s::Mesh m(p); });
    };
    for (const double v : {1e-300, 1e300, 0.0, -1.0, kNaN})
        EXPECT_NE(mesh([&](l2s::MeshParams& p) { p.burst_rate = v; }), "no error") << v;
    EXPECT_EQ(mesh([](l2s::MeshParams& p) { p.e_link_j = 1e-3; }),
              "mesh: link energy per flit must be between 0 and 1000000 pJ, got 1000000000 pJ");
}

}  // namespace
}  // namespace partita
