#include "app/gui/action_set.h"

#include <QAction>
#include <QComboBox>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMainWindow>
#include <QMenuBar>
#include <QMessageBox>
#include <QScreen>
#include <QSettings>
#include <QToolBar>
#include <QUndoGroup>

#include "app/gui/export_actions.h"
#include "app/gui/guide_window.h"
#include "app/gui/run_controller.h"
#include "app/gui/run_store.h"
#include "app/gui/runs_dock.h"
#include "app/gui/session.h"
#include "app/gui/simulation_controller.h"
#include "app/gui/view_registry.h"

namespace partita::gui {

namespace {
constexpr int kRecentFiles = 10;
}

ActionSet::ActionSet(Parts parts) : QObject(&parts.window), parts_(std::move(parts)) {
    QMainWindow& w = parts_.window;
    QAction* open = make("open", tr("&Open…"), tr("Open a network, array, strategy or topology file"), QKeySequence::Open);
    QAction* run = make("run", tr("&Run"), tr("Run the selected method on the loaded network and array"),
                        QKeySequence(Qt::CTRL | Qt::Key_R));
    QAction* evaluate = make("evaluate", tr("&Evaluate"), tr("Re-evaluate the shown grid with the current parameters"),
                             QKeySequence(Qt::CTRL | Qt::Key_E));
    QAction* explore = make("explore", tr("E&xplore"), tr("Enumerate every choice of the cells picked in the Explore tab"),
                            QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_X));
    QAction* compare = make("compare", tr("&Compare"),
                            tr("Compare the selected stored runs, or the shown run with the baselines"),
                            QKeySequence(Qt::CTRL | Qt::Key_K));
    QAction* exportA = make("export", tr("E&xport…"), tr("Export the current view as PNG, SVG, PDF or CSV"),
                            QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S));
    QAction* reset = make("reset", tr("Rese&t grid"), tr("Return to the searched optimum"), QKeySequence(Qt::CTRL | Qt::Key_0));
    QAction* keep = make("keep", tr("&Keep grid"), tr("Store the edited grid in the results database"),
                         QKeySequence::Save);
    QAction* cancel = make("cancel", tr("Cancel"), tr("Stop the running job"), QKeySequence(Qt::Key_Escape));
    make("quit", tr("&Quit"), tr("Quit Partita"), QKeySequence::Quit);

    RunController& runs = parts_.runs;
    connect(open, &QAction::triggered, this, [this] {
        const QString path = QFileDialog::getOpenFileName(&parts_.window, tr("Open"), QString(),
                                                          tr("Partita files, ONNX models and topologies (*.json *.txt *.onnx *.yml *.yaml);;ONNX models (*.onnx);;"
                                                             "ASTRA-sim topologies (*.yml *.yaml *.json);;All files (*)"));
        if (!path.isEmpty()) parts_.open(path);
    });
    connect(run, &QAction::triggered, &runs, &RunController::runSelected);
    connect(evaluate, &QAction::triggered, &runs, &RunController::evaluateCurrent);
    connect(explore, &QAction::triggered, this, [this] { parts_.explore(); });
    connect(compare, &QAction::triggered, this, [this] {
        const auto ids = parts_.runs_dock->selectedIds();
        if (ids.size() >= 2 && ids.size() <= 4) parts_.runs.compareStored(ids);
        else parts_.runs.compareWithBaselines();
    });
    connect(exportA, &QAction::triggered, this, [this] {
        const auto targets = parts_.exports.of(parts_.views.shown());
        if (!targets.empty()) parts_.exports.withDialog(targets.front());
    });
    connect(reset, &QAction::triggered, &parts_.session, &Session::resetGrid);
    connect(keep, &QAction::triggered, &parts_.session, &Session::keep);
    connect(cancel, &QAction::triggered, &runs, &RunController::cancelJob);
    connect(action("quit"), &QAction::triggered, &w, &QWidget::close);

    method_box_ = new QComboBox(&w);
    method_box_->setObjectName("method");
    method_box_->setToolTip(tr("Method used by Run"));
    for (const auto& m : runs.methods()) {
        method_box_->addItem(m->label(), m->key());
        method_box_->setItemData(method_box_->count() - 1, m->toolTip(), Qt::ToolTipRole);
    }
    connect(method_box_, &QComboBox::activated, this,  // previews; Run stores
            [this](int index) { parts_.runs.chooseMethod(method_box_->itemData(index).toString()); });
    connect(method_box_, &QComboBox::currentIndexChanged, this,
            [this](int index) { parts_.runs.setMethodKey(method_box_->itemData(index).toString()); });

    auto* bar = w.addToolBar(tr("Main"));
    bar->setObjectName("main-toolbar");
    bar->setToolButtonStyle(Qt::ToolButtonTextOnly);
    bar->addWidget(new QLabel(tr(" Method "), bar));
    bar->addWidget(method_box_);
    for (QAction* a : {run, evaluate, explore, compare, exportA, reset, keep}) bar->addAction(a);
    buildMenus();
}

QAction* ActionSet::make(const QString& name, const QString& text, const QString& tip, const QKeySequence& key) {
    auto* a = new QAction(text, &parts_.window);
    a->setToolTip(tip);
    a->setStatusTip(tip);
    if (!key.isEmpty()) a->setShortcut(key);
    add(name, a);
    return a;
}

void ActionSet::buildMenus() {
    QMainWindow& w = parts_.window;
    QMenu* file = w.menuBar()->addMenu(tr("&File"));
    file->setObjectName("file");
    file->addAction(action("open"));
    QAction* generate = file->addAction(tr("&Generate topology…"), &parts_.simulator, &SimulationController::generateTopology);
    generate->setObjectName("generate-topology");
    generate->setToolTip(tr("A ring, torus, mesh, switch, cluster or array of your sizes, for Simulate and MCMC"));
    recent_menu_ = file->addMenu(tr("Open &recent"));
    file->addSeparator();
    // The shown view's targets only, by name; built when the menu opens.
    QMenu* exports = file->addMenu(tr("Export"));
    connect(exports, &QMenu::aboutToShow, this, [this, exports] {
        exports->clear();
        for (const ExportChoice& choice : parts_.exports.of(parts_.views.shown()))
            exports->addAction(tr("%1…").arg(choice.label), this, [this, choice] { parts_.exports.withDialog(choice); });
        if (exports->isEmpty()) exports->addAction(tr("(nothing to export here)"))->setEnabled(false);
    });
    file->addAction(action("export"));
    file->addSeparator();
    file->addAction(action("quit"));

    QMenu* edit = w.menuBar()->addMenu(tr("&Edit"));
    edit->setObjectName("edit");
    // The grid's edits, or those of the shown view that has its own (the network editor's).
    QUndoGroup& undo_group = parts_.undo;
    undo_group.addStack(&parts_.session.gridEdits());
    undo_group.setActiveStack(&parts_.session.gridEdits());
    QAction* undo = undo_group.createUndoAction(&w, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    undo->setToolTip(tr("Undo the last edit of the grid, or in the network or topology editor when it is shown"));
    QAction* redo = undo_group.createRedoAction(&w, tr("&Redo"));
    redo->setShortcut(QKeySequence::Redo);
    redo->setToolTip(tr("Redo the edit undone last"));
    add("undo", undo);
    add("redo", redo);
    edit->addAction(undo);
    edit->addAction(redo);

    QMenu* run_menu = w.menuBar()->addMenu(tr("&Run"));
    run_menu->setObjectName("run");
    for (const char* name : {"run", "evaluate", "explore", "compare", "reset", "keep", "cancel"})
        run_menu->addAction(action(name));
    QMenu* view = w.menuBar()->addMenu(tr("&View"));
    view->setObjectName("view");
    for (QDockWidget* dock : w.findChildren<QDockWidget*>()) view->addAction(dock->toggleViewAction());

    QMenu* help = w.menuBar()->addMenu(tr("&Help"));
    help->setObjectName("help");
    QAction* guide = make("guide", tr("&Guide"), tr("How to use Partita, and the keyboard shortcuts"),
                          QKeySequence::HelpContents);
    connect(guide, &QAction::triggered, this, &ActionSet::openGuide);
    help->addAction(guide);
    help->addAction(tr("About Partita"), this, [this] {
        QMessageBox::about(&parts_.window, tr("About Partita"),
                           tr("<b>Partita %1</b><p>Design-space explorer for parallel DNN training: HyPar, "
                              "AccPar, FlexFlow, MPT and Learn-to-Scale in one engine.</p>")
                               .arg(PARTITA_VERSION));
    });
    rebuildRecentMenu();
}

void ActionSet::openGuide() {
    auto* window = parts_.window.findChild<GuideWindow*>("guide");
    if (!window) {  // made on first use, when every action (and its shortcut) exists
        QList<QAction*> list;
        for (const auto& [name, a] : actions_) list << a;
        window = new GuideWindow(list, &parts_.window);
        // Its own window, over this one's screen: the docks and views stay as they are.
        const QScreen* screen = parts_.window.screen();
        window->placeWithin(screen ? screen->availableGeometry() : QRect(0, 0, 1024, 700));
    }
    window->show();
    window->raise();
    window->activateWindow();
}

QAction* ActionSet::action(const QString& name) const {
    const auto it = actions_.find(name);
    return it == actions_.end() ? nullptr : it->second;
}

void ActionSet::add(const QString& name, QAction* action) {
    action->setObjectName(name);
    actions_[name] = action;
}

QMenu* ActionSet::menu(const QString& name) const { return parts_.window.menuBar()->findChild<QMenu*>(name); }

void ActionSet::addRecentFile(const QString& path) {
    QSettings settings;
    QStringList recent = settings.value("recentFiles").toStringList();
    const QString absolute = QFileInfo(path).absoluteFilePath();
    recent.removeAll(absolute);
    recent.prepend(absolute);
    while (recent.size() > kRecentFiles) recent.removeLast();
    settings.setValue("recentFiles", recent);
    rebuildRecentMenu();
}

void ActionSet::rebuildRecentMenu() {
    recent_menu_->clear();
    const QStringList recent = QSettings().value("recentFiles").toStringList();
    for (const QString& path : recent)
        recent_menu_->addAction(QFileInfo(path).fileName(), this, [this, path] { parts_.open(path); })->setToolTip(path);
    recent_menu_->setEnabled(!recent.isEmpty());
}

void ActionSet::showMethod(const QString& key) { method_box_->setCurrentIndex(method_box_->findData(key)); }

void ActionSet::update() {
    const Session& session = parts_.session;
    const RunPtr current = session.currentRun();
    const InputsPtr inputs = session.inputs();
    const bool have = current != nullptr;
    action("evaluate")->setEnabled(have && !current->isSimulation());  // a simulation is re-run with Run
    // Compare: the shown run with the baselines, or 2-4 stored runs selected (an LLM tab has no shown run).
    const size_t selected = parts_.runs_dock ? parts_.runs_dock->selectedIds().size() : 0;
    action("compare")->setEnabled(have || (selected >= 2 && selected <= 4));
    action("reset")->setEnabled(have && current->edited());
    action("keep")->setEnabled(session.pendingRun() != nullptr && parts_.store.storing());
    // What the shown tab registered (the LLM tab's pages have no grid run behind them).
    action("export")->setEnabled(!parts_.exports.of(parts_.views.shown()).empty());
    action("run")->setEnabled(inputs != nullptr);
    action("explore")->setEnabled(inputs != nullptr);
}

}  // namespace partita::gui
