#pragma once
// How an operator is named in the views (the network graph, the editor): its kind and its shape.
#include <QString>

#include "core/model/network.h"

namespace partita {

QString shapeText(const Shape& s);  // "64×56×56" (C×H×W)
// "conv + pool", "conv (32 groups)"; an imported element-wise or layout op by its model's name ("Relu").
QString opKindText(const Operator& op);

}  // namespace partita
