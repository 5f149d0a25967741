// MPT and Learn-to-Scale outcomes (what their tabs show, computed in a worker):
// the same numbers as evaluateMpt / evaluateL2s and the engine's pieces, the
// network read from the settings' key, and cancellation at every check.
#include <cmath>

#include <gtest/gtest.h>

#include "core/io/network_io.h"
#include "core/l2s/study.h"
#include "core/run/l2s_outcome.h"
#include "core/run/method_run.h"
#include "core/run/mpt_outcome.h"
#include "core/run/run.h"
#include "core/util/error.h"
#include "test_util.h"

namespace partita {
namespace {

void expectSame(const mpt::Evaluation& a, const mpt::Evaluation& b) {
    EXPECT_EQ(a.scenario, b.scenario);
    EXPECT_EQ(a.totals.total_s, b.totals.total_s);
    EXPECT_EQ(a.totals.comm_bytes, b.totals.comm_bytes);
    EXPECT_EQ(a.totals.energy.total(), b.totals.energy.total());
    EXPECT_EQ(a.w_dp_s, b.w_dp_s);
    EXPECT_EQ(a.one_worker_s, b.one_worker_s);
    ASSERT_EQ(a.layers.size(), b.layers.size());
    for (size_t l = 0; l < a.layers.size(); ++l) {
        EXPECT_EQ(a.layers[l].chosen, b.layers[l].chosen) << l;
        EXPECT_EQ(a.layers[l].overridden, b.layers[l].overridden) << l;
        EXPECT_EQ(a.layers[l].cost.total_s, b.layers[l].cost.total_s) << l;
    }
}

void expectSame(const l2s::Evaluation& a, const l2s::Evaluation& b) {
    EXPECT_EQ(a.time_s, b.time_s);
    EXPECT_EQ(a.total_cycles, b.total_cycles);
    EXPECT_EQ(a.volume_B, b.volume_B);
    EXPECT_EQ(a.byte_hops, b.byte_hops);
    EXPECT_EQ(a.energy_J, b.energy_J);
    ASSERT_EQ(a.rows.size(), b.rows.size());
    for (size_t l = 0; l < a.rows.size(); ++l) {
        EXPECT_EQ(a.rows[l].scheme, b.rows[l].scheme) << l;
        EXPECT_EQ(a.rows[l].cycles(), b.rows[l].cycles()) << l;
        EXPECT_EQ(a.rows[l].traffic, b.rows[l].traffic) << l;
    }
}

MptSettings mptOn(const std::string& workload) {
    MptSettings s;
    s.workload = workload;
    return s;
}

MptSettings wrn() { return withMptNetwork(mptOn("wrn-40-10"), PARTITA_EXAMPLES_DIR); }

TEST(MptOutcome, HoldsTheEnginesNumbersForEveryPart) {
    MptSettings s;  // Table II layers, w_mp+*, with Early forced onto (16,16)
    s.overrides.resize(5);
    s.overrides[0] = mpt::GridConfig{16, 16};
    const MptOutcome o = mptOutcome(s);
    expectSame(o.eval, evaluateMpt(s));
    EXPECT_TRUE(o.eval.layers[0].overridden);
    const std::vector<mpt::MptLayer> layers = mpt::layerStudy(3);
    const mpt::ScenarioParams p = mptParams(s);
    EXPECT_EQ(o.layers.size(), layers.size());
    expectSame(o.w_dp, mpt::evaluate(layers, mpt::Scenario::WDp, p));
    expectSame(o.dynamic, mpt::evaluate(layers, mpt::Scenario::WMpPlusStar, p));  // the pick ignores overrides
    ASSERT_EQ(o.rows.size(), size_t{3});
    EXPECT_EQ(o.rows[0], (mpt::GridConfig{16, 16}));  // widest N_g first
    EXPECT_EQ(o.rows[2], (mpt::GridConfig{1, 256}));
    const std::vector<mpt::SweepRow> sweep = mpt::sweep(layers, p, true);
    ASSERT_EQ(o.sweep.size(), sweep.size());
    for (size_t i = 0; i < sweep.size(); ++i) EXPECT_EQ(o.sweep[i].dynamic_speedup, sweep[i].dynamic_speedup);
    EXPECT_TRUE(o.sweep_problem.empty());
    ASSERT_EQ(o.scenarios.size(), size_t{6});
    for (size_t i = 0; i < 6; ++i) {
        const mpt::Scenario sc = mpt::allScenarios()[i];
        if (sc == s.scenario) expectSame(o.scenarios[i], o.eval);  // the shown one, overrides applied
        else expectSame(o.scenarios[i], mpt::evaluate(layers, sc, p));
    }
}

TEST(MptOutcome, DataParallelHasNoPickAndNoSetOverrideIsNone) {
    MptSettings s;
    s.scenario = mpt::Scenario::WDp;
    s.overrides.resize(5);  // nothing set
    const MptOutcome o = mptOutcome(s);
    EXPECT_TRUE(o.settings.overrides.empty());
    EXPECT_TRUE(o.dynamic.layers.empty());
    EXPECT_FALSE(o.reduction());
    expectSame(o.eval, o.w_dp);
}

TEST(MptOutcome, ReadsTheWorkloadsNetworkFromItsKeyOrFile) {
    const MptSettings s = wrn();
    EXPECT_EQ(s.network_json, writeNetworkJson(loadNetwork(test::example("networks/wrn-40-10.json"))));
    // The built-in's file is the built-in workload; the layer studies read nothing.
    EXPECT_EQ(withMptNetwork(mptOn(test::example("networks/wrn-40-10.json")), PARTITA_EXAMPLES_DIR).workload,
              "wrn-40-10");
    MptSettings layers5 = mptOn("layers-5x5");
    layers5.network_json = "x";
    EXPECT_TRUE(withMptNetwork(layers5, PARTITA_EXAMPLES_DIR).network_json.empty());
    const std::string other = test::example("networks/vgg-a.json");
    EXPECT_EQ(mptWorkloadKey(other, PARTITA_EXAMPLES_DIR), other);
    EXPECT_NE(test::anyErrorOf([] { withMptNetwork(mptOn("no-such-net"), PARTITA_EXAMPLES_DIR); })
                  .find("no-such-net"),
              std::string::npos);
    const MptOutcome o = mptOutcome(s);
    expectSame(o.eval, evaluateMpt(s));
    EXPECT_GT(o.layers.size(), size_t{30});
}

TEST(MptOutcome, WrongOverrideCountIsAnError) {
    MptSettings s;
    s.overrides.resize(3);
    s.overrides[0] = mpt::GridConfig{16, 16};
    EXPECT_NE(test::anyErrorOf([&] { mptOutcome(s); }).find("3 layer overrides for 5 layers"), std::string::npos);
}

L2sSettings l2sOn(const std::string& preset) {
    L2sSettings s;
    s.preset = preset;
    return s;
}

L2sSettings convnet() { return withL2sNetwork({}, PARTITA_EXAMPLES_DIR); }

TEST(L2sOutcome, HoldsTheEnginesNumbersForEveryPart) {
    L2sSettings s = convnet();
    s.cores = 8;
    s.schemes = l2sOutcome(s).settings.schemes;  // the scenario's own, then one changed
    s.schemes[2] = l2s::Scheme::Traditional;
    const L2sOutcome o = l2sOutcome(s);
    const L2sResult r = evaluateL2s(s);
    expectSame(o.eval, r.eval);
    expectSame(o.baseline, r.baseline);
    EXPECT_EQ(o.settings.schemes, s.schemes);
    EXPECT_EQ(o.strategies.shown[2].scheme, l2s::Scheme::Traditional);
    EXPECT_EQ(o.evaluator->mesh().cores(), 8);
    EXPECT_EQ(o.preset.key, "convnet");
    // Every cell of the grid is that boundary evaluated alone; layer 0 has none to change.
    const l2s::Evaluator& ev = *o.evaluator;
    ASSERT_EQ(o.cells.size(), size_t{3});
    for (size_t k = 0; k < 3; ++k) {
        const auto scheme = static_cast<l2s::Scheme>(k);
        ASSERT_EQ(o.cells[k].size(), ev.layers().size());
        for (size_t l = 0; l < ev.layers().size(); ++l) {
            const L2sOutcome::Cell& c = o.cells[k][l];
            if (l == 0 && scheme != l2s::Scheme::Traditional) {
                EXPECT_FALSE(c.row);
                EXPECT_NE(c.problem.find("first layer"), std::string::npos);
            } else if (c.row) {
                EXPECT_EQ(c.row->cycles(), ev.evaluateLayer(l, l2sChoice(o.strategies.sparse, l, scheme)).cycles());
            } else {
                EXPECT_FALSE(c.problem.empty());
            }
        }
    }
    // The core-count sweep at 8 cores is the unedited scenario against all-traditional.
    ASSERT_EQ(o.sweep.size(), size_t{4});
    EXPECT_EQ(o.sweep[1].cores, 8);
    const size_t mask = static_cast<size_t>(L2sScenario::SsMask);
    ASSERT_EQ(o.scenarios.size(), size_t{4});
    EXPECT_EQ(o.sweep[1].speedup, l2s::versus(o.baseline, o.scenarios[mask]).speedup);
    expectSame(o.scenarios[mask], ev.evaluate(o.strategies.scenario));
    expectSame(o.scenarios[0], o.baseline);
}

TEST(L2sOutcome, ReadsThePresetsFileAndRefusesANonChain) {
    const L2sSettings s = withL2sNetwork(l2sOn(test::example("networks/l2s-mlp.json")), PARTITA_EXAMPLES_DIR);
    EXPECT_EQ(s.preset, "mlp");  // the preset's own file: its paper columns apply
    EXPECT_FALSE(s.network_json.empty());
    EXPECT_EQ(l2sOutcome(s).eval.rows.size(), size_t{3});
    const L2sSettings resnet =
        withL2sNetwork(l2sOn(test::example("networks/resnet-34.json")), PARTITA_EXAMPLES_DIR);
    EXPECT_EQ(resnet.preset, test::example("networks/resnet-34.json"));
    EXPECT_NE(test::anyErrorOf([&] { l2sOutcome(resnet); }).find("chain"), std::string::npos);
}

// Cancellation as in the other jobs: a cancel that never fires changes nothing; any check
// that fires throws Cancelled and nothing more is asked.
template <class Compute>
void expectCancelledAtEveryCheck(Compute compute, int at_least) {
    int total = 0;
    compute([&] { return ++total < 0; });
    EXPECT_GE(total, at_least);
    for (int stop_at = 1; stop_at <= total; ++stop_at) {
        int asked = 0;
        EXPECT_THROW(compute([&] { return ++asked >= stop_at; }), Cancelled) << stop_at;
        EXPECT_EQ(asked, stop_at);
    }
}

TEST(MethodOutcomeCancel, MptStopsAtEveryCheck) {
    const MptSettings s = wrn();
    expectCancelledAtEveryCheck([&](const CancelFn& c) { mptOutcome(s, c); }, 9);
    int asked = 0;
    expectSame(mptOutcome(s, [&] { return ++asked < 0; }).eval, evaluateMpt(s));
}

TEST(MethodOutcomeCancel, L2sStopsAtEveryCheck) {
    const L2sSettings s = convnet();
    expectCancelledAtEveryCheck([&](const CancelFn& c) { l2sOutcome(s, c); }, 12);
    int asked = 0;
    expectSame(l2sOutcome(s, [&] { return ++asked < 0; }).eval, evaluateL2s(s).eval);
}

TEST(MethodOutcomeRun, NamedDatedAndCarryingTheOutcome) {
    const partita::Run mpt = mptRun(mptOn("wrn-40-10"), PARTITA_EXAMPLES_DIR);
    EXPECT_EQ(mpt.method, "mpt");
    ASSERT_TRUE(mpt.mpt);
    EXPECT_FALSE(mpt.l2s);
    EXPECT_EQ(mpt.name, methodRun(*mpt.mpt).name);
    EXPECT_EQ(mpt.name, "MPT w_mp+* · WRN-40-10");
    EXPECT_FALSE(mpt.created_utc.empty());
    EXPECT_EQ(mpt.app_version, PARTITA_VERSION);
    expectSame(mpt.mpt->eval, evaluateMpt(wrn()));
    const partita::Run l2s = l2sRun({}, PARTITA_EXAMPLES_DIR);
    EXPECT_EQ(l2s.method, "l2s");
    ASSERT_TRUE(l2s.l2s);
    EXPECT_EQ(l2s.name, methodRun(*l2s.l2s).name);
    EXPECT_EQ(methodRun(*l2s.l2s).summary.time_s, summarize(evaluateL2s(convnet())).time_s);
    EXPECT_THROW(mptRun({}, PARTITA_EXAMPLES_DIR, [] { return true; }), Cancelled);
}

}  // namespace
}  // namespace partita
