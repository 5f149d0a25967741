// MainWindow following the session: its new inputs and its shown run, in the views
// (running and comparing: run_controller.cpp; opening files: input_loader.cpp).
#include <QLabel>
#include <QStackedWidget>

#include "widgets/explore/explore_view.h"
#include "app/gui/action_set.h"
#include "app/gui/main_window.h"
#include "app/gui/run_views.h"
#include "widgets/common/qt_text.h"
#include "widgets/grid/grid_view.h"
#include "widgets/grid/metrics_panel.h"
#include "widgets/network/network_tab_view.h"
#include "widgets/simulation/simulation_view.h"

namespace partita::gui {

void MainWindow::inputsChanged(bool reshaped) {
    if (reshaped) explore_->setInputs(session_.inputs());
    network_view_->setInputs(session_.inputs());
    // [*]: a view with unsaved work (the editor) marks the window modified.
    const InputsPtr inputs = session_.inputs();
    setWindowTitle(inputs ? QString("%1 on %2[*] — Partita")
                                .arg(QString::fromStdString(inputs->network.name), QString::fromStdString(inputs->array.name))
                          : QString("Partita[*]"));
    actions_->update();
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
    run_views_->show(run);
    actions_->update();
}

}  // namespace partita::gui
