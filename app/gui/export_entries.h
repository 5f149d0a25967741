#pragma once
// Builders of export targets (view_registry.h) for the two kinds of view: a
// figure that draws itself for export, and a widget exported as it is shown.
#include <functional>

#include "app/gui/view_registry.h"
#include "core/io/csv.h"

namespace partita {
class FigureSource;
}

namespace partita::gui {

using TableFn = std::function<CsvTable()>;
using ReadyFn = std::function<QString()>;  // why there is nothing to export, or ""

ExportEntry figureTarget(const QString& target, const QString& label, const FigureSource* figure, TableFn table,
                         ReadyFn ready = {});
ExportEntry widgetTarget(const QString& target, const QString& label, std::function<QWidget*()> widget, TableFn table,
                         ReadyFn ready = {});

}  // namespace partita::gui
