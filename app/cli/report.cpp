#include "app/cli/report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ostream>

namespace partita::cli {

std::string withCommas(double value) {
    const bool negative = value < 0;
    const double mag = std::fabs(value);
    const double whole = std::floor(mag);
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.0f", whole);
    std::string digits = buf, out;
    for (size_t i = 0; i < digits.size(); ++i) {
        if (i && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    if (mag != whole) {
        std::snprintf(buf, sizeof buf, "%.6g", mag - whole);
        out += std::string(buf).substr(1);  // ".5"
    }
    return (negative ? "-" : "") + out;
}

std::string fixed(double value, int decimals) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, value);
    return buf;
}

namespace {
std::string scaled(double value, const char* unit) {
    static const struct { double factor; const char* prefix; } steps[] = {{1, ""}, {1e-3, "m"}, {1e-6, "u"}, {1e-9, "n"}};
    for (const auto& s : steps)
        if (std::fabs(value) >= s.factor || s.factor == 1e-9) {
            char buf[64];
            std::snprintf(buf, sizeof buf, "%.4g %s%s", value / s.factor, s.prefix, unit);
            return buf;
        }
    return "";
}
}  // namespace

std::string seconds(double value) { return value == 0 ? "0 s" : scaled(value, "s"); }
std::string joules(double value) { return value == 0 ? "0 J" : scaled(value, "J"); }

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
            const bool left = i == 0;
            const std::string pad(width[i] - cell.size(), ' ');
            text += (i ? "  " : "") + (left ? cell + pad : pad + cell);
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
