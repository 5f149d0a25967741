#pragma once
// RFC 4180 CSV: a header row (units in column names) and data rows.
#include <string>
#include <vector>

namespace partita {

struct CsvTable {
    std::vector<std::string> header;
    std::vector<std::vector<std::string>> rows;
};

std::string csvField(const std::string& value);
std::string toCsv(const CsvTable& table);
void writeCsvFile(const CsvTable& table, const std::string& path);  // throws Error on I/O failure
// Shortest text that reads back to the same double ("%.17g" trimmed).
std::string formatNumber(double value);

}  // namespace partita
