#pragma once
// Text formatting for the CLI: numbers with units and aligned tables.
#include <iosfwd>
#include <string>
#include <vector>

#include "core/model/layers.h"
#include "core/partition/grid.h"

namespace partita::cli {

std::string withCommas(double value);             // 3901560 -> "3,901,560" (fraction kept if any)
std::string fixed(double value, int decimals);    // "%.*f"
std::string seconds(double value);                // "12.3 ms", "1.20 s"
std::string joules(double value);                 // "3.1 mJ"

// Rows of cells printed with each column padded to its widest cell.
class TextTable {
public:
    explicit TextTable(std::vector<std::string> header) : header_(std::move(header)) {}
    void add(std::vector<std::string> row) { rows_.push_back(std::move(row)); }
    void print(std::ostream& out) const;

private:
    std::vector<std::string> header_;
    std::vector<std::vector<std::string>> rows_;
};

// The grid with layer names as columns and levels as rows (dp / mp / III).
void printGrid(std::ostream& out, const LayerTable& layers, const Grid& grid, const std::vector<double>& level_comm);

}  // namespace partita::cli
