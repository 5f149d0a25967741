#include "app/cli/report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <ostream>

#include "core/util/error.h"

namespace partita::cli {

void writeOutputFile(const std::string& path, const std::string& text) {
    std::ofstream f(path, std::ios::binary);
    f << text;
    if (!f) throw Error(path + ": cannot write the file");
}

namespace {

// The JSON pointer of the first number in `j` that is not finite, or "" when there is none.
std::string nonFiniteAt(const nlohmann::json& j, const std::string& at) {
    if (j.is_number_float()) return std::isfinite(j.get<double>()) ? "" : (at.empty() ? "/" : at);
    if (j.is_array()) {
        for (size_t i = 0; i < j.size(); ++i)
            if (auto found = nonFiniteAt(j[i], at + "/" + std::to_string(i)); !found.empty()) return found;
    } else if (j.is_object()) {
        for (auto it = j.begin(); it != j.end(); ++it)
            if (auto found = nonFiniteAt(*it, at + "/" + it.key()); !found.empty()) return found;
    }
    return {};
}

}  // namespace

std::string jsonText(const nlohmann::json& j, int indent) {
    if (const std::string at = nonFiniteAt(j, ""); !at.empty())
        throw Error("the result's " + at + " is not a finite number; a parameter lies outside what the model computes "
                    "(docs/formats/limits.md)");
    return j.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

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
