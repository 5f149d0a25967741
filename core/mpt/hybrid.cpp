#include "core/mpt/hybrid.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>
#include <tuple>

#include "core/util/ranges.h"

namespace partita::mpt {

void checkNetwork(const NetworkParams& n) {
    if (!(n.full_link_Bps > 0 && n.narrow_link_Bps > 0))
        throw std::invalid_argument("network: link bandwidths must be positive");
    if (n.dp_rings < 1 || n.mpt_rings < 1) throw std::invalid_argument("network: ring counts must be at least 1");
    if (!(n.serdes_s >= 0 && n.router_s >= 0 && n.chunk_B > 0))
        throw std::invalid_argument("network: latencies must not be negative and chunk_B must be positive");
    // The limits (docs/formats/limits.md), so that every time formed from them is finite.
    for (const auto& [v, r, what] : {std::tuple{n.full_link_Bps, ranges::kBytesPerSecond, "full_link_Bps"},
                                     std::tuple{n.narrow_link_Bps, ranges::kBytesPerSecond, "narrow_link_Bps"},
                                     std::tuple{n.serdes_s, ranges::kLatency, "serdes_s"},
                                     std::tuple{n.router_s, ranges::kLatency, "router_s"},
                                     std::tuple{n.chunk_B, ranges::kMemoryBytes, "chunk_B"},
                                     std::tuple{static_cast<double>(n.dp_rings), Range{1, 64, ""}, "dp_rings"},
                                     std::tuple{static_cast<double>(n.mpt_rings), Range{1, 64, ""}, "mpt_rings"}})
        if (const std::string why = rangeProblem(v, r); !why.empty())
            throw std::invalid_argument(std::string("network: ") + what + " " + why);
}

sim::Topology flattenedButterfly(int rows, int cols, double link_Bps, double latency_s) {
    if (rows < 1 || cols < 1 || rows * cols < 2) throw std::invalid_argument("flattened butterfly needs >= 2 nodes");
    sim::Topology t;
    t.name = "fbfly-" + std::to_string(rows) + "x" + std::to_string(cols);
    for (int k = 0; k < rows * cols; ++k) {
        sim::ComputeDevice d;
        d.name = "w" + std::to_string(k);
        d.kind = "hmc";
        d.peak_flops = 8.192e12;  // 64x64 MACs at 1 GHz; not used by the bandwidth model
        d.mem_bandwidth_Bps = 320e9;
        t.devices.push_back(d);
    }
    auto link = [&](int a, int b) {
        t.links.push_back({t.devices[a].name + "->" + t.devices[b].name, a, b, link_Bps, latency_s, "narrow"});
    };
    for (int a = 0; a < rows * cols; ++a)
        for (int b = 0; b < rows * cols; ++b)
            if (a != b && (a / cols == b / cols || a % cols == b % cols)) link(a, b);
    t.finalize();
    return t;
}

double allToAllBandwidthDor(const sim::Topology& t, int rows, int cols) {
    const int n = rows * cols;
    if (t.deviceCount() != n) throw std::invalid_argument("all-to-all: topology size does not match rows x cols");
    std::map<std::pair<int, int>, int> id;
    for (size_t k = 0; k < t.links.size(); ++k) id[{t.links[k].from, t.links[k].to}] = static_cast<int>(k);
    auto linkOf = [&](int a, int b) {
        const auto it = id.find({a, b});
        if (it == id.end()) throw std::invalid_argument("all-to-all: no link " + std::to_string(a) + "->" + std::to_string(b));
        return it->second;
    };
    std::vector<double> load(t.links.size(), 0.0);  // in units of V
    const double share = 1.0 / (n - 1);
    for (int s = 0; s < n; ++s)
        for (int d = 0; d < n; ++d) {
            if (s == d) continue;
            const int mid = (s / cols) * cols + d % cols;  // along the row to the target column first
            if (mid != s) load[linkOf(s, mid)] += share;
            if (mid != d) load[linkOf(mid, d)] += share;
        }
    double worst = 0;
    double bw = 0;
    for (size_t k = 0; k < load.size(); ++k)
        if (load[k] / t.links[k].bandwidth_Bps > worst) {
            worst = load[k] / t.links[k].bandwidth_Bps;
            bw = t.links[k].bandwidth_Bps / load[k];
        }
    return bw;
}

std::pair<int, int> clusterShape(int n_g) {
    if (n_g < 1) throw std::invalid_argument("cluster size N_g must be positive");
    if (n_g <= 4) return {1, n_g};
    int rows = 1;
    for (int d = 1; d * d <= n_g; ++d)
        if (n_g % d == 0) rows = d;
    return {rows, n_g / rows};
}

double clusterBandwidth(int n_g, const NetworkParams& n) {
    checkNetwork(n);
    if (n_g == 1) return 0;
    const auto [rows, cols] = clusterShape(n_g);
    return allToAllBandwidthDor(flattenedButterfly(rows, cols, n.narrow_link_Bps, n.serdes_s), rows, cols);
}

double ringBandwidth(int n_g, bool data_parallel, const NetworkParams& n) {
    checkNetwork(n);
    const bool all = data_parallel || (n_g == 1 && n.single_group_uses_all_rings);
    return (all ? n.dp_rings : n.mpt_rings) * n.full_link_Bps;
}

double ringTime(double bytes, int members, int passes, double bw_Bps, const NetworkParams& n) {
    if (members <= 1 || bytes <= 0) return 0;
    // Pipelined ring: streaming term plus one chunk's trip around the ring per pass.
    const double hop = n.serdes_s + n.router_s + n.chunk_B / n.full_link_Bps;
    return passes * (bytes / bw_Bps + (members - 1) * hop);
}

double clusterTime(double bytes, int n_g, double bw_Bps, const NetworkParams& n) {
    if (n_g <= 1 || bytes <= 0) return 0;
    const int hops = clusterShape(n_g).first > 1 ? 2 : 1;
    return bytes / bw_Bps + hops * (n.serdes_s + n.router_s);
}

std::vector<std::pair<int, int>> hostLinks(int n_g, int n_c) {
    if (n_g == 4 && n_c == 64) return {{0, 3}, {4, 7}, {8, 11}, {12, 15}};
    if (n_g == 1 && n_c == 256) return {{0, 15}, {3, 4}, {7, 8}, {11, 12}};
    return {};
}

}  // namespace partita::mpt
