// MCMC search: it finds the brute-force optimum of a space small enough to
// enumerate, is reproducible with a seed in iteration mode, and can be cancelled;
// its result is never worse than its best start, and a stalled chain restarts
// and runs on to its budget unless a stall is asked to end it.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <limits>

#include "core/io/network_io.h"
#include "core/sim/baselines.h"
#include "core/sim/mcmc.h"
#include "core/sim/simulator.h"
#include "sim_test_util.h"

namespace partita::sim {
namespace {

constexpr std::int64_t kBatch = 4;

// input 3x5x5 -> conv 4x5x5 -> pool 4x5x5 -> fc 8 -> fc 4. The spatial size 5
// has no divisor in 2..4, so only sample and channel can be split.
Network tiny() {
    return test::network("tiny4", {3, 5, 5},
                         {test::conv("conv", {"input"}, 4, 3, 1, 1), test::pool("pool", {"conv"}, 3, 1, 1),
                          test::fc("fc1", {"pool"}, 8), test::fc("fc2", {"fc1"}, 4)});
}

// The restricted space used by both brute force and MCMC: every valid degree
// vector x every contiguous device block (13 configurations per operator here).
std::vector<std::vector<OpConfig>> space(const Network& net, int devices) {
    std::vector<std::vector<OpConfig>> out;
    for (const Operator& op : net.ops) {
        out.emplace_back();
        for (const Degrees& d : validDegrees(op, kBatch, devices)) {
            OpConfig c;
            c.degree = d;
            for (int start = 0; start + c.parts() <= devices; ++start) {
                c.devices.clear();
                for (int k = 0; k < c.parts(); ++k) c.devices.push_back(start + k);
                out.back().push_back(c);
            }
        }
    }
    return out;
}

McmcOptions restricted(const std::vector<std::vector<OpConfig>>& configs) {
    McmcOptions o;
    o.proposal = [&configs](int op, std::mt19937_64& rng) {
        const auto& list = configs[static_cast<size_t>(op)];
        return list[std::uniform_int_distribution<size_t>(0, list.size() - 1)(rng)];
    };
    return o;
}

TEST(SimMcmc, FindsBruteForceOptimum) {
    const Network net = tiny();
    const Topology topo = test::cluster(2, 2);
    const auto configs = space(net, 4);
    for (const auto& list : configs) ASSERT_EQ(list.size(), 13u);
    // Brute force over 13^4 strategies with full simulation.
    SoapStrategy s = dataParallelStrategy(net, kBatch, 4);
    double best = std::numeric_limits<double>::infinity();
    std::function<void(size_t)> enumerate = [&](size_t op) {
        if (op == net.ops.size()) {
            best = std::min(best, simulate(buildTaskGraph(net, kBatch, s, topo)).makespan);
            return;
        }
        for (const auto& c : configs[op]) {
            s.ops[op] = c;
            enumerate(op + 1);
        }
    };
    enumerate(0);

    McmcOptions o = restricted(configs);
    o.iterations = 8000;
    o.relative_beta = true;
    o.beta = 50;  // a 2% worse strategy is accepted with probability e^-1
    o.stop_on_stall = false;
    o.seed = 3;
    std::mt19937_64 rng(11);
    const std::vector<McmcStart> starts{{"dp", dataParallelStrategy(net, kBatch, 4)},
                                        {"owt", oneWeirdTrickStrategy(net, kBatch, 4)},
                                        {"random", randomStrategy(net, kBatch, 4, rng)}};
    const McmcResult r = mcmcSearch(net, kBatch, topo, starts, o);
    EXPECT_DOUBLE_EQ(r.best_s, best);
    // The reported makespan is the best strategy's full simulation.
    EXPECT_DOUBLE_EQ(simulate(buildTaskGraph(net, kBatch, r.best, topo)).makespan, r.best_s);
    EXPECT_EQ(r.iterations, 3 * (8000 / 3));
    ASSERT_EQ(r.starts.size(), 3u);
    EXPECT_GT(r.acceptance_rate, 0);
    EXPECT_LT(r.acceptance_rate, 1);
}

TEST(SimMcmc, SeededIterationModeIsDeterministic) {
    const Network net = test::inceptionLike();
    const Topology topo = test::cluster(2, 2);
    McmcOptions o;
    o.iterations = 600;
    o.seed = 42;
    std::mt19937_64 rng(1);
    const std::vector<McmcStart> starts{{"dp", dataParallelStrategy(net, 8, 4)},
                                        {"random", randomStrategy(net, 8, 4, rng)}};
    const McmcResult a = mcmcSearch(net, 8, topo, starts, o);
    const McmcResult b = mcmcSearch(net, 8, topo, starts, o);
    EXPECT_EQ(a.best, b.best);
    EXPECT_EQ(a.best_s, b.best_s);
    EXPECT_EQ(a.iterations, b.iterations);
    EXPECT_EQ(a.acceptance_rate, b.acceptance_rate);
    EXPECT_LE(a.best_s, a.starts[0].initial_s);  // never worse than its starts
    EXPECT_NO_THROW(validateStrategy(net, 8, a.best, 4));
    o.seed = 43;
    const McmcResult c = mcmcSearch(net, 8, topo, starts, o);
    EXPECT_NE(a.acceptance_rate, c.acceptance_rate);
}

// The small search most tests run: an Inception-like graph on 2 nodes x 2 GPUs.
class SimMcmcChain : public ::testing::Test {
protected:
    const Network net = test::inceptionLike();
    const Topology topo = test::cluster(2, 2);
    // An iteration budget without the stall rule: the whole budget runs, reproducibly.
    static McmcOptions chain(std::int64_t iterations) {
        McmcOptions o;
        o.iterations = iterations;
        o.stop_on_stall = false;
        return o;
    }
};

TEST_F(SimMcmcChain, IncrementalAndFullSimulationAgree) {
    McmcOptions o = chain(300);
    o.seed = 9;
    const std::vector<McmcStart> starts{{"dp", dataParallelStrategy(net, 8, 4)}};
    const McmcResult delta = mcmcSearch(net, 8, topo, starts, o);
    o.incremental = false;
    const McmcResult full = mcmcSearch(net, 8, topo, starts, o);
    EXPECT_EQ(delta.best, full.best);
    EXPECT_EQ(delta.best_s, full.best_s);
    EXPECT_EQ(delta.starts[0].accepted, full.starts[0].accepted);
}

TEST_F(SimMcmcChain, ReturnsToTheBookmarkedBestDecideAsAFullBuildWould) {
    // A warm chain takes worse strategies and is brought back to its best every few iterations:
    // the delta simulator restores its bookmark there (DeltaSimulator::bookmark), which must
    // give the same timeline as the full rebuild of the full-simulation chain, decision by decision.
    McmcOptions o = chain(300);
    o.seed = 4;
    o.beta = 0.002;
    o.reset_span = 4;
    const std::vector<McmcStart> starts{{"dp", dataParallelStrategy(net, 8, 4)}};
    const McmcResult delta = mcmcSearch(net, 8, topo, starts, o);
    o.incremental = false;
    const McmcResult full = mcmcSearch(net, 8, topo, starts, o);
    EXPECT_GT(delta.starts[0].resets, 10);
    EXPECT_GT(delta.starts[0].accepted, 30);
    EXPECT_EQ(delta.best, full.best);
    EXPECT_EQ(delta.best_s, full.best_s);
    EXPECT_EQ(delta.starts[0].accepted, full.starts[0].accepted);
    EXPECT_EQ(delta.starts[0].resets, full.starts[0].resets);
    EXPECT_EQ(delta.starts[0].restarts, full.starts[0].restarts);
}

TEST_F(SimMcmcChain, EarlyExitChangesNoDecision) {
    // The chain draws u before proposing; a proposal stopped at its bound is one the
    // chain would have rejected, so the whole search is the same with or without.
    McmcOptions o = chain(400);
    o.seed = 5;
    o.reset_span = 25;
    std::mt19937_64 rng(2);
    const std::vector<McmcStart> starts{{"dp", dataParallelStrategy(net, 8, 4)},
                                        {"random", randomStrategy(net, 8, 4, rng)}};
    const McmcResult with = mcmcSearch(net, 8, topo, starts, o);
    o.early_exit = false;
    const McmcResult without = mcmcSearch(net, 8, topo, starts, o);
    o.incremental = false;
    const McmcResult full = mcmcSearch(net, 8, topo, starts, o);
    for (const McmcResult* r : {&without, &full}) {
        EXPECT_EQ(with.best, r->best);
        EXPECT_EQ(with.best_s, r->best_s);
        EXPECT_EQ(with.acceptance_rate, r->acceptance_rate);
        for (size_t k = 0; k < starts.size(); ++k) {
            EXPECT_EQ(with.starts[k].accepted, r->starts[k].accepted);
            EXPECT_EQ(with.starts[k].resets, r->starts[k].resets);
        }
    }
    EXPECT_GT(with.starts[0].early_exits + with.starts[1].early_exits, 0);
    EXPECT_EQ(without.starts[0].early_exits + without.starts[1].early_exits, 0);
}

TEST_F(SimMcmcChain, ResetReturnsToTheBest) {
    // A hot chain (beta 0 accepts everything) wanders off; every 10 iterations it is
    // brought back, so it stays reproducible and its best is what it reports.
    McmcOptions o = chain(200);
    o.beta = 0;
    o.reset_span = 10;
    const McmcResult r = mcmcSearch(net, 8, topo, {{"dp", dataParallelStrategy(net, 8, 4)}}, o);
    EXPECT_GT(r.starts[0].resets, 0);
    EXPECT_LE(r.starts[0].resets, 200 / 10);
    EXPECT_EQ(r.starts[0].accepted, 200);
    EXPECT_DOUBLE_EQ(simulate(buildTaskGraph(net, 8, r.best, topo)).makespan, r.best_s);
    o.reset_span = -1;
    EXPECT_EQ(mcmcSearch(net, 8, topo, {{"dp", dataParallelStrategy(net, 8, 4)}}, o).starts[0].resets, 0);
}

TEST_F(SimMcmcChain, NeighbourCopiesAreValidConfigurations) {
    // Copying a neighbour's degrees and devices only where they are valid for the
    // operator: a search made of nothing but such proposals never fails validation.
    McmcOptions o = chain(300);
    o.neighbour_copy = 1;
    o.beta = 0;
    std::mt19937_64 rng(4);
    const McmcResult r = mcmcSearch(net, 8, topo, {{"random", randomStrategy(net, 8, 4, rng)}}, o);
    EXPECT_EQ(r.iterations, 300);
    EXPECT_NO_THROW(validateStrategy(net, 8, r.best, 4));
    o.neighbour_copy = 1.5;
    EXPECT_THROW(mcmcSearch(net, 8, topo, {{"dp", dataParallelStrategy(net, 8, 4)}}, o), Error);
}

TEST(SimMcmc, StopOnStallEndsAtTheStall) {
    const Network net = tiny();
    const Topology topo = test::cluster(2, 2);
    McmcOptions o;
    o.iterations = 100000;
    o.relative_beta = true;
    o.beta = 50;
    o.stop_on_stall = true;
    const McmcResult r = mcmcSearch(net, kBatch, topo, {{"dp", dataParallelStrategy(net, kBatch, 4)}}, o);
    ASSERT_EQ(r.starts.size(), 1u);
    EXPECT_EQ(r.starts[0].stop, "stall");
    EXPECT_EQ(r.restarts, 0);
    EXPECT_EQ(r.starts[0].restarts, 0);
    EXPECT_LT(r.iterations, 100000);
    EXPECT_GE(r.iterations, 10000);  // the 10% warm-up
}

TEST(SimMcmc, StalledChainsRestartAndRunTheWholeBudget) {
    // The same search without stop_on_stall (the default): the chain stalls as above, restarts from
    // a perturbation of its best, and spends every iteration of its budget.
    const Network net = tiny();
    const Topology topo = test::cluster(2, 2);
    McmcOptions o;
    o.iterations = 100000;
    o.relative_beta = true;
    o.beta = 50;
    std::int64_t reported_restarts = -1;
    const auto progress = [&](const McmcProgress& p) {
        EXPECT_GE(p.restarts, reported_restarts);
        reported_restarts = p.restarts;
    };
    const McmcResult r =
        mcmcSearch(net, kBatch, topo, {{"dp", dataParallelStrategy(net, kBatch, 4)}}, o, progress);
    ASSERT_EQ(r.starts.size(), 1u);
    EXPECT_EQ(r.starts[0].stop, "budget");
    EXPECT_EQ(r.iterations, 100000);
    EXPECT_GE(r.restarts, 1);
    EXPECT_EQ(r.starts[0].restarts, r.restarts);
    EXPECT_EQ(reported_restarts, r.restarts);
    // Each run between restarts lasts at least the warm-up (10 % of the budget).
    EXPECT_LE(r.restarts, 10);
    EXPECT_DOUBLE_EQ(simulate(buildTaskGraph(net, kBatch, r.best, topo)).makespan, r.best_s);
    // Stopping at the stall searched less and cannot have found better.
    o.stop_on_stall = true;
    EXPECT_LE(r.best_s, mcmcSearch(net, kBatch, topo, {{"dp", dataParallelStrategy(net, kBatch, 4)}}, o).best_s);
}

TEST(SimMcmc, RestartsAreDeterministicForASeed) {
    const Network net = test::inceptionLike();
    const Topology topo = test::cluster(2, 2);
    McmcOptions o;
    o.iterations = 3000;
    o.seed = 8;
    o.beta = 1e6;  // greedy: stalls come quickly
    const std::vector<McmcStart> starts{{"dp", dataParallelStrategy(net, 8, 4)},
                                        {"owt", oneWeirdTrickStrategy(net, 8, 4)}};
    const McmcResult a = mcmcSearch(net, 8, topo, starts, o);
    const McmcResult b = mcmcSearch(net, 8, topo, starts, o);
    EXPECT_GE(a.restarts, 1);
    EXPECT_EQ(a.restarts, b.restarts);
    EXPECT_EQ(a.best, b.best);
    EXPECT_EQ(a.best_s, b.best_s);
    EXPECT_EQ(a.acceptance_rate, b.acceptance_rate);
    EXPECT_EQ(a.iterations, 3000);
}

TEST(SimMcmc, RestartStrategyRedrawsDistinctOperators) {
    const Network net = test::inceptionLike();
    const SoapStrategy best = dataParallelStrategy(net, 8, 4);
    std::mt19937_64 rng(1);
    int calls = 0;
    std::vector<int> drawn;
    const ProposalFn propose = [&](int op, std::mt19937_64&) {
        ++calls;
        drawn.push_back(op);
        return best.ops[static_cast<size_t>(op)];
    };
    EXPECT_EQ(restartStrategy(best, 1, rng, propose), best);  // the same configurations back
    EXPECT_EQ(calls, 2);
    restartStrategy(best, 3, rng, propose);
    EXPECT_EQ(calls, 2 + 6);
    std::sort(drawn.begin() + 2, drawn.end());
    EXPECT_EQ(std::unique(drawn.begin() + 2, drawn.end()), drawn.end());  // distinct operators
    calls = 0;
    restartStrategy(best, 1000, rng, propose);
    EXPECT_EQ(calls, static_cast<int>(net.ops.size()));  // at most every operator
}

// The result is never worse than the best start, on several networks and with or without a
// cancel after a few iterations (the starts are all simulated before the first chain).
TEST(SimMcmc, NeverWorseThanTheBestStart) {
    const Network lenet = loadNetwork(test::example("networks/lenet-c.json"));
    const Network mlp = loadNetwork(test::example("networks/transformer-mlp.json"));
    const Network inception = test::inceptionLike();
    const Topology topo = test::cluster(2, 2);
    for (const Network* net : {&inception, &lenet, &mlp}) {
        const std::int64_t batch = 8;
        std::mt19937_64 rng(7);
        // The worst start first, so a search cut short inside it still returns a better start.
        const std::vector<McmcStart> starts{{"random", randomStrategy(*net, batch, 4, rng)},
                                            {"dp", dataParallelStrategy(*net, batch, 4)},
                                            {"owt", oneWeirdTrickStrategy(*net, batch, 4)}};
        double least = std::numeric_limits<double>::infinity();
        for (const auto& s : starts)
            least = std::min(least, simulate(buildTaskGraph(*net, batch, s.strategy, topo)).makespan);
        for (const int polls : {0, 1, 5, -1}) {  // cancel at the first poll, after 1 or 5, or never
            McmcOptions o;
            o.iterations = 300;
            o.seed = 2;
            int asked = 0;
            const CancelFn cancel = [&] { return polls >= 0 && ++asked > polls; };
            const McmcResult r = mcmcSearch(*net, batch, topo, starts, o, {}, cancel);
            const std::string what = net->name + ", cancel after " + std::to_string(polls);
            EXPECT_EQ(r.cancelled, polls >= 0) << what;
            EXPECT_LE(r.best_s, least) << what;
            EXPECT_DOUBLE_EQ(simulate(buildTaskGraph(*net, batch, r.best, topo)).makespan, r.best_s) << what;
            ASSERT_EQ(r.starts.size(), 3u) << what;  // every start simulated and listed
            for (const auto& s : r.starts) EXPECT_LE(r.best_s, s.initial_s) << what;
            if (polls == 0) {
                EXPECT_EQ(r.iterations, 0) << what;
            }
        }
    }
}

// Restarts rebuild the whole graph, which asks the cancel too (between tensors): a stop asked at
// any poll, inside a restart's build or not, ends the search with the best so far.
TEST(SimMcmc, ACancelDuringARestartsBuildStopsTheSearch) {
    const Network net = test::inceptionLike();
    const Topology topo = test::cluster(2, 2);
    McmcOptions o;
    o.iterations = 120;  // stalls (and restarts) after 12 iterations without a better state
    o.seed = 5;
    const std::vector<McmcStart> starts{{"dp", dataParallelStrategy(net, 8, 4)}};
    int total = 0;
    const McmcResult whole = mcmcSearch(net, 8, topo, starts, o, {}, [&] { return ++total < 0; });
    ASSERT_GT(whole.restarts, 0);
    EXPECT_GT(total, 1 + 120);  // one poll per iteration, and the restarts' builds
    for (int stop_at = 2; stop_at <= total; stop_at += 7) {
        int asked = 0;
        const McmcResult r = mcmcSearch(net, 8, topo, starts, o, {}, [&] { return ++asked >= stop_at; });
        EXPECT_EQ(asked, stop_at) << stop_at;  // nothing more is asked once it said stop
        EXPECT_TRUE(r.cancelled) << stop_at;
        EXPECT_EQ(r.starts[0].stop, "cancelled") << stop_at;
        EXPECT_DOUBLE_EQ(simulate(buildTaskGraph(net, 8, r.best, topo)).makespan, r.best_s) << stop_at;
    }
}

TEST(SimMcmc, CancelReturnsBestSoFarAndProgressReports) {
    const Network net = test::inceptionLike();
    const Topology topo = test::cluster(2, 2);
    McmcOptions o;
    o.iterations = 1000000;
    int calls = 0;
    double last_fraction = -1;
    const auto progress = [&](const McmcProgress& p) {
        EXPECT_GE(p.fraction, last_fraction);
        EXPECT_LE(p.best_s, p.current_s);
        last_fraction = p.fraction;
        ++calls;
    };
    int polls = 0;
    const McmcResult r = mcmcSearch(net, 8, topo, {{"dp", dataParallelStrategy(net, 8, 4)}}, o, progress,
                                    [&] { return ++polls > 200; });
    EXPECT_TRUE(r.cancelled);
    EXPECT_EQ(r.iterations, 199);  // one poll before the chain is built, then one per iteration
    EXPECT_EQ(r.starts[0].stop, "cancelled");
    EXPECT_GT(calls, 0);
    EXPECT_NO_THROW(validateStrategy(net, 8, r.best, 4));
}

TEST_F(SimMcmcChain, WallTimeBudget) {
    McmcOptions o;
    o.budget_s = 0.2;
    o.stop_on_stall = false;
    const auto t0 = std::chrono::steady_clock::now();
    const McmcResult r = mcmcSearch(net, 8, topo, {{"dp", dataParallelStrategy(net, 8, 4)}}, o);
    const std::chrono::duration<double> took = std::chrono::steady_clock::now() - t0;
    EXPECT_EQ(r.starts[0].stop, "budget");
    // The search ran to its budget, counted from its start (the starts' simulations included; no
    // upper bound: machines differ).
    EXPECT_GE(took.count(), 0.2);
    EXPECT_GT(r.iterations, 0);
}

TEST_F(SimMcmcChain, NamedStartsAreTheBaselinesAndOneSeededDraw) {
    const auto starts = namedStarts(net, 8, 4, {"dp", "owt", "random", "mp"}, 3);
    ASSERT_EQ(starts.size(), 4u);
    EXPECT_EQ(starts[0].strategy, dataParallelStrategy(net, 8, 4));
    EXPECT_EQ(starts[1].strategy, oneWeirdTrickStrategy(net, 8, 4));
    EXPECT_EQ(starts[3].strategy, modelParallelStrategy(net, 8, 4));
    std::mt19937_64 rng(3);
    EXPECT_EQ(starts[2].strategy, randomStrategy(net, 8, 4, rng));  // the CLI and the application agree
    EXPECT_THROW(namedStarts(net, 8, 4, {"dp", "file.json"}, 3), Error);
    EXPECT_THROW(namedStarts(net, 8, 4, {}, 3), Error);
    const auto imported =
        namedStarts(net, 8, 4, {"file.json"}, 3, [&](const std::string&) { return dataParallelStrategy(net, 8, 4); });
    EXPECT_EQ(imported[0].name, "file.json");
}

TEST(SimMcmc, RejectsBadOptions) {
    const Network net = tiny();
    const Topology topo = test::cluster(2, 2);
    McmcOptions o;  // no budget
    EXPECT_THROW(mcmcSearch(net, kBatch, topo, {{"dp", dataParallelStrategy(net, kBatch, 4)}}, o), Error);
    o.iterations = 10;
    EXPECT_THROW(mcmcSearch(net, kBatch, topo, {}, o), Error);
    o.beta = -1;
    EXPECT_THROW(mcmcSearch(net, kBatch, topo, {{"dp", dataParallelStrategy(net, kBatch, 4)}}, o), Error);
}

}  // namespace
}  // namespace partita::sim
