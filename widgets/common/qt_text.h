#pragma once
// The conversions from core's plain types to Qt's that every view needs: one
// definition instead of a copy in each file.
#include <string>

#include <QColor>
#include <QString>

#include "widgets/geometry/palette.h"

namespace partita {

inline QString q(const std::string& s) { return QString::fromStdString(s); }

inline QColor qcolor(view::Rgb c) { return QColor(c.r, c.g, c.b); }

}  // namespace partita
