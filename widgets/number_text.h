#pragma once
// Number text shared by the properties editors: compact display and
// validation as typed, in the C locale so "4.2e11" means the same everywhere.
#include <QString>

namespace partita {

// Shortest exact text, with a compact exponent: 420e9 -> "4.2e11", 1.6e9 -> "1.6e9".
QString numberText(double value);

// Empty reason = valid and *value set. Zero is accepted only with allow_zero;
// negative numbers never.
QString parseNumber(const QString& text, bool allow_zero, double* value);

}  // namespace partita
