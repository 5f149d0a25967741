// MainWindow's inputs: opening networks, arrays and strategies, and showing the session's run
// (running and comparing: run_controller.cpp; simulation: simulation_controller.cpp).
#include <QDir>
#include <QFileInfo>
#include <QLabel>
#include <QScopedValueRollback>
#include <QStackedWidget>
#include <QStatusBar>

#include "app/gui/explore_view.h"
#include "app/gui/input_files.h"
#include "app/gui/library_dock.h"
#include "app/gui/main_window.h"
#include "app/gui/simulation_controller.h"
#include "app/gui/onnx_dims_dialog.h"
#include "app/gui/runs_dock.h"
#include "core/io/array_io.h"
#include "core/io/network_io.h"
#include "core/io/strategy_io.h"
#include "core/run/method_registry.h"
#include "core/run/simulation_run.h"
#include "core/util/error.h"
#include "widgets/common/qt_text.h"
#include "widgets/compare/compare_view.h"
#include "widgets/editors/params_editor.h"
#include "widgets/grid/grid_view.h"
#include "widgets/grid/metrics_panel.h"
#include "widgets/network/network_view.h"
#include "widgets/simulation/simulation_view.h"

#include <QComboBox>
#include <QSettings>

#include <functional>
#include <utility>

namespace partita::gui {


void MainWindow::inputsChanged(bool reshaped) {
    if (reshaped) explore_->setInputs(session_.inputs());
    network_view_->setInputs(session_.inputs());
    updateTitle();
    updateActions();
}

void MainWindow::showRun(const RunPtr& run) {
    // A simulated strategy without a grid has nothing for the grid and its metrics to show.
    const bool gridless = run && run->isSimulation() && run->eval().levels == 0;
    grid_stack_->setCurrentWidget(gridless ? static_cast<QWidget*>(grid_na_) : grid_page_);
    if (gridless)
        grid_na_->setText(tr("<p><b>%1</b> has no grid.</p><p>The grid and its metrics show hierarchical HyPar and "
                             "AccPar strategies; this simulated SOAP strategy has none (simulate <i>Current grid, "
                             "lowered</i> to see one here). Its results are in the <a href='simulation'>Simulation "
                             "tab</a>.</p>")
                              .arg(q(run->name).toHtmlEscaped()));
    grid_->setRun(gridless ? nullptr : run);
    metrics_->setRun(gridless ? nullptr : run);
    simulation_->setRun(run);
    network_view_->setRun(run);
    showRunInViews(run);
    setBusy(jobs_.busy(), jobs_.label());
    updateActions();
}

}  // namespace partita::gui
