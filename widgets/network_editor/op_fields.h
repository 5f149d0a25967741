#pragma once
// The parameters of each operator kind as editable fields: a value as text (or a choice), and
// parsing text back into the operator with the reason when it is not valid. The properties panel
// builds its form from these; the checks are the file format's (sizes within limits::kDimension).
#include <functional>
#include <vector>

#include <QString>
#include <QStringList>

#include "core/model/network.h"

namespace partita {

struct OpField {
    QString key, label, tip;
    QStringList choices;  // a choice among these (a combo box), else free text
    std::function<QString(const Operator&)> text;
    // Sets the value in `op`; returns "" or why the text is not valid (op then unchanged).
    std::function<QString(const QString&, Operator&)> parse;
    // Whether the field applies to this operator as it is now (e.g. pool sizes without a pool: no).
    std::function<bool(const Operator&)> applies = [](const Operator&) { return true; };
};

std::vector<OpField> opFields(OpType type);  // besides the name, in form order

// A new operator of this kind with usable defaults (conv 3×3 pad 1 with 64 channels, pool 2×2...).
Operator defaultOperator(OpType type);
// The palette's keys: "conv", "fc", ... (opTypeName), each kind once.
std::vector<OpType> allOpTypes();
QString opTypeLabel(OpType type);  // "Convolution", "Fully connected", ...
QString opTypeTip(OpType type);    // what it computes, in one line

}  // namespace partita
