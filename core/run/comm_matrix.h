#pragma once
// Communication as a named matrix of bytes, the data behind the heatmaps:
// device x device traffic (a simulation's trafficMatrix, or any other source)
// and level x layer traffic of a hierarchical run (rows H1..HH and columns the
// weighted layers, the grid view's orientation). Plain data, so the views, the
// CSV export and headless tests share one definition of every number.
#include <string>
#include <vector>

#include "core/cost/evaluate.h"
#include "core/io/csv.h"

namespace partita {

struct Run;

struct CommMatrix {
    enum class Kind { Devices, LevelsLayers };
    Kind kind = Kind::Devices;
    int rows = 0, cols = 0;
    std::vector<double> bytes;             // row-major rows x cols
    std::vector<std::string> row_names, col_names;
    std::string row_title, col_title;      // "from", "to"; "level", "layer"
    // LevelsLayers: what one cell is made of, for tooltips and CSV. Row h has
    // 2^h group pairs; a cell's bytes = pairs * (intra + inter) * bytes_per_element.
    std::vector<double> intra_elements, inter_elements;  // per group pair, row-major
    double bytes_per_element = 0;
    // Optional per-cell note drawn with the value (a run's split: "dp", "mp", "III"); row-major or empty.
    std::vector<std::string> cell_tags;

    bool empty() const { return rows == 0 || cols == 0; }
    double at(int row, int col) const { return bytes[static_cast<size_t>(row * cols + col)]; }
    double total() const;                  // sum of every cell
    double pairs(int row) const;           // group pairs of a level row (1 for devices)
};

// bytes[from][to] between devices named `names` (one per row). Throws
// std::invalid_argument when the matrix is not square or the names do not match.
CommMatrix deviceCommMatrix(const std::vector<std::vector<double>>& bytes, std::vector<std::string> names);

// Level x layer bytes of an evaluation: cell (h, l) = 2^h (intra + inter) x
// bytes_per_element, so the cells sum to ev.total_bytes (= total_elements x e).
CommMatrix levelLayerCommMatrix(const Evaluation& ev, std::vector<std::string> layer_names,
                                double bytes_per_element);
// The same for what a run shows (AccPar's model and bytes per element for AccPar
// runs), each cell tagged with the grid's split there.
CommMatrix levelLayerCommMatrix(const Run& run);

// The matrix as CSV: one row per matrix row, one column per matrix column in
// bytes (units in the names), and the row's total.
CsvTable commMatrixCsv(const CommMatrix& m);

}  // namespace partita
