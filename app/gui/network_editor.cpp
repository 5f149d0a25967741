#include "app/gui/network_editor.h"

#include <QAction>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QStandardPaths>
#include <QStatusBar>
#include "widgets/common/task_tabs.h"

#include "app/gui/editor_recovery.h"
#include "app/gui/editor_templates.h"
#include "app/gui/export_entries.h"
#include "app/gui/input_files.h"
#include "app/gui/action_set.h"
#include "app/gui/main_window.h"
#include "app/gui/run_controller.h"
#include "app/gui/new_network_dialog.h"
#include "core/edit/document.h"
#include "core/io/network_io.h"
#include "widgets/common/figure_export.h"
#include "widgets/common/qt_text.h"
#include "widgets/network_editor/editor_canvas.h"
#include "widgets/network_editor/editor_view.h"

namespace partita::gui {

namespace {
// Beyond this the editor does not take a network (dot's layout and a canvas of boxes would crawl).
constexpr size_t kMaxEditorOperators = 2000;
}  // namespace

NetworkEditor::NetworkEditor(MainWindow& window) : QObject(&window), window_(window) {
    view_ = new EditorView(window.views().tabs());
    window.views().addTab("editor", view_);
    view_->setTemplates(editorTemplates());

    debounce_.setSingleShot(true);
    debounce_.setInterval(kDebounceMs);
    connect(&debounce_, &QTimer::timeout, this, &NetworkEditor::handOver);
    recovery_timer_.setInterval(kRecoveryMs);
    connect(&recovery_timer_, &QTimer::timeout, this, [this] {
        if (recovery_stale_) writeRecovery();
    });
    recovery_timer_.start();
    connect(view_, &EditorView::documentChanged, this, &NetworkEditor::edited);
    // Notes pass (refusals stay in the editor until the next edit succeeds).
    connect(view_, &EditorView::message, this, [this](const QString& m) { window_.statusBar()->showMessage(m, 6000); });
    connect(view_, &EditorView::linkActivated, this, [this](const QString& link) {
        if (link.startsWith("method:")) window_.runs().chooseMethod(link.mid(7));
    });
    connect(&window.runs(), &RunController::methodRefusalChanged, this, [this](const QString& html) {
        refusal_ = html;
        window_json_ = window_.session().inputs() ? writeNetworkJson(window_.session().inputs()->network) : std::string();
        showState();
    });
    // (The recovery file goes on the timer's next tick once clean: the stack also turns clean as it is destroyed.)
    connect(&view_->undoStack(), &QUndoStack::cleanChanged, this, [this](bool clean) { window_.setWindowModified(!clean); });
    connect(&window, &MainWindow::networkLoaded, this, &NetworkEditor::networkLoaded);
    connect(window.views().tabs(), &TaskTabs::currentChanged, this, [this] {
        if (window_.views().shown() == view_) ensureLoaded();
    });

    EditorCanvas* canvas = view_->canvas();
    ViewEntry entry{"editor", view_, [this] { return view_; }, [this] { ensureLoaded(); },
                    {figureTarget("editor-graph", tr("Edited network graph"), canvas, [canvas] { return canvas->csv(); },
                                  [this] {
                                      ensureLoaded();
                                      return view_->document().ids().empty() ? tr("Nothing to export: the editor is empty")
                                                                             : QString();
                                  }),
                     {"editor-dot", tr("Edited network graph (DOT)"),
                      [canvas](const QString& path, bool csv) {
                          if (csv) return exportCsv(canvas->csv(), path);
                          const QString suffix = QFileInfo(path).suffix().toLower();
                          if (suffix != "dot" && suffix != "gv")
                              return tr("%1: the DOT export writes .dot or .gv (or the node table as .csv)").arg(path);
                          return exportText(canvas->dot(), path);
                      },
                      {"dot", "gv"}}}};
    entry.undo = &view_->undoStack();
    entry.release = [this] { return maybeSave(); };
    entry.own_properties = true;
    window.views().add(std::move(entry));

    auto* fresh = new QAction(tr("&New network…"), this);
    fresh->setShortcut(QKeySequence::New);
    fresh->setToolTip(tr("Start the network editor from an empty graph with one input whose shape you set"));
    connect(fresh, &QAction::triggered, this, [this] {
        if (!maybeSave()) return;
        NewNetworkDialog dialog(&window_);
        if (dialog.exec() == QDialog::Accepted) newNetwork(dialog.input(), dialog.name());
    });
    auto* save = new QAction(tr("&Save network"), this);
    save->setShortcut(QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_S));
    save->setToolTip(tr("Save the edited network as partita-network/1, with the positions you dragged"));
    connect(save, &QAction::triggered, this, &NetworkEditor::save);
    auto* save_as = new QAction(tr("Save network &as…"), this);
    save_as->setToolTip(tr("Save the edited network to another file"));
    connect(save_as, &QAction::triggered, this, [this] { saveAs(); });
    for (QAction* a : view_->actions()) window.actionSet().add(a->objectName(), a);  // the guide lists them
    window.actionSet().add("new-network", fresh);
    window.actionSet().add("save-network", save);
    window.actionSet().add("save-network-as", save_as);
    if (QMenu* file = window.actionSet().menu("file")) {
        QAction* first = file->actions().value(0);
        file->insertActions(first, {fresh});
        file->insertActions(file->actions().value(3), {save, save_as});  // after Open and Open recent
    }
    if (window.dialogsAllowed()) QTimer::singleShot(0, this, &NetworkEditor::offerRecovery);
}

bool NetworkEditor::dirty() const { return !view_->undoStack().isClean(); }

QString NetworkEditor::origin() const {
    return path_.isEmpty() ? "editor:" + q(view_->document().header().name) : path_;
}

void NetworkEditor::networkLoaded(const Network& network, const QString& path) {
    if (dirty()) {  // a stored run re-opened: the user's unsaved edits stay
        window_.showStatus(tr("The editor keeps your unsaved network; save or discard it to edit %1")
                               .arg(q(network.name)));
        return;
    }
    pending_ = {network, path};
    if (window_.views().shown() == view_) ensureLoaded();
}

void NetworkEditor::ensureLoaded() {
    if (!pending_) return;
    const auto [network, path] = std::move(*pending_);
    pending_.reset();
    if (network.ops.size() > kMaxEditorOperators) {
        view_->setDocument(edit::Document{});
        view_->setStatus(tr("%1 has %2 operators: the editor takes at most %3").arg(q(network.name))
                             .arg(network.ops.size())
                             .arg(kMaxEditorOperators));
        path_.clear();
        return;
    }
    // Hints come from a partita-network/1 file; a built-in example is never overwritten (Save asks where).
    std::map<std::string, edit::Point> positions;
    const bool json = !path.isEmpty() && QFileInfo(path).isFile() && fileKindOf(path) == FileKind::Network &&
                      detectNetworkFormat(path.toStdString()) == NetworkFormat::Json;
    if (json) {
        try {
            positions = loadNetworkWithLayout(path.toStdString()).positions;
        } catch (const std::exception&) {
            // the file changed since it was loaded: no hints, dot lays it out
        }
    }
    const bool built_in = QFileInfo(path).absolutePath() == QFileInfo(examplesDir() + "/networks").absoluteFilePath();
    path_ = json && !built_in ? path : QString();
    edit::Document doc = edit::Document::fromNetwork(network, positions);
    handed_ = doc.valid() ? writeNetworkJson(doc.toNetwork()) : std::string();  // the window has it already
    view_->setDocument(std::move(doc));
    showState();
    view_->setStatus(tr("%1: %2 operators, as loaded").arg(q(network.name)).arg(network.ops.size()));
}

void NetworkEditor::newNetwork(const Shape& input, const QString& name) {
    pending_.reset();
    edit::Document doc;
    edit::Header header;
    header.name = (name.isEmpty() ? tr("Untitled") : name).toStdString();
    header.input = input;
    doc.apply(edit::setHeader(doc, header));
    path_.clear();
    view_->setDocument(std::move(doc));
    window_.views().show(view_);
}

void NetworkEditor::edited() {
    recovery_stale_ = true;
    debounce_.start();
    showState();
}

// The status line and the analysis problem follow the document as it stands (after an undo too):
// its own problems, else whether the window's method has analysed it, or refused it and why.
void NetworkEditor::showState() {
    const edit::Document& doc = view_->document();
    if (doc.ids().empty()) {
        view_->setAnalysisProblem({});
        return view_->setStatus(tr("Empty: double-click or drag an operator from the palette"));
    }
    if (!doc.valid()) {
        view_->setAnalysisProblem({});
        return view_->setStatus(doc.problems().size() == 1 ? tr("1 problem: not analysed")
                                                           : tr("%1 problems: not analysed").arg(doc.problems().size()));
    }
    const size_t ops = doc.ids().size();
    if (writeNetworkJson(doc.toNetwork()) != handed_) return view_->setStatus(tr("Valid: %1 operators").arg(ops));
    const bool refused = !refusal_.isEmpty() && handed_ == window_json_;
    view_->setAnalysisProblem(refused ? refusal_ : QString());
    view_->setStatus(refused ? tr("Valid: %1 operators; the method cannot plan it (see Problems)").arg(ops)
                             : tr("Valid: %1 operators, analysed").arg(ops));
}

void NetworkEditor::handOver() {
    const edit::Document& doc = view_->document();
    if (!doc.valid()) return;  // an invalid document is never handed to a method
    Network network = doc.toNetwork();
    std::string text = writeNetworkJson(network);
    if (text == handed_) return showState();  // a move, or back to what the window has
    const QString problem = window_.loader().useNetwork(std::move(network), origin());
    if (!problem.isEmpty()) {
        view_->setAnalysisProblem({});
        return view_->setStatus(tr("Not analysed: %1").arg(problem));
    }
    handed_ = std::move(text);
    showState();
}

bool NetworkEditor::save() { return saveAs(path_); }

bool NetworkEditor::saveAs(const QString& given, QString* error) {
    ensureLoaded();
    QString path = given;
    if (path.isEmpty()) {
        if (!window_.dialogsAllowed()) return false;
        path = QFileDialog::getSaveFileName(&window_, tr("Save network"),
                                            QDir::home().filePath(q(view_->document().header().name) + ".json"),
                                            tr("Partita networks (*.json)"));
        if (path.isEmpty()) return false;
        if (QFileInfo(path).suffix().isEmpty()) path += ".json";
    }
    const edit::Document& doc = view_->document();
    QString problem;
    if (!doc.valid())
        problem = doc.ids().empty() ? tr("the network is empty")
                                    : tr("%1 operators have problems (see the Problems list)").arg(doc.problems().size());
    else
        problem = exportText(q(writeNetworkJson(doc.toNetwork(), doc.positions())), path);
    if (!problem.isEmpty()) {
        problem = tr("Cannot save %1: %2").arg(QFileInfo(path).fileName(), problem);
        if (error) *error = problem;
        window_.showStatus(problem);
        return false;
    }
    path_ = QFileInfo(path).absoluteFilePath();
    view_->undoStack().setClean();
    recovery_stale_ = false;
    QFile::remove(recoveryPath());  // saved: nothing to recover
    window_.showStatus(tr("Saved %1").arg(path_));
    return true;
}

bool NetworkEditor::maybeSave() {
    if (!dirty()) return true;
    if (!window_.dialogsAllowed() || !window_.isVisible()) return true;
    const auto answer = QMessageBox::question(
        &window_, tr("Unsaved network"),
        tr("The network %1 in the editor has unsaved changes. Save them?").arg(q(view_->document().header().name)),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    if (answer == QMessageBox::Cancel) return false;
    if (answer == QMessageBox::Save) return save();
    view_->undoStack().setClean();  // discarded: what replaces it may come in
    QFile::remove(recoveryPath());
    return true;
}

QString NetworkEditor::recoveryPath() {
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + "/editor-recovery.json";
}

bool NetworkEditor::writeRecovery() {
    recovery_stale_ = false;
    if (!dirty()) return QFile::remove(recoveryPath());
    QDir().mkpath(QFileInfo(recoveryPath()).absolutePath());
    return writeRecoveryFile(recoveryPath(), view_->document(), path_).isEmpty();
}

bool NetworkEditor::recover(const QString& file, QString* error) {
    try {
        Recovered r = readRecoveryFile(file);
        pending_.reset();
        path_ = r.path;
        handed_.clear();
        view_->setDocument(std::move(r.document), true);
        window_.views().show(view_);
        edited();
        return true;
    } catch (const std::exception& e) {
        if (error) *error = q(e.what());
        return false;
    }
}

void NetworkEditor::offerRecovery() {
    const QString file = recoveryPath();
    if (!QFileInfo::exists(file)) return;
    const auto answer = QMessageBox::question(
        &window_, tr("Recover network edits"),
        tr("Partita closed with unsaved network edits (%1). Recover them in the editor?")
            .arg(QFileInfo(file).lastModified().toString(Qt::ISODate)),
        QMessageBox::Yes | QMessageBox::No, QMessageBox::Yes);
    QString error;
    if (answer == QMessageBox::Yes && !recover(file, &error)) window_.showStatus(tr("Could not recover: %1").arg(error));
    if (answer == QMessageBox::No) QFile::remove(file);
}

}  // namespace partita::gui
