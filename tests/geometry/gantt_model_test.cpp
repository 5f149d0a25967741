// The Gantt view's data: lanes grouped by node and link kind, idle links
// hidden on request, bars and colour keys, critical bars, hit-testing and the
// tooltip text, on a hand-made run and on the simulator's own output.
#include <gtest/gtest.h>

#include "core/sim/simulator.h"
#include "tests/core/sim_test_util.h"
#include "widgets/geometry/gantt_model.h"

namespace partita::view {
namespace {

using sim::Phase;

// Devices n0.gpu0, n1.gpu0, n0.gpu1 (node 1 sits between node 0's devices),
// links nvlink a->b, infiniband c->d (idle), nvlink e->f.
std::shared_ptr<const GanttInput> handMade() {
    auto in = std::make_shared<GanttInput>();
    in->resources = {{"n0.gpu0", "node 0", false}, {"n1.gpu0", "node 1", false}, {"n0.gpu1", "node 0", false},
                     {"a\u2192b", "nvlink", true},   {"c\u2192d", "infiniband", true}, {"e\u2192f", "nvlink", true}};
    in->op_names = {"conv1", "fc1"};
    in->records = {{0, 10, 0, Phase::Forward, 0, 0, 1e-3, 0},       {0, 11, 1, Phase::Backward, 0, 2e-3, 3e-3, 0},
                   {1, 12, 0, Phase::Forward, 1, 0, 0.5e-3, 0},      {2, 13, 1, Phase::Sync, 0, 1e-3, 1.0567e-3, 0},
                   {3, 14, 1, Phase::Transfer, 0, 1e-3, 2e-3, 1.5e6}, {5, 15, 1, Phase::Sync, 2, 3e-3, 3.25e-3, 2048}};
    in->critical_path = {10, 14, 11};
    in->makespan = 3.25e-3;
    return in;
}

TEST(GanttModel, GroupsDevicesByNodeThenLinksByKind) {
    const GanttModel m(handMade());
    ASSERT_EQ(m.laneCount(), 6);
    const std::vector<int> resources{0, 2, 1, 3, 5, 4};
    for (int l = 0; l < 6; ++l) EXPECT_EQ(m.lanes()[static_cast<size_t>(l)].resource, resources[static_cast<size_t>(l)]);
    ASSERT_EQ(m.groups().size(), 4u);
    const std::vector<std::string> names{"node 0", "node 1", "nvlink", "infiniband"};
    const std::vector<int> first{0, 2, 3, 5}, count{2, 1, 2, 1};
    for (size_t g = 0; g < 4; ++g) {
        EXPECT_EQ(m.groups()[g].name, names[g]);
        EXPECT_EQ(m.groups()[g].first_lane, first[g]);
        EXPECT_EQ(m.groups()[g].lane_count, count[g]);
        EXPECT_FALSE(m.groups()[g].collapsed);
    }
    EXPECT_FALSE(m.groupIsLinks(1));
    EXPECT_TRUE(m.groupIsLinks(2));
    EXPECT_EQ(m.barCount(), 6u);
    EXPECT_EQ(m.lanes()[4].name, "e\u2192f");
    // Collapsing node 0 in the view's layout leaves four lanes.
    LaneLayout layout(m.groups(), 18, 20);
    layout.setCollapsed(0, true);
    EXPECT_EQ(layout.visibleLaneCount(), 4);
}

TEST(GanttModel, HidesIdleLinksAndEmptyGroups) {
    const GanttModel m(handMade(), true);
    EXPECT_EQ(m.laneCount(), 5);
    ASSERT_EQ(m.groups().size(), 3u);
    EXPECT_EQ(m.groups()[2].name, "nvlink");
    EXPECT_EQ(m.barCount(), 6u);
}

TEST(GanttModel, ColoursByPhaseOrLayer) {
    GanttModel m(handMade());
    EXPECT_EQ(m.bars(0)[0].color_key, 0);  // forward
    EXPECT_EQ(m.bars(0)[1].color_key, 1);  // backward
    EXPECT_EQ(m.bars(3)[0].color_key, 3);  // transfer
    ASSERT_EQ(m.legend().size(), 4u);
    EXPECT_EQ(m.legend()[2].label, "weight sync");
    EXPECT_EQ(ganttColour(GanttColouring::Phase, 0), okabeIto(5));
    EXPECT_EQ(ganttColour(GanttColouring::Phase, -1), (Rgb{150, 150, 150}));
    m.setColouring(GanttColouring::Layer);
    EXPECT_EQ(m.bars(0)[0].color_key, 0);
    EXPECT_EQ(m.bars(0)[1].color_key, 1);
    EXPECT_EQ(m.bars(3)[0].color_key, 1);
    ASSERT_EQ(m.legend().size(), 2u);
    EXPECT_EQ(m.legend()[1].label, "fc1");
    EXPECT_EQ(ganttColour(GanttColouring::Layer, 0), okabeIto(1));  // seven colours, no black
    EXPECT_EQ(ganttColour(GanttColouring::Layer, 7), (Rgb{138, 95, 0}));  // the second round is darker
    EXPECT_EQ(ganttColour(GanttColouring::Layer, 14), okabeIto(1));
}

TEST(GanttModel, MarksTheCriticalPath) {
    const GanttModel m(handMade());
    EXPECT_EQ(m.criticalBars(), (std::vector<std::pair<int, int>>{{0, 0}, {3, 0}, {0, 1}}));
    EXPECT_TRUE(m.critical(3, 0));
    EXPECT_FALSE(m.critical(1, 0));
    EXPECT_TRUE(m.anyCritical(0, 0, 2));
    EXPECT_FALSE(m.anyCritical(2, 0, 1));
    EXPECT_TRUE(m.anyOfOperator(0, 0, 2, 1));
    EXPECT_FALSE(m.anyOfOperator(0, 0, 1, 1));
}

TEST(GanttModel, HitTestsPreferTheNearestBar) {
    const GanttModel m(handMade());
    EXPECT_EQ(m.barAt(0, 0.5e-3, 0), 0);
    EXPECT_EQ(m.barAt(0, 1.5e-3, 0), std::nullopt);
    EXPECT_EQ(m.barAt(0, 1.05e-3, 1e-3), 0);
    EXPECT_EQ(m.barAt(0, 1.95e-3, 1e-3), 1);
    EXPECT_EQ(m.barAt(0, 4e-3, 0.5e-3), std::nullopt);
}

TEST(GanttModel, ToolTipSaysWhatWhereWhenAndHowMuch) {
    const GanttModel m(handMade());
    EXPECT_EQ(m.toolTip(3, 0),
              "Layer fc1 \u2014 transfer (part 0)\nOn a\u2192b\nStart 1 ms, duration 1 ms, end 2 ms\n"
              "Bytes 1.5 MB\nOn the critical path");
    EXPECT_EQ(m.toolTip(1, 0),
              "Layer fc1 \u2014 weight sync (part 0)\nOn n0.gpu1\nStart 1 ms, duration 56.7 \u00b5s, end 1.057 ms");
    EXPECT_EQ(timeText(0), "0 s");
    EXPECT_EQ(timeText(2.5e-6), "2.5 \u00b5s");
    EXPECT_EQ(bytesText(2048), "2.048 kB");
}

TEST(GanttModel, EmptyInputHasNoLanes) {
    const GanttModel m;
    EXPECT_TRUE(m.empty());
    EXPECT_EQ(m.makespan(), 0);
    EXPECT_TRUE(GanttModel(std::make_shared<GanttInput>()).empty());
}

TEST(GanttInput, NamesAndGroupsTopologyResources) {
    const auto res = ganttResources(sim::p100Cluster16());
    ASSERT_EQ(res.size(), 16u + 48u + 32u + 8u);
    EXPECT_EQ(res[0].name, "n0.gpu0");
    EXPECT_EQ(res[5].group, "node 1");
    EXPECT_FALSE(res[5].link);
    EXPECT_EQ(res[16].name, "n0.gpu0\u2192n0.gpu1");
    EXPECT_EQ(res[16].group, "nvlink");
    EXPECT_TRUE(res[16].link);
    EXPECT_EQ(res.back().name, "ib\u2192n3.host");
    EXPECT_EQ(res.back().group, "infiniband");
    const GanttModel m(std::make_shared<GanttInput>(GanttInput{res, {}, {}, {}, 0, {}, {}}));
    std::vector<std::string> groups;
    for (const auto& g : m.groups()) groups.push_back(g.name);
    EXPECT_EQ(groups, (std::vector<std::string>{"node 0", "node 1", "node 2", "node 3", "nvlink", "pcie", "infiniband"}));
}

TEST(GanttInput, FromASimulation) {
    const Network net = sim::test::fcChain();
    const sim::Topology topo = sim::test::pair();
    const sim::SoapStrategy s = sim::dataParallel(net, 4, 2);
    const sim::TaskGraph g = sim::buildTaskGraph(net, 4, s, topo);
    const sim::SimResult r = sim::simulate(g);
    auto in = std::make_shared<const GanttInput>(ganttInput(g, r, topo));
    EXPECT_EQ(in->records.size(), g.taskCount());
    EXPECT_EQ(in->makespan, r.makespan);
    EXPECT_EQ(in->op_names, (std::vector<std::string>{"fc1", "fc2"}));
    const GanttModel m(in);
    // The node's devices, then their collective streams (the weights' all-reduces), then the links.
    ASSERT_EQ(m.laneCount(), 6);
    EXPECT_EQ(m.groups()[0].name, "node 0");
    EXPECT_EQ(m.groups()[0].lane_count, 4);
    EXPECT_EQ(m.groupStreams(0), 2);  // its heading says 2 devices, 2 streams
    EXPECT_EQ(m.groupStreams(1), 0);
    EXPECT_EQ(m.lanes()[2].name, "d0 comm");
    // The test cable leaves Link::kind at "link", so the name keeps its own prefix.
    EXPECT_EQ(m.lanes()[4].name, "cable d0\u2192d1");
    EXPECT_EQ(m.groups()[1].name, "link");
    ASSERT_FALSE(m.criticalBars().empty());
    const auto [lane, index] = m.criticalBars().back();
    EXPECT_EQ(m.record(lane, index).end, r.makespan);
}

}  // namespace
}  // namespace partita::view
