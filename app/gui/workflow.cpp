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


bool MainWindow::openFile(const QString& path, QString* error) {
    switch (fileKindOf(path)) {
        case FileKind::Array: return loadArray(path, error);
        case FileKind::Strategy: return loadStrategy(path, error);
        case FileKind::Topology:
            if (!runs_->simulationMethod()) runs_->setMethodKey("simulate");
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
        runs_->startMethod(false);
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
        runs_->startMethod(false, true);  // through the job runner: a newer network cancels the older run
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
        if (!session_.networkPath().isEmpty()) runs_->rebuildInputs();
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
