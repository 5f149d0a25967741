#pragma once
// Exhaustive exploration of a strategy space (docs/methods/hypar.md#exploration): every
// assignment of k chosen (level, layer) cells, the other cells fixed.
#include <cstdint>
#include <vector>

#include "core/cost/evaluate.h"
#include "core/util/progress.h"

namespace partita {

struct CellRef {
    int level = 0, layer = 0;
    bool operator==(const CellRef&) const = default;
};

struct ExploreRequest {
    Grid base;                    // fixed choices; its chosen cells are overwritten
    std::vector<CellRef> cells;   // the first cell is the most significant digit
    int radix = 2;                // 2 = dp/mp (HyPar), 3 = Types I-III
    int threads = 0;              // workers from WorkerPool::shared(); 0 = all of them
};

struct ExploreResult {
    std::vector<CellRef> cells;
    int radix = 2;
    std::vector<double> total_elements;  // per point code
    std::vector<double> time_step_s;     // per point code
    double time_step_dp_s = 0;           // the Data Parallelism reference
    std::uint64_t base_code = 0;         // the code of the request's base grid
    std::uint64_t best_comm_code = 0;    // least total communication (lowest code on ties)
    std::uint64_t best_time_code = 0;    // least step time (lowest code on ties)

    std::uint64_t size() const { return total_elements.size(); }
    double perfVsDp(std::uint64_t code) const { return time_step_dp_s / time_step_s[code]; }
    Grid grid(const Grid& base, std::uint64_t code) const;  // the point as a full grid
};

// Largest space explore() accepts (points).
inline constexpr std::uint64_t kMaxExplorePoints = std::uint64_t{1} << 30;

std::uint64_t codeOf(const Grid& grid, const std::vector<CellRef>& cells, int radix);
void applyCode(Grid& grid, const std::vector<CellRef>& cells, int radix, std::uint64_t code);
// Digits of a code for a subset of its cells, e.g. "0011" for one level.
std::string digits(std::uint64_t code, int radix, int cells, int first, int count);

// Throws std::invalid_argument on bad cells or an oversized space, Cancelled
// when `cancel` returns true. `progress` runs on the calling thread.
ExploreResult explore(const LayerTable& layers, const Array& array, const CostParams& params,
                      const ExploreRequest& request, const ProgressFn& progress = {}, const CancelFn& cancel = {});

// Cells of whole levels (all layers of each level listed), e.g. {0, 3} for H1 and H4.
std::vector<CellRef> levelCells(const std::vector<int>& levels, int layers);
// Cells of whole layers (all levels of each layer listed).
std::vector<CellRef> layerCells(const std::vector<int>& layer_ids, int levels);

}  // namespace partita
