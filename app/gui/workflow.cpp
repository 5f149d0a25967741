// MainWindow's engine-facing actions: loading inputs, running jobs, editing
// grids and comparing (stored runs: stored_runs.cpp; simulation: simulation_actions.cpp).
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
#include "widgets/settings/params_editor.h"
#include "widgets/grid/grid_view.h"
#include "widgets/grid/metrics_panel.h"
#include "widgets/network/network_tab_view.h"
#include "widgets/simulation/simulation_view.h"

#include <QComboBox>
#include <QSettings>

#include <functional>
#include <utility>

namespace partita::gui {


QString MainWindow::methodKey() const { return method_box_->currentData().toString(); }

void MainWindow::setMethodKey(const QString& key) {
    const int index = method_box_->findData(key);
    if (index >= 0) method_box_->setCurrentIndex(index);
}

void MainWindow::runSelected() {
    // Edits typed just before Run are still waiting for their debounce: apply them now, or the run
    // would use the old settings and the late rebuild would restart the preview over the job.
    if (params_timer_.isActive()) {
        params_timer_.stop();
        rebuildInputs();
    }
    // A hint such as askForRun()'s is stale once Run is pressed; left up, it would hide the job's
    // progress notes in the status bar for its last seconds.
    statusBar()->clearMessage();
    startMethod(true);
}

void MainWindow::methodChosen() {
    updateMethodFields();
    startMethod(false);
}

void MainWindow::chooseMethod(const QString& key) {
    setMethodKey(key);
    methodChosen();
}

void MainWindow::startMethod(bool store) {
    refusal_.clear();
    method().start(*this, store);
    emit methodRefusalChanged(refusal_);
}

// The selector lists methods_ in order.
const GuiMethod& MainWindow::method() const { return *methods_[static_cast<size_t>(std::max(0, method_box_->currentIndex()))]; }

void MainWindow::plan(const std::string& key, bool store) {
    if (!session_.inputs() || explainCannotPlan()) return;
    runMethod(key);
    if (store) storeWhenFinished(jobs_.generation());
}

void MainWindow::planAccPar(bool store) {
    if (!session_.inputs()) return;
    runAccPar();
    if (store) storeWhenFinished(jobs_.generation());
}

void MainWindow::askForRun() {
    statusBar()->showMessage(tr("%1: set it up in the properties, then press Run").arg(method_box_->currentText()),
                             8000);
}

bool MainWindow::explainCannotPlan() {
    if (session_.inputs()->hyparApplies()) return false;
    // Said where the user looks, with the method that can; the choice stays the user's. A view that
    // handed the network over (the editor) stays in front and shows methodRefusal() itself.
    jobs_.cancel();
    refusal_ = tr("<b>%1 cannot plan this network.</b> %2 <a href='method:accpar'>Use AccPar</a>, whose model "
                  "prices any graph.")
                   .arg(method_box_->currentText().toHtmlEscaped(), q(session_.inputs()->hypar_problem).toHtmlEscaped());
    if (!keep_tab_) showTab(grid_stack_);
    session_.show(nullptr);
    // The status line described the previous network's run: it now says why there is none.
    showStatus(tr("%1 cannot plan %2: choose AccPar").arg(method_box_->currentText(), q(session_.inputs()->network.name)));
    grid_stack_->setCurrentWidget(grid_na_);
    grid_na_->setText(tr("<p><b>%1 cannot plan %2.</b></p><p>%3</p><p>AccPar's model prices this network: "
                         "<a href='method:accpar'>use AccPar</a>.</p>")
                          .arg(method_box_->currentText().toHtmlEscaped(), q(session_.inputs()->network.name).toHtmlEscaped(),
                               q(session_.inputs()->hypar_problem).toHtmlEscaped()));
    return true;
}

void MainWindow::runAccPar() {
    if (!session_.inputs()) return;
    const InputsPtr inputs = session_.inputs();
    jobs_.start(tr("Running AccPar on %1").arg(q(inputs->network.name)),
                [inputs](const ProgressFn&, const CancelFn& cancel) {
                    return accparRun(inputs, nullptr, RunKind::Search, nullptr, cancel);
                });
}

bool MainWindow::openFile(const QString& path, QString* error) {
    switch (fileKindOf(path)) {
        case FileKind::Array: return loadArray(path, error);
        case FileKind::Strategy: return loadStrategy(path, error);
        case FileKind::Topology:
            if (!simulationMethod()) setMethodKey("simulate");
            return simulator_->loadTopology(path, error);
        case FileKind::SoapStrategy: return simulator_->loadSoapStrategy(path, error);
        case FileKind::Network:
        case FileKind::Unknown: break;  // the network reader explains what is wrong
    }
    session_.setUserNetwork(true);
    return loadNetwork(path, error);
}

bool MainWindow::loadNetwork(const QString& given, QString* error) {
    const QString path = QFileInfo(given).absoluteFilePath();  // one library entry per file
    if (!releaseViews()) return false;  // the user kept unsaved edits
    try {
        Network net;
        if (detectNetworkFormat(path.toStdString()) == NetworkFormat::Onnx) {
            // Parsed once; unsupported operators are refused (as the CLI refuses them) before any question.
            onnx::OnnxModel model = onnx::OnnxModel::read(path.toStdString());
            model.checkOperators();
            onnx::InputDims dims;
            if (!onnxDims(path, model.inputs(), &dims)) return false;  // the user cancelled
            net = partita::onnxNetwork(std::move(model), dims, path.toStdString());
        } else {
            net = partita::loadNetwork(path.toStdString());
        }
        const Array array = params_->valid() ? params_->array() : session_.array();
        InputsPtr inputs = makeInputs(net, array, params_->params(), path.toStdString(),
                                      session_.arrayPath().toStdString(), params_->accparParams());
        session_.setNetwork(std::move(net), path);
        const bool built_in = QFileInfo(path).absolutePath() == QFileInfo(examplesDir() + "/networks").absoluteFilePath();
        library_->addNetwork(path, q(session_.network().name), built_in);
        if (!built_in) addRecentFile(path);
        library_->setActive(path, session_.arrayPath());
        session_.setInputs(std::move(inputs));
        emit networkLoaded(session_.network(), path);
        startMethod(false);
        return true;
    } catch (const std::exception& e) {
        if (error) *error = q(e.what());
        reportError(q(e.what()));
        return false;
    }
}

QString MainWindow::useNetwork(Network network, const QString& origin) {
    try {
        const Array array = params_->valid() ? params_->array() : session_.array();
        InputsPtr inputs = makeInputs(network, array, params_->params(), origin.toStdString(),
                                      session_.arrayPath().toStdString(), params_->accparParams());
        session_.setNetwork(std::move(network), origin);
        session_.setUserNetwork(false);  // no file holds it (MPT and L2S read their network from a file)
        library_->setActive(origin, session_.arrayPath());
        session_.setInputs(std::move(inputs));
        const QScopedValueRollback<bool> keep(keep_tab_, true);
        startMethod(false);  // through the job runner: a newer network cancels the older run
        return {};
    } catch (const std::exception& e) {
        return q(e.what());
    }
}

bool MainWindow::loadArray(const QString& given, QString* error) {
    const QString path = QFileInfo(given).absoluteFilePath();
    try {
        session_.setArray(partita::loadArray(path.toStdString()), path);
        params_->setValues(session_.array(), params_->params());
        const bool built_in = QFileInfo(path).absolutePath() == QFileInfo(examplesDir() + "/arrays").absoluteFilePath();
        library_->addArray(path, q(session_.array().name), built_in);
        if (!built_in) addRecentFile(path);
        library_->setActive(session_.networkPath(), path);
        if (!session_.networkPath().isEmpty()) rebuildInputs();
        return true;
    } catch (const std::exception& e) {
        if (error) *error = q(e.what());
        reportError(q(e.what()));
        return false;
    }
}

bool MainWindow::loadStrategy(const QString& path, QString* error) {
    try {
        const InputsPtr inputs = session_.inputs();
        if (!inputs) throw std::runtime_error("load a network before a strategy");
        const Strategy s = partita::loadStrategy(path.toStdString());
        checkStrategyFits(s, inputs->layers, path.toStdString());
        if (s.grid.levels() != inputs->array.levels)
            throw InputError(path.toStdString(), "/grid",
                             "the strategy has " + std::to_string(s.grid.levels()) + " levels, the array " +
                                 std::to_string(inputs->array.levels));
        library_->addStrategy(path, q(s.method) + " · " + QFileInfo(path).fileName());
        addRecentFile(path);
        const RunPtr searched = session_.searchedRun();
        const Grid reference = searched && sameShape(searched->grid, s.grid) ? searched->grid : s.grid;
        auto run = std::make_shared<Run>(gridRun(inputs, s.grid, RunKind::Evaluate, s.method, &reference));
        run->name = "Strategy " + QFileInfo(path).fileName().toStdString();
        session_.showUnkept(run);  // kept like an edited grid
        return true;
    } catch (const std::exception& e) {
        if (error) *error = q(e.what());
        reportError(q(e.what()));
        return false;
    }
}

void MainWindow::rebuildInputs() {
    if (!params_->valid() || session_.networkPath().isEmpty()) return;
    try {
        session_.setInputs(makeInputs(session_.network(), params_->array(), params_->params(),
                                      session_.networkPath().toStdString(), session_.arrayPath().toStdString(),
                                      params_->accparParams()));
        startMethod(false);
    } catch (const std::exception& e) {
        reportError(q(e.what()));
    }
}

void MainWindow::inputsChanged(bool reshaped) {
    if (reshaped) explore_->setInputs(session_.inputs());
    network_view_->setInputs(session_.inputs());
    updateTitle();
    updateActions();
}

void MainWindow::runMethod(const std::string& key) {
    if (!session_.inputs()) return;
    const InputsPtr inputs = session_.inputs();
    const MethodInfo& m = partita::method(key);
    jobs_.start(tr("Running %1 on %2").arg(q(m.label()), q(inputs->network.name)),
                [inputs, &m](const ProgressFn&, const CancelFn& cancel) { return m.runPoint(inputs, {}, cancel); });
}

void MainWindow::evaluateCurrent() {
    const RunPtr current = session_.currentRun();
    if (!session_.inputs() || !current) return;
    const InputsPtr inputs = session_.inputs();
    const Grid grid = current->grid;
    const Grid reference = current->reference;
    const std::string method = current->method;
    storeWhenFinished(jobs_.start(tr("Evaluating"), [=](const ProgressFn&, const CancelFn&) {
        return gridRun(inputs, grid, RunKind::Evaluate, method, &reference);
    }));
}

void MainWindow::explore(const std::vector<CellRef>& cells) {
    if (!session_.inputs() || cells.empty()) return;
    const InputsPtr inputs = session_.inputs();
    ExploreRequest request;
    request.cells = cells;
    storeWhenFinished(jobs_.start(tr("Exploring 2^%1 points").arg(cells.size()),
                            [inputs, request](const ProgressFn& progress, const CancelFn& cancel) {
                                return exploreRun(inputs, request, progress, cancel);
                            }));
}

void MainWindow::onJobFinished(quint64 generation, RunPtr run) {
    if (generation == compare_generation_ && compare_runs_) {
        const std::vector<RunPtr> runs = std::move(*std::exchange(compare_runs_, nullptr));
        return compareRuns(runs);
    }
    for (const auto& m : methods_)  // a method with its own tab (MPT, L2S) claims its runs
        if (m->takeRun(*this, generation, run)) return;
    if (run->id > 0) return showStoredRun(run);  // re-opened from the database, not new
    const bool store = generation == store_generation_;
    if (run->isSimulation()) {
        session_.show(run);
        if (store) session_.store(run);
        showTab(simulation_);
        if (run->simulation->cancelled())
            statusBar()->showMessage(tr("MCMC cancelled: showing the best strategy found so far"), 8000);
        return;
    }
    if (run->kind == RunKind::Explore) {
        explore_->setResult(run);
        if (store) session_.store(run);
        showTab(explore_);
        statusBar()->showMessage(tr("Explored %1 points in %2 ms")
                                     .arg(q(withCommas(static_cast<double>(run->exploration->size()))))
                                     .arg(run->job_ms, 0, 'f', 1),
                                 5000);
        return;
    }
    session_.arrive(run);
    if (store) session_.store(run);
}

void MainWindow::cancelJob() { jobs_.cancel(); }

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

void MainWindow::compareWithBaselines() {
    const RunPtr current = session_.currentRun();
    if (!current) return;
    if (current->isSimulation()) {  // beside DP simulated on the same topology (OWT beside DP itself)
        const RunPtr run = current;
        SimulationSpec spec = run->simulation->spec;
        spec.source = spec.source == SimSource::DataParallel ? SimSource::OneWeirdTrick : SimSource::DataParallel;
        spec.strategy_origin.clear();
        compareInWorker(tr("Simulating %1 to compare with").arg(simSourceLabel(spec.source)),
                        [run, spec](const CancelFn& cancel) {
                            return std::vector<RunPtr>{
                                std::make_shared<const Run>(simulationRun(run->inputs, spec, Grid{}, cancel)), run};
                        });
        return;
    }
    std::vector<RunPtr> runs;
    if (current->edited() && session_.searchedRun()) runs.push_back(session_.searchedRun());
    runs.push_back(current);
    if (current->isAccPar()) {  // the baselines under AccPar's model, from the same result
        QStringList refused;
        for (Scheme s : {Scheme::HyPar, Scheme::OneWeirdTrick, Scheme::DataParallel}) {
            if (s == Scheme::HyPar && !current->accpar->hypar_refused.empty()) {  // no plan to compare with
                refused << tr("HyPar: %1").arg(q(current->accpar->hypar_refused));
                continue;
            }
            if (runs.size() < 4) runs.push_back(std::make_shared<const Run>(accparBaselineRun(*current, s)));
        }
        return compareRuns(runs, refused);
    }
    for (Method m : kAllMethods) {
        if (runs.size() == 4) break;
        const bool present = std::any_of(runs.begin(), runs.end(), [&](const RunPtr& r) {
            return r->kind == RunKind::Search && r->method == methodName(m);
        });
        if (!present) runs.push_back(std::make_shared<const Run>(planRun(current->inputs, m)));
    }
    compareRuns(runs);
}

void MainWindow::compareInWorker(const QString& label, std::function<std::vector<RunPtr>(const CancelFn&)> work) {
    auto runs = std::make_shared<std::vector<RunPtr>>();
    compare_runs_ = runs;
    compare_generation_ = jobs_.start(label, [work = std::move(work), runs](const ProgressFn&, const CancelFn& cancel) {
        *runs = work(cancel);
        if (runs->empty()) throw Error("nothing to compare");
        return Run(*runs->back());  // the job's result; onJobFinished hands `runs` to Compare instead
    });
}

void MainWindow::compareRuns(const std::vector<RunPtr>& runs, const QStringList& refused) {
    compare_->setRuns(runs, refused);
    showTab(compare_);
}

// True for an ONNX model that will ask for sizes: one it can import (as far as its operators go)
// that leaves some open, whose sizes have not been chosen yet.
bool MainWindow::asksForDims(const QString& path) const {
    const QString absolute = QFileInfo(path).absoluteFilePath();
    if (detectNetworkFormat(absolute.toStdString()) != NetworkFormat::Onnx || OnnxDimsDialog::isRemembered(absolute))
        return false;
    try {
        const onnx::OnnxModel model = onnx::OnnxModel::read(absolute.toStdString());
        model.checkOperators();
        return OnnxDimsDialog::asks(model.inputs());
    } catch (const std::exception&) {
        return false;  // loading it says what is wrong
    }
}

// Asked once per file (the choice is remembered), only for open sizes; no dialog when rendering a
// screenshot or a test.
bool MainWindow::onnxDims(const QString& path, const std::vector<onnx::GraphInput>& inputs, onnx::InputDims* dims) {
    if (!options_.screenshot.isEmpty() || !isVisible() || !OnnxDimsDialog::asks(inputs) ||
        OnnxDimsDialog::isRemembered(path)) {
        *dims = OnnxDimsDialog::remembered(path, inputs);
        return true;
    }
    OnnxDimsDialog dialog(path, inputs, this);
    if (dialog.exec() != QDialog::Accepted) return false;
    QString problem;
    return dialog.dims(dims, &problem);
}

}  // namespace partita::gui
