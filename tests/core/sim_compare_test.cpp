// Simulated runs side by side (issue 26 items 5 and 16): how many devices a strategy uses and why,
// SOAP configurations in words, and a chart's devices gathered from 4 to 1,024 devices.
#include <gtest/gtest.h>

#include "core/io/network_io.h"
#include "core/run/sim_compare.h"
#include "core/run/simulation.h"
#include "core/sim/baselines.h"
#include "core/sim/soap_text.h"

namespace partita {
namespace {

Network lenet() { return loadNetwork(std::string(PARTITA_EXAMPLES_DIR) + "/networks/lenet-c.json"); }

TEST(DeviceUse, DataParallelIsLimitedByTheBatch) {
    const Network net = lenet();
    const DeviceUse dp = deviceUse(SimSource::DataParallel, sim::dataParallelStrategy(net, 512, 4096), 512, 4096);
    EXPECT_EQ(dp.used, 512);
    EXPECT_EQ(dp.devices, 4096);
    EXPECT_EQ(dp.reason, "batch 512 limits data parallelism to 512 devices");
    const DeviceUse odd = deviceUse(SimSource::DataParallel, sim::dataParallelStrategy(net, 24, 16), 24, 16);
    EXPECT_EQ(odd.used, 12);
    EXPECT_EQ(odd.reason, "batch 24 splits evenly over at most 12 devices");
    const DeviceUse all = deviceUse(SimSource::DataParallel, sim::dataParallelStrategy(net, 64, 16), 64, 16);
    EXPECT_EQ(all.used, 16);
    EXPECT_TRUE(all.reason.empty());
    // OWT: the data-parallel layers by the batch, the fully connected ones by their output features.
    const DeviceUse owt = deviceUse(SimSource::OneWeirdTrick, sim::oneWeirdTrickStrategy(net, 8, 16), 8, 16);
    EXPECT_EQ(owt.used, 10);  // fc2 has 10 outputs
    EXPECT_EQ(owt.reason, "batch 8 limits data parallelism to 8 devices; the fully connected layers split their "
                          "output features over at most 10");
    const DeviceUse mp = deviceUse(SimSource::ModelParallel, sim::modelParallelStrategy(net, 8, 4096), 8, 4096);
    EXPECT_LT(mp.used, 4096);
    EXPECT_NE(mp.reason.find("channel counts limit model parallelism to " + std::to_string(mp.used)), std::string::npos);
}

TEST(SoapText, ConfigurationsInWords) {
    sim::OpConfig c;
    c.devices = {3};
    EXPECT_EQ(sim::configText(c), "whole on device 3");
    c.degree = {4, 2, 1, 1};
    c.devices = {0, 1, 2, 3, 8, 9, 10, 12};
    EXPECT_EQ(sim::configText(c), "sample 4 × channel 2 on devices 0-3, 8-10, 12");
    c.degree = {1, 1, 1, 1};
    c.reduce = 2;
    c.devices = {5, 4};
    EXPECT_EQ(sim::configText(c), "reduce 2 on devices 4-5");
    std::vector<int> scattered;
    for (int d = 0; d < 40; d += 2) scattered.push_back(d);
    EXPECT_EQ(sim::deviceRanges(scattered), "0, 2, 4, 6, 8, 10, ... (20 devices)");
}

SimComparison synthetic(int devices, int per_node) {
    SimComparison c;
    for (int d = 0; d < devices; ++d) {
        c.devices.push_back("d" + std::to_string(d));
        c.device_nodes.push_back(d / per_node);
    }
    for (int r = 0; r < 2; ++r) {
        SimCompareRun run;
        for (int d = 0; d < devices; ++d) run.utilisation.push_back(r == 0 ? (d % 2) : 0.25);
        c.runs.push_back(run);
    }
    return c;
}

TEST(DeviceGroups, GatherDevicesIntoAtMost32Bars) {
    // 4 devices: one bar each.
    auto g = deviceGroups(synthetic(4, 2), 32);
    ASSERT_EQ(g.size(), 4u);
    EXPECT_EQ(g[1].label, "d1");
    EXPECT_EQ(g[1].utilisation, (std::vector<double>{1, 0.25}));
    // 64 devices in 16 nodes: one bar per node, the mean of its devices.
    g = deviceGroups(synthetic(64, 4), 32);
    ASSERT_EQ(g.size(), 16u);
    EXPECT_EQ(g[2].label, "node 2");
    EXPECT_EQ(g[2].count, 4);
    EXPECT_EQ(g[2].utilisation, (std::vector<double>{0.5, 0.25}));
    // 1,024 devices in 128 nodes: runs of 32 consecutive devices.
    g = deviceGroups(synthetic(1024, 8), 32);
    ASSERT_EQ(g.size(), 32u);
    EXPECT_EQ(g[31].label, "devices 992-1023");
    EXPECT_EQ(g[31].first, 992);
    EXPECT_EQ(g[31].count, 32);
    // 1,000 devices on one node: 32 runs of 32, the last one shorter.
    g = deviceGroups(synthetic(1000, 1000), 32);
    ASSERT_EQ(g.size(), 32u);
    EXPECT_EQ(g.back().label, "devices 992-999");
    EXPECT_EQ(g.back().count, 8);
}

TEST(CompareSimulations, NeedsSimulatedRuns) {
    EXPECT_FALSE(compareSimulations({}).ok());
    auto analytic = std::make_shared<const partita::Run>(
        planRun(makeInputs(lenet(), defaultArray(2), CostParams{}), Method::DataParallel));
    const SimComparison c = compareSimulations({analytic, analytic});
    ASSERT_FALSE(c.ok());
    EXPECT_NE(c.refusal.find("#1 "), std::string::npos);
    EXPECT_NE(c.refusal.find("is not simulated"), std::string::npos);
}

}  // namespace
}  // namespace partita
