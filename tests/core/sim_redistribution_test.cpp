// Activation redistribution as a collective (docs/methods/flexflow.md#redistribution-as-a-collective):
// a change of split between two operators is a join and one task per device on its collective stream,
// not a message per pair of pieces; a shift or a gather stays point to point.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "core/sim/delta.h"
#include "core/sim/memory.h"
#include "core/sim/simulator.h"
#include "core/sim/trace.h"
#include "sim_test_util.h"

namespace partita::sim {
namespace {

SimOptions ringModel(CollectiveModel collectives) {
    SimOptions o;
    o.collectives = collectives;
    o.collective_algorithm = CollectiveAlgorithm::Ring;  // the weight sync as per hop does it
    return o;
}

// fc 1024 -> 1024 -> 1024, batch 16 on one node of 4 devices (a full mesh of 20 GB/s, 1 us links).
Network twoWideFc() {
    return test::network("two-fc", {1024, 1, 1}, {test::fc("fc1", {"input"}, 1024), test::fc("fc2", {"fc1"}, 1024)});
}

// fc1 by sample on devices 0..3, fc2 by output channel on the same devices: every fc2 piece reads
// all 16 samples of fc1's output, 4 of them from each device (4 x 1024 x 4 B = 16 KiB per pair).
SoapStrategy sampleThenChannelOn4(const Network& net) {
    SoapStrategy s = dataParallel(net, 16, 4);
    s.ops[1] = test::on({1, 4, 1, 1}, {0, 1, 2, 3});
    return s;
}

std::vector<int> transferTasks(const TaskGraph& g) {
    std::vector<int> out;
    for (size_t t = 0; t < g.slotCount(); ++t) {
        const int task = static_cast<int>(t);
        if (g.alive(task) && g.info(task).phase == Phase::Transfer) out.push_back(task);
    }
    return out;
}

TEST(SimRedistribution, AChangeOfSplitIsAJoinAndOneTaskPerDeviceOnItsStream) {
    const Network net = twoWideFc();
    const Topology t = test::cluster(1, 4);
    const TaskGraph g = buildTaskGraph(net, 16, sampleThenChannelOn4(net), t, ringModel(CollectiveModel::Algorithm));
    // Compute 8 forward + 8 backward; fc1's weight sync 1 + 4; the tensor forward and its gradient
    // backward, 1 + 4 each (per hop they would be 12 messages each way).
    EXPECT_EQ(g.taskCount(), 8u + 8u + 5u + 5u + 5u);
    const SimResult r = simulate(g);
    const std::vector<int> moves = transferTasks(g);
    ASSERT_EQ(moves.size(), 10u);
    // Each directed pair has its own link: the busiest carries one 16 KiB transfer.
    const double time = 1e-6 + 16384.0 / 20e9;
    int joins = 0;
    for (int task : moves) {
        ASSERT_TRUE(g.isStream(g.resource(task)));
        if (g.exe(task) == 0) {
            ++joins;
            continue;
        }
        EXPECT_DOUBLE_EQ(g.exe(task), time);
        EXPECT_DOUBLE_EQ(g.info(task).bytes, 3 * 16384.0);  // what the member sends
    }
    EXPECT_EQ(joins, 2);
    // fc2's forward pieces start once their device's part of the exchange ends.
    for (int k = 0; k < 4; ++k) {
        const int fc2 = [&] {
            for (int task : r.order)
                if (g.info(task).op == 1 && g.info(task).phase == Phase::Forward && g.info(task).part == k) return task;
            return -1;
        }();
        ASSERT_GE(fc2, 0);
        double arrived = 0;
        int from_stream = 0;
        g.forEachPredecessor(fc2, [&](int p) {
            arrived = std::max(arrived, r.end[static_cast<size_t>(p)]);
            from_stream += g.isStream(g.resource(p)) ? 1 : 0;
        });
        EXPECT_EQ(r.ready[static_cast<size_t>(fc2)], arrived);
        EXPECT_EQ(from_stream, 1);  // its device's member; the local piece comes straight from fc1
    }
    // The largest transfer is an in-flight buffer, as the message was per hop.
    const MemoryReport m = deviceMemory(net, 16, sampleThenChannelOn4(net), g, t, ringModel(CollectiveModel::Algorithm));
    for (const DeviceMemory& d : m.devices) EXPECT_GE(d.buffers, 16384.0);
}

TEST(SimRedistribution, AgreesWithPerHopWhereEveryPairHasItsOwnLink) {
    // On a full mesh each message is one hop on its own link, all sent at once: per hop and as a
    // collective the exchange takes latency + 16 KiB / bandwidth, and the ring sync agrees too.
    const Network net = twoWideFc();
    const Topology t = test::cluster(1, 4);
    const SoapStrategy s = sampleThenChannelOn4(net);
    const TaskGraph hop = buildTaskGraph(net, 16, s, t, ringModel(CollectiveModel::PerHop));
    const TaskGraph alg = buildTaskGraph(net, 16, s, t, ringModel(CollectiveModel::Algorithm));
    const double a = simulate(hop).makespan, b = simulate(alg).makespan;
    EXPECT_NEAR(b, a, 1e-9 * a);
    // The same bytes between the same pairs, and over the same links.
    const auto pa = trafficPairs(hop), pb = trafficPairs(alg);
    ASSERT_EQ(pa.size(), pb.size());
    for (size_t i = 0; i < pa.size(); ++i) {
        EXPECT_EQ(pa[i].from, pb[i].from);
        EXPECT_EQ(pa[i].to, pb[i].to);
        EXPECT_DOUBLE_EQ(pa[i].bytes, pb[i].bytes);
    }
    const auto la = linkBytes(hop, t), lb = linkBytes(alg, t);
    for (size_t l = 0; l < la.size(); ++l) EXPECT_DOUBLE_EQ(la[l], lb[l]) << t.links[l].name;
}

TEST(SimRedistribution, TheBusiestLinkSetsTheTime) {
    // Two nodes of 2, each behind a 12.5 GB/s link to the core: fc1 by sample on all 4, fc2 by
    // channel on all 4. A node's uplink carries its 2 devices' transfers to the other node's 2, four
    // of 16 KiB (a device's 12 GB/s pcie link only two); the route is pcie (2 us), ib (5 us), ib
    // (5 us), pcie (2 us).
    const Network net = twoWideFc();
    const Topology t = test::cluster(2, 2);
    const TaskGraph g = buildTaskGraph(net, 16, sampleThenChannelOn4(net), t, ringModel(CollectiveModel::Algorithm));
    const double time = 14e-6 + 4 * 16384.0 / 12.5e9;
    int members = 0;
    for (int task : transferTasks(g))
        if (g.exe(task) > 0) {
            ++members;
            EXPECT_DOUBLE_EQ(g.exe(task), time);
        }
    EXPECT_EQ(members, 8);
}

TEST(SimRedistribution, AShiftStaysPointToPoint) {
    // fc2 by sample like fc1 but one device along: each piece reads one piece, 4 messages among 4
    // devices, which stay messages (one hop each on the mesh).
    const Network net = twoWideFc();
    const Topology t = test::cluster(1, 4);
    SoapStrategy s = dataParallel(net, 16, 4);
    s.ops[1].devices = {1, 2, 3, 0};
    const TaskGraph g = buildTaskGraph(net, 16, s, t, ringModel(CollectiveModel::Algorithm));
    int on_links = 0;
    for (int task : transferTasks(g)) {
        EXPECT_TRUE(g.isLink(g.resource(task)));
        ++on_links;
    }
    EXPECT_EQ(on_links, 8);  // 4 forward, 4 backward
}

TEST(SimRedistribution, DeltaEqualsFullOverRandomProposals) {
    const Network net = test::inceptionLike();
    const Topology t = test::cluster(2, 4);
    const std::int64_t batch = 16;
    SimOptions o;
    o.collectives = CollectiveModel::Algorithm;
    DeltaSimulator delta(net, static_cast<double>(batch), dataParallel(net, batch, 8), t, o);
    std::mt19937_64 rng(11);
    int exchanges = 0;
    for (int i = 0; i < 80; ++i) {
        const int op = static_cast<int>(rng() % net.ops.size());
        const OpConfig c = randomConfig(net.ops[static_cast<size_t>(op)], batch, 8, rng);
        const double got = delta.propose(op, c);
        const TaskGraph full = buildTaskGraph(net, static_cast<double>(batch), delta.strategy(), t, o);
        EXPECT_DOUBLE_EQ(got, simulate(full).makespan) << "proposal " << i;
        EXPECT_EQ(delta.graph().taskCount(), full.taskCount()) << "proposal " << i;
        for (int task : transferTasks(full)) exchanges += full.isStream(full.resource(task)) ? 1 : 0;
        if (rng() % 2) delta.revert();
        else delta.commit();
    }
    EXPECT_GT(exchanges, 0);  // the proposals did make collective exchanges
}

}  // namespace
}  // namespace partita::sim
