#include "core/io/csv.h"

#include <fstream>

#include "core/util/error.h"

namespace partita {

std::string csvField(const std::string& value) {
    if (value.find_first_of(",\"\r\n") == std::string::npos) return value;
    std::string quoted = "\"";
    for (char c : value) {
        if (c == '"') quoted += '"';
        quoted += c;
    }
    return quoted + "\"";
}

std::string toCsv(const CsvTable& table) {
    std::string out;
    auto line = [&](const std::vector<std::string>& cells) {
        for (size_t i = 0; i < cells.size(); ++i) out += (i ? "," : "") + csvField(cells[i]);
        out += "\r\n";
    };
    line(table.header);
    for (const auto& r : table.rows) line(r);
    return out;
}

void writeCsvFile(const CsvTable& table, const std::string& path) {
    std::ofstream out(path, std::ios::binary);
    if (!out) throw Error(path + ": cannot open the file for writing");
    out << toCsv(table);
    if (!out) throw Error(path + ": writing failed");
}

}  // namespace partita
