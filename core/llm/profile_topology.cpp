// Tiers read off a topology: tier 0 the largest island joined by the fastest link kind, tier 1 the
// links between islands; mixed GPU kinds planned on the slowest.
#include <algorithm>
#include <map>
#include <numeric>

#include "core/llm/profile.h"
#include "core/topology/topology.h"
#include "core/util/format.h"

namespace partita::llm {

namespace {

struct UnionFind {
    std::vector<int> parent;
    explicit UnionFind(int n) : parent(static_cast<size_t>(n)) { std::iota(parent.begin(), parent.end(), 0); }
    int find(int x) {
        while (parent[static_cast<size_t>(x)] != x) x = parent[static_cast<size_t>(x)] = parent[static_cast<size_t>(parent[static_cast<size_t>(x)])];
        return x;
    }
    void unite(int a, int b) { parent[static_cast<size_t>(find(a))] = find(b); }
};

}  // namespace

Profile profileFromTopology(Profile base, const sim::Topology& topology) {
    const int n = topology.deviceCount();
    if (n < 1) throw std::invalid_argument("topology '" + topology.name + "' has no devices");
    // The fastest link kind makes the islands.
    std::map<std::string, double> kind_bw;
    for (const auto& l : topology.links) kind_bw[l.kind] = std::max(kind_bw[l.kind], l.bandwidth_Bps);
    std::string fast;
    double fast_bw = 0;
    for (const auto& [kind, bw] : kind_bw)
        if (bw > fast_bw) fast = kind, fast_bw = bw;
    UnionFind uf(topology.vertexCount());
    for (const auto& l : topology.links)
        if (l.kind == fast) uf.unite(l.from, l.to);
    std::map<int, std::vector<int>> islands;
    for (int dev = 0; dev < n; ++dev) islands[uf.find(dev)].push_back(dev);
    const std::vector<int>* largest = nullptr;
    for (const auto& [root, devs] : islands)
        if (!largest || devs.size() > largest->size()) largest = &devs;

    // Tier 0: per-GPU bandwidth = the smallest sum of a device's outgoing fast links in the island.
    Tier t0 = base.tiers.empty() ? Tier{} : base.tiers[0];
    t0.name = fast.empty() ? "local" : fast;
    t0.size = static_cast<std::int64_t>(largest->size());
    t0.must_fill = false;
    double per_gpu = 0, latency = 0;
    bool first = true;
    for (int dev : *largest) {
        double out = 0;
        for (const auto& l : topology.links)
            if (l.kind == fast && l.from == dev) out += l.bandwidth_Bps, latency = std::max(latency, l.latency_s);
        per_gpu = first ? out : std::min(per_gpu, out);
        first = false;
    }
    if (per_gpu > 0) t0.bandwidth_Bps = per_gpu;
    // A switched island (GPU -> switch -> GPU) has no direct links: use a route inside it.
    if (per_gpu <= 0 && largest->size() > 1) {
        const auto route = topology.route((*largest)[0], (*largest)[1]);
        double bw = 1e300, lat = 0;
        for (int id : route) bw = std::min(bw, topology.links[static_cast<size_t>(id)].bandwidth_Bps),
                             lat += topology.links[static_cast<size_t>(id)].latency_s;
        t0.bandwidth_Bps = bw;
        latency = lat;
    }
    t0.latency_s = latency;
    std::vector<Tier> tiers = {t0};

    if (islands.size() > 1) {
        // Tier 1: every device of one island sends to its counterpart in another at once; the
        // busiest link of those routes sets the per-GPU bandwidth.
        const std::vector<int>* other = nullptr;
        for (const auto& [root, devs] : islands)
            if (&devs != largest) { other = &devs; break; }
        std::map<int, int> use;
        double route_latency = 0;
        const size_t k = std::min(largest->size(), other->size());
        for (size_t i = 0; i < k; ++i) {
            const auto route = topology.route((*largest)[i], (*other)[i]);
            double lat = 0;
            for (int id : route) ++use[id], lat += topology.links[static_cast<size_t>(id)].latency_s;
            route_latency = std::max(route_latency, lat);
        }
        double bw = 1e300;
        for (const auto& [id, count] : use)
            bw = std::min(bw, topology.links[static_cast<size_t>(id)].bandwidth_Bps / count);
        Tier t1 = base.tiers.size() > 1 ? base.tiers[1] : t0;
        t1.name = "inter-island";
        t1.size = n;
        t1.must_fill = false;
        t1.bandwidth_Bps = bw;
        t1.latency_s = route_latency;
        tiers.push_back(t1);
    }
    base.tiers = tiers;
    base.notes.push_back("tiers from topology '" + topology.name + "': " + std::to_string(t0.size) + " GPUs per " +
                         t0.name + " island, " + std::to_string(islands.size()) + " islands");

    // Mixed device kinds: plan on the slowest; scale the profile's rates by slowest / fastest.
    double lo = 1e300, hi = 0, mem_lo = 1e300, mem_hi = 0, cap_lo = 1e300;
    std::string slow_kind;
    for (const auto& d : topology.devices) {
        if (d.peak_flops * d.efficiency < lo) lo = d.peak_flops * d.efficiency, slow_kind = d.kind;
        hi = std::max(hi, d.peak_flops * d.efficiency);
        mem_lo = std::min(mem_lo, d.mem_bandwidth_Bps);
        mem_hi = std::max(mem_hi, d.mem_bandwidth_Bps);
        if (d.mem_capacity_B > 0) cap_lo = std::min(cap_lo, d.mem_capacity_B);
    }
    if (hi > 0 && lo < hi) {
        const double r = lo / hi;
        for (auto* units : {&base.device.matrix, &base.device.vector})
            for (auto& u : *units) u.peak_flops *= r;
        if (mem_hi > 0 && mem_lo < mem_hi) base.device.hbm_Bps *= mem_lo / mem_hi;
        if (cap_lo < 1e300) base.device.hbm_bytes = std::min(base.device.hbm_bytes, cap_lo);
        base.notes.push_back("mixed GPU types: planned on the slowest, '" + slow_kind + "' (" +
                             fixed(100 * r, 1) + " % of the fastest)");
    }
    return base;
}

}  // namespace partita::llm
