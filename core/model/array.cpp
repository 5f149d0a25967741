#include "core/model/array.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "core/settings/array_fields.h"
#include "core/util/ranges.h"

namespace partita {

const char* topologyName(Topology t) { return t == Topology::HTree ? "htree" : "torus"; }

std::vector<int> torusLoads(int levels) {
    const int rows = 1 << ((levels + 1) / 2), cols = 1 << (levels / 2), n = rows * cols;
    std::vector<int> loads;
    for (int k = 1; k <= levels; ++k) {
        // Directed link = (node, direction 0..3: +col, -col, +row, -row).
        std::vector<int> flows(static_cast<size_t>(n) * 4, 0);
        auto step = [](int from, int to, int size) {
            const int fwd = ((to - from) % size + size) % size;
            return fwd <= size - fwd ? +1 : -1;  // minimal, ties go +
        };
        for (int a = 0; a < n; ++a) {
            const int b = a ^ (1 << (levels - k));
            int r = a / cols, c = a % cols;
            const int br = b / cols, bc = b % cols;
            while (c != bc) {  // columns first
                const int d = step(c, bc, cols);
                ++flows[static_cast<size_t>((r * cols + c) * 4 + (d > 0 ? 0 : 1))];
                c = ((c + d) % cols + cols) % cols;
            }
            while (r != br) {
                const int d = step(r, br, rows);
                ++flows[static_cast<size_t>((r * cols + c) * 4 + (d > 0 ? 2 : 3))];
                r = ((r + d) % rows + rows) % rows;
            }
        }
        loads.push_back(std::max(1, *std::max_element(flows.begin(), flows.end())));
    }
    return loads;
}

int Array::count() const {
    if (groups.empty()) return 1 << levels;
    int n = 0;
    for (const auto& g : groups) n += g.count;
    return n;
}

bool Array::hyparCompatible() const {
    return groups.empty() || (groups.size() == 1 && groups[0].count == (1 << levels));
}

double Array::levelBandwidth(int h) const {
    if (!level_bandwidth_Bps.empty()) return 8.0 * level_bandwidth_Bps[static_cast<size_t>(h)];
    const double parallel = std::pow(level_bw_factor, levels - 1 - h);
    if (topology == Topology::HTree) return link_bps * parallel;
    // Torus: every link has link_bps; 2^(H-k) flows share the level, divided by congestion.
    const auto loads = torusLoads(levels);
    return link_bps * std::pow(2.0, levels - 1 - h) / loads[static_cast<size_t>(h)];
}

std::vector<double> Array::levelBandwidths() const {
    std::vector<double> bw;
    for (int h = 0; h < levels; ++h) bw.push_back(levelBandwidth(h));
    return bw;
}

Array defaultArray(int levels, Topology topology) {
    Array a;
    a.levels = levels;
    a.topology = topology;
    a.name = std::string("HMC ") + (topology == Topology::HTree ? "H-tree " : "torus ") + std::to_string(1 << levels);
    return a;
}

Range arrayRange(const std::string& key) {
    if (key == "level_bandwidth_Bps") return ranges::kBytesPerSecond;  // a list, not a field of the tables
    const auto* field = findField(arrayFields(), key);
    const auto* group = findField(acceleratorGroupFields(), key);
    if (field && field->type == FieldType::Number) return field->range;
    if (group && group->type == FieldType::Number) return group->range;
    throw std::logic_error("arrayRange: no array field '" + key + "'");
}

void validate(const Array& a) {
    auto check = [](double v, const std::string& field, const char* key) {
        if (const std::string why = rangeProblem(v, arrayRange(key)); !why.empty())
            throw std::invalid_argument(field + " " + why);
    };
    if (a.levels < 1 || a.levels > Array::kMaxLevels)
        throw std::invalid_argument("levels must be between 1 and " + std::to_string(Array::kMaxLevels) + ", got " +
                                    std::to_string(a.levels));
    for (const auto& field : arrayFields())
        if (field.type == FieldType::Number) check(field.get(a), field.key, field.key);
    for (size_t k = 0; k < a.groups.size(); ++k) {
        const auto& g = a.groups[k];
        const std::string at = "accelerators[" + std::to_string(k) + "].";
        if (g.kind.empty()) throw std::invalid_argument(at + "kind must not be empty");
        for (size_t o = 0; o < k; ++o)
            if (a.groups[o].kind == g.kind) throw std::invalid_argument(at + "kind '" + g.kind + "' is listed twice");
        if (g.count < 1) throw std::invalid_argument(at + "count must be at least 1, got " + std::to_string(g.count));
        for (const auto& field : acceleratorGroupFields())
            if (field.type == FieldType::Number) check(field.get(g), at + field.key, field.key);
    }
    if (!a.groups.empty()) {
        if (a.count() < 2)
            throw std::invalid_argument("an array needs at least 2 accelerators, got " + std::to_string(a.count()));
        const int height = treeHeight(a.groups);
        if (height > Array::kMaxLevels)
            throw std::invalid_argument("the accelerator groups need " + std::to_string(height) +
                                        " levels; at most " + std::to_string(Array::kMaxLevels) + " are supported");
        if (a.levels != height)
            throw std::invalid_argument("levels is " + std::to_string(a.levels) + " but the accelerator groups form " +
                                        std::to_string(height) + " levels");
    }
    if (!a.level_bandwidth_Bps.empty() && static_cast<int>(a.level_bandwidth_Bps.size()) != a.levels)
        throw std::invalid_argument("level_bandwidth_Bps has " + std::to_string(a.level_bandwidth_Bps.size()) +
                                    " entries, the array has " + std::to_string(a.levels) + " levels");
    for (size_t h = 0; h < a.level_bandwidth_Bps.size(); ++h)
        check(a.level_bandwidth_Bps[h], "level_bandwidth_Bps[" + std::to_string(h) + "]", "level_bandwidth_Bps");
    // On an H-tree each level's bandwidth is a rate too: link_bps x level_bw_factor^k stays within the limits.
    if (a.groups.empty() && a.level_bandwidth_Bps.empty() && a.topology == Topology::HTree)
        for (int h = 0; h < a.levels; ++h)
            if (const std::string why = rangeProblem(a.levelBandwidth(h), ranges::kBitsPerSecond); !why.empty())
                throw std::invalid_argument("the bandwidth of level H" + std::to_string(h + 1) + " (link_bps x level_bw_factor^" +
                                            std::to_string(a.levels - 1 - h) + ") " + why);
}

void deriveFromGroups(Array& a) {
    if (a.groups.empty()) return;
    a.levels = treeHeight(a.groups);
    if (a.groups.size() == 1 && a.groups[0].count == (1 << a.levels)) {
        const auto& g = a.groups[0];
        a.accelerator.kind = g.kind;
        a.accelerator.throughput_ops = g.throughput_flops;
        a.link_bps = 8.0 * g.bandwidth_Bps;
        a.level_bw_factor = 2.0;  // a group of 2^k accelerators receives 2^k b
        a.topology = Topology::HTree;
    }
}

std::vector<AcceleratorGroup> acceleratorGroups(const Array& a) {
    if (!a.groups.empty()) return a.groups;
    return {{a.accelerator.kind, a.count(), a.accelerator.throughput_ops, a.link_bps / 8.0}};
}

std::vector<double> groupLevelBandwidth(const Array& a) {
    if (!a.level_bandwidth_Bps.empty() || !a.groups.empty()) return a.level_bandwidth_Bps;
    std::vector<double> bw;
    for (int h = 0; h < a.levels; ++h) bw.push_back(a.levelBandwidth(h) / 8.0);
    return bw;
}

}  // namespace partita
