#pragma once
// Text formatting for the CLI: numbers with units and aligned tables.
#include <iosfwd>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/model/layers.h"
#include "core/partition/grid.h"
#include "core/util/format.h"

namespace partita::cli {

using partita::fixed;
using partita::joules;
using partita::seconds;
using partita::withCommas;

// Writes an output file whole; throws Error naming the path when it cannot.
void writeOutputFile(const std::string& path, const std::string& text);

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

// `j` as the text --json prints: a number that is not finite is an error naming its place (never a
// "null" standing for NaN), and bytes that are not UTF-8 (a path, a model's name) print as U+FFFD.
std::string jsonText(const nlohmann::json& j, int indent = 2);

// The grid with layer names as columns and levels as rows (dp / mp / III).
void printGrid(std::ostream& out, const LayerTable& layers, const Grid& grid, const std::vector<double>& level_comm);

}  // namespace partita::cli
