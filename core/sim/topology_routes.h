#pragma once
// Shortest routes of a finalized topology, computed per source device when first asked for
// (Dijkstra over all vertices) and kept as one predecessor tree per source in a cache bounded in
// bytes. All-pairs route lists grow as devices^2 x path length (2 GB for a 1,000-device chain);
// a tree is one int per vertex, so 4,096 sources of a 4,100-vertex graph take 67 MB.
#include <cstddef>
#include <cstdint>
#include <list>
#include <mutex>
#include <unordered_map>
#include <utility>
#include <vector>

namespace partita::sim {

class Topology;

class RouteTable {
public:
    // Route cost of a path: (picoseconds, hops), compared lexicographically.
    using Cost = std::pair<std::int64_t, std::int64_t>;
    static constexpr std::size_t kDefaultCacheBytes = std::size_t{256} << 20;
    // Up to this many devices every source's tree is computed up front and read without a lock.
    static constexpr int kEagerDevices = 256;

    // With at most `eager_devices` devices all trees are made here; otherwise on demand.
    explicit RouteTable(const Topology& topology, std::size_t cache_bytes = kDefaultCacheBytes,
                        int eager_devices = kEagerDevices);

    // Directed link ids from device `from` to device `to` (both valid, and every device reaches every
    // other: Topology::finalize checks both); empty when equal. Safe to call from several threads.
    std::vector<int> route(int from, int to) const;
    void route(int from, int to, std::vector<int>& out) const;  // the same into `out`, reusing its memory
    // Source trees held now (for tests of the bound).
    std::size_t cachedSources() const;
    std::size_t maxCachedSources() const { return max_trees_; }

private:
    std::vector<int> tree(int source) const;  // link into each vertex on its shortest route, -1 if none
    void walk(const std::vector<int>& pred, int from, int to, std::vector<int>& out) const;

    int vertices_ = 0;
    std::vector<int> from_, to_;      // per link
    std::vector<Cost> hop_;           // per link
    std::vector<std::size_t> out_at_; // links leaving vertex v: out_[out_at_[v] .. out_at_[v + 1])
    std::vector<int> out_;
    std::vector<std::size_t> in_at_;  // links entering vertex v, ascending ids
    std::vector<int> in_;
    std::size_t max_trees_ = 1;
    std::vector<std::vector<int>> eager_;  // every source's tree, for small topologies

    mutable std::mutex mutex_;
    mutable std::list<std::pair<int, std::vector<int>>> trees_;  // most recently used first
    mutable std::unordered_map<int, std::list<std::pair<int, std::vector<int>>>::iterator> where_;
};

}  // namespace partita::sim
