#pragma once
// --screenshot and --cell: the window or one view (by its --view name) rendered to a PNG, through the
// window's public parts only (its views, jobs, session and options).
#include <QString>

namespace partita::gui {

class MainWindow;

// Waits for the jobs, fills an empty view first (ViewEntry::prepare); a single view gets the whole
// window's width while it is rendered. False when the PNG cannot be written.
bool saveScreenshot(MainWindow& window, const QString& path, const QString& view);
// Options::cell_level and cell_layer as the grid's current cell; false (and the error reported) when
// the shown run has no such level or layer.
bool selectOptionCell(MainWindow& window);

}  // namespace partita::gui
