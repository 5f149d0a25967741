// The method registry (core/run/method_registry.h): every key finds its method, an unknown key is
// an error naming it, and a method registered by a test is found, listed and gone again.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <stdexcept>

#include "core/run/method_registry.h"
#include "core/run/simulation_run.h"
#include "core/sim/soap.h"
#include "core/sweep/spec.h"
#include "store_test_util.h"

namespace partita {
namespace {

std::vector<std::string> keys() {
    std::vector<std::string> k;
    for (const MethodInfo* m : allMethods()) k.push_back(m->key());
    return k;
}

TEST(MethodRegistry, EveryBuiltInKeyRoundTrips) {
    const std::vector<std::string> want{"hypar", "dp", "mp", "owt", "accpar", "simulate", "mcmc", "mpt", "l2s", "llm"};
    EXPECT_EQ(keys(), want);
    for (const std::string& k : want) {
        const MethodInfo* m = findMethod(k);
        ASSERT_NE(m, nullptr) << k;
        EXPECT_EQ(m->key(), k);
        EXPECT_EQ(&method(k), m);
        EXPECT_FALSE(m->label().empty());
        EXPECT_FALSE(m->toolTip().empty());
    }
    EXPECT_EQ(method("accpar").label(), "AccPar");
    EXPECT_EQ(method("mcmc").label(), "MCMC");
    EXPECT_EQ(method("hypar").label(), "HyPar");
}

TEST(MethodRegistry, FamiliesAndTraits) {
    EXPECT_EQ(method("owt").family(), MethodFamily::GridPlan);
    EXPECT_EQ(method("accpar").family(), MethodFamily::AccPar);
    EXPECT_EQ(method("mcmc").family(), MethodFamily::Simulated);
    EXPECT_EQ(method("l2s").family(), MethodFamily::Settings);
    for (const MethodInfo* m : allMethods())
        EXPECT_EQ(m->settings() != nullptr, m->family() == MethodFamily::Settings) << m->key();
    EXPECT_EQ(sweepMethodList(), "hypar, dp, mp, owt, accpar, simulate, mcmc or llm");
    EXPECT_EQ(method("mpt").settings()->summaryLabels().time.label, "time / iteration");
    EXPECT_EQ(method("l2s").settings()->summaryLabels().speedup.label, "speed-up vs traditional");
    // LLM runs reuse the summary columns: each figure says what it is and its unit, no speed-up.
    const SummaryLabels llm = method("llm").settings()->summaryLabels();
    EXPECT_EQ(llm.text(1.5, 1, 2.5 * 1024 * 1024 * 1024, 0.4125), "iteration 1.5 s, peak memory 2.5 GiB, MFU 41.25 %");
    EXPECT_FALSE(llm.speedup.used());
    EXPECT_TRUE(llm.speedup.label.empty());  // nothing it would be "vs"
    EXPECT_EQ(method("mpt").settings()->summaryLabels().speedup.text(1.25), "speed-up vs w_dp 1.25 ×");
    // The axes each method reads, as the sweep collapses them (docs/guide/sweeps.md).
    EXPECT_TRUE(sweep::applies("ratio_model", "accpar"));
    EXPECT_FALSE(sweep::applies("ratio_model", "hypar"));
    EXPECT_FALSE(sweep::applies("levels", "mcmc"));
    EXPECT_TRUE(sweep::applies("topology", "simulate"));
    EXPECT_FALSE(sweep::applies("mode", "accpar"));
    EXPECT_TRUE(sweep::applies("seed", "mcmc"));
    EXPECT_FALSE(sweep::applies("batch", "mpt"));
}

TEST(MethodRegistry, UnknownKeyNamesItAndTheKnownOnes) {
    EXPECT_EQ(findMethod("nope"), nullptr);
    try {
        method("nope");
        FAIL() << "no error";
    } catch (const std::invalid_argument& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("'nope'"), std::string::npos) << what;
        EXPECT_NE(what.find("hypar, dp, mp, owt, accpar, simulate, mcmc, mpt, l2s or llm"), std::string::npos) << what;
    }
    EXPECT_THROW(settingsCodec("hypar"), std::invalid_argument);
}

class FakeMethod final : public MethodInfo {
public:
    std::string key() const override { return "fake"; }
    std::string label() const override { return "Fake"; }
    std::string toolTip() const override { return "A test's method"; }
    MethodFamily family() const override { return MethodFamily::GridPlan; }
};

TEST(MethodRegistry, ARegisteredMethodIsFoundListedAndGoneAfterwards) {
    {
        const MethodRegistration fake(std::make_unique<FakeMethod>());
        ASSERT_NE(findMethod("fake"), nullptr);
        EXPECT_EQ(method("fake").label(), "Fake");
        EXPECT_EQ(keys().back(), "fake");
        EXPECT_THROW(MethodRegistration(std::make_unique<FakeMethod>()), std::invalid_argument);
        EXPECT_EQ(sweepMethodList(), "hypar, dp, mp, owt, accpar, simulate, mcmc or llm");  // not in sweeps
    }
    EXPECT_EQ(findMethod("fake"), nullptr);
    EXPECT_EQ(keys().size(), 10u);
}

// The CLI's `simulate --method` and the GUI's Simulate lower through methodStrategy: the strategies
// a simulated run holds are the ones it gives.
TEST(MethodRegistry, SimulateLowersThroughTheMethodsStrategy) {
    const InputsPtr in = test::inputs();
    for (SimSource source : {SimSource::DataParallel, SimSource::OneWeirdTrick, SimSource::ModelParallel}) {
        const SimulationSpec spec = test::simulationSpec(source);
        const partita::Run run = simulationRun(in, spec);
        const MethodInfo* m = strategyMethod(source);
        ASSERT_NE(m, nullptr);
        EXPECT_EQ(m->strategySource(), source);
        const std::int64_t batch = sim::batchCount(in->params.batch);
        const sim::SoapStrategy s =
            methodStrategy(*m, StrategyRequest{in->network, batch, spec.topology->deviceCount(), [&] { return in; }, {}});
        EXPECT_EQ(sim::writeSoapJson(s, in->network), sim::writeSoapJson(run.simulation->strategy, in->network))
            << m->key();
    }
    EXPECT_EQ(strategyMethod(SimSource::Grid)->key(), "hypar");
    EXPECT_EQ(strategyMethodList(), "hypar, dp, mp, owt or accpar");
    EXPECT_THROW(methodStrategy(method("mpt"), StrategyRequest{in->network, 1, 2, {}, {}}), std::invalid_argument);
}

}  // namespace
}  // namespace partita
