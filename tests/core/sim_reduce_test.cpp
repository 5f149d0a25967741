// Reduce-split operators (partial sums over input-channel slices) in the
// delta simulator: it must still give exactly the full simulation's timeline,
// and the configuration's checks and JSON must cover the reduce degree.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "core/io/network_io.h"
#include "core/sim/delta.h"
#include "core/sim/trace.h"
#include "core/util/error.h"
#include "sim_test_util.h"

namespace partita::sim {
namespace {

// A random configuration; for conv/fc often with reduce 2 on a second set of devices.
OpConfig proposeWithReduce(const Network& net, int op, int batch, int devices, std::mt19937_64& rng) {
    const Operator& o = net.ops[static_cast<size_t>(op)];
    OpConfig c = randomConfig(o, batch, devices / 2, rng);
    if (!hasWeights(o.type) || reducedChannels(net, o) % 2 != 0 || rng() % 2 == 0)
        return randomConfig(o, batch, devices, rng);
    std::vector<int> pool(static_cast<size_t>(devices));
    std::iota(pool.begin(), pool.end(), 0);
    std::shuffle(pool.begin(), pool.end(), rng);
    c.reduce = 2;
    c.devices.assign(pool.begin(), pool.begin() + c.parts());
    return c;
}

void checkDeltaEqualsFull(const Network& net, const Topology& topo, int batch, std::uint64_t seed, int proposals) {
    std::mt19937_64 rng(seed);
    const int devices = topo.deviceCount();
    SoapStrategy start = singleDevice(net);
    for (size_t i = 0; i < net.ops.size(); ++i)
        start.ops[i] = proposeWithReduce(net, static_cast<int>(i), batch, devices, rng);
    DeltaSimulator sim(net, batch, start, topo);
    for (int k = 0; k < proposals; ++k) {
        const int op = static_cast<int>(rng() % net.ops.size());
        const double makespan = sim.propose(op, proposeWithReduce(net, op, batch, devices, rng));
        const TaskGraph g = buildTaskGraph(net, batch, sim.strategy(), topo);
        const SimResult full = simulate(g);
        ASSERT_EQ(makespan, full.makespan) << "proposal " << k << " on " << net.ops[static_cast<size_t>(op)].name;
        ASSERT_TRUE(timeline(sim.graph(), sim.result()) == timeline(g, full)) << "proposal " << k;
        if (rng() % 2) sim.commit();
        else sim.revert();
    }
}

TEST(SimReduce, DeltaEqualsFullWithPartialSums) {
    checkDeltaEqualsFull(test::inceptionLike(), test::cluster(2, 2), 8, 5, 300);
    checkDeltaEqualsFull(test::fcChain(), test::ring(4), 4, 6, 200);
    checkDeltaEqualsFull(loadNetwork(test::example("networks/alexnet.json")), test::cluster(2, 4), 16, 7, 150);
}

TEST(SimReduce, ValidationNamesTheProblem) {
    const Network net = test::fcChain();
    OpConfig c;
    c.reduce = 3;  // fc2 reads 16 channels
    c.devices = {0, 1, 2};
    try {
        validateConfig(net, 1, 4, c, 4);
        FAIL() << "expected an error";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("does not divide the 16 input channels"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find(net.ops[1].name), std::string::npos);
    }
    c.reduce = 2;
    c.devices = {0, 1};
    EXPECT_NO_THROW(validateConfig(net, 1, 4, c, 4));
    c.devices = {0, 1, 2};
    EXPECT_THROW(validateConfig(net, 1, 4, c, 4), Error);  // 2 tasks, 3 devices
    c.reduce = 0;
    EXPECT_THROW(validateConfig(net, 1, 4, c, 4), Error);
    const Network inception = test::inceptionLike();
    for (size_t i = 0; i < inception.ops.size(); ++i)
        if (!hasWeights(inception.ops[i].type)) {
            OpConfig pool;
            pool.reduce = 2;
            pool.devices = {0, 1};
            EXPECT_THROW(validateConfig(inception, static_cast<int>(i), 4, pool, 4), Error);
            break;
        }
}

TEST(SimReduce, StrategyJsonRoundTripsTheReduceDegree) {
    const Network net = test::fcChain();
    SoapStrategy s = singleDevice(net);
    s.ops[1].degree = {2, 1, 1, 1};
    s.ops[1].reduce = 2;
    s.ops[1].devices = {0, 1, 2, 3};
    const std::string text = writeSoapJson(s, net);
    EXPECT_NE(text.find("\"reduce\": 2"), std::string::npos);
    EXPECT_EQ(readSoapJson(text, "s.json", net), s);
}

}  // namespace
}  // namespace partita::sim
