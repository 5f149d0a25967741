// Peak memory per device (docs/methods/flexflow.md#memory-per-device): hand-counted bytes on a
// two-layer network, the GPT-3 175B data-parallel case that does not fit, and MCMC never
// returning a strategy that does not fit.
#include <gtest/gtest.h>

#include "core/sim/mcmc.h"
#include "core/sim/memory.h"
#include "core/topology/generate.h"
#include "sim_test_util.h"

namespace partita::sim {
namespace {

MemoryReport memoryOf(const Network& net, std::int64_t batch, const SoapStrategy& s, const Topology& t,
                      const SimOptions& o = {}) {
    return deviceMemory(net, batch, s, buildTaskGraph(net, static_cast<double>(batch), s, t, o), t, o);
}

DeviceMemory bytes(double w, double g, double opt, double act, double buf, double cap) {
    return {.weights = w, .gradients = g, .optimizer = opt, .activations = act, .buffers = buf, .capacity = cap};
}

// fc1 8 -> 16 (128 weights), fc2 16 -> 4 (64 weights), batch 4, fp32, SGD with momentum.
TEST(SimMemory, DataParallelTwoLayersByHand) {
    const Network net = test::fcChain();
    const Topology t = test::pair();
    const MemoryReport r = memoryOf(net, 4, dataParallel(net, 4, 2), t);
    // Each device: all 192 weights (768 B) three times; outputs 2x16 + 2x4 elements (160 B);
    // the largest ring step it receives is half of fc1's 512 B of gradients (256 B).
    for (int d = 0; d < 2; ++d) EXPECT_EQ(r.devices[static_cast<size_t>(d)], bytes(768, 768, 768, 160, 256, 16e9));
    EXPECT_EQ(r.devices[0].total(), 2720);
    EXPECT_TRUE(r.checked);
    EXPECT_TRUE(r.fits);
    EXPECT_EQ(r.worst, 0);
    EXPECT_EQ(r.excess, 0);
}

TEST(SimMemory, ModelParallelTwoLayersByHand) {
    const Network net = test::fcChain();
    const Topology t = test::pair();
    SoapStrategy s = singleDevice(net);
    s.ops[1].devices = {1};
    const MemoryReport r = memoryOf(net, 4, s, t);
    // d0 holds fc1 (512 B) and its 4x16 output (256 B); it receives fc1's output gradient (256 B).
    EXPECT_EQ(r.devices[0], bytes(512, 512, 512, 256, 256, 16e9));
    // d1 holds fc2 (256 B) and its 4x4 output (64 B); it receives fc1's output (256 B).
    EXPECT_EQ(r.devices[1], bytes(256, 256, 256, 64, 256, 16e9));
    EXPECT_EQ(r.worst, 0);
}

TEST(SimMemory, ParameterSplitHoldsAShareAndOptionsCount) {
    const Network net = test::fcChain();
    const Topology t = test::pair();
    SoapStrategy s = singleDevice(net);
    s.ops[0] = test::on({1, 2, 1, 1}, {0, 1});  // fc1's output channels split: 64 weights each
    SimOptions adam;
    adam.optimizer_states = 2;
    const MemoryReport r = memoryOf(net, 4, s, t, adam);
    // d1: 256 B of fc1, Adam's two copies; its 4x8 output piece; it receives fc1's
    // gradient piece back from fc2 on d0 (4x8 elements = 128 B).
    EXPECT_EQ(r.devices[1], bytes(256, 256, 512, 128, 128, 16e9));
    SimOptions inference;
    inference.training = false;
    const MemoryReport i = memoryOf(net, 4, s, t, inference);
    // Inference: weights, the largest single output, the forward transfer (4x8 elements) to d0.
    EXPECT_EQ(i.devices[1], bytes(256, 0, 0, 128, 0, 16e9));
    EXPECT_EQ(i.devices[0], bytes(512, 0, 0, 128, 128, 16e9));
}

TEST(SimMemory, UnknownCapacityIsNotChecked) {
    const Network net = test::fcChain();
    Topology t = test::pair();
    t.devices[0].mem_capacity_B = 0;
    t.devices[1].mem_capacity_B = 100;  // known: 2,720 B do not fit
    MemoryReport r = memoryOf(net, 4, dataParallel(net, 4, 2), t);
    EXPECT_TRUE(r.checked);
    EXPECT_FALSE(r.fits);
    EXPECT_EQ(r.worst, 1);
    EXPECT_EQ(r.excess, 2620);
    t.devices[1].mem_capacity_B = 0;
    r = memoryOf(net, 4, dataParallel(net, 4, 2), t);
    EXPECT_FALSE(r.checked);
    EXPECT_TRUE(r.fits);
    EXPECT_FALSE(hasCapacities(t));
}

// GPT-3 175B as 96 blocks of six fc layers (q, k, v, o: h x h; mlp: h x 4h, 4h x h), h = 12,288:
// 96 x 12 h^2 = 173,946,175,488 weights, 695.8 GB in fp32.
Network gpt3Like() {
    const std::int64_t h = 12288;
    std::vector<Operator> ops;
    std::string prev = "input";
    for (int l = 0; l < 96; ++l) {
        const std::string p = "l" + std::to_string(l) + ".";
        for (const auto& [name, out] : std::vector<std::pair<std::string, std::int64_t>>{
                 {"q", h}, {"k", h}, {"v", h}, {"o", h}, {"fc1", 4 * h}, {"fc2", h}}) {
            ops.push_back(test::fc(p + name, {prev}, out));
            prev = p + name;
        }
    }
    return test::network("gpt3-like", {h, 1, 1}, std::move(ops));
}

Topology switch64x80GB() {
    ComputeDevice gpu{"", "gpu", 312e12, 2e12, 80e9, 0.5, 0, 0};
    return regularTopology(Dimension::Shape::Switch, {64}, LinkSpec{300e9, 1e-6}, gpu, "switch 64 x 80 GB");
}

TEST(SimMemory, Gpt3DataParallelDoesNotFit) {
    const Network net = gpt3Like();
    const Topology t = switch64x80GB();
    SimOptions ps;
    ps.sync = SyncMode::ParameterServer;  // a small graph; the ring's chunks are smaller still
    const MemoryReport r = memoryOf(net, 64, dataParallel(net, 64, 64), t, ps);
    const double w = 173946175488.0 * 4;
    // One sample per device: 96 x 9h outputs; the largest message is fc1's whole gradient (4h^2 fp32).
    const double act = 96.0 * 9 * 12288 * 4, buf = 4.0 * 12288 * 12288 * 4;
    for (const DeviceMemory& m : r.devices) EXPECT_EQ(m, bytes(w, w, w, act, buf, 80e9));
    EXPECT_FALSE(r.fits);
    EXPECT_EQ(r.worst, 0);
    EXPECT_EQ(r.excess, 64 * (3 * w + act + buf - 80e9));
    EXPECT_EQ(memoryLine(r, t, 0), "device npu0 needs 2,089.8 GB of 80 GB (weights 695.8 GB, gradients 695.8 GB, "
                                   "optimizer 695.8 GB, activations 42.47 MB, buffers 2.4 GB)");
}

// A network whose data parallelism does not fit 2 x 8,000 B but other strategies do.
TEST(SimMemory, McmcNeverReturnsAStrategyThatDoesNotFit) {
    const Network net = test::network("wide", {16, 1, 1}, {test::fc("a", {"input"}, 32), test::fc("b", {"a"}, 16)});
    Topology t = test::pair();
    for (auto& d : t.devices) d.mem_capacity_B = 8000;
    McmcOptions o;
    o.iterations = 400;
    o.seed = 7;
    const std::vector<McmcStart> starts{{"dp", dataParallel(net, 4, 2)}};
    ASSERT_FALSE(memoryOf(net, 4, starts[0].strategy, t).fits);  // 1,024 weights x 12 B each
    for (bool incremental : {true, false}) {
        o.incremental = incremental;
        const McmcResult r = mcmcSearch(net, 4, t, starts, o);
        EXPECT_TRUE(r.memory_checked);
        EXPECT_GT(r.starts[0].initial_excess, 0);
        EXPECT_EQ(r.best_excess, 0);
        EXPECT_TRUE(memoryOf(net, 4, r.best, t).fits);
        EXPECT_EQ(r.best_s, simulate(buildTaskGraph(net, 4, r.best, t)).makespan);
    }
    // Nothing fits in 100 B: the search says so and returns the start closest to fitting.
    for (auto& d : t.devices) d.mem_capacity_B = 100;
    const McmcResult none = mcmcSearch(net, 4, t, starts, o);
    EXPECT_GT(none.best_excess, 0);
    EXPECT_EQ(none.best_excess, memoryOf(net, 4, none.best, t).excess);
}

}  // namespace
}  // namespace partita::sim
