#include "core/topology/routes.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>

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
        latency_.push_back(l.latency_s);
    }
    // Links leaving each vertex, for the searches.
    out_at_.assign(static_cast<std::size_t>(routable_) + 1, 0);
    for (int v : link_from_) ++out_at_[static_cast<std::size_t>(v) + 1];
    for (std::size_t v = 0; v < static_cast<std::size_t>(routable_); ++v) out_at_[v + 1] += out_at_[v];
    out_.resize(link_from_.size());
    std::vector<std::size_t> next(out_at_.begin(), out_at_.end() - 1);
    for (std::size_t k = 0; k < link_from_.size(); ++k) out_[next[static_cast<std::size_t>(link_from_[k])]++] = static_cast<int>(k);

    const std::size_t tree_bytes = sizeof(int) * static_cast<std::size_t>(std::max(routable_, 1));
    max_trees_ = std::max<std::size_t>(1, cache_bytes / tree_bytes);
    const int d = t.deviceCount();
    if (d <= eager_devices && static_cast<std::size_t>(d) <= max_trees_)
        for (int s = 0; s < d; ++s) eager_.push_back(tree(s));
}

RouteTable::Tree RouteTable::tree(int s) const {
    // Dijkstra with a binary heap and lazy deletion over the outgoing links in CSR arrays: a
    // cluster of 4,096 GPUs asks for 4,096 trees, and this loop is several times as fast as
    // Boost's generic one with property maps over the same graph.
    //
    // Tie rule: among equally short paths (same picoseconds and hops) a vertex is entered by its
    // tight incoming link with the lowest id, so routes form a tree per source and do not depend
    // on the queue's order. Each vertex is expanded once, with its final distance, so every tight
    // link is relaxed once and the lowest id among them is kept as it goes.
    const auto n = static_cast<std::size_t>(routable_);
    thread_local std::vector<Cost> dist;
    thread_local std::vector<std::pair<Cost, int>> heap;
    dist.assign(n, kInfinite);
    heap.clear();
    Tree pred(n, -1);
    const auto later = [](const std::pair<Cost, int>& a, const std::pair<Cost, int>& b) { return b.first < a.first; };
    const Combine combine;
    dist[static_cast<std::size_t>(s)] = Cost{0, 0};
    heap.push_back({Cost{0, 0}, s});
    while (!heap.empty()) {
        std::pop_heap(heap.begin(), heap.end(), later);
        const auto [cost, v] = heap.back();
        heap.pop_back();
        if (cost != dist[static_cast<std::size_t>(v)]) continue;  // a stale entry
        for (std::size_t i = out_at_[static_cast<std::size_t>(v)]; i < out_at_[static_cast<std::size_t>(v) + 1]; ++i) {
            const auto k = static_cast<std::size_t>(out_[i]);
            const Cost next = combine(cost, hop_[k]);
            const auto w = static_cast<std::size_t>(link_to_[k]);
            Cost& d = dist[w];
            if (next < d) {
                d = next;
                pred[w] = static_cast<int>(k);
                heap.push_back({next, link_to_[k]});
                std::push_heap(heap.begin(), heap.end(), later);
            } else if (next == d && static_cast<int>(k) < pred[w]) {
                pred[w] = static_cast<int>(k);
            }
        }
    }
    pred[static_cast<std::size_t>(s)] = -1;
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
    walk(cachedTree(from), from, to, out);
}

double RouteTable::fanOut(int from, const std::vector<std::pair<int, double>>& to_bytes, std::vector<double>& load,
                          std::vector<int>& touched) const {
    if (!eager_.empty()) return fanOut(eager_[static_cast<std::size_t>(from)], from, to_bytes, load, touched);
    std::lock_guard lock(mutex_);
    return fanOut(cachedTree(from), from, to_bytes, load, touched);
}

// The union of the routes is the source's tree cut down to the destinations: bytes are summed up
// it from the deepest vertices, and latencies down it from the source (in route order, so each is
// the same double sum a walk along the route gives).
double RouteTable::fanOut(const Tree& pred, int from, const std::vector<std::pair<int, double>>& to_bytes,
                          std::vector<double>& load, std::vector<int>& touched) const {
    thread_local std::vector<double> below, latency;
    thread_local std::vector<int> depth, seen, by_depth, stack;
    const auto n = static_cast<std::size_t>(routable_);
    if (depth.size() < n) {
        depth.assign(n, -1);
        below.assign(n, 0.0);
        latency.assign(n, 0.0);
    }
    seen.clear();
    auto parent = [&](int v) { return link_from_[static_cast<std::size_t>(pred[static_cast<std::size_t>(v)])]; };
    depth[static_cast<std::size_t>(from)] = 0;
    seen.push_back(from);
    int deepest = 0;
    for (const auto& [to, bytes] : to_bytes) {
        if (to == from) continue;
        // Up to the first vertex already seen, then the depths down again.
        stack.clear();
        for (int v = to; depth[static_cast<std::size_t>(v)] < 0; v = parent(v)) stack.push_back(v);
        for (auto it = stack.rbegin(); it != stack.rend(); ++it) {
            const auto v = static_cast<std::size_t>(*it);
            depth[v] = depth[static_cast<std::size_t>(parent(*it))] + 1;
            deepest = std::max(deepest, depth[v]);
            below[v] = 0;
            seen.push_back(*it);
        }
        below[static_cast<std::size_t>(to)] += bytes;
    }
    // Counting sort of the seen vertices by depth.
    thread_local std::vector<int> at;
    at.assign(static_cast<std::size_t>(deepest) + 2, 0);
    for (int v : seen) ++at[static_cast<std::size_t>(depth[static_cast<std::size_t>(v)]) + 1];
    for (std::size_t k = 1; k < at.size(); ++k) at[k] += at[k - 1];
    by_depth.resize(seen.size());
    for (int v : seen) by_depth[static_cast<std::size_t>(at[static_cast<std::size_t>(depth[static_cast<std::size_t>(v)])]++)] = v;
    // Down: latencies (the source is first); up: loads.
    double worst = 0;
    latency[static_cast<std::size_t>(from)] = 0;
    for (std::size_t k = 1; k < by_depth.size(); ++k) {
        const auto v = static_cast<std::size_t>(by_depth[k]);
        const auto link = static_cast<std::size_t>(pred[v]);
        latency[v] = latency[static_cast<std::size_t>(link_from_[link])] + latency_[link];
        worst = std::max(worst, latency[v]);
    }
    for (std::size_t k = by_depth.size(); k-- > 1;) {
        const auto v = static_cast<std::size_t>(by_depth[k]);
        const auto link = static_cast<std::size_t>(pred[v]);
        below[static_cast<std::size_t>(link_from_[link])] += below[v];
        double& l = load[static_cast<std::size_t>(link_id_[link])];
        if (l == 0) touched.push_back(link_id_[link]);
        l += below[v];
    }
    for (int v : seen) depth[static_cast<std::size_t>(v)] = -1;
    below[static_cast<std::size_t>(from)] = 0;
    return worst;
}

const RouteTable::Tree& RouteTable::cachedTree(int from) const {
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
    return it->second->second;
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
