#pragma once
// The conversions from core's plain types to Qt's that every view needs: one
// definition instead of a copy in each file.
#include <string>

#include <QColor>
#include <QString>

#include "core/util/format.h"
#include "widgets/geometry/palette.h"

namespace partita {

inline QString q(const std::string& s) { return QString::fromStdString(s); }

inline QColor qcolor(view::Rgb c) { return QColor(c.r, c.g, c.b); }

// "1 device", "4 devices".
inline QString counted(qsizetype n, const QString& one, const QString& many) {
    return QString::number(n) + " " + (n == 1 ? one : many);
}

// Bytes with an SI prefix: "1.2 MB".
inline QString byteText(double b) { return q(withPrefix(b, "B")); }

// A quantity with an SI prefix and no unit: "1.2 G".
inline QString prefixed(double v) { return q(withPrefix(v, "")).trimmed(); }

}  // namespace partita
