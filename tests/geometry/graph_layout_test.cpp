// DAG layout through Graphviz dot: nodes keep their sizes and lie inside the bounding box, a chain
// runs top to bottom in order, splines start and end on their nodes, bad specs are errors, the
// DOT text names every node and edge, and layouts from two threads at once both succeed.
#include <gtest/gtest.h>

#include <thread>

#include "widgets/geometry/graph_layout.h"

namespace partita::view {
namespace {

GraphSpec chain(int n, double w = 120, double h = 40) {
    GraphSpec s;
    for (int i = 0; i < n; ++i) s.nodes.push_back({"op" + std::to_string(i), {"op" + std::to_string(i)}, w, h, {}});
    for (int i = 0; i + 1 < n; ++i) s.edges.push_back({i, i + 1});
    return s;
}

// A chain of `blocks` residual blocks: x -> a -> b -> add(b, x).
GraphSpec residual(int blocks) {
    GraphSpec s;
    const auto add = [&](const std::string& id) {
        s.nodes.push_back({id, {id}, 100, 36, {}});
        return static_cast<int>(s.nodes.size()) - 1;
    };
    int x = add("input");
    for (int k = 0; k < blocks; ++k) {
        const int a = add("a" + std::to_string(k)), b = add("b" + std::to_string(k)), sum = add("add" + std::to_string(k));
        s.edges.push_back({x, a});
        s.edges.push_back({a, b});
        s.edges.push_back({b, sum});
        s.edges.push_back({x, sum});
        x = sum;
    }
    return s;
}

// On the box's border (or inside it), within `tol` points.
bool touches(const Box& b, const Point& p, double tol = 1.5) {
    return p.x >= b.x - tol && p.x <= b.right() + tol && p.y >= b.y - tol && p.y <= b.bottom() + tol;
}

void expectInside(const GraphLayout& g) {
    for (const Box& b : g.nodes) {
        EXPECT_GE(b.x, -0.5);
        EXPECT_GE(b.y, -0.5);
        EXPECT_LE(b.right(), g.width + 0.5);
        EXPECT_LE(b.bottom(), g.height + 0.5);
    }
    for (const EdgeRoute& e : g.edges)
        for (const Point& p : e.points) {
            EXPECT_GE(p.x, -0.5);
            EXPECT_GE(p.y, -0.5);
            EXPECT_LE(p.x, g.width + 0.5);
            EXPECT_LE(p.y, g.height + 0.5);
        }
}

TEST(GraphLayout, NodesKeepTheirSizesInsideTheBoundingBox) {
    const GraphLayout g = layoutGraph(residual(3));
    ASSERT_EQ(g.nodes.size(), 10u);
    ASSERT_EQ(g.edges.size(), 12u);
    for (const Box& b : g.nodes) {
        EXPECT_NEAR(b.w, 100, 0.5);
        EXPECT_NEAR(b.h, 36, 0.5);
    }
    expectInside(g);
}

TEST(GraphLayout, AChainRunsTopToBottomInOrder) {
    const GraphLayout g = layoutGraph(chain(6));
    ASSERT_EQ(g.nodes.size(), 6u);
    for (size_t i = 0; i + 1 < g.nodes.size(); ++i) {
        EXPECT_LT(g.nodes[i].bottom(), g.nodes[i + 1].y);  // below, and not overlapping
        EXPECT_NEAR(g.nodes[i].x, g.nodes[i + 1].x, 0.5);  // one column
    }
    // The bounding box is the chain: its width is a node's, its height the nodes' and 5 rank gaps.
    EXPECT_NEAR(g.width, 120, 1);
    EXPECT_NEAR(g.height, 6 * 40 + 5 * 26, 2);
    expectInside(g);
}

TEST(GraphLayout, EdgesStartAndEndAtTheirNodes) {
    const GraphLayout g = layoutGraph(residual(2));
    for (const EdgeRoute& e : g.edges) {
        ASSERT_GE(e.points.size(), 4u);
        EXPECT_EQ((e.points.size() - 1) % 3, 0u);  // p0 + (c1, c2, p) per cubic segment
        EXPECT_TRUE(touches(g.nodes[static_cast<size_t>(e.from)], e.points.front()));
        EXPECT_TRUE(touches(g.nodes[static_cast<size_t>(e.to)], e.tip));
        EXPECT_FALSE(touches(g.nodes[static_cast<size_t>(e.to)], e.points.front()));
        EXPECT_LT(e.points.front().y, e.tip.y);  // downwards
    }
}

TEST(GraphLayout, TwoInputsFromOneProducerStayTwoEdges) {
    GraphSpec s = chain(2);
    s.edges.push_back({0, 1});
    const GraphLayout g = layoutGraph(s);
    EXPECT_EQ(g.edges.size(), 2u);
}

TEST(GraphLayout, BadSpecsAreErrors) {
    GraphSpec s = chain(2);
    s.edges.push_back({0, 7});
    EXPECT_THROW(layoutGraph(s), GraphLayoutError);
    s = chain(2);
    s.nodes[1].width = 0;
    EXPECT_THROW(layoutGraph(s), GraphLayoutError);
    EXPECT_THROW(layoutGraph(chain(static_cast<int>(kMaxLayoutNodes) + 1, 10, 10)), GraphLayoutError);
    EXPECT_TRUE(layoutGraph(GraphSpec{}).empty());
    // Graphviz is still usable after a refused spec.
    EXPECT_EQ(layoutGraph(chain(3)).nodes.size(), 3u);
}

// neato (the topology view's general graphs): a cycle's boxes inside the bounding box, none overlapping.
TEST(GraphLayout, NeatoPlacesACycleWithoutOverlaps) {
    GraphSpec s = chain(6, 80, 30);
    s.edges.push_back({5, 0});
    s.engine = "neato";
    const GraphLayout g = layoutGraph(s);
    ASSERT_EQ(g.nodes.size(), 6u);
    expectInside(g);
    for (size_t i = 0; i < g.nodes.size(); ++i)
        for (size_t j = i + 1; j < g.nodes.size(); ++j) {
            const Box &a = g.nodes[i], &b = g.nodes[j];
            EXPECT_TRUE(a.right() <= b.x + 0.5 || b.right() <= a.x + 0.5 || a.bottom() <= b.y + 0.5 ||
                        b.bottom() <= a.y + 0.5)
                << i << " overlaps " << j;
        }
    s.engine = "circo";
    EXPECT_THROW(layoutGraph(s), GraphLayoutError);
}

TEST(GraphLayout, ConcurrentLayoutsBothSucceed) {
    const GraphSpec a = residual(20), b = chain(40);
    const GraphLayout expect_a = layoutGraph(a), expect_b = layoutGraph(b);
    GraphLayout got_a, got_b;
    std::thread t1([&] {
        for (int i = 0; i < 5; ++i) got_a = layoutGraph(a);
    });
    std::thread t2([&] {
        for (int i = 0; i < 5; ++i) got_b = layoutGraph(b);
    });
    t1.join();
    t2.join();
    ASSERT_EQ(got_a.nodes.size(), expect_a.nodes.size());
    ASSERT_EQ(got_b.nodes.size(), expect_b.nodes.size());
    for (size_t i = 0; i < got_a.nodes.size(); ++i) {
        EXPECT_EQ(got_a.nodes[i].x, expect_a.nodes[i].x);
        EXPECT_EQ(got_a.nodes[i].y, expect_a.nodes[i].y);
    }
    EXPECT_EQ(got_b.height, expect_b.height);
}

TEST(GraphLayout, DotTextNamesEveryNodeAndEdge) {
    GraphSpec s = chain(2);
    s.nodes[0].id = "conv \"1\"";
    s.nodes[0].label = {"conv1", "64×56×56"};
    s.nodes[0].fill = "#56b4e9";
    EXPECT_EQ(graphDot(s, "Net"),
              "digraph \"Net\" {\n"
              "  graph [rankdir=TB, nodesep=0.25, ranksep=0.361111, splines=spline];\n"
              "  node [shape=box, style=\"rounded,filled\", fillcolor=\"#ffffff\", fontname=\"Helvetica\", "
              "fontsize=9, fixedsize=true];\n"
              "  edge [arrowsize=0.7];\n"
              "  \"conv \\\"1\\\"\" [label=\"conv1\\n64×56×56\", width=1.66667, height=0.555556, "
              "fillcolor=\"#56b4e9\"];\n"
              "  \"op1\" [label=\"op1\", width=1.66667, height=0.555556];\n"
              "  \"conv \\\"1\\\"\" -> \"op1\";\n"
              "}\n");
}

}  // namespace
}  // namespace partita::view
