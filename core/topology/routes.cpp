#include "core/topology/routes.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>

#include <boost/graph/dijkstra_shortest_paths.hpp>
#include <boost/property_map/function_property_map.hpp>

#include "core/topology/topology.h"
#include "core/util/graph.h"

namespace partita::sim {

namespace {

using Cost = RouteTable::Cost;

// Integer picoseconds make equal-cost paths compare equal whatever the order of their hops,
// which double sums would not guarantee; the hop count breaks cost ties.
constexpr std::int64_t kMaxHopPs = 1'000'000'000'000'000;  // 1000 s: caps absurdly slow links
constexpr Cost kInfinite{std::numeric_limits<std::int64_t>::max(), std::numeric_limits<std::int64_t>::max()};

// The weight of one hop is the time to move 1 MB over it, latency + 1e6 B / bandwidth:
// a mid-sized tensor, so that neither latency nor bandwidth alone decides the route.
constexpr double kRouteProbeBytes = 1e6;

Cost hopCost(const Link& l) {
    const double ps = std::round((l.latency_s + kRouteProbeBytes / l.bandwidth_Bps) * 1e12);
    return {ps >= static_cast<double>(kMaxHopPs) ? kMaxHopPs : static_cast<std::int64_t>(ps), 1};
}

std::int64_t saturatingAdd(std::int64_t a, std::int64_t b) {
    return a > std::numeric_limits<std::int64_t>::max() - b ? std::numeric_limits<std::int64_t>::max() : a + b;
}

struct Combine {
    Cost operator()(const Cost& a, const Cost& b) const {
        if (a == kInfinite || b == kInfinite) return kInfinite;
        return {saturatingAdd(a.first, b.first), saturatingAdd(a.second, b.second)};
    }
};

}  // namespace

RouteTable::RouteTable(const Topology& t, std::size_t cache_bytes, int eager_devices) {
    // A route from device a to device b passes only vertices that device 0 reaches (through a) and
    // that reach device 0 (through b). Of those, a switch whose links all go to one neighbour is a
    // dead end (a shortest route leaves a vertex by another neighbour than it came from), and so is
    // what only such switches lead to. Every other vertex and link is left out of the search.
    const auto n = static_cast<std::size_t>(t.vertexCount());
    std::vector<bool> kept(n, false);
    if (t.deviceCount() > 0) {
        graph::Digraph links(n);
        for (const Link& l : t.links) boost::add_edge(static_cast<std::size_t>(l.from), static_cast<std::size_t>(l.to), links);
        const auto there = graph::reachable(links, {0}, true), back = graph::reachable(links, {0}, false);
        for (std::size_t v = 0; v < n; ++v) kept[v] = there[v] && back[v];
    }
    std::vector<std::vector<int>> near(n);
    for (const Link& l : t.links)
        if (kept[static_cast<std::size_t>(l.from)] && kept[static_cast<std::size_t>(l.to)]) {
            near[static_cast<std::size_t>(l.from)].push_back(l.to);
            near[static_cast<std::size_t>(l.to)].push_back(l.from);
        }
    std::vector<int> dead;
    for (std::size_t v = static_cast<std::size_t>(t.deviceCount()); v < n; ++v) {
        std::sort(near[v].begin(), near[v].end());
        near[v].erase(std::unique(near[v].begin(), near[v].end()), near[v].end());
        if (kept[v] && near[v].size() <= 1) dead.push_back(static_cast<int>(v));
    }
    std::vector<std::size_t> alive_near(n);
    for (std::size_t v = 0; v < n; ++v) alive_near[v] = near[v].size();
    while (!dead.empty()) {
        const auto v = static_cast<std::size_t>(dead.back());
        dead.pop_back();
        if (!kept[v]) continue;
        kept[v] = false;
        for (int w : near[v])
            if (w >= t.deviceCount() && kept[static_cast<std::size_t>(w)] && --alive_near[static_cast<std::size_t>(w)] <= 1)
                dead.push_back(w);
    }
    std::vector<int> index(n, -1);
    for (std::size_t v = 0; v < n; ++v)
        if (kept[v]) index[v] = routable_++;
    for (std::size_t k = 0; k < t.links.size(); ++k) {
        const Link& l = t.links[k];
        const int a = index[static_cast<std::size_t>(l.from)], b = index[static_cast<std::size_t>(l.to)];
        if (a < 0 || b < 0) continue;
        link_id_.push_back(static_cast<int>(k));
        link_from_.push_back(a);
        link_to_.push_back(b);
        hop_.push_back(hopCost(l));
    }
    // Links entering each vertex, in ascending id (the tie rule's order).
    in_at_.assign(static_cast<std::size_t>(routable_) + 1, 0);
    for (int v : link_to_) ++in_at_[static_cast<std::size_t>(v) + 1];
    for (std::size_t v = 0; v < static_cast<std::size_t>(routable_); ++v) in_at_[v + 1] += in_at_[v];
    in_.resize(link_to_.size());
    std::vector<std::size_t> fill(in_at_.begin(), in_at_.end() - 1);
    for (std::size_t k = 0; k < link_to_.size(); ++k) in_[fill[static_cast<std::size_t>(link_to_[k])]++] = static_cast<int>(k);
    std::vector<std::pair<int, int>> ends(link_from_.size());
    std::vector<Arc> arcs(ends.size());
    for (std::size_t k = 0; k < ends.size(); ++k) {
        ends[k] = {link_from_[k], link_to_[k]};
        arcs[k].link = static_cast<int>(k);
    }
    graph_ = Graph(boost::edges_are_unsorted_multi_pass, ends.begin(), ends.end(), arcs.begin(),
                   static_cast<std::size_t>(routable_));

    const std::size_t tree_bytes = sizeof(int) * static_cast<std::size_t>(std::max(routable_, 1));
    max_trees_ = std::max<std::size_t>(1, cache_bytes / tree_bytes);
    const int d = t.deviceCount();
    if (d <= eager_devices && static_cast<std::size_t>(d) <= max_trees_)
        for (int s = 0; s < d; ++s) eager_.push_back(tree(s));
}

RouteTable::Tree RouteTable::tree(int s) const {
    using Edge = boost::graph_traits<Graph>::edge_descriptor;
    const Graph& g = graph_;
    const auto n = static_cast<std::size_t>(routable_);
    std::vector<Cost> dist(n, kInfinite);
    const auto weight = boost::make_function_property_map<Edge, Cost>(
        [&](const Edge& e) { return hop_[static_cast<std::size_t>(g[e].link)]; });
    boost::dijkstra_shortest_paths(g, static_cast<Graph::vertex_descriptor>(s), boost::dummy_property_map(),
                                   boost::make_iterator_property_map(dist.begin(), boost::get(boost::vertex_index, g)),
                                   weight, boost::get(boost::vertex_index, g), std::less<Cost>(), Combine(), kInfinite,
                                   Cost{0, 0}, boost::default_dijkstra_visitor());
    // Tie rule: among equally short paths (same picoseconds and hops) a vertex is entered by its
    // tight incoming link with the lowest id, so routes form a tree per source and do not depend
    // on the queue's order.
    Tree pred(n, -1);
    const Combine combine;
    for (std::size_t v = 0; v < n; ++v) {
        if (static_cast<int>(v) == s || dist[v] == kInfinite) continue;
        for (std::size_t i = in_at_[v]; i < in_at_[v + 1]; ++i) {
            const auto k = static_cast<std::size_t>(in_[i]);
            if (combine(dist[static_cast<std::size_t>(link_from_[k])], hop_[k]) == dist[v]) {
                pred[v] = static_cast<int>(k);
                break;
            }
        }
    }
    return pred;
}

void RouteTable::walk(const Tree& pred, int from, int to, std::vector<int>& out) const {
    out.clear();
    for (int v = to; v != from; v = link_from_[static_cast<std::size_t>(pred[static_cast<std::size_t>(v)])])
        out.push_back(link_id_[static_cast<std::size_t>(pred[static_cast<std::size_t>(v)])]);
    std::reverse(out.begin(), out.end());
}

void RouteTable::route(int from, int to, std::vector<int>& out) const {
    // Devices keep their ids among the routable vertices: they come first and all are routable.
    if (!eager_.empty()) return walk(eager_[static_cast<std::size_t>(from)], from, to, out);
    if (from == to) return out.clear();
    std::lock_guard lock(mutex_);
    auto it = where_.find(from);
    if (it == where_.end()) {
        ++computed_;
        const bool full = trees_.size() >= max_trees_;
        if (full) {
            where_.erase(trees_.back().first);
            trees_.pop_back();
        }
        // Bimodal insertion (see the header): while full, most new trees go next in line to leave.
        const bool first = !full || computed_ % kPromoteEvery == 0;
        const auto at = trees_.emplace(first ? trees_.begin() : trees_.end(), from, tree(from));
        it = where_.emplace(from, at).first;
    } else if (it->second != trees_.begin()) {
        trees_.splice(trees_.begin(), trees_, it->second);
    }
    walk(it->second->second, from, to, out);
}

std::vector<int> RouteTable::route(int from, int to) const {
    std::vector<int> r;
    route(from, to, r);
    return r;
}

std::size_t RouteTable::cachedSources() const {
    if (!eager_.empty()) return eager_.size();
    std::lock_guard lock(mutex_);
    return trees_.size();
}

std::size_t RouteTable::treesComputed() const {
    if (!eager_.empty()) return eager_.size();
    std::lock_guard lock(mutex_);
    return computed_;
}

}  // namespace partita::sim
