#include "widgets/common/selection.h"

namespace partita {

void Selection::setCell(int level, int layer, QObject* source) {
    level_ = level;
    layer_ = layer;
    emit cellChanged(level, layer, source);
}

void Selection::setOperator(int op, QObject* source) {
    op_ = op;
    emit operatorChanged(op, source);
}

void Selection::setDevice(int device, QObject* source) {
    device_ = device;
    link_ = -1;
    emit deviceChanged(device, source);
}

void Selection::setLink(int link, QObject* source) {
    link_ = link;
    device_ = -1;
    emit linkChanged(link, source);
}

}  // namespace partita
