#include "core/sim/topology_routes.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <queue>
#include <string>

#include "core/sim/topology.h"

namespace partita::sim {

namespace {

using Cost = RouteTable::Cost;

// Integer picoseconds make equal-cost paths compare equal whatever the order of their hops,
// which double sums would not guarantee; the hop count breaks cost ties.
constexpr std::int64_t kMaxHopPs = 1'000'000'000'000'000;  // 1000 s: caps absurdly slow links
const Cost kInfinite{std::numeric_limits<std::int64_t>::max(), std::numeric_limits<std::int64_t>::max()};

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

Cost combine(const Cost& a, const Cost& b) {
    if (a == kInfinite || b == kInfinite) return kInfinite;
    return {saturatingAdd(a.first, b.first), saturatingAdd(a.second, b.second)};
}

// Compressed adjacency: the links of vertex v are item[at[v] .. at[v + 1]), in ascending link id.
void buildRows(int vertices, const std::vector<int>& key, std::vector<std::size_t>& at, std::vector<int>& item) {
    at.assign(static_cast<std::size_t>(vertices) + 1, 0);
    for (int v : key) ++at[static_cast<std::size_t>(v) + 1];
    for (std::size_t v = 0; v < static_cast<std::size_t>(vertices); ++v) at[v + 1] += at[v];
    item.resize(key.size());
    std::vector<std::size_t> fill(at.begin(), at.end() - 1);
    for (std::size_t k = 0; k < key.size(); ++k) item[fill[static_cast<std::size_t>(key[k])]++] = static_cast<int>(k);
}

}  // namespace

RouteTable::RouteTable(const Topology& t, std::size_t cache_bytes, int eager_devices) : vertices_(t.vertexCount()) {
    for (const Link& l : t.links) {
        from_.push_back(l.from);
        to_.push_back(l.to);
        hop_.push_back(hopCost(l));
    }
    buildRows(vertices_, from_, out_at_, out_);
    buildRows(vertices_, to_, in_at_, in_);
    const std::size_t tree_bytes = sizeof(int) * static_cast<std::size_t>(std::max(vertices_, 1));
    max_trees_ = std::max<std::size_t>(1, cache_bytes / tree_bytes);
    if (t.deviceCount() <= eager_devices)
        for (int s = 0; s < t.deviceCount(); ++s) eager_.push_back(tree(s));
}

std::vector<int> RouteTable::tree(int s) const {
    const auto n = static_cast<std::size_t>(vertices_);
    std::vector<Cost> dist(n, kInfinite);
    using Item = std::pair<Cost, int>;
    std::priority_queue<Item, std::vector<Item>, std::greater<Item>> queue;
    dist[static_cast<std::size_t>(s)] = {0, 0};
    queue.push({{0, 0}, s});
    while (!queue.empty()) {
        const auto [d, v] = queue.top();
        queue.pop();
        if (d != dist[static_cast<std::size_t>(v)]) continue;
        for (std::size_t i = out_at_[static_cast<std::size_t>(v)]; i < out_at_[static_cast<std::size_t>(v) + 1]; ++i) {
            const auto k = static_cast<std::size_t>(out_[i]);
            const Cost c = combine(d, hop_[k]);
            auto& best = dist[static_cast<std::size_t>(to_[k])];
            if (c < best) {
                best = c;
                queue.push({c, to_[k]});
            }
        }
    }
    // Tie rule: among equally short paths (same picoseconds and hops) a vertex is entered by its
    // tight incoming link with the lowest id, so routes form a tree per source and do not depend
    // on the queue's order.
    std::vector<int> pred(n, -1);
    for (std::size_t v = 0; v < n; ++v) {
        if (static_cast<int>(v) == s || dist[v] == kInfinite) continue;
        for (std::size_t i = in_at_[v]; i < in_at_[v + 1]; ++i) {
            const auto k = static_cast<std::size_t>(in_[i]);
            if (combine(dist[static_cast<std::size_t>(from_[k])], hop_[k]) == dist[v]) {
                pred[v] = static_cast<int>(k);
                break;
            }
        }
    }
    return pred;
}

void RouteTable::walk(const std::vector<int>& pred, int from, int to, std::vector<int>& out) const {
    out.clear();
    for (int v = to; v != from; v = from_[static_cast<std::size_t>(pred[static_cast<std::size_t>(v)])])
        out.push_back(pred[static_cast<std::size_t>(v)]);
    std::reverse(out.begin(), out.end());
}

void RouteTable::route(int from, int to, std::vector<int>& out) const {
    if (!eager_.empty()) return walk(eager_[static_cast<std::size_t>(from)], from, to, out);
    if (from == to) return out.clear();
    std::lock_guard lock(mutex_);
    auto it = where_.find(from);
    if (it == where_.end()) {
        if (trees_.size() >= max_trees_) {
            where_.erase(trees_.back().first);
            trees_.pop_back();
        }
        trees_.emplace_front(from, tree(from));
        it = where_.emplace(from, trees_.begin()).first;
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

}  // namespace partita::sim
