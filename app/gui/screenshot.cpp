#include "app/gui/screenshot.h"

#include <vector>

#include <QApplication>
#include <QDockWidget>

#include "app/gui/main_window.h"
#include "app/gui/view_registry.h"
#include "widgets/grid/grid_view.h"

namespace partita::gui {

bool selectOptionCell(MainWindow& window) {
    const Options& options = window.options();
    if (options.cell_layer.isEmpty()) return true;
    const InputsPtr inputs = window.session().inputs();
    const RunPtr current = window.session().currentRun();
    int layer = -1;
    for (size_t l = 0; inputs && l < inputs->layers.size(); ++l)
        if (QString::fromStdString(inputs->layers[l].name) == options.cell_layer) layer = static_cast<int>(l);
    const int levels = current ? current->grid.levels() : 0;
    if (layer < 0 || options.cell_level >= levels || !current || current->grid.layers() <= layer) {
        window.reportError(QObject::tr("--cell: the shown run has no cell H%1, %2 (%3 levels; weighted layers by name)")
                               .arg(options.cell_level + 1)
                               .arg(options.cell_layer)
                               .arg(levels));
        return false;
    }
    window.views().get<GridView>()->setCurrentCell(options.cell_level, layer);
    return true;
}

bool saveScreenshot(MainWindow& window, const QString& path, const QString& name) {
    ViewRegistry& views = window.views();
    window.jobs().waitForIdle();
    selectOptionCell(window);
    const ViewEntry* entry = views.find(name);  // "main": the whole window, its tab as the method's
    if (const ViewEntry* shown = views.findFollowingAlias(name); shown && shown->prepare) {
        shown->prepare();  // an empty view is filled first (a comparison, a simulation)
        window.jobs().waitForIdle();
    }
    views.showNamed(name);
    // A single view gets the whole window's width: docks step aside while it is rendered.
    std::vector<QDockWidget*> hidden;
    if (entry && entry->central())
        for (QDockWidget* dock : window.findChildren<QDockWidget*>())
            if (dock->isVisible()) {
                dock->hide();
                hidden.push_back(dock);
            }
    QApplication::processEvents();
    QWidget* target = entry && entry->shot ? entry->shot() : &window;
    const bool ok = target->grab().save(path, "PNG");
    for (QDockWidget* dock : hidden) dock->show();
    return ok;
}

}  // namespace partita::gui
