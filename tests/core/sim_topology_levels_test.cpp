// Level bandwidths by recursive bisection: on the H-tree arrays they are HyPar's and AccPar's
// level figures exactly; on other graphs they are the bisection's max flow.
#include <gtest/gtest.h>

#include "core/model/array.h"
#include "core/topology/generate.h"
#include "core/topology/levels.h"

namespace partita::sim {
namespace {

TEST(TopologyLevels, HtreePresetsReproduceTheLevelFigures) {
    const Topology preset = builtinTopology("hmc-htree-16");
    const Array array = defaultArray(4);
    std::vector<double> bits;
    for (const double b : bisectionLevelBandwidths(preset)) bits.push_back(8 * b);
    EXPECT_EQ(bits, array.levelBandwidths());  // 12.8, 6.4, 3.2, 1.6 Gb/s
    for (int h = 1; h <= 8; ++h) {
        const Array a = defaultArray(h);
        EXPECT_EQ(bisectionLevelBandwidths(fromArray(a)), groupLevelBandwidth(a)) << h;
    }
    const Array derived = arrayFromTopology(preset);
    EXPECT_EQ(derived.levels, 4);
    EXPECT_EQ(derived.levelBandwidths(), array.levelBandwidths());
    EXPECT_EQ(derived.accelerator.throughput_ops, array.accelerator.throughput_ops);
}

TEST(TopologyLevels, OtherGraphs) {
    const ComputeDevice npu = namedDevice("npu");
    // A ring of 8: each half reaches the other over 2 links; quarters over 1 link + 1 around.
    const Topology ring = regularTopology(Dimension::Shape::Ring, {8}, {10e9, 0}, npu, "ring");
    EXPECT_EQ(bisectionLevelBandwidths(ring), (std::vector<double>{20e9, 20e9, 20e9}));
    // A switch: every half is limited by its own links to the switch.
    const Topology sw = regularTopology(Dimension::Shape::Switch, {8}, {10e9, 0}, npu, "switch");
    EXPECT_EQ(bisectionLevelBandwidths(sw), (std::vector<double>{40e9, 20e9, 10e9}));
    // The P100 cluster: nodes meet over one EDR link; inside a node NVLink and PCIe add up.
    const auto p100 = bisectionLevelBandwidths(p100Cluster16());
    EXPECT_EQ(p100[0], 2 * 12.5e9);
    EXPECT_EQ(p100[1], 12.5e9);
    EXPECT_EQ(p100[2], 4 * 20e9 + 2 * 15.75e9);  // GPUs {0, 1} to {2, 3}: four NVLinks, and PCIe via the host
    EXPECT_EQ(p100[3], 20e9 + 20e9 + 20e9 + 15.75e9);  // a GPU pair: direct NVLink, two others, and PCIe
    EXPECT_THROW(bisectionLevelBandwidths(regularTopology(Dimension::Shape::Ring, {6}, {1e9, 0}, npu, "6")),
                 std::invalid_argument);
}

}  // namespace
}  // namespace partita::sim
