#include "app/cli/report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ostream>

namespace partita::cli {

void TextTable::print(std::ostream& out) const {
    std::vector<size_t> width(header_.size(), 0);
    auto widen = [&](const std::vector<std::string>& row) {
        for (size_t i = 0; i < row.size() && i < width.size(); ++i) width[i] = std::max(width[i], row[i].size());
    };
    widen(header_);
    for (const auto& r : rows_) widen(r);
    auto line = [&](const std::vector<std::string>& row) {
        std::string text;
        for (size_t i = 0; i < row.size(); ++i) {
            const std::string& cell = row[i];
            const size_t pad = width[i] - cell.size();
            if (i > 0) text.append(2 + pad, ' ');  // right-aligned after a two-space gap
            text += cell;
            if (i == 0) text.append(pad, ' ');
        }
        while (!text.empty() && text.back() == ' ') text.pop_back();
        out << text << '\n';
    };
    line(header_);
    for (const auto& r : rows_) line(r);
}

void printGrid(std::ostream& out, const LayerTable& layers, const Grid& grid, const std::vector<double>& level_comm) {
    std::vector<std::string> header{"level"};
    for (const auto& l : layers.layers) header.push_back(l.name);
    header.push_back("com (elements)");
    TextTable table(header);
    for (int h = 0; h < grid.levels(); ++h) {
        std::vector<std::string> row{"H" + std::to_string(h + 1)};
        for (int l = 0; l < grid.layers(); ++l) {
            const Cell& c = grid.at(h, l);
            std::string text = splitShortName(c.split);
            if (c.ratio != 0.5) text += "@" + fixed(c.ratio, 3);
            row.push_back(text);
        }
        row.push_back(h < static_cast<int>(level_comm.size()) ? withCommas(level_comm[static_cast<size_t>(h)]) : "");
        table.add(row);
    }
    table.print(out);
}

}  // namespace partita::cli
