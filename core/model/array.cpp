#include "core/model/array.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

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

double Array::levelBandwidth(int h) const {
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

void validate(const Array& a) {
    auto positive = [](double v, const char* field) {
        if (!(v > 0) || !std::isfinite(v))
            throw std::invalid_argument(std::string(field) + " must be a positive number, got " + std::to_string(v));
    };
    auto nonNegative = [](double v, const char* field) {
        if (!(v >= 0) || !std::isfinite(v))
            throw std::invalid_argument(std::string(field) + " must not be negative, got " + std::to_string(v));
    };
    if (a.levels < 1 || a.levels > Array::kMaxLevels)
        throw std::invalid_argument("levels must be between 1 and " + std::to_string(Array::kMaxLevels) + ", got " +
                                    std::to_string(a.levels));
    positive(a.link_bps, "link_bps");
    positive(a.level_bw_factor, "level_bw_factor");
    positive(a.accelerator.throughput_ops, "throughput_ops");
    nonNegative(a.accelerator.e_mult_pj, "e_mult_pj");
    nonNegative(a.accelerator.e_add_pj, "e_add_pj");
    nonNegative(a.accelerator.e_dram_pj, "e_dram_pj");
    nonNegative(a.accelerator.e_sram_pj, "e_sram_pj");
    nonNegative(a.accelerator.e_link_pj_per_bit, "e_link_pj_per_bit");
}

}  // namespace partita
