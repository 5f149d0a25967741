#include "core/util/graph.h"

#include <algorithm>
#include <functional>
#include <numeric>
#include <queue>
#include <utility>

#include <boost/graph/compressed_sparse_row_graph.hpp>
#include <boost/graph/connected_components.hpp>
#include <boost/graph/depth_first_search.hpp>
#include <boost/graph/filtered_graph.hpp>
#include <boost/graph/reverse_graph.hpp>
#include <boost/graph/strong_components.hpp>

namespace partita::graph {

namespace {

using Vertex = Digraph::vertex_descriptor;
using Color = boost::default_color_type;
using ColorMap = boost::iterator_property_map<std::vector<Color>::iterator, boost::property_map<Digraph, boost::vertex_index_t>::const_type>;

ColorMap colorMap(std::vector<Color>& colors, const Digraph& g) {
    return boost::make_iterator_property_map(colors.begin(), boost::get(boost::vertex_index, g));
}

// Component ids renumbered in order of each component's smallest vertex (BGL leaves the numbering open).
std::vector<int> bySmallestVertex(const std::vector<int>& component, int count) {
    std::vector<int> renamed(static_cast<size_t>(count), -1), out(component.size());
    int next = 0;
    for (size_t v = 0; v < component.size(); ++v) {
        int& r = renamed[static_cast<size_t>(component[v])];
        if (r < 0) r = next++;
        out[v] = r;
    }
    return out;
}

// Kahn's algorithm with a min-heap; `pending` holds each vertex's in-degree.
template <class G>
std::vector<int> smallestFirst(const G& g, std::vector<size_t> pending) {
    std::priority_queue<size_t, std::vector<size_t>, std::greater<>> ready;
    for (size_t v = 0; v < pending.size(); ++v)
        if (pending[v] == 0) ready.push(v);
    std::vector<int> order;
    order.reserve(pending.size());
    while (!ready.empty()) {
        const size_t v = ready.top();
        ready.pop();
        order.push_back(static_cast<int>(v));
        for (const auto e : boost::make_iterator_range(boost::out_edges(v, g)))
            if (--pending[boost::target(e, g)] == 0) ready.push(boost::target(e, g));
    }
    return order;
}

struct BackEdge {
    Vertex from, to;  // in the searched (reversed) graph: consumer, then the producer already on the path
};

// Records the search tree and stops at the first back edge.
class CycleVisitor : public boost::default_dfs_visitor {
public:
    explicit CycleVisitor(std::vector<Vertex>& parent) : parent_(&parent) {}
    template <class Edge, class G>
    void tree_edge(Edge e, const G& g) const { (*parent_)[boost::target(e, g)] = boost::source(e, g); }
    template <class Edge, class G>
    void back_edge(Edge e, const G& g) const { throw BackEdge{boost::source(e, g), boost::target(e, g)}; }

private:
    std::vector<Vertex>* parent_;
};

}  // namespace

Digraph fromInputs(const std::vector<std::vector<int>>& inputs) {
    Digraph g(inputs.size());
    for (size_t v = 0; v < inputs.size(); ++v)
        for (int p : inputs[v])
            if (p >= 0) boost::add_edge(static_cast<Vertex>(p), v, g);
    return g;
}

std::vector<int> smallestFirstOrder(const Digraph& g) {
    std::vector<size_t> pending(boost::num_vertices(g));
    for (Vertex v = 0; v < pending.size(); ++v) pending[v] = boost::in_degree(v, g);
    return smallestFirst(g, std::move(pending));
}

std::vector<int> smallestFirstOrder(const std::vector<std::vector<int>>& inputs) {
    const size_t n = inputs.size();
    std::vector<size_t> pending(n, 0);
    std::vector<std::pair<size_t, size_t>> edges;
    bool ordered = true;
    for (size_t v = 0; v < n; ++v)
        for (int p : inputs[v])
            if (p >= 0) {
                ordered = ordered && p < static_cast<int>(v);
                ++pending[v];
                edges.emplace_back(static_cast<size_t>(p), v);
            }
    if (ordered) {
        std::vector<int> order(n);
        std::iota(order.begin(), order.end(), 0);
        return order;
    }
    // Only out-edges are needed: a compressed sparse row graph is three arrays, no list per vertex.
    const boost::compressed_sparse_row_graph<boost::directedS> g(boost::edges_are_unsorted_multi_pass, edges.begin(),
                                                                  edges.end(), n);
    return smallestFirst(g, std::move(pending));
}

std::vector<int> cycleOutside(const Digraph& g, const std::vector<int>& order) {
    const size_t n = boost::num_vertices(g);
    std::vector<bool> left(n, true);
    for (int v : order) left[static_cast<size_t>(v)] = false;
    Vertex start = 0;
    while (start < n && !left[start]) ++start;
    if (start == n) return {};
    // Every vertex left out has an input left out, so the search cannot finish before a back edge.
    const auto against = boost::make_reverse_graph(g);
    const std::function<bool(Vertex)> keep = [&](Vertex v) { return left[v]; };
    const boost::filtered_graph<decltype(against), boost::keep_all, std::function<bool(Vertex)>> outside(
        against, boost::keep_all(), keep);
    std::vector<Color> colors(n, boost::white_color);
    std::vector<Vertex> parent(n, start);
    try {
        boost::depth_first_visit(outside, start, CycleVisitor(parent), colorMap(colors, g));
    } catch (const BackEdge& found) {
        // found.to feeds found.from, which the tree path from found.to reaches through producers.
        std::vector<int> cycle{static_cast<int>(found.to)};
        for (Vertex v = found.from; v != found.to; v = parent[v]) cycle.push_back(static_cast<int>(v));
        cycle.push_back(static_cast<int>(found.to));
        return cycle;
    }
    return {};
}

std::vector<bool> reachable(const Digraph& g, const std::vector<int>& sources, bool forward) {
    const size_t n = boost::num_vertices(g);
    std::vector<Color> colors(n, boost::white_color);
    const auto search = [&](const auto& graph) {
        for (int s : sources)
            if (colors[static_cast<size_t>(s)] == boost::white_color)
                boost::depth_first_visit(graph, static_cast<Vertex>(s), boost::default_dfs_visitor(), colorMap(colors, g));
    };
    if (forward) search(g);
    else search(boost::make_reverse_graph(g));
    std::vector<bool> seen(n);
    for (size_t v = 0; v < n; ++v) seen[v] = colors[v] != boost::white_color;
    return seen;
}

std::vector<int> weakComponents(const Digraph& g) {
    boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS> both(boost::num_vertices(g));
    for (const auto e : boost::make_iterator_range(boost::edges(g))) boost::add_edge(boost::source(e, g), boost::target(e, g), both);
    std::vector<int> component(boost::num_vertices(g));
    const int count = static_cast<int>(boost::connected_components(both, component.data()));
    return bySmallestVertex(component, count);
}

std::vector<int> strongComponents(const Digraph& g) {
    std::vector<int> component(boost::num_vertices(g));
    const int count = static_cast<int>(boost::strong_components(
        g, boost::make_iterator_property_map(component.begin(), boost::get(boost::vertex_index, g))));
    return bySmallestVertex(component, count);
}

}  // namespace partita::graph
