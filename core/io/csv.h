#pragma once
// RFC 4180 CSV: a header row (units in column names) and data rows.
#include <string>
#include <vector>

#include "core/util/format.h"  // formatNumber for cells

namespace partita {

struct CsvTable {
    std::vector<std::string> header;
    std::vector<std::vector<std::string>> rows;
};

std::string csvField(const std::string& value);
std::string toCsv(const CsvTable& table);
void writeCsvFile(const CsvTable& table, const std::string& path);  // throws Error on I/O failure

}  // namespace partita
