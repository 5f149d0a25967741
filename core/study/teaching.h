#pragma once
// The teaching view's data (issue 6 item 5): one grid cell's tensors as blocks
// split between the two groups of its level, and every exchange in each phase,
// inside the layer and across both of its boundaries. Built on explainCell, so
// the amounts are the cost model's; plain code so it is tested headless.
#include <optional>
#include <string>
#include <vector>

#include "core/io/csv.h"
#include "core/study/explain.h"

namespace partita {

// A rectangle of a (rows x columns) tensor in unit coordinates: x runs along
// the columns (features / output channels), y along the rows (batch / input channels).
struct Region {
    double x0 = 0, y0 = 0, x1 = 1, y1 = 1;
    double area() const { return (x1 - x0) * (y1 - y0); }
    bool operator==(const Region&) const = default;
};

// What group g (0 = the first, with share rho; 1 = the second) holds under `layout`.
Region heldRegion(Layout layout, double rho, int group);
// a minus b as disjoint rectangles (none when b covers a).
std::vector<Region> subtract(const Region& a, const Region& b);
// What group g lacks to turn layout `from` into `to`: it receives these from
// the other group. For g = 0 their area is conversionShare(from, to, rho).
std::vector<Region> missingRegions(Layout from, Layout to, double rho, int group);

// Where an exchange happens, seen from layer l.
enum class Where { Before, Intra, After };  // boundary l-1 -> l, inside l, boundary l -> l+1
const char* whereName(Where w);              // "l-1 | l", "inside l", "l | l+1"

struct TeachingMove {
    Transfer transfer;   // tensor named in layer l's terms (F_l+1 / E_l+1 for the After boundary)
    Where where = Where::Intra;
    // Boundaries: the producer's layout and the one the consumer needs (first group).
    Layout from = Layout::Full, to = Layout::Full;
};

struct TeachingCell {
    CellExplanation cell;                  // layer l at this level
    std::optional<CellExplanation> next;   // layer l+1 (its only producer is l), if any
    std::vector<TeachingMove> moves;       // phase order; within a phase, in the order data flows
    double bytes_per_element = 4;

    std::vector<const TeachingMove*> movesIn(Phase p) const;
    double phaseElements(Phase p) const;   // received by the first group in that phase
    // The grid charges Before + Intra to this cell (== intra + inter), After to cell l+1.
    double chargedHere() const { return cell.intra + cell.inter; }
};

// Throws std::out_of_range for a cell outside the grid.
TeachingCell teachCell(const LayerTable& layers, const Grid& grid, const CostParams& params, int level, int layer);

// One row per exchange: level, layer, phase, where, tensor, why, formula, elements and bytes.
CsvTable teachingCsv(const TeachingCell& t);

}  // namespace partita
