#include "core/partition/grid.h"

#include <sstream>
#include <stdexcept>

#include "core/util/enum_names.h"

namespace partita {

char splitDigit(Split s) { return static_cast<char>('0' + index(s)); }

namespace {
// The HyPar word as the name, the AccPar type as the label.
constexpr EnumName<Split> kSplits[] = {
    {Split::Batch, "dp", "Type-I"}, {Split::Input, "mp", "Type-II"}, {Split::Output, "III", "Type-III"}};
}  // namespace

const char* splitShortName(Split s) { return enumName(kSplits, s); }
const char* splitTypeName(Split s) { return enumLabel(kSplits, s); }

Grid::Grid(int levels, int layers, Cell fill)
    : levels_(levels), layers_(layers), cells_(static_cast<size_t>(levels * layers), fill) {}

std::vector<std::string> Grid::toStrings() const {
    std::vector<std::string> rows;
    for (int h = 0; h < levels_; ++h) {
        std::string row;
        for (int l = 0; l < layers_; ++l) row += splitDigit(split(h, l));
        rows.push_back(row);
    }
    return rows;
}

Grid Grid::fromStrings(const std::vector<std::string>& rows, int layers, Split max_split) {
    if (rows.empty()) throw std::invalid_argument("the grid has no levels");
    Grid grid(static_cast<int>(rows.size()), layers);
    for (size_t h = 0; h < rows.size(); ++h) {
        const auto& row = rows[h];
        if (static_cast<int>(row.size()) != layers)
            throw std::invalid_argument("level H" + std::to_string(h + 1) + " has " + std::to_string(row.size()) +
                                        " choices, the network has " + std::to_string(layers) + " weighted layers");
        for (int l = 0; l < layers; ++l) {
            const char ch = row[static_cast<size_t>(l)];
            if (ch < '0' || ch > splitDigit(max_split))
                throw std::invalid_argument("level H" + std::to_string(h + 1) + ", position " + std::to_string(l + 1) +
                                            ": '" + std::string(1, ch) + "' is not a choice (use 0.." +
                                            std::string(1, splitDigit(max_split)) + ")");
            grid.at(static_cast<int>(h), l).split = static_cast<Split>(ch - '0');
        }
    }
    return grid;
}

std::vector<std::string> Grid::splitList(const std::string& text) {
    std::vector<std::string> rows;
    std::stringstream in(text);
    std::string item;
    while (std::getline(in, item, ',')) {
        std::string trimmed;
        for (char ch : item)
            if (ch != ' ' && ch != '\t') trimmed += ch;
        if (!trimmed.empty()) rows.push_back(trimmed);
    }
    return rows;
}

}  // namespace partita
