#pragma once
// Opening inputs into the session (File ▸ Open, the library, drops, recent files, the command line):
// a network, array or strategy file by its format, a topology or SOAP strategy for Simulate, and a
// network handed over by a view (the editor). On failure the reader's message is shown and returned;
// nothing else changes. The chosen method then previews the new inputs (RunController).
#include <vector>

#include <QObject>
#include <QString>

#include "core/model/network.h"

namespace partita {
class ParamsEditor;
}

namespace partita::onnx {
struct InputDims;
struct GraphInput;
}  // namespace partita::onnx

namespace partita::gui {

class LibraryDock;
class RunController;
class Session;
class WindowServices;

class InputLoader : public QObject {
    Q_OBJECT
public:
    // dialogs: false while rendering a screenshot (ONNX models take their remembered or default sizes).
    InputLoader(WindowServices& services, RunController& runs, ParamsEditor* params, LibraryDock* library,
                bool dialogs, QObject* parent = nullptr);

    // By the file's format (fileKindOf); a topology makes Simulate the method.
    bool openFile(const QString& path, QString* error = nullptr);
    bool loadNetwork(const QString& path, QString* error = nullptr);
    bool loadArray(const QString& path, QString* error = nullptr);
    bool loadStrategy(const QString& path, QString* error = nullptr);
    // A network from elsewhere than a file (the editor): it becomes the session's network and the
    // chosen method previews it, as a loaded one. `origin` is informational (a path, or "editor:<name>").
    // Returns "" or why the network cannot be analysed (e.g. no weighted layer); nothing changes then.
    QString useNetwork(Network network, const QString& origin);
    bool asksForDims(const QString& path) const;  // an ONNX model whose input sizes are not chosen yet

signals:
    // A network the user opened (a file, the library): views that edit it follow.
    void networkLoaded(const partita::Network& network, const QString& path);

private:
    Session& session();
    // Sizes for the inputs the model leaves open: asked once per file; false: cancelled.
    bool onnxDims(const QString& path, const std::vector<onnx::GraphInput>& inputs, onnx::InputDims* dims);

    WindowServices& services_;
    RunController& runs_;
    ParamsEditor* params_;
    LibraryDock* library_;
    bool dialogs_;
};

}  // namespace partita::gui
