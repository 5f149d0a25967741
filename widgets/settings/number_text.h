#pragma once
// Number fields shared by the properties editors: the form row, compact
// display and validation as typed, in the C locale so "4.2e11" means the same everywhere.
#include <QString>

class QFormLayout;
class QLineEdit;
class QWidget;

namespace partita {

// Shortest exact text, with a compact exponent: 420e9 -> "4.2e11", 1.6e9 -> "1.6e9".
QString numberText(double value);

// A numeric field of a properties form: a named QLineEdit with its tooltip, added as a row.
QLineEdit* addNumberRow(QWidget* owner, QFormLayout* form, const QString& key, const QString& label, const QString& tip);

// Empty reason = valid and *value set. Zero is accepted only with allow_zero;
// negative numbers never.
QString parseNumber(const QString& text, bool allow_zero, double* value);

}  // namespace partita
