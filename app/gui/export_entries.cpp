#include "app/gui/export_entries.h"

#include "widgets/common/figure_export.h"

namespace partita::gui {

namespace {
FigureOptions titled(const QString& target) {
    FigureOptions options;
    options.title = "Partita — " + target;
    return options;
}
}  // namespace

ExportEntry figureTarget(const QString& target, const QString& label, const FigureSource* figure, TableFn table,
                         ReadyFn ready) {
    return {target, label, [=](const QString& path, bool csv) -> QString {
                if (ready)
                    if (QString why = ready(); !why.isEmpty()) return why;
                return csv ? exportCsv(table(), path) : exportFigure(*figure, path, titled(target));
            }};
}

ExportEntry widgetTarget(const QString& target, const QString& label, std::function<QWidget*()> widget, TableFn table,
                         ReadyFn ready) {
    return {target, label, [=](const QString& path, bool csv) -> QString {
                if (ready)
                    if (QString why = ready(); !why.isEmpty()) return why;
                return csv ? exportCsv(table(), path) : exportWidget(*widget(), path, titled(target));
            }};
}

}  // namespace partita::gui
