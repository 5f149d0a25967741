// Megatron-style tensor parallelism through SOAP (docs/methods/flexflow.md#reduce-splits):
// a column-parallel fc (channel split) feeding a row-parallel fc (reduce split) on
// the same devices reads its input in place, and the partial sums cost one
// all-reduce of the output: a reduce-scatter forward, an all-gather backward.
#include <gtest/gtest.h>

#include <map>
#include <random>

#include "core/sim/delta.h"
#include "core/sim/reduction.h"
#include "core/sim/trace.h"
#include "sim_test_util.h"

namespace partita::sim {
namespace {

// fc 8 -> 16 (column) -> 4 (row) -> 4 (data parallel), batch 4 on two devices.
struct Pair {
    Network net = test::network("mlp", {8, 1, 1},
                                {test::fc("fc1", {"input"}, 16), test::fc("fc2", {"fc1"}, 4),
                                 test::fc("fc3", {"fc2"}, 4)});
    Topology topo = test::pair();
    SoapStrategy s = singleDevice(net);
    Pair() {
        s.ops[0] = test::on({1, 2, 1, 1}, {0, 1});
        s.ops[1].reduce = 2;
        s.ops[1].devices = {0, 1};
        s.ops[2] = test::on({2, 1, 1, 1}, {0, 1});
        validateStrategy(net, 4, s, 2);
    }
    // Bytes of the first hops of every message, by phase (per hop: the sync's messages are tasks).
    std::map<Phase, double> bytes() const {
        SimOptions per_hop;
        per_hop.collectives = CollectiveModel::PerHop;
        const TaskGraph g = buildTaskGraph(net, 4, s, topo, per_hop);
        std::map<Phase, double> out;
        for (size_t t = 0; t < g.slotCount(); ++t)
            if (g.alive(static_cast<int>(t)) && g.info(static_cast<int>(t)).first_hop)
                out[g.info(static_cast<int>(t)).phase] += g.info(static_cast<int>(t)).bytes;
        return out;
    }
};

TEST(SimMegatron, ColumnThenRowNeedsNoReshardingAndOneAllReduce) {
    const Pair p;
    const auto bytes = p.bytes();
    // fc2's output is 4 x 4 fp32 = 64 B. Reduce-scatter: each device sends the other its partial of the
    // other's 2-sample slice (2 x 32 B); all-gather of the output gradient backward: 2 x 32 B. That is one
    // ring all-reduce of 64 B over 2 devices. fc1 -> fc2 and fc2 -> fc3 move nothing (each slice is where
    // its reader is). Before the reduce-scatter, the partials went to device 0 (64 B), device 1's fc3 half
    // came back (32 B) and the same again backward: 192 B.
    EXPECT_EQ(bytes.at(Phase::Transfer), 128.0);
    // fc3's 4 x 4 weights (64 B) are replicated: a ring of 2 sends 2 x 2 chunks of 32 B.
    EXPECT_EQ(bytes.at(Phase::Sync), 128.0);
    const auto pairs = trafficPairs(buildTaskGraph(p.net, 4, p.s, p.topo));
    ASSERT_EQ(pairs.size(), 2u);
    EXPECT_EQ(pairs[0].bytes, 128.0);  // 0 -> 1: 32 + 32 transfer, 64 sync
    EXPECT_EQ(pairs[1].bytes, 128.0);
}

TEST(SimMegatron, ReduceSlicesCutTheLongestDimension) {
    const Box piece{Interval{0, 4}, Interval{8, 16}, Interval{0, 1}, Interval{0, 1}};
    EXPECT_EQ(reduceSlice(piece, 0, 2), (Box{Interval{0, 4}, Interval{8, 12}, Interval{0, 1}, Interval{0, 1}}));
    EXPECT_EQ(reduceSlice(piece, 1, 2), (Box{Interval{0, 4}, Interval{12, 16}, Interval{0, 1}, Interval{0, 1}}));
    // Fewer elements than slices: some slices are empty, none is lost.
    const Box one{Interval{3, 4}, Interval{0, 1}, Interval{0, 1}, Interval{0, 1}};
    EXPECT_EQ(volume(reduceSlice(one, 0, 2)) + volume(reduceSlice(one, 1, 2)), 1);
}

TEST(SimMegatron, RandomProposalsSplitTheReduction) {
    const Pair p;
    std::mt19937_64 rng(3);
    int reduced = 0;
    for (int k = 0; k < 200; ++k) {
        const int op = k % 3;
        const Operator& o = p.net.ops[static_cast<size_t>(op)];
        OpConfig c = randomConfig(o, 4, 2, rng, reducedChannels(p.net, o));
        SoapStrategy s = p.s;
        s.ops[static_cast<size_t>(op)] = c;
        EXPECT_NO_THROW(validateStrategy(p.net, 4, s, 2));
        reduced += c.reduce > 1;
    }
    EXPECT_GT(reduced, 0);
}

// A GPT block (tokens as samples): layer norm, q/k/v, an attention placeholder, the out-projection,
// a residual, the MLP. Delta simulation with the search's proposals (reduce degrees up to 8) must
// equal a full simulation.
TEST(SimMegatron, DeltaEqualsFullWithReduceProposals) {
    using test::fc;
    using test::join;
    auto ew = [](const std::string& name, std::vector<std::string> in) {
        Operator op = join(name, OpType::Elementwise, std::move(in));
        return op;
    };
    const Network net = test::network(
        "gpt-block", {16, 1, 1},
        {ew("ln1", {"input"}), fc("q", {"ln1"}, 16), fc("k", {"ln1"}, 16), fc("v", {"ln1"}, 16),
         ew("attn", {"q", "k", "v"}), fc("proj", {"attn"}, 16), join("res1", OpType::Add, {"proj", "input"}),
         fc("fc1", {"res1"}, 64), ew("gelu", {"fc1"}), fc("fc2", {"gelu"}, 16),
         join("res2", OpType::Add, {"fc2", "res1"})});
    const Topology topo = test::cluster(2, 4);
    const int batch = 8;
    std::mt19937_64 rng(11);
    auto propose = [&](int op) {
        const Operator& o = net.ops[static_cast<size_t>(op)];
        return randomConfig(o, batch, 8, rng, reducedChannels(net, o));
    };
    SoapStrategy start = singleDevice(net);
    for (size_t i = 0; i < net.ops.size(); ++i) start.ops[i] = propose(static_cast<int>(i));
    DeltaSimulator sim(net, batch, start, topo);
    int reduced = 0;
    for (int k = 0; k < 200; ++k) {
        const int op = static_cast<int>(rng() % net.ops.size());
        const OpConfig c = propose(op);
        reduced += c.reduce > 2;
        const double makespan = sim.propose(op, c);
        const SimResult full = simulate(buildTaskGraph(net, batch, sim.strategy(), topo));
        ASSERT_EQ(makespan, full.makespan) << "proposal " << k << " on " << net.ops[static_cast<size_t>(op)].name;
        if (rng() % 2) sim.commit();
        else sim.revert();
    }
    EXPECT_GT(reduced, 0);
}

}  // namespace
}  // namespace partita::sim
