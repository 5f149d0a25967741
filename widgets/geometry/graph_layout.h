#pragma once
// A directed acyclic graph laid out by Graphviz `dot` (or a general graph by `neato`/`fdp`; cgraph + gvc), read back as plain numbers:
// node boxes, edge splines and the bounding box, in points with y pointing down and the origin at
// the bounding box's top-left corner. The views draw these with QPainter (no Graphviz renderer).
// Graphviz is not thread-safe: every call into it goes through one process-wide mutex, so layouts
// from several threads run one after another. No Qt here; tested headless.
#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#include "widgets/geometry/grid_layout.h"  // Box

namespace partita::view {

// Beyond these a layout is refused (dot's time grows faster than linearly; the table lists any size).
inline constexpr std::size_t kMaxLayoutNodes = 5000;
inline constexpr std::size_t kMaxLayoutEdges = 20000;

struct GraphNodeSpec {
    std::string id;                  // unique; the DOT text's node name
    std::vector<std::string> label;  // lines, for the DOT text only (the layout uses the size)
    double width = 0, height = 0;    // points, > 0
    std::string fill;                // "#rrggbb" for the DOT text, or empty
};

struct GraphEdgeSpec {
    int from = 0, to = 0;  // node indices; from's output feeds to
};

struct GraphSpec {
    std::vector<GraphNodeSpec> nodes;
    std::vector<GraphEdgeSpec> edges;
    double node_sep = 18;  // points between nodes of one rank
    double rank_sep = 26;  // points between ranks
    // "dot" (ranks, for DAGs and trees), or "neato" / "fdp" (spring models, for general graphs:
    // straight edges, nodes kept from overlapping; the direction of an edge does not matter).
    std::string engine = "dot";
    bool operator==(const GraphSpec& other) const;
};

struct Point {
    double x = 0, y = 0;
};

struct EdgeRoute {
    int from = 0, to = 0;
    // A cubic Bézier spline from the tail node's border: p0, then (c1, c2, p) per segment.
    std::vector<Point> points;
    Point tip;  // where the arrowhead touches the head node (points.back() when Graphviz drew none)
};

struct GraphLayout {
    double width = 0, height = 0;  // the bounding box; every node and spline lies inside it
    std::vector<Box> nodes;        // spec order
    std::vector<EdgeRoute> edges;  // spec order
    bool empty() const { return nodes.empty(); }
};

class GraphLayoutError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Throws GraphLayoutError on a bad spec (an edge to no node, a size that is not positive, too many
// nodes or edges) and when Graphviz fails (its message included). Never leaves Graphviz locked.
GraphLayout layoutGraph(const GraphSpec& spec);

// The spec as DOT text (`dot -Tsvg` draws it): node names, label lines, sizes in inches, fills.
std::string graphDot(const GraphSpec& spec, const std::string& name);

}  // namespace partita::view
