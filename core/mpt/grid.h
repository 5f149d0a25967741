#pragma once
// The 2-D worker grid (docs/methods/mpt.md#the-worker-grid): N_c clusters (rows, data parallel) by
// N_g groups (columns, each owning a run of the T^2 tile positions).
#include <string>
#include <vector>

namespace partita::mpt {

struct GridConfig {
    int n_g = 1, n_c = 1;
    int workers() const { return n_g * n_c; }
    std::string label() const;  // "(16,16)"
    bool operator==(const GridConfig&) const = default;
};

struct GridCheck {
    std::vector<std::string> errors;    // the configuration cannot run
    std::vector<std::string> warnings;  // it runs, unevenly
    bool valid() const { return errors.empty(); }
};
// N_g * N_c = p, N_g <= T^2 (errors); N_c not dividing B, N_g not dividing T^2 (warnings).
GridCheck checkGrid(const GridConfig& g, int p, int tile_elements, double batch);

// Row-major tile positions of each group: contiguous runs, sizes differing by at most one.
std::vector<std::vector<int>> elementGroups(int tile, int n_g);
int maxElementsPerGroup(int tile, int n_g);  // ceil(T^2 / N_g): sets the compute time
// True when every run is a set of whole tile lines (1D prediction possible).
bool linePredictable(int tile, int n_g);

// Every (N_g, N_c) with N_g * N_c = p, ascending N_g.
std::vector<GridConfig> divisorConfigs(int p);
// The paper's three for p = 256 generalised: (sqrt p, sqrt p), (4, p/4), (1, p) where they exist.
std::vector<GridConfig> paperConfigs(int p);
// Whether the paper's hardware (16 x 16 HMC grid, FBFLY clusters) can build it.
bool paperBuildable(const GridConfig& g);

}  // namespace partita::mpt
