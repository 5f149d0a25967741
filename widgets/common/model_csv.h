#pragma once
// One CSV writer for every table model: the columns with a CSV name (CsvTextRole on the header),
// each cell's CsvTextRole text if it has one, else its exact RawValueRole value (doubles in
// formatNumber's shortest exact form, integers in full), else its display text. Heading rows
// (HeadingRole) are left out. Quoting (RFC 4180)
// is core's toCsv.
#include <QAbstractItemModel>

#include "core/io/csv.h"

namespace partita {

CsvTable csvFromModel(const QAbstractItemModel& model);
std::string csvText(const QVariant& value);  // a raw value as CSV text

}  // namespace partita
