#include "app/gui/window_geometry.h"

#include <algorithm>

namespace partita::gui {

QRect fitWindow(const QRect& frame, const QRect& available, bool centre) {
    if (available.isEmpty()) return frame;
    QRect r(frame.topLeft(), frame.size().boundedTo(available.size()));
    if (centre) {
        r.moveCenter(available.center());
    } else {
        r.moveLeft(std::clamp(r.left(), available.left(), available.right() - r.width() + 1));
        r.moveTop(std::clamp(r.top(), available.top(), available.bottom() - r.height() + 1));
    }
    return r;
}

}  // namespace partita::gui
