#pragma once
// Shortest routes of a finalized topology, computed per source device when first asked for
// (Dijkstra) and kept as one predecessor tree per source in a cache bounded in bytes.
// All-pairs route lists grow as devices^2 x path length (2 GB for a 1,000-device chain).
//
// Only the vertices a route can pass are searched and stored: those reachable from the devices
// and reaching them back (finalize checks that every device reaches every other, so this is the
// strongly connected part holding the devices). Switches without links or on dead ends cost
// nothing per source, so a tree is one int per routable vertex: 4,096 sources of a 4,100-vertex
// graph take 67 MB, whatever number of unlinked switches the file also declares.
//
// When the trees do not all fit, the cache keeps most of them: a tree computed while the cache
// is full replaces the least recently used one but is itself inserted as the next to go, except
// every kPromoteEvery-th (bimodal insertion). The simulator asks for sources in cycles (a ring
// all-reduce walks every device per operator); plain LRU would then miss on every call.
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
    // Up to this many devices every source's tree is computed up front (when they fit the cache
    // bound) and read without a lock.
    static constexpr int kEagerDevices = 256;
    // While the cache is full, one computed tree in this many is kept as most recently used.
    static constexpr std::size_t kPromoteEvery = 32;

    explicit RouteTable(const Topology& topology, std::size_t cache_bytes = kDefaultCacheBytes,
                        int eager_devices = kEagerDevices);

    // Directed link ids from device `from` to device `to` (both valid, and every device reaches every
    // other: Topology::finalize checks both); empty when equal. Safe to call from several threads.
    std::vector<int> route(int from, int to) const;
    void route(int from, int to, std::vector<int>& out) const;  // the same into `out`, reusing its memory

    // Many messages from one device at once (a redistribution's): adds each message's bytes to
    // `load` (by topology link id) on every link of its route, appending links whose load was 0 to
    // `touched`, and returns the largest route latency (the sum of its links' latency_s, from the
    // source on). Routes from one source form its tree, so each link is visited once, not once per
    // message crossing it. Messages to `from` itself are skipped. Safe from several threads.
    double fanOut(int from, const std::vector<std::pair<int, double>>& to_bytes, std::vector<double>& load,
                  std::vector<int>& touched) const;

    // For tests and benchmarks: source trees held now, the most the bound allows, the vertices a
    // tree covers, and how many trees were computed so far (hits cost none).
    std::size_t cachedSources() const;
    std::size_t maxCachedSources() const { return max_trees_; }
    int routableVertices() const { return routable_; }
    std::size_t treesComputed() const;

private:
    using Tree = std::vector<int>;  // per routable vertex: the link entering it on its route, -1 at the source
    Tree tree(int source) const;
    void walk(const Tree& pred, int from, int to, std::vector<int>& out) const;
    double fanOut(const Tree& pred, int from, const std::vector<std::pair<int, double>>& to_bytes,
                  std::vector<double>& load, std::vector<int>& touched) const;
    const Tree& cachedTree(int source) const;  // with mutex_ held unless eager

    int routable_ = 0;                 // routable vertices: devices 0..D-1 first, then the routable switches
    std::vector<int> link_id_;         // per routable link (both ends routable): the topology's link id
    std::vector<int> link_from_, link_to_;  // per routable link: routable vertex ids
    std::vector<Cost> hop_;            // per routable link
    std::vector<double> latency_;      // per routable link: its latency_s
    std::vector<std::size_t> out_at_;  // routable links leaving vertex v: out_[out_at_[v] .. out_at_[v + 1])
    std::vector<int> out_;
    std::size_t max_trees_ = 1;
    std::vector<Tree> eager_;          // every source's tree, for small topologies

    mutable std::mutex mutex_;
    mutable std::list<std::pair<int, Tree>> trees_;  // most recently used first
    mutable std::unordered_map<int, std::list<std::pair<int, Tree>>::iterator> where_;
    mutable std::size_t computed_ = 0;
};

}  // namespace partita::sim
