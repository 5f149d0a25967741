// The topology editor's edits on the Topology value: ids stay consistent, default link names follow.
#include <gtest/gtest.h>

#include "core/topology/check.h"
#include "core/topology/edit.h"

namespace partita::sim {
namespace {

TEST(TopologyEdit, RingOfFourThroughTheEdits) {
    Topology t;
    for (int k = 0; k < 4; ++k) EXPECT_EQ(addDevice(t, defaultEditorDevice()), k);
    for (int k = 0; k < 4; ++k) addLink(t, k, (k + 1) % 4, true, defaultEditorLink());
    EXPECT_EQ(t.devices[3].name, "d3");
    EXPECT_EQ(t.links.size(), 8u);
    EXPECT_EQ(t.links[7].name, "link d0->d3");
    EXPECT_EQ(linkRows(t), (std::vector<LinkRow>{{0, 1}, {2, 3}, {4, 5}, {6, 7}}));
    t.name = "ring";
    EXPECT_TRUE(checkTopology(t).empty());
    // Reading back what was written gives the same graph.
    EXPECT_EQ(readTopologyJson(writeTopologyJson(t), "ring.json"), t);
}

TEST(TopologyEdit, SwitchesShiftAndRemovalRemaps) {
    Topology t;
    addDevice(t, defaultEditorDevice());
    EXPECT_EQ(addSwitch(t), 1);
    addLink(t, 0, 1, true, defaultEditorLink());
    EXPECT_EQ(addDevice(t, defaultEditorDevice()), 1);  // the switch moves to vertex 2
    EXPECT_EQ(t.links[0].to, 2);
    addLink(t, 1, 2, false, defaultEditorLink());
    EXPECT_EQ(linkRows(t), (std::vector<LinkRow>{{0, 1}, {2, -1}}));
    renameVertex(t, 2, "spine");
    EXPECT_EQ(t.links[2].name, "link d1->spine");
    removeVertices(t, {0});
    ASSERT_EQ(t.links.size(), 1u);
    EXPECT_EQ(t.links[0].from, 0);
    EXPECT_EQ(t.links[0].to, 1);
    removeLinks(t, {0});
    EXPECT_TRUE(t.links.empty());
}

}  // namespace
}  // namespace partita::sim
