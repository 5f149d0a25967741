// MainWindow and stored runs: storing the shown run (RunStore stores it once), keeping edits,
// re-opening and comparing stored runs.
#include <utility>

#include <QDir>
#include <QFileInfo>
#include <QStatusBar>
#include <QStackedWidget>

#include "app/gui/explore_view.h"
#include "app/gui/library_dock.h"
#include "app/gui/main_window.h"
#include "app/gui/simulation_controller.h"
#include "app/gui/runs_dock.h"
#include "widgets/common/qt_text.h"
#include "widgets/settings/params_editor.h"
#include "widgets/simulation/simulation_view.h"

namespace partita::gui {

bool MainWindow::compareStored(const std::vector<std::int64_t>& ids) {
    if (!store_.db() || ids.size() < 2 || ids.size() > 4) return false;
    try {
        // MPT and L2S runs have their own tabs and baselines: left out.
        std::vector<std::int64_t> kept;
        bool simulated = false;
        for (std::int64_t id : ids)
            if (!store_.db()->isMethodRun(id)) {
                kept.push_back(id);
                simulated = simulated || store_.db()->hasSimulation(id);
            }
        if (kept.size() < 2) {
            statusBar()->showMessage(tr("Compare is not applicable to MPT or L2S runs; pick 2-4 HyPar, AccPar or "
                                        "simulated runs (the MPT and L2S tabs give their own baselines)"),
                                     8000);
            return false;
        }
        if (simulated) {  // re-opening re-simulates the stored strategies: worker work, on a connection of its own
            const std::string path = store_.db()->path();
            compareInWorker(tr("Simulating %1 stored runs again to compare them").arg(kept.size()),
                            [path, kept](const CancelFn& cancel) {
                                ResultsDb db(path, true);  // reads only
                                std::vector<RunPtr> runs;
                                for (std::int64_t id : kept) runs.push_back(std::make_shared<const Run>(db.load(id, cancel)));
                                return runs;
                            });
            return true;
        }
        std::vector<RunPtr> runs;
        for (std::int64_t id : kept) runs.push_back(std::make_shared<const Run>(store_.db()->load(id)));
        compareRuns(runs);
        return true;
    } catch (const std::exception& e) {
        reportError(q(e.what()));
        return false;
    }
}

bool MainWindow::openStoredRun(std::int64_t id) {
    if (!store_.db()) return false;
    try {
        if (store_.db()->isMethodRun(id)) return openStoredMethodRun(id);
        if (store_.db()->hasSimulation(id)) {
            // Re-opening re-simulates the stored strategy: worker work, on a connection of its own.
            const std::string path = store_.db()->path();
            jobs_.start(tr("Re-opening run %1").arg(id),
                        [path, id](const ProgressFn&, const CancelFn& cancel) {
                            return ResultsDb(path, true).load(id, cancel);  // reads only
                        });
            return true;
        }
        showStoredRun(std::make_shared<const Run>(store_.db()->load(id)));
        return true;
    } catch (const std::exception& e) {
        reportError(q(e.what()));
        return false;
    }
}

void MainWindow::showStoredRun(const RunPtr& run) {
    try {
        jobs_.cancel();
        session_.gridEdits().clear();
        session_.setNetwork(run->inputs->network, q(run->inputs->network_origin));
        session_.setArray(run->inputs->array, q(run->inputs->array_origin));
        library_->setActive(session_.networkPath(), session_.arrayPath());
        params_->setValues(session_.array(), run->inputs->params);
        params_->setAccParValues(run->inputs->accpar);
        setMethodKey(run->isAccPar() ? "accpar" : QString::fromStdString(run->method));
        session_.setInputs(run->inputs);
        emit networkLoaded(session_.network(), session_.networkPath());
        if (run->isSimulation()) {
            simulator_->showSettings(*run);
            session_.setSearched(nullptr);  // a simulated run is no grid search for edits to refer to
            showTab(simulation_);
            session_.show(run);
            return;
        }
        const std::string method = run->isAccPar() ? "accpar" : "reference";
        session_.setSearched(run->edited() ? std::make_shared<const Run>(
                                                 gridRun(run->inputs, run->reference, RunKind::Search, method))
                                           : run);
        if (run->exploration) {
            explore_->setResult(run);
            showTab(explore_);
        } else {
            showTab(grid_stack_);
        }
        session_.show(run);
    } catch (const std::exception& e) {
        reportError(q(e.what()));
    }
}

}  // namespace partita::gui
