// Opening inputs into the session: networks (ONNX models ask for their open sizes), arrays,
// strategies, and topologies or SOAP strategies for Simulate; the library dock lists what was opened.
#include "app/gui/input_loader.h"

#include <QFileInfo>

#include "app/gui/input_files.h"
#include "app/gui/library_dock.h"
#include "app/gui/onnx_dims_dialog.h"
#include "app/gui/run_controller.h"
#include "app/gui/session.h"
#include "app/gui/simulation_controller.h"
#include "app/gui/window_services.h"
#include "core/io/array_io.h"
#include "core/io/network_io.h"
#include "core/io/strategy_io.h"
#include "core/util/error.h"
#include "widgets/common/qt_text.h"
#include "widgets/settings/params_editor.h"

namespace partita::gui {

InputLoader::InputLoader(WindowServices& services, RunController& runs, ParamsEditor* params, LibraryDock* library,
                         bool dialogs, QObject* parent)
    : QObject(parent), services_(services), runs_(runs), params_(params), library_(library), dialogs_(dialogs) {
    connect(library_, &LibraryDock::networkChosen, this, [this](const QString& p) {
        session().setUserNetwork(true);
        loadNetwork(p);
    });
    connect(library_, &LibraryDock::arrayChosen, this, [this](const QString& p) { loadArray(p); });
    connect(library_, &LibraryDock::strategyChosen, this, [this](const QString& p) { loadStrategy(p); });
}

Session& InputLoader::session() { return services_.session(); }

bool InputLoader::openFile(const QString& path, QString* error) {
    switch (fileKindOf(path)) {
        case FileKind::Array: return loadArray(path, error);
        case FileKind::Strategy: return loadStrategy(path, error);
        case FileKind::Topology:
            if (!runs_.simulationMethod()) runs_.setMethodKey("simulate");
            return services_.simulation().loadTopology(path, error);
        case FileKind::SoapStrategy: return services_.simulation().loadSoapStrategy(path, error);
        case FileKind::Network:
        case FileKind::Unknown: break;  // the network reader explains what is wrong
    }
    session().setUserNetwork(true);
    return loadNetwork(path, error);
}

bool InputLoader::loadNetwork(const QString& given, QString* error) {
    const QString path = QFileInfo(given).absoluteFilePath();  // one library entry per file
    if (!services_.releaseViews()) return false;  // the user kept unsaved edits
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
        const Array array = params_->valid() ? params_->array() : session().array();
        InputsPtr inputs = makeInputs(net, array, params_->params(), path.toStdString(),
                                      session().arrayPath().toStdString(), params_->accparParams());
        session().setNetwork(std::move(net), path);
        const bool built_in = QFileInfo(path).absolutePath() == QFileInfo(examplesDir() + "/networks").absoluteFilePath();
        library_->addNetwork(path, q(session().network().name), built_in);
        if (!built_in) services_.addRecentFile(path);
        library_->setActive(path, session().arrayPath());
        session().setInputs(std::move(inputs));
        emit networkLoaded(session().network(), path);
        runs_.startMethod(false);
        return true;
    } catch (const std::exception& e) {
        if (error) *error = q(e.what());
        services_.reportError(q(e.what()));
        return false;
    }
}

QString InputLoader::useNetwork(Network network, const QString& origin) {
    try {
        const Array array = params_->valid() ? params_->array() : session().array();
        InputsPtr inputs = makeInputs(network, array, params_->params(), origin.toStdString(),
                                      session().arrayPath().toStdString(), params_->accparParams());
        session().setNetwork(std::move(network), origin);
        session().setUserNetwork(false);  // no file holds it (MPT and L2S read their network from a file)
        library_->setActive(origin, session().arrayPath());
        session().setInputs(std::move(inputs));
        runs_.startMethod(false, true);  // through the job runner: a newer network cancels the older run
        return {};
    } catch (const std::exception& e) {
        return q(e.what());
    }
}

bool InputLoader::loadArray(const QString& given, QString* error) {
    const QString path = QFileInfo(given).absoluteFilePath();
    try {
        session().setArray(partita::loadArray(path.toStdString()), path);
        params_->setValues(session().array(), params_->params());
        const bool built_in = QFileInfo(path).absolutePath() == QFileInfo(examplesDir() + "/arrays").absoluteFilePath();
        library_->addArray(path, q(session().array().name), built_in);
        if (!built_in) services_.addRecentFile(path);
        library_->setActive(session().networkPath(), path);
        if (!session().networkPath().isEmpty()) runs_.rebuildInputs();
        return true;
    } catch (const std::exception& e) {
        if (error) *error = q(e.what());
        services_.reportError(q(e.what()));
        return false;
    }
}

bool InputLoader::loadStrategy(const QString& path, QString* error) {
    try {
        const InputsPtr inputs = session().inputs();
        if (!inputs) throw std::runtime_error("load a network before a strategy");
        const Strategy s = partita::loadStrategy(path.toStdString());
        checkStrategyFits(s, inputs->layers, path.toStdString());
        if (s.grid.levels() != inputs->array.levels)
            throw InputError(path.toStdString(), "/grid",
                             "the strategy has " + std::to_string(s.grid.levels()) + " levels, the array " +
                                 std::to_string(inputs->array.levels));
        library_->addStrategy(path, q(s.method) + " · " + QFileInfo(path).fileName());
        services_.addRecentFile(path);
        const RunPtr searched = session().searchedRun();
        const Grid reference = searched && sameShape(searched->grid, s.grid) ? searched->grid : s.grid;
        auto run = std::make_shared<Run>(gridRun(inputs, s.grid, RunKind::Evaluate, s.method, &reference));
        run->name = "Strategy " + QFileInfo(path).fileName().toStdString();
        session().showUnkept(run);  // kept like an edited grid
        return true;
    } catch (const std::exception& e) {
        if (error) *error = q(e.what());
        services_.reportError(q(e.what()));
        return false;
    }
}

// True for an ONNX model that will ask for sizes: one it can import (as far as its operators go)
// that leaves some open, whose sizes have not been chosen yet.
bool InputLoader::asksForDims(const QString& path) const {
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
bool InputLoader::onnxDims(const QString& path, const std::vector<onnx::GraphInput>& inputs, onnx::InputDims* dims) {
    if (!dialogs_ || !services_.dialogParent()->isVisible() || !OnnxDimsDialog::asks(inputs) ||
        OnnxDimsDialog::isRemembered(path)) {
        *dims = OnnxDimsDialog::remembered(path, inputs);
        return true;
    }
    OnnxDimsDialog dialog(path, inputs, services_.dialogParent());
    if (dialog.exec() != QDialog::Accepted) return false;
    QString problem;
    return dialog.dims(dims, &problem);
}

}  // namespace partita::gui
