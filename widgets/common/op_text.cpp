#include "widgets/common/op_text.h"

#include "widgets/common/qt_text.h"

namespace partita {

QString shapeText(const Shape& s) { return QStringLiteral("%1×%2×%3").arg(s.c).arg(s.h).arg(s.w); }

QString opKindText(const Operator& op) {
    const bool generic = op.type == OpType::Elementwise || op.type == OpType::Layout;
    QString type = generic && !op.source_op.empty() ? q(op.source_op) : QString::fromLatin1(opTypeName(op.type));
    if (op.group > 1) type += QStringLiteral(" (%1 groups)").arg(op.group);
    if (op.pool) type += op.average_pool ? QStringLiteral(" + avg pool") : QStringLiteral(" + pool");
    return type;
}

}  // namespace partita
