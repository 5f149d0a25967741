// MainWindow's engine-facing actions: loading inputs, running jobs, editing
// grids, comparing and the results database.
#include <QDir>
#include <QFileInfo>
#include <QStatusBar>
#include <QTabWidget>

#include "app/gui/explore_view.h"
#include "app/gui/input_files.h"
#include "app/gui/library_dock.h"
#include "app/gui/main_window.h"
#include "app/gui/network_view.h"
#include "app/gui/runs_dock.h"
#include "core/io/array_io.h"
#include "core/io/network_io.h"
#include "core/io/strategy_io.h"
#include "widgets/compare_view.h"
#include "widgets/grid_view.h"
#include "widgets/metrics_panel.h"
#include "widgets/params_editor.h"

#include <QComboBox>

namespace partita::gui {

namespace {
QString q(const std::string& s) { return QString::fromStdString(s); }
}  // namespace

QString MainWindow::methodKey() const { return method_box_->currentData().toString(); }

void MainWindow::setMethodKey(const QString& key) {
    const int index = method_box_->findData(key);
    if (index >= 0) method_box_->setCurrentIndex(index);
}

void MainWindow::runSelected() {
    if (inputs_ && !inputs_->hyparApplies() && methodKey() != "accpar") {
        // HyPar's model cannot price these inputs; AccPar can, so switch rather than fail.
        setMethodKey("accpar");
        statusBar()->showMessage(tr("Switched to AccPar: %1").arg(q(inputs_->hypar_problem)), 8000);
    }
    if (methodKey() == "accpar") runAccPar();
    else runMethod(parseMethod(methodKey().toStdString()));
}

void MainWindow::runAccPar() {
    if (!inputs_) return;
    const InputsPtr inputs = inputs_;
    jobs_.start(tr("Running AccPar on %1").arg(q(inputs->network.name)),
                [inputs](const ProgressFn&, const CancelFn&) { return accparRun(inputs); });
}

void MainWindow::openDatabase(const QString& path) {
    db_.reset();
    db_problem_.clear();
    try {
        QDir().mkpath(QFileInfo(path).absolutePath());
        db_ = std::make_unique<ResultsDb>(path.toStdString());
    } catch (const std::exception& e) {
        db_problem_ = tr("Runs are not being stored: %1").arg(q(e.what()));
        reportError(db_problem_);
    }
    runs_dock_->refresh(db_.get(), db_problem_);
}

bool MainWindow::openFile(const QString& path, QString* error) {
    switch (fileKindOf(path)) {
        case FileKind::Array: return loadArray(path, error);
        case FileKind::Strategy: return loadStrategy(path, error);
        case FileKind::Network:
        case FileKind::Unknown: break;  // the network reader explains what is wrong
    }
    return loadNetwork(path, error);
}

bool MainWindow::loadNetwork(const QString& given, QString* error) {
    const QString path = QFileInfo(given).absoluteFilePath();  // one library entry per file
    try {
        Network net = partita::loadNetwork(path.toStdString());
        const Array array = params_->valid() ? params_->array() : array_;
        InputsPtr inputs = makeInputs(net, array, params_->params(), path.toStdString(), array_path_.toStdString(),
                                      params_->accparParams());
        network_ = std::move(net);
        network_path_ = path;
        const bool built_in = QFileInfo(path).absolutePath() == QFileInfo(examplesDir() + "/networks").absoluteFilePath();
        library_->addNetwork(path, q(network_.name), built_in);
        if (!built_in) addRecentFile(path);
        library_->setActive(network_path_, array_path_);
        setInputs(std::move(inputs));
        runSelected();
        return true;
    } catch (const std::exception& e) {
        if (error) *error = q(e.what());
        reportError(q(e.what()));
        return false;
    }
}

bool MainWindow::loadArray(const QString& given, QString* error) {
    const QString path = QFileInfo(given).absoluteFilePath();
    try {
        Array array = partita::loadArray(path.toStdString());
        array_ = array;
        array_path_ = path;
        params_->setValues(array_, params_->params());
        const bool built_in = QFileInfo(path).absolutePath() == QFileInfo(examplesDir() + "/arrays").absoluteFilePath();
        library_->addArray(path, q(array_.name), built_in);
        if (!built_in) addRecentFile(path);
        library_->setActive(network_path_, array_path_);
        if (!network_path_.isEmpty()) rebuildInputs();
        return true;
    } catch (const std::exception& e) {
        if (error) *error = q(e.what());
        reportError(q(e.what()));
        return false;
    }
}

bool MainWindow::loadStrategy(const QString& path, QString* error) {
    try {
        if (!inputs_) throw std::runtime_error("load a network before a strategy");
        const Strategy s = partita::loadStrategy(path.toStdString());
        checkStrategyFits(s, inputs_->layers, path.toStdString());
        if (s.grid.levels() != inputs_->array.levels)
            throw InputError(path.toStdString(), "/grid",
                             "the strategy has " + std::to_string(s.grid.levels()) + " levels, the array " +
                                 std::to_string(inputs_->array.levels));
        library_->addStrategy(path, q(s.method) + " · " + QFileInfo(path).fileName());
        addRecentFile(path);
        const Grid reference = searched_ ? searched_->grid : s.grid;
        auto run = std::make_shared<Run>(gridRun(inputs_, s.grid, RunKind::Evaluate, s.method, &reference));
        run->name = "Strategy " + QFileInfo(path).fileName().toStdString();
        showRun(run);
        storeRun(run);
        return true;
    } catch (const std::exception& e) {
        if (error) *error = q(e.what());
        reportError(q(e.what()));
        return false;
    }
}

void MainWindow::rebuildInputs() {
    if (!params_->valid() || network_path_.isEmpty()) return;
    try {
        setInputs(makeInputs(network_, params_->array(), params_->params(), network_path_.toStdString(),
                             array_path_.toStdString(), params_->accparParams()));
        runSelected();
    } catch (const std::exception& e) {
        reportError(q(e.what()));
    }
}

void MainWindow::setInputs(InputsPtr inputs) {
    const bool same_shape = inputs_ && inputs_->layers.size() == inputs->layers.size() &&
                            inputs_->array.levels == inputs->array.levels &&
                            inputs_->network.name == inputs->network.name;
    inputs_ = std::move(inputs);
    if (!same_shape) explore_->setInputs(inputs_);
    network_view_->setInputs(inputs_);
    updateTitle();
    updateActions();
}

void MainWindow::runMethod(Method m) {
    if (!inputs_) return;
    const InputsPtr inputs = inputs_;
    jobs_.start(tr("Running %1 on %2").arg(methodLabel(m), q(inputs->network.name)),
                [inputs, m](const ProgressFn&, const CancelFn&) { return planRun(inputs, m); });
}

void MainWindow::evaluateCurrent() {
    if (!inputs_ || !current_) return;
    const InputsPtr inputs = inputs_;
    const Grid grid = current_->grid;
    const Grid reference = current_->reference;
    const std::string method = current_->method;
    jobs_.start(tr("Evaluating"), [=](const ProgressFn&, const CancelFn&) {
        return gridRun(inputs, grid, RunKind::Evaluate, method, &reference);
    });
}

void MainWindow::explore(const std::vector<CellRef>& cells) {
    if (!inputs_ || cells.empty()) return;
    const InputsPtr inputs = inputs_;
    ExploreRequest request;
    request.cells = cells;
    jobs_.start(tr("Exploring 2^%1 points").arg(cells.size()),
                [inputs, request](const ProgressFn& progress, const CancelFn& cancel) {
                    return exploreRun(inputs, request, progress, cancel);
                });
}

void MainWindow::onJobFinished(quint64, RunPtr run) {
    if (run->kind == RunKind::Explore) {
        explore_->setResult(run);
        storeRun(run);
        tabs_->setCurrentWidget(explore_);
        statusBar()->showMessage(tr("Explored %1 points in %2 ms")
                                     .arg(q(withCommas(static_cast<double>(run->exploration->size()))))
                                     .arg(run->job_ms, 0, 'f', 1),
                                 5000);
        return;
    }
    if (run->kind == RunKind::Search) searched_ = run;
    showRun(run);
    storeRun(run);
}

void MainWindow::toggleCell(int level, int layer) {
    if (!current_ || level < 0 || level >= current_->grid.levels() || layer < 0 || layer >= current_->grid.layers())
        return;
    Grid grid = current_->grid;
    Cell& cell = grid.at(level, layer);
    if (current_->isAccPar())  // AccPar cycles I -> II -> III; HyPar flips dp <-> mp
        cell.split = static_cast<Split>((index(cell.split) + 1) % kSplitCount);
    else
        cell.split = cell.split == Split::Batch ? Split::Input : Split::Batch;
    applyGrid(grid);
    grid_->setCurrentCell(level, layer);
}

void MainWindow::applyGrid(const Grid& grid) {
    if (!inputs_) return;
    const Grid reference = searched_ ? searched_->grid : grid;
    if (searched_ && grid == reference && searched_->inputs == inputs_) {
        store_timer_.stop();
        pending_store_.reset();
        return showRun(searched_);
    }
    try {
        const std::string method = current_ && current_->isAccPar() ? "accpar" : "user";
        RunPtr run = std::make_shared<const Run>(gridRun(inputs_, grid, RunKind::Edited, method, &reference));
        showRun(run);
        pending_store_ = run;
        store_timer_.start();
    } catch (const std::exception& e) {
        reportError(q(e.what()));
    }
}

void MainWindow::resetGrid() {
    if (searched_) applyGrid(searched_->grid);
}

void MainWindow::flushPendingStore() {
    store_timer_.stop();
    if (!pending_store_) return;
    const RunPtr run = std::move(pending_store_);
    pending_store_.reset();
    storeRun(run);
}

void MainWindow::cancelJob() { jobs_.cancel(); }

void MainWindow::showRun(const RunPtr& run) {
    current_ = run;
    grid_->setRun(run);
    metrics_->setRun(run);
    setBusy(jobs_.busy(), jobs_.label());
    updateActions();
}

void MainWindow::storeRun(const RunPtr& run) {
    if (!db_ || !run) return;
    try {
        auto stored = std::make_shared<Run>(*run);
        stored->id = db_->store(*run);
        if (current_ == run) current_ = stored;
        if (searched_ == run) searched_ = stored;
        if (explore_->result() == run) explore_->setResult(stored);
        runs_dock_->refresh(db_.get());
    } catch (const std::exception& e) {
        reportError(q(e.what()));
    }
}

void MainWindow::compareWithBaselines() {
    if (!current_) return;
    std::vector<RunPtr> runs;
    if (current_->edited() && searched_) runs.push_back(searched_);
    runs.push_back(current_);
    if (current_->isAccPar()) {  // the baselines under AccPar's model, from the same result
        for (Scheme s : {Scheme::HyPar, Scheme::OneWeirdTrick, Scheme::DataParallel})
            if (runs.size() < 4) runs.push_back(std::make_shared<const Run>(accparBaselineRun(*current_, s)));
        return compareRuns(runs);
    }
    for (Method m : kAllMethods) {
        if (runs.size() == 4) break;
        const bool present = std::any_of(runs.begin(), runs.end(), [&](const RunPtr& r) {
            return r->kind == RunKind::Search && r->method == methodName(m);
        });
        if (!present) runs.push_back(std::make_shared<const Run>(planRun(current_->inputs, m)));
    }
    compareRuns(runs);
}

void MainWindow::compareRuns(const std::vector<RunPtr>& runs) {
    compare_->setRuns(runs);
    tabs_->setCurrentWidget(compare_);
}

bool MainWindow::compareStored(const std::vector<std::int64_t>& ids) {
    if (!db_ || ids.size() < 2 || ids.size() > 4) return false;
    try {
        std::vector<RunPtr> runs;
        for (std::int64_t id : ids) runs.push_back(std::make_shared<const Run>(db_->load(id)));
        compareRuns(runs);
        return true;
    } catch (const std::exception& e) {
        reportError(q(e.what()));
        return false;
    }
}

bool MainWindow::openStoredRun(std::int64_t id) {
    if (!db_) return false;
    try {
        auto run = std::make_shared<const Run>(db_->load(id));
        jobs_.cancel();
        network_ = run->inputs->network;
        array_ = run->inputs->array;
        network_path_ = q(run->inputs->network_origin);
        array_path_ = q(run->inputs->array_origin);
        library_->setActive(network_path_, array_path_);
        params_->setValues(array_, run->inputs->params);
        params_->setAccParValues(run->inputs->accpar);
        setMethodKey(run->isAccPar() ? "accpar" : QString::fromStdString(run->method));
        setInputs(run->inputs);
        const std::string method = run->isAccPar() ? "accpar" : "reference";
        searched_ = run->edited() ? std::make_shared<const Run>(
                                        gridRun(run->inputs, run->reference, RunKind::Search, method))
                                  : run;
        if (run->exploration) {
            explore_->setResult(run);
            tabs_->setCurrentWidget(explore_);
        } else {
            tabs_->setCurrentIndex(0);
        }
        showRun(run);
        return true;
    } catch (const std::exception& e) {
        reportError(q(e.what()));
        return false;
    }
}

bool MainWindow::deleteStoredRuns(const std::vector<std::int64_t>& ids) {
    if (!db_) return false;
    try {
        for (std::int64_t id : ids) db_->remove(id);
        runs_dock_->refresh(db_.get());
        return true;
    } catch (const std::exception& e) {
        reportError(q(e.what()));
        return false;
    }
}

bool MainWindow::renameStoredRun(std::int64_t id, const QString& name) {
    if (!db_ || name.trimmed().isEmpty()) return false;
    try {
        db_->rename(id, name.trimmed().toStdString());
        runs_dock_->refresh(db_.get());
        return true;
    } catch (const std::exception& e) {
        reportError(q(e.what()));
        return false;
    }
}

}  // namespace partita::gui
