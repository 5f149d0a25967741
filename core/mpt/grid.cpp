#include "core/mpt/grid.h"

#include <cmath>
#include <stdexcept>

namespace partita::mpt {

std::string GridConfig::label() const {
    std::string s = "(";
    s += std::to_string(n_g);
    s += ',';
    s += std::to_string(n_c);
    s += ')';
    return s;
}

GridCheck checkGrid(const GridConfig& g, int p, int tile_elements, double batch) {
    GridCheck c;
    const std::string at = "grid " + g.label() + ": ";
    if (g.n_g < 1 || g.n_c < 1) c.errors.push_back(at + "N_g and N_c must be positive");
    else if (g.workers() != p)
        c.errors.push_back(at + "N_g x N_c = " + std::to_string(g.workers()) + " is not p = " + std::to_string(p));
    if (g.n_g > tile_elements)
        c.errors.push_back(at + "N_g exceeds the " + std::to_string(tile_elements) + " tile positions");
    if (g.n_c >= 1 && std::fmod(batch, g.n_c) != 0)
        c.warnings.push_back(at + "N_c does not divide the batch; clusters get unequal images");
    if (g.n_g >= 1 && g.n_g <= tile_elements && tile_elements % g.n_g != 0)
        c.warnings.push_back(at + "N_g does not divide T^2; the largest group sets the compute time");
    return c;
}

std::vector<std::vector<int>> elementGroups(int tile, int n_g) {
    const int n = tile * tile;
    if (tile < 1 || n_g < 1 || n_g > n) throw std::invalid_argument("element groups: need 1 <= N_g <= T^2");
    std::vector<std::vector<int>> groups(n_g);
    // Group g takes [ceil(g n / N_g), ceil((g+1) n / N_g)): larger runs first.
    for (int g = 0; g < n_g; ++g) {
        const int lo = (g * n + n_g - 1) / n_g, hi = ((g + 1) * n + n_g - 1) / n_g;
        for (int k = lo; k < hi; ++k) groups[g].push_back(k);
    }
    return groups;
}

int maxElementsPerGroup(int tile, int n_g) { return (tile * tile + n_g - 1) / n_g; }

bool linePredictable(int tile, int n_g) {
    for (const auto& run : elementGroups(tile, n_g))
        if (run.empty() || run.front() % tile != 0 || (run.back() + 1) % tile != 0) return false;
    return true;
}

std::vector<GridConfig> divisorConfigs(int p) {
    if (p < 1) throw std::invalid_argument("p must be positive");
    std::vector<GridConfig> out;
    for (int g = 1; g <= p; ++g)
        if (p % g == 0) out.push_back({g, p / g});
    return out;
}

std::vector<GridConfig> paperConfigs(int p) {
    if (p < 1) throw std::invalid_argument("p must be positive");
    std::vector<GridConfig> out{{1, p}};
    if (p % 4 == 0 && p > 4) out.push_back({4, p / 4});
    const int s = static_cast<int>(std::lround(std::sqrt(p)));
    if (s * s == p && s > 1 && !(out.back() == GridConfig{s, s})) out.push_back({s, s});
    return out;
}

bool paperBuildable(const GridConfig& g) {
    return (g.n_g == 1 || g.n_g == 4 || g.n_g == 16) && g.workers() <= 256;
}

}  // namespace partita::mpt
