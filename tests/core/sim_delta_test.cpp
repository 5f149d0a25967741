// Delta simulation == full simulation, exactly (every task's start and end and
// the makespan), on random single-operator proposals that are committed or
// reverted at random, across networks, topologies and options.
#include <gtest/gtest.h>

#include <limits>
#include <sstream>

#include "core/io/network_io.h"
#include "core/sim/delta.h"
#include "core/sim/memory.h"
#include "core/sim/trace.h"
#include "core/util/error.h"
#include "sim_test_util.h"
#include "test_util.h"

namespace partita::sim {
namespace {

std::string firstDifference(const std::vector<TimelineRecord>& a, const std::vector<TimelineRecord>& b) {
    if (a.size() != b.size()) return "sizes " + std::to_string(a.size()) + " vs " + std::to_string(b.size());
    for (size_t k = 0; k < a.size(); ++k)
        if (!(a[k] == b[k])) {
            std::ostringstream s;
            s.precision(17);
            s << "record " << k << ": task " << a[k].task << " on " << a[k].resource << " [" << a[k].start << ", "
              << a[k].end << "] vs task " << b[k].task << " on " << b[k].resource << " [" << b[k].start << ", "
              << b[k].end << "]";
            return s.str();
        }
    return "";
}

struct Case {
    Network net;
    Topology topo;
    int batch = 16;
    SimOptions options;
    int proposals = 200;
    bool share = false;  // sometimes put two tasks of an operator on one device
    DeltaSimulator::Tuning tuning{};
    bool bounded = false;  // half of the proposals with an early-exit bound
};

// Never hand over to Algorithm 1; hand over as soon as anything changed, to
// replay or to resimulation; and the default in between.
const DeltaSimulator::Tuning kNoReplay{std::numeric_limits<size_t>::max(), 1, 2.0};
const DeltaSimulator::Tuning kReplayAtOnce{0, std::numeric_limits<size_t>::max(), 2.0};
const DeltaSimulator::Tuning kResimulateAtOnce{0, std::numeric_limits<size_t>::max(), 0.0};

OpConfig propose(const Case& c, int op, std::mt19937_64& rng) {
    OpConfig cfg = randomConfig(c.net.ops[static_cast<size_t>(op)], c.batch, c.topo.deviceCount(), rng);
    if (c.share && cfg.parts() > 1 && rng() % 3 == 0) cfg.devices[rng() % cfg.devices.size()] = cfg.devices[0];
    return cfg;
}

// `stats`, if given, receives the simulator's statistics at the end.
void checkDeltaEqualsFull(const Case& c, std::uint64_t seed, DeltaSimulator::Stats* stats = nullptr) {
    std::mt19937_64 rng(seed);
    SoapStrategy start = singleDevice(c.net);
    for (size_t i = 0; i < c.net.ops.size(); ++i) start.ops[i] = propose(c, static_cast<int>(i), rng);
    DeltaSimulator sim(c.net, c.batch, start, c.topo, c.options);
    sim.setTuning(c.tuning);
    auto full = [&](const SoapStrategy& s) {
        const TaskGraph g = buildTaskGraph(c.net, c.batch, s, c.topo, c.options);
        const SimResult r = simulate(g);
        return std::pair{r.makespan, timeline(g, r)};
    };
    // Memory from a fresh build, and from the delta simulator's own graph (they must agree).
    auto fullMemory = [&](const SoapStrategy& s) {
        return deviceMemory(c.net, c.batch, s, buildTaskGraph(c.net, c.batch, s, c.topo, c.options), c.topo, c.options);
    };
    auto deltaMemory = [&] { return deviceMemory(c.net, c.batch, sim.strategy(), sim.graph(), c.topo, c.options); };
    auto accepted = full(start);
    ASSERT_EQ(sim.makespan(), accepted.first);
    ASSERT_EQ(firstDifference(timeline(sim.graph(), sim.result()), accepted.second), "");
    const int ops = static_cast<int>(c.net.ops.size());
    for (int k = 0; k < c.proposals; ++k) {
        const int op = static_cast<int>(rng() % static_cast<std::uint64_t>(ops));
        const OpConfig cfg = propose(c, op, rng);
        SoapStrategy next = sim.strategy();
        next.ops[static_cast<size_t>(op)] = cfg;
        const auto expected = full(next);
        // A bound around the new makespan, sometimes exactly it (which must not stop the proposal).
        const bool bounded = c.bounded && rng() % 2;
        const double bound = rng() % 4 == 0 ? expected.first
                                            : expected.first * std::uniform_real_distribution<double>(0.8, 1.2)(rng);
        const double makespan = bounded ? sim.propose(op, cfg, bound) : sim.propose(op, cfg);
        if (sim.abandoned()) {
            // Early exit only for a proposal whose makespan exceeds the bound; revert restores everything.
            ASSERT_TRUE(bounded);
            ASSERT_EQ(makespan, std::numeric_limits<double>::infinity());
            ASSERT_GT(expected.first, bound) << "proposal " << k << " on op " << op;
            EXPECT_THROW(sim.commit(), std::logic_error);
            sim.revert();
            ASSERT_EQ(sim.makespan(), accepted.first);
            ASSERT_EQ(firstDifference(timeline(sim.graph(), sim.result()), accepted.second), "")
                << "revert of abandoned proposal " << k;
            continue;
        }
        ASSERT_EQ(firstDifference(timeline(sim.graph(), sim.result()), expected.second), "")
            << "proposal " << k << " on op " << op;
        ASSERT_EQ(makespan, expected.first) << "proposal " << k << " on op " << op;
        ASSERT_EQ(deltaMemory(), fullMemory(next)) << "memory after proposal " << k << " on op " << op;
        ASSERT_EQ(sim.result().order.size(), sim.graph().taskCount());
        if (rng() % 2) {
            sim.commit();
            accepted = expected;
        } else {
            sim.revert();
            ASSERT_EQ(sim.makespan(), accepted.first) << "revert of proposal " << k;
            if (k % 8 == 0) {
                ASSERT_EQ(firstDifference(timeline(sim.graph(), sim.result()), accepted.second), "")
                    << "revert of proposal " << k;
                ASSERT_EQ(deltaMemory(), fullMemory(sim.strategy())) << "memory after revert of proposal " << k;
            }
        }
    }
    EXPECT_EQ(sim.stats().proposals, static_cast<std::uint64_t>(c.proposals));
    if (stats) *stats = sim.stats();
    if (c.bounded) {
        EXPECT_GT(sim.stats().abandoned, 0u);
    }
    if (c.tuning.replay_min == 0) {
        EXPECT_GT(c.tuning.resimulate_above > 1 ? sim.stats().replays : sim.stats().resimulations, 0u);
    }
    if (c.tuning.replay_min == kNoReplay.replay_min) {
        EXPECT_EQ(sim.stats().replays + sim.stats().resimulations, 0u);
    }
}

Network builtin(const std::string& name) { return loadNetwork(partita::test::example("networks/" + name + ".json")); }

std::vector<Topology> topologies() { return {test::pair(), test::cluster(1, 4), test::ring(4), test::cluster(4, 4)}; }

TEST(SimDelta, EqualsFullOnLenet) {
    for (const Topology& t : topologies()) {
        SCOPED_TRACE(t.name);
        checkDeltaEqualsFull({builtin("lenet-c"), t, 16, {}, 250}, 1);
    }
}

TEST(SimDelta, EqualsFullOnAlexNet) {
    for (const Topology& t : topologies()) {
        SCOPED_TRACE(t.name);
        checkDeltaEqualsFull({builtin("alexnet"), t, 16, {}, 200}, 2);
    }
}

TEST(SimDelta, EqualsFullOnResNet18) {
    for (const Topology& t : {test::pair(), test::cluster(1, 4), test::cluster(4, 4)}) {
        SCOPED_TRACE(t.name);
        checkDeltaEqualsFull({builtin("resnet-18"), t, 16, {}, 120}, 3);
    }
}

TEST(SimDelta, EqualsFullOnInceptionLikeDag) {
    for (const Topology& t : topologies()) {
        SCOPED_TRACE(t.name);
        checkDeltaEqualsFull({test::inceptionLike(), t, 16, {}, 300}, 4);
    }
}

TEST(SimDelta, EqualsFullOnEveryOperatorKind) {
    // Grouped, dilated, asymmetric and transposed convs, matmuls, element-wise and layout ops.
    const Network tour = builtin("ops-tour");
    for (const Topology& t : {test::pair(), test::cluster(1, 4), test::ring(4)}) {
        SCOPED_TRACE(t.name);
        checkDeltaEqualsFull({tour, t, 16, {}, 200}, 9);
    }
}

TEST(SimDelta, EqualsFullWithOptions) {
    SimOptions inference;
    inference.training = false;
    SimOptions ps;
    ps.sync = SyncMode::ParameterServer;
    SimOptions shared;
    shared.allow_shared_devices = true;
    checkDeltaEqualsFull({test::inceptionLike(), test::cluster(4, 4), 16, inference, 300}, 5);
    checkDeltaEqualsFull({builtin("alexnet"), test::ring(4), 16, ps, 300}, 6);
    checkDeltaEqualsFull({test::inceptionLike(), test::cluster(1, 4), 16, shared, 300, true}, 7);
    checkDeltaEqualsFull({builtin("lenet-c"), test::pair(), 16, shared, 300, true}, 8);
}

TEST(SimDelta, EqualsFullWithAndWithoutReplay) {
    // Replay and resimulation (step 5) and the sweep give the same timelines, and so does any switch point.
    for (const auto& tuning : {kNoReplay, kReplayAtOnce, kResimulateAtOnce, DeltaSimulator::Tuning{16, 4}}) {
        checkDeltaEqualsFull({builtin("alexnet"), test::cluster(4, 4), 16, {}, 150, false, tuning}, 11);
        checkDeltaEqualsFull({test::inceptionLike(), test::cluster(1, 4), 16, {}, 200, false, tuning}, 12);
        checkDeltaEqualsFull({builtin("resnet-18"), test::ring(4), 16, {}, 80, false, tuning}, 13);
    }
    SimOptions ps;
    ps.sync = SyncMode::ParameterServer;
    checkDeltaEqualsFull({builtin("lenet-c"), test::pair(), 16, ps, 200, false, kReplayAtOnce}, 14);
    checkDeltaEqualsFull({builtin("lenet-c"), test::pair(), 16, ps, 200, false, kResimulateAtOnce}, 15);
}

TEST(SimDelta, EarlyExitRejectsOnlyWhatExceedsTheBound) {
    // Abandoned proposals have a makespan above their bound and revert exactly;
    // the others return full simulation's makespan. Both in the sweep and in replay,
    // and before the graph changes (by the devices' compute alone) as well as after;
    // with weight syncs priced on the way (the memory check covers their traffic).
    std::uint64_t abandoned = 0, untouched = 0, deferred = 0, priced = 0;
    for (const auto& tuning : {DeltaSimulator::Tuning{}, kNoReplay, kReplayAtOnce, kResimulateAtOnce}) {
        DeltaSimulator::Stats stats;
        checkDeltaEqualsFull({builtin("alexnet"), test::cluster(4, 4), 16, {}, 200, false, tuning, true}, 21, &stats);
        abandoned += stats.abandoned;
        untouched += stats.abandoned_untouched;
        deferred += stats.deferred_syncs;
        priced += stats.priced_syncs;
        checkDeltaEqualsFull({test::inceptionLike(), test::ring(4), 16, {}, 200, false, tuning, true}, 22, &stats);
        abandoned += stats.abandoned;
        untouched += stats.abandoned_untouched;
        deferred += stats.deferred_syncs;
        priced += stats.priced_syncs;
        checkDeltaEqualsFull({builtin("resnet-18"), test::cluster(1, 4), 16, {}, 80, false, tuning, true}, 23, &stats);
        abandoned += stats.abandoned;
        untouched += stats.abandoned_untouched;
        deferred += stats.deferred_syncs;
        priced += stats.priced_syncs;
        // Compute-bound (a large batch inside one node): rejections by compute alone.
        checkDeltaEqualsFull({builtin("alexnet"), test::cluster(1, 4), 1024, {}, 80, false, tuning, true}, 24, &stats);
        abandoned += stats.abandoned;
        untouched += stats.abandoned_untouched;
        deferred += stats.deferred_syncs;
        priced += stats.priced_syncs;
    }
    EXPECT_GT(untouched, 0u);
    EXPECT_LT(untouched, abandoned);
    // Weight syncs are priced when the schedule reaches them: some never are.
    EXPECT_GT(priced, 0u);
    EXPECT_LT(priced, deferred);
}

// Strategies a few random operators away from another, and full simulation's answer: the reset tests.
struct NearStrategies {
    Case c{builtin("inception-v3"), test::cluster(2, 4), 16, {}, 0};
    std::mt19937_64 rng;
    int ops = static_cast<int>(c.net.ops.size());
    explicit NearStrategies(std::uint64_t seed) : rng(seed) {}
    SoapStrategy randomize(SoapStrategy s, int changes) {
        for (int k = 0; k < changes; ++k) {
            const int op = static_cast<int>(rng() % static_cast<std::uint64_t>(ops));
            s.ops[static_cast<size_t>(op)] = propose(c, op, rng);
        }
        return s;
    }
    std::pair<double, std::vector<TimelineRecord>> full(const SoapStrategy& s) const {
        const TaskGraph g = buildTaskGraph(c.net, c.batch, s, c.topo, c.options);
        const SimResult r = simulate(g);
        return {r.makespan, timeline(g, r)};
    }
    // The simulator holds `s` exactly as a full build does, and a proposal from there is exact too.
    void expectExact(DeltaSimulator& sim, const SoapStrategy& s) {
        ASSERT_EQ(sim.strategy(), s);
        const auto expected = full(s);
        ASSERT_EQ(sim.makespan(), expected.first);
        ASSERT_EQ(firstDifference(timeline(sim.graph(), sim.result()), expected.second), "");
        const int op = static_cast<int>(rng() % static_cast<std::uint64_t>(ops));
        SoapStrategy next = s;
        next.ops[static_cast<size_t>(op)] = propose(c, op, rng);
        ASSERT_EQ(sim.propose(op, next.ops[static_cast<size_t>(op)]), full(next).first);
        sim.revert();
    }
};

TEST(SimDelta, AResetNearTheBookmarkRestoresItExactly) {
    NearStrategies strategies(11);
    const Case& c = strategies.c;
    std::mt19937_64& rng = strategies.rng;
    const int ops = strategies.ops;
    // Walks `steps` committed proposals away (the slots of rebuilt groups get reused).
    auto walk = [&](DeltaSimulator& sim, int steps) {
        for (int k = 0; k < steps; ++k) {
            const int op = static_cast<int>(rng() % static_cast<std::uint64_t>(ops));
            sim.propose(op, propose(c, op, rng));
            if (k % 3 == 2) sim.revert();
            else sim.commit();
        }
    };
    const SoapStrategy start = strategies.randomize(dataParallel(c.net, c.batch, 8), ops);
    DeltaSimulator sim(c.net, c.batch, start, c.topo, c.options);
    // Nothing to bookmark after a cancelled build.
    EXPECT_THROW(sim.reset(strategies.randomize(start, 8), [] { return true; }), Cancelled);
    EXPECT_THROW(sim.bookmark(), std::logic_error);
    sim.reset(start);
    sim.bookmark();
    for (int away : {0, 1, 2, 4}) {
        SCOPED_TRACE("operators changed from the bookmark: " + std::to_string(away));
        walk(sim, 9);
        const SoapStrategy target = strategies.randomize(start, away);
        const auto before = sim.stats();
        sim.reset(target);
        EXPECT_EQ(sim.stats().restores, before.restores + 1);
        EXPECT_EQ(sim.stats().full_builds, before.full_builds);
        strategies.expectExact(sim, target);
        sim.reset(start);  // back to the bookmark for the next round
        strategies.expectExact(sim, start);
    }
    // Nearer the current strategy than the bookmark: a move, not a restore.
    walk(sim, 6);
    SoapStrategy near = strategies.randomize(sim.strategy(), 1);
    auto before = sim.stats();
    sim.reset(near);
    EXPECT_EQ(sim.stats().restores, before.restores);
    EXPECT_EQ(sim.stats().moves, before.moves + 1);
    strategies.expectExact(sim, near);
    // Too far from the bookmark (more than Tuning::move_ops): a full build.
    before = sim.stats();
    const SoapStrategy far = strategies.randomize(start, 12);
    sim.reset(far);
    EXPECT_EQ(sim.stats().full_builds, before.full_builds + 1);
    strategies.expectExact(sim, far);
    // A new bookmark replaces the old; a pending proposal forbids one.
    sim.bookmark();
    sim.propose(0, propose(c, 0, rng));
    EXPECT_THROW(sim.bookmark(), std::logic_error);
    sim.revert();
    walk(sim, 5);
    sim.reset(far);
    strategies.expectExact(sim, far);
    // An invalid target near the bookmark changes nothing; a cancelled restore leaves only reset().
    walk(sim, 5);
    const SoapStrategy kept = sim.strategy();
    SoapStrategy invalid = strategies.randomize(far, 1);
    invalid.ops[3].devices.assign(invalid.ops[3].devices.size(), 99);
    EXPECT_THROW(sim.reset(invalid), Error);
    strategies.expectExact(sim, kept);
    EXPECT_THROW(sim.reset(far, [] { return true; }), Cancelled);
    sim.reset(far);
    strategies.expectExact(sim, far);
}

TEST(SimDelta, TaskIdsAreTopological) {
    // The tie rule and delta simulation's exactness rest on this.
    std::mt19937_64 rng(9);
    SimOptions ps;
    ps.sync = SyncMode::ParameterServer;
    for (const SimOptions& options : {SimOptions{}, ps})
        for (const Network& net : {test::inceptionLike(), builtin("resnet-18")}) {
            SoapStrategy s = singleDevice(net);
            for (size_t i = 0; i < net.ops.size(); ++i) s.ops[i] = randomConfig(net.ops[i], 16, 16, rng);
            const TaskGraph g = buildTaskGraph(net, 16, s, test::cluster(4, 4), options);
            size_t edges = 0;
            for (size_t t = 0; t < g.slotCount(); ++t)
                g.forEachSuccessor(static_cast<int>(t), [&](int n) {
                    ++edges;
                    EXPECT_LT(g.id(static_cast<int>(t)), g.id(n));
                });
            EXPECT_EQ(edges, g.edgeCount());
        }
}

TEST(SimDelta, RebuildingIntoAGraphReusesItExactly) {
    const Network net = builtin("alexnet");
    const Topology topo = test::cluster(4, 4);
    std::mt19937_64 rng(10);
    TaskGraph reused;
    SimResult r;
    for (int k = 0; k < 20; ++k) {
        SoapStrategy s = singleDevice(net);
        for (size_t i = 0; i < net.ops.size(); ++i) s.ops[i] = randomConfig(net.ops[i], 16, 16, rng);
        buildTaskGraph(reused, net, 16, s, topo);
        simulate(reused, r);
        const TaskGraph fresh = buildTaskGraph(net, 16, s, topo);
        const SimResult f = simulate(fresh);
        ASSERT_EQ(r.makespan, f.makespan);
        ASSERT_EQ(firstDifference(timeline(reused, r), timeline(fresh, f)), "");
    }
}

TEST(SimDelta, InvalidProposalsLeaveTheStateUnchanged) {
    const Network net = builtin("lenet-c");
    DeltaSimulator sim(net, 16, dataParallel(net, 16, 4), test::cluster(1, 4));
    const double before = sim.makespan();
    OpConfig bad;
    bad.degree = {3, 1, 1, 1};
    bad.devices = {0, 1, 2};
    try {
        sim.propose(0, bad);
        FAIL() << "no error";
    } catch (const Error& e) {
        EXPECT_STREQ(e.what(), "operator 'conv1': degree 3 along sample does not divide 16");
    }
    EXPECT_FALSE(sim.pending());
    EXPECT_EQ(sim.makespan(), before);
    OpConfig one;
    one.devices = {2};
    sim.propose(1, one);
    EXPECT_THROW(sim.propose(1, one), std::logic_error);
    sim.revert();
    EXPECT_THROW(sim.revert(), std::logic_error);
    EXPECT_THROW(sim.commit(), std::logic_error);
    EXPECT_EQ(sim.makespan(), before);
    EXPECT_THROW(DeltaSimulator(net, 16, dataParallel(net, 16, 8), test::cluster(1, 4)), Error);
}

TEST(SimDelta, ByTaskArraysKeepUpAfterAResetToASmallerGraph) {
    // A full build of a smaller graph, then a resimulation that swaps in the longer timeline buffer
    // kept from before, then proposals that add tasks past the small graph's slots: every array by
    // task slot must grow with them, and the state stays a full build's. (Before, the queue keys were
    // written past their vector's size but inside its capacity, which no sanitizer sees; a bounds
    // check in push() stopped this sequence at its first new task.)
    NearStrategies strategies(13);
    const Case& c = strategies.c;
    const SoapStrategy big = dataParallel(c.net, c.batch, 8);
    DeltaSimulator sim(c.net, c.batch, big, c.topo, c.options);
    sim.setTuning(kResimulateAtOnce);
    sim.propose(0, singleDevice(c.net).ops[0]);
    sim.commit();
    sim.reset(singleDevice(c.net));
    sim.propose(1, big.ops[1]);
    sim.commit();
    EXPECT_EQ(sim.stats().resimulations, 2u);
    EXPECT_EQ(sim.stats().full_builds, 2u);
    for (int op = 0; op < strategies.ops; ++op) {  // each adds tasks, bounded (deferred syncs) or not
        if (op == 1) continue;
        if (op % 2) sim.propose(op, big.ops[static_cast<size_t>(op)], 1e9);
        else sim.propose(op, big.ops[static_cast<size_t>(op)]);
        sim.commit();
    }
    EXPECT_EQ(sim.strategy().ops, big.ops);
    strategies.expectExact(sim, sim.strategy());
}

// reset() reaches a strategy that differs in a few operators by proposals (delta.h): whichever way
// it goes, the state is a full build's, proposals after it stay exact, an invalid strategy changes
// nothing and a cancelled reset can be followed by another.
TEST(SimDelta, ResetEqualsAFullBuildWhateverItDiffersIn) {
    NearStrategies strategies(7);
    const Case& c = strategies.c;
    const int ops = strategies.ops;
    DeltaSimulator sim(c.net, c.batch, strategies.randomize(dataParallel(c.net, c.batch, 8), ops), c.topo, c.options);
    ASSERT_EQ(sim.stats().full_builds, 1u);
    for (int changes : {0, 1, 2, 3, 5, 8, ops, 1, 2}) {
        SCOPED_TRACE("changes " + std::to_string(changes));
        const SoapStrategy target = strategies.randomize(sim.strategy(), changes);
        const auto before = sim.stats();
        sim.reset(target);
        EXPECT_EQ(sim.stats().moves + sim.stats().full_builds, before.moves + before.full_builds + 1);
        EXPECT_EQ(sim.stats().proposals, before.proposals);
        strategies.expectExact(sim, target);
    }
    EXPECT_GT(sim.stats().moves, 0u);  // the first reset with changes moves: 1 of 8 operators is below the rule
    // An invalid strategy: nothing changes.
    const SoapStrategy kept = sim.strategy();
    SoapStrategy invalid = strategies.randomize(kept, 1);
    invalid.ops[3].devices.assign(invalid.ops[3].devices.size(), 99);
    EXPECT_THROW(sim.reset(invalid), Error);
    ASSERT_EQ(sim.strategy(), kept);
    ASSERT_EQ(firstDifference(timeline(sim.graph(), sim.result()), strategies.full(kept).second), "");
    // Cancelled, then reset again: the state is the new strategy's.
    const SoapStrategy target = strategies.randomize(kept, 2);
    EXPECT_THROW(sim.reset(target, [] { return true; }), Cancelled);
    sim.reset(target);
    ASSERT_EQ(sim.makespan(), strategies.full(target).first);
    ASSERT_EQ(firstDifference(timeline(sim.graph(), sim.result()), strategies.full(target).second), "");
}

}  // namespace
}  // namespace partita::sim
