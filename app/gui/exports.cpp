// MainWindow's --view and --screenshot, by the views registered in view_entries.cpp.
#include <QApplication>
#include <QDockWidget>
#include <QFileInfo>
#include <QImage>
#include <QLabel>
#include <QSplitter>
#include <QTabWidget>

#include "widgets/explore/explore_view.h"
#include "app/gui/library_dock.h"
#include "app/gui/main_window.h"
#include "app/gui/runs_dock.h"
#include <qcustomplot.h>

#include "widgets/charts/layer_bars.h"
#include "widgets/charts/study_view.h"
#include "widgets/charts/core_count_chart.h"
#include "widgets/common/choice_grid.h"
#include "widgets/common/figure_export.h"
#include "widgets/compare/compare_view.h"
#include "widgets/settings/params_editor.h"
#include "widgets/explore/explore_surface.h"
#include "widgets/grid/grid_view.h"
#include "widgets/grid/metrics_panel.h"
#include "widgets/heatmap/comm_heatmap_view.h"
#include "widgets/l2s/l2s_view.h"
#include "widgets/mpt/mpt_view.h"
#include "widgets/simulation/simulation_view.h"
#include "widgets/teaching/teaching_view.h"
#include "widgets/timeline/gantt_view.h"

namespace partita::gui {

const ViewEntry* MainWindow::findView(const QString& name) const {
    const ViewEntry* view = views_.find(name);
    return view && view->alias ? views_.find(view->alias()) : view;
}

void MainWindow::showView(const QString& name) {
    if (const ViewEntry* view = findView(name); view && view->central()) views_.show(view->tab);
}

bool MainWindow::selectOptionCell() {
    if (options_.cell_layer.isEmpty()) return true;
    const InputsPtr inputs = session_.inputs();
    const RunPtr current = session_.currentRun();
    int layer = -1;
    for (size_t l = 0; inputs && l < inputs->layers.size(); ++l)
        if (QString::fromStdString(inputs->layers[l].name) == options_.cell_layer) layer = static_cast<int>(l);
    const int levels = current ? current->grid.levels() : 0;
    if (layer < 0 || options_.cell_level >= levels || !current || current->grid.layers() <= layer) {
        reportError(tr("--cell: the shown run has no cell H%1, %2 (%3 levels; weighted layers by name)")
                        .arg(options_.cell_level + 1)
                        .arg(options_.cell_layer)
                        .arg(levels));
        return false;
    }
    grid_->setCurrentCell(options_.cell_level, layer);
    return true;
}

bool MainWindow::saveScreenshot(const QString& path, const QString& name) {
    jobs_.waitForIdle();
    selectOptionCell();
    const ViewEntry* entry = views_.find(name);  // "main": the whole window, its tab as the method's
    if (const ViewEntry* shown = findView(name); shown && shown->prepare) {
        shown->prepare();  // an empty view is filled first (a comparison, a simulation)
        jobs_.waitForIdle();
    }
    showView(name);
    // A single view gets the whole window's width: docks step aside while it is rendered.
    std::vector<QDockWidget*> hidden;
    if (entry && entry->central())
        for (QDockWidget* dock : findChildren<QDockWidget*>())
            if (dock->isVisible()) {
                dock->hide();
                hidden.push_back(dock);
            }
    QApplication::processEvents();
    QWidget* target = entry && entry->shot ? entry->shot() : this;
    const bool ok = target->grab().save(path, "PNG");
    for (QDockWidget* dock : hidden) dock->show();
    return ok;
}

}  // namespace partita::gui
