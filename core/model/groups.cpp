#include "core/model/groups.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <stdexcept>

namespace partita {

AcceleratorGroup tpuV3(int count) { return {"tpu-v3", count, 123e12, 340e12 / 1024}; }
AcceleratorGroup tpuV2(int count) { return {"tpu-v2", count, 45e12, 4 * 496e9 / 8}; }

int memberCount(const Members& m) { return std::accumulate(m.begin(), m.end(), 0); }

int kindCount(const Members& m) {
    return static_cast<int>(std::count_if(m.begin(), m.end(), [](int n) { return n > 0; }));
}

Bisection bisect(const std::vector<AcceleratorGroup>& groups, const Members& node) {
    if (memberCount(node) < 2) throw std::invalid_argument("a node of fewer than two accelerators cannot be split");
    Bisection out{Members(node.size(), 0), Members(node.size(), 0)};
    std::vector<size_t> kinds;
    for (size_t k = 0; k < node.size(); ++k)
        if (node[k] > 0) kinds.push_back(k);
    if (kinds.size() == 1) {
        const size_t k = kinds[0];
        out.i[k] = (node[k] + 1) / 2;
        out.j[k] = node[k] / 2;
        return out;
    }
    // Fastest kind first; stable keeps list order among equals.
    std::stable_sort(kinds.begin(), kinds.end(), [&](size_t a, size_t b) {
        return groups[a].throughput_flops > groups[b].throughput_flops;
    });
    double total = 0;
    for (size_t k : kinds) total += node[k] * groups[k].throughput_flops;
    size_t cut = 1;
    double best = -1, prefix = 0;
    for (size_t c = 1; c < kinds.size(); ++c) {
        prefix += node[kinds[c - 1]] * groups[kinds[c - 1]].throughput_flops;
        const double gap = std::abs(total - 2 * prefix);
        if (best < 0 || gap < best) {
            best = gap;
            cut = c;
        }
    }
    for (size_t c = 0; c < kinds.size(); ++c) (c < cut ? out.i : out.j)[kinds[c]] = node[kinds[c]];
    return out;
}

namespace {
int heightOf(const std::vector<AcceleratorGroup>& groups, const Members& node, std::map<Members, int>& memo) {
    if (memberCount(node) <= 1) return 0;
    if (auto it = memo.find(node); it != memo.end()) return it->second;
    const Bisection b = bisect(groups, node);
    const int h = 1 + std::max(heightOf(groups, b.i, memo), heightOf(groups, b.j, memo));
    memo[node] = h;
    return h;
}
}  // namespace

int treeHeight(const std::vector<AcceleratorGroup>& groups) {
    Members all;
    for (const auto& g : groups) all.push_back(g.count);
    std::map<Members, int> memo;
    return heightOf(groups, all, memo);
}

double groupThroughput(const std::vector<AcceleratorGroup>& groups, const Members& node) {
    double c = 0;
    for (size_t k = 0; k < node.size(); ++k) c += node[k] * groups[k].throughput_flops;
    return c;
}

double groupBandwidth(const std::vector<AcceleratorGroup>& groups, const Members& node) {
    double b = 0;
    for (size_t k = 0; k < node.size(); ++k) b += node[k] * groups[k].bandwidth_Bps;
    return b;
}

std::string membersLabel(const std::vector<AcceleratorGroup>& groups, const Members& node) {
    if (memberCount(node) == 1)
        for (size_t k = 0; k < node.size(); ++k)
            if (node[k] > 0) return groups[k].kind;
    std::string text;
    for (size_t k = 0; k < node.size(); ++k) {
        if (node[k] == 0) continue;
        if (!text.empty()) text += " + ";
        text += std::to_string(node[k]) + " x " + groups[k].kind;
    }
    return text;
}

}  // namespace partita
