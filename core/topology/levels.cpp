// Recursive bisection of a topology into HyPar's levels; max flow by Dinic's algorithm.
#include "core/topology/levels.h"

#include <algorithm>
#include <limits>
#include <queue>
#include <stdexcept>

namespace partita::sim {

namespace {

class MaxFlow {
public:
    explicit MaxFlow(int vertices) : head_(static_cast<size_t>(vertices), -1) {}

    void add(int from, int to, double capacity) {
        edges_.push_back({to, head_[static_cast<size_t>(from)], capacity});
        head_[static_cast<size_t>(from)] = static_cast<int>(edges_.size()) - 1;
        edges_.push_back({from, head_[static_cast<size_t>(to)], 0});  // residual
        head_[static_cast<size_t>(to)] = static_cast<int>(edges_.size()) - 1;
    }

    double run(int s, int t) {
        double total = 0;
        while (levels(s, t)) {
            next_ = head_;
            while (const double f = push(s, t, std::numeric_limits<double>::infinity())) total += f;
        }
        return total;
    }

private:
    struct Edge {
        int to, next;
        double capacity;
    };

    bool levels(int s, int t) {
        level_.assign(head_.size(), -1);
        level_[static_cast<size_t>(s)] = 0;
        std::queue<int> q;
        q.push(s);
        while (!q.empty()) {
            const int v = q.front();
            q.pop();
            for (int e = head_[static_cast<size_t>(v)]; e >= 0; e = edges_[static_cast<size_t>(e)].next) {
                const Edge& x = edges_[static_cast<size_t>(e)];
                if (x.capacity > 0 && level_[static_cast<size_t>(x.to)] < 0) {
                    level_[static_cast<size_t>(x.to)] = level_[static_cast<size_t>(v)] + 1;
                    q.push(x.to);
                }
            }
        }
        return level_[static_cast<size_t>(t)] >= 0;
    }

    // Depth is bounded by the BFS level of t (at most the vertex count): paths are simple.
    double push(int v, int t, double limit) {
        if (v == t) return limit;
        for (int& e = next_[static_cast<size_t>(v)]; e >= 0; e = edges_[static_cast<size_t>(e)].next) {
            Edge& x = edges_[static_cast<size_t>(e)];
            if (x.capacity <= 0 || level_[static_cast<size_t>(x.to)] != level_[static_cast<size_t>(v)] + 1) continue;
            if (const double f = push(x.to, t, std::min(limit, x.capacity)); f > 0) {
                x.capacity -= f;
                edges_[static_cast<size_t>(e ^ 1)].capacity += f;
                return f;
            }
        }
        return 0;
    }

    std::vector<Edge> edges_;
    std::vector<int> head_, next_, level_;
};

// Max flow from devices [a, a + count) to devices [b, b + count).
double flow(const Topology& t, int a, int b, int count) {
    const int n = t.vertexCount(), source = n, sink = n + 1;
    MaxFlow f(n + 2);
    const double unlimited = std::numeric_limits<double>::infinity();
    for (const Link& l : t.links) f.add(l.from, l.to, l.bandwidth_Bps);
    for (int v = a; v < a + count; ++v) f.add(source, v, unlimited);
    for (int v = b; v < b + count; ++v) f.add(v, sink, unlimited);
    return f.run(source, sink);
}

}  // namespace

std::vector<double> bisectionLevelBandwidths(const Topology& t) {
    const int d = t.deviceCount();
    int levels = 0;
    while ((1 << levels) < d && levels <= Array::kMaxLevels) ++levels;
    if (d < 2 || (1 << levels) != d || levels > Array::kMaxLevels)
        throw std::invalid_argument("level bandwidths need 2 to 2^" + std::to_string(Array::kMaxLevels) +
                                    " devices, a power of two; the topology has " + std::to_string(d));
    std::vector<double> out;
    for (int k = 0; k < levels; ++k) {
        const int group = d >> k, half = group / 2;
        double least = std::numeric_limits<double>::infinity();
        for (int a = 0; a < d; a += group)
            least = std::min({least, flow(t, a, a + half, half), flow(t, a + half, a, half)});
        out.push_back(least);
    }
    return out;
}

Array arrayFromTopology(const Topology& t) {
    const auto bw = bisectionLevelBandwidths(t);
    const ComputeDevice& first = t.devices.front();
    for (const auto& d : t.devices)
        if (d.kind != first.kind || d.peak_flops != first.peak_flops)
            throw std::invalid_argument("a HyPar array needs identical devices; '" + d.name + "' differs from '" +
                                        first.name + "'");
    Array a;
    a.name = t.name;
    a.levels = static_cast<int>(bw.size());
    a.accelerator.kind = first.kind;
    a.accelerator.throughput_ops = first.peak_flops;
    a.link_bps = 8 * bw.back();  // the bottom level's pair exchange
    a.level_bandwidth_Bps = bw;
    return a;
}

}  // namespace partita::sim
