#include "widgets/geometry/graph_layout.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <mutex>

#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>

namespace partita::view {

namespace {

// gvc and cgraph keep global state (the error handler, the symbol tables, the context's plugins).
std::mutex& graphvizMutex() {
    static std::mutex m;
    return m;
}

// What Graphviz reported during the current (locked) call.
std::string& graphvizMessages() {
    static std::string messages;
    return messages;
}

int collectMessage(char* text) {
    graphvizMessages() += text;
    return 0;
}

// One context for the process, made on first use and kept (building one reads the plugin config).
GVC_t* context() {
    static GVC_t* gvc = gvContext();
    return gvc;
}

// cgraph's setters take char*; they copy the strings.
char* c(const char* s) { return const_cast<char*>(s); }

std::string number(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.6g", v);
    return buf;
}

std::string inches(double points) { return number(points / 72.0); }

void check(const GraphSpec& spec) {
    if (spec.nodes.size() > kMaxLayoutNodes)
        throw GraphLayoutError(std::to_string(spec.nodes.size()) + " nodes: more than the " +
                               std::to_string(kMaxLayoutNodes) + " a drawing allows");
    if (spec.edges.size() > kMaxLayoutEdges)
        throw GraphLayoutError(std::to_string(spec.edges.size()) + " edges: more than the " +
                               std::to_string(kMaxLayoutEdges) + " a drawing allows");
    if (spec.engine != "dot" && spec.engine != "neato" && spec.engine != "fdp")
        throw GraphLayoutError("unknown layout engine '" + spec.engine + "' (dot, neato or fdp)");
    const int n = static_cast<int>(spec.nodes.size());
    for (size_t i = 0; i < spec.nodes.size(); ++i) {
        const GraphNodeSpec& node = spec.nodes[i];
        if (!(node.width > 0) || !(node.height > 0) || !std::isfinite(node.width) || !std::isfinite(node.height))
            throw GraphLayoutError("node " + std::to_string(i) + " ('" + node.id + "') has no positive size");
    }
    for (size_t i = 0; i < spec.edges.size(); ++i) {
        const GraphEdgeSpec& e = spec.edges[i];
        if (e.from < 0 || e.from >= n || e.to < 0 || e.to >= n)
            throw GraphLayoutError("edge " + std::to_string(i) + " joins a node that does not exist");
    }
}

struct GraphCloser {
    GVC_t* gvc;
    bool laid_out = false;
    void operator()(Agraph_t* g) const {
        if (laid_out) gvFreeLayout(gvc, g);
        agclose(g);
    }
};

GraphLayout readBack(Agraph_t* g, const std::vector<Agnode_t*>& nodes, const std::vector<Agedge_t*>& edges,
                     const GraphSpec& spec) {
    const boxf bb = GD_bb(g);
    // Graphviz's y grows upwards from the bounding box's lower-left corner.
    const auto flip = [&](pointf p) { return Point{p.x - bb.LL.x, bb.UR.y - p.y}; };
    GraphLayout out;
    out.width = bb.UR.x - bb.LL.x;
    out.height = bb.UR.y - bb.LL.y;
    for (Agnode_t* n : nodes) {
        const Point centre = flip(ND_coord(n));
        const double w = ND_width(n) * 72.0, h = ND_height(n) * 72.0;
        out.nodes.push_back({centre.x - w / 2, centre.y - h / 2, w, h});
    }
    for (size_t i = 0; i < edges.size(); ++i) {
        EdgeRoute route;
        route.from = spec.edges[i].from;
        route.to = spec.edges[i].to;
        const splines* spl = ED_spl(edges[i]);
        if (spl && spl->size > 0) {
            const bezier& b = spl->list[0];
            for (int k = 0; k < b.size; ++k) route.points.push_back(flip(b.list[k]));
            route.tip = b.eflag ? flip(b.ep) : route.points.back();
        }
        if (route.points.size() < 4) {  // no spline (should not happen in dot): a straight segment
            const Box& a = out.nodes[static_cast<size_t>(route.from)];
            const Box& z = out.nodes[static_cast<size_t>(route.to)];
            const Point p0{a.x + a.w / 2, a.bottom()}, p1{z.x + z.w / 2, z.y};
            route.points = {p0, p0, p1, p1};
            route.tip = p1;
        }
        out.edges.push_back(std::move(route));
    }
    return out;
}

}  // namespace

bool GraphSpec::operator==(const GraphSpec& o) const {
    if (nodes.size() != o.nodes.size() || edges.size() != o.edges.size() || node_sep != o.node_sep ||
        rank_sep != o.rank_sep || engine != o.engine)
        return false;
    for (size_t i = 0; i < nodes.size(); ++i)
        if (nodes[i].id != o.nodes[i].id || nodes[i].label != o.nodes[i].label || nodes[i].width != o.nodes[i].width ||
            nodes[i].height != o.nodes[i].height || nodes[i].fill != o.nodes[i].fill)
            return false;
    for (size_t i = 0; i < edges.size(); ++i)
        if (edges[i].from != o.edges[i].from || edges[i].to != o.edges[i].to) return false;
    return true;
}

GraphLayout layoutGraph(const GraphSpec& spec) {
    check(spec);
    if (spec.nodes.empty()) return {};
    std::lock_guard lock(graphvizMutex());
    graphvizMessages().clear();
    agseterr(AGERR);  // warnings are not failures
    agseterrf(collectMessage);
    GVC_t* gvc = context();
    if (!gvc) throw GraphLayoutError("Graphviz could not start (no context)");

    GraphCloser closer{gvc};
    Agraph_t* raw = agopen(c("network"), Agdirected, nullptr);
    if (!raw) throw GraphLayoutError("Graphviz could not create a graph: " + graphvizMessages());
    std::unique_ptr<Agraph_t, GraphCloser&> g(raw, closer);
    agattr(raw, AGRAPH, c("rankdir"), c("TB"));
    agattr(raw, AGRAPH, c("nodesep"), c(inches(spec.node_sep).c_str()));
    agattr(raw, AGRAPH, c("ranksep"), c(inches(spec.rank_sep).c_str()));
    const bool ranked = spec.engine == "dot";
    agattr(raw, AGRAPH, c("splines"), c(ranked ? "spline" : "line"));
    if (!ranked) agattr(raw, AGRAPH, c("overlap"), c("false"));
    // Sizes are ours: no label is measured (so no font or text plugin is needed).
    agattr(raw, AGNODE, c("shape"), c("box"));
    agattr(raw, AGNODE, c("fixedsize"), c("true"));
    agattr(raw, AGNODE, c("label"), c(""));
    Agsym_t* width = agattr(raw, AGNODE, c("width"), c("1"));
    Agsym_t* height = agattr(raw, AGNODE, c("height"), c("0.5"));
    agattr(raw, AGEDGE, c("arrowsize"), c("0.7"));

    std::vector<Agnode_t*> nodes;
    nodes.reserve(spec.nodes.size());
    for (size_t i = 0; i < spec.nodes.size(); ++i) {
        Agnode_t* n = agnode(raw, c(("n" + std::to_string(i)).c_str()), 1);
        if (!n) throw GraphLayoutError("Graphviz could not create node " + std::to_string(i));
        agxset(n, width, c(inches(spec.nodes[i].width).c_str()));
        agxset(n, height, c(inches(spec.nodes[i].height).c_str()));
        nodes.push_back(n);
    }
    std::vector<Agedge_t*> edges;
    edges.reserve(spec.edges.size());
    for (size_t i = 0; i < spec.edges.size(); ++i) {
        const GraphEdgeSpec& e = spec.edges[i];
        // Named edges: two inputs from one producer (an add of x and x) stay two edges.
        Agedge_t* edge = agedge(raw, nodes[static_cast<size_t>(e.from)], nodes[static_cast<size_t>(e.to)],
                                c(("e" + std::to_string(i)).c_str()), 1);
        if (!edge) throw GraphLayoutError("Graphviz could not create edge " + std::to_string(i));
        edges.push_back(edge);
    }
    if (gvLayout(gvc, raw, spec.engine.c_str()) != 0)
        throw GraphLayoutError("Graphviz's " + spec.engine + " layout failed" +
                               (graphvizMessages().empty() ? std::string() : ": " + graphvizMessages()));
    closer.laid_out = true;
    return readBack(raw, nodes, edges, spec);
}

namespace {

std::string quoted(const std::string& s) {
    std::string out = "\"";
    for (char ch : s) {
        if (ch == '"' || ch == '\\') out += '\\';
        if (ch == '\n') {
            out += "\\n";
            continue;
        }
        out += ch;
    }
    return out + "\"";
}

}  // namespace

std::string graphDot(const GraphSpec& spec, const std::string& name) {
    std::string out = "digraph " + quoted(name) + " {\n";
    out += "  graph [rankdir=TB, nodesep=" + inches(spec.node_sep) + ", ranksep=" + inches(spec.rank_sep) +
           ", splines=spline];\n";
    out += "  node [shape=box, style=\"rounded,filled\", fillcolor=\"#ffffff\", fontname=\"Helvetica\", "
           "fontsize=9, fixedsize=true];\n";
    out += "  edge [arrowsize=0.7];\n";
    for (const GraphNodeSpec& n : spec.nodes) {
        std::string label;
        for (const std::string& line : n.label) label += (label.empty() ? "" : "\n") + line;
        out += "  " + quoted(n.id) + " [label=" + quoted(label) + ", width=" + inches(n.width) +
               ", height=" + inches(n.height);
        if (!n.fill.empty()) out += ", fillcolor=" + quoted(n.fill);
        out += "];\n";
    }
    for (const GraphEdgeSpec& e : spec.edges) {
        if (e.from < 0 || e.to < 0 || static_cast<size_t>(e.from) >= spec.nodes.size() ||
            static_cast<size_t>(e.to) >= spec.nodes.size())
            continue;
        out += "  " + quoted(spec.nodes[static_cast<size_t>(e.from)].id) + " -> " +
               quoted(spec.nodes[static_cast<size_t>(e.to)].id) + ";\n";
    }
    return out + "}\n";
}

}  // namespace partita::view
