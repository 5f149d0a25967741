#pragma once
// Where the main window opens (plain geometry, tested without a screen): within the screen's
// available area (the desktop's panels excluded), whatever size it asks for or was saved with.
#include <QRect>

namespace partita::gui {

// `frame` (the window with its title bar) made no larger than `available` and moved inside it;
// centred in it when `centre` (a first start), else moved no further than needed (a restored place).
QRect fitWindow(const QRect& frame, const QRect& available, bool centre);

}  // namespace partita::gui
