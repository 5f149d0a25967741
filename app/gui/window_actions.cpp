// MainWindow's actions, toolbar (with the method selector) and menus.
#include <QAction>
#include <QDir>
#include <QDockWidget>
#include <QFileInfo>
#include <QSettings>
#include <QComboBox>
#include <QFileDialog>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QScreen>
#include <QStatusBar>
#include <QTabWidget>
#include <QToolBar>

#include "widgets/explore/explore_view.h"
#include "app/gui/guide_window.h"
#include "app/gui/main_window.h"
#include "app/gui/runs_dock.h"
#include "app/gui/simulation_controller.h"

namespace partita::gui {

QAction* MainWindow::action(const QString& name) const {
    const auto it = actions_.find(name);
    return it == actions_.end() ? nullptr : it->second;
}

void MainWindow::buildActions() {
    auto make = [this](const QString& name, const QString& text, const QString& tip, QKeySequence key = {}) {
        auto* a = new QAction(text, this);
        a->setObjectName(name);
        a->setToolTip(tip);
        a->setStatusTip(tip);
        if (!key.isEmpty()) a->setShortcut(key);
        actions_[name] = a;
        return a;
    };
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
    QAction* quit = make("quit", tr("&Quit"), tr("Quit Partita"), QKeySequence::Quit);

    connect(open, &QAction::triggered, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open"), QString(),
                                                          tr("Partita files, ONNX models and topologies (*.json *.txt *.onnx *.yml *.yaml);;ONNX models (*.onnx);;"
                                                             "ASTRA-sim topologies (*.yml *.yaml *.json);;All files (*)"));
        if (!path.isEmpty()) loader_->openFile(path);
    });
    connect(run, &QAction::triggered, runs_, &RunController::runSelected);
    connect(evaluate, &QAction::triggered, runs_, &RunController::evaluateCurrent);
    connect(explore, &QAction::triggered, this, [this] {
        showTab(explore_);
        runs_->explore(explore_->cells());
    });
    connect(compare, &QAction::triggered, this, [this] {
        const auto ids = runs_dock_->selectedIds();
        if (ids.size() >= 2 && ids.size() <= 4) runs_->compareStored(ids);
        else runs_->compareWithBaselines();
    });
    connect(exportA, &QAction::triggered, this, [this] {
        const auto targets = shownExportTargets();
        if (!targets.empty()) exports_.withDialog(targets.front());
    });
    connect(reset, &QAction::triggered, &session_, &Session::resetGrid);
    connect(keep, &QAction::triggered, &session_, &Session::keep);
    connect(cancel, &QAction::triggered, runs_, &RunController::cancelJob);
    connect(quit, &QAction::triggered, this, &QWidget::close);

    method_box_ = new QComboBox(this);
    method_box_->setObjectName("method");
    method_box_->setToolTip(tr("Method used by Run"));
    for (const auto& m : runs_->methods()) {
        method_box_->addItem(m->label(), m->key());
        method_box_->setItemData(method_box_->count() - 1, m->toolTip(), Qt::ToolTipRole);
    }
    connect(method_box_, &QComboBox::activated, this,  // previews; Run stores
            [this](int index) { runs_->chooseMethod(method_box_->itemData(index).toString()); });
    connect(method_box_, &QComboBox::currentIndexChanged, this,
            [this](int index) { runs_->setMethodKey(method_box_->itemData(index).toString()); });

    auto* bar = addToolBar(tr("Main"));
    bar->setObjectName("main-toolbar");
    bar->setToolButtonStyle(Qt::ToolButtonTextOnly);
    bar->addWidget(new QLabel(tr(" Method "), bar));
    bar->addWidget(method_box_);
    for (QAction* a : {run, evaluate, explore, compare, exportA, reset, keep}) bar->addAction(a);

    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->setObjectName("file");
    file->addAction(open);
    QAction* generate = file->addAction(tr("&Generate topology…"), simulator_, &SimulationController::generateTopology);
    generate->setObjectName("generate-topology");
    generate->setToolTip(tr("A ring, torus, mesh, switch, cluster or array of your sizes, for Simulate and MCMC"));
    recent_menu_ = file->addMenu(tr("Open &recent"));
    file->addSeparator();
    // The shown view's targets only, by name; built when the menu opens.
    QMenu* exports = file->addMenu(tr("Export"));
    connect(exports, &QMenu::aboutToShow, this, [this, exports] {
        exports->clear();
        for (const ExportChoice& choice : shownExportTargets())
            exports->addAction(tr("%1…").arg(choice.label), this, [this, choice] { exports_.withDialog(choice); });
        if (exports->isEmpty()) exports->addAction(tr("(nothing to export here)"))->setEnabled(false);
    });
    file->addAction(exportA);
    file->addSeparator();
    file->addAction(quit);
    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    edit->setObjectName("edit");
    // The grid's edits, or those of the shown view that has its own (the network editor's).
    undo_group_.addStack(&session_.gridEdits());
    undo_group_.setActiveStack(&session_.gridEdits());
    QAction* undo = undo_group_.createUndoAction(this, tr("&Undo"));
    undo->setObjectName("undo");
    undo->setShortcut(QKeySequence::Undo);
    undo->setToolTip(tr("Undo the last edit of the grid, or in the network or topology editor when it is shown"));
    QAction* redo = undo_group_.createRedoAction(this, tr("&Redo"));
    redo->setObjectName("redo");
    redo->setShortcut(QKeySequence::Redo);
    redo->setToolTip(tr("Redo the edit undone last"));
    actions_["undo"] = undo;
    actions_["redo"] = redo;
    edit->addAction(undo);
    edit->addAction(redo);
    QMenu* runMenu = menuBar()->addMenu(tr("&Run"));
    runMenu->setObjectName("run");
    for (QAction* a : {run, evaluate, explore, compare, reset, keep, cancel}) runMenu->addAction(a);
    QMenu* view = menuBar()->addMenu(tr("&View"));
    view->setObjectName("view");
    for (QDockWidget* dock : findChildren<QDockWidget*>()) view->addAction(dock->toggleViewAction());
    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->setObjectName("help");
    QAction* guide = make("guide", tr("&Guide"), tr("How to use Partita, and the keyboard shortcuts"),
                          QKeySequence::HelpContents);
    connect(guide, &QAction::triggered, this, [this] {
        auto* window = findChild<GuideWindow*>("guide");
        if (!window) {  // made on first use, when every action (and its shortcut) exists
            QList<QAction*> list;
            for (const auto& [name, a] : actions_) list << a;
            window = new GuideWindow(list, this);
            // Its own window, over this one's screen: the docks and views stay as they are.
            const QScreen* screen = this->screen();
            window->placeWithin(screen ? screen->availableGeometry() : QRect(0, 0, 1024, 700));
        }
        window->show();
        window->raise();
        window->activateWindow();
    });
    help->addAction(guide);
    help->addAction(tr("About Partita"), this, [this] {
        QMessageBox::about(this, tr("About Partita"),
                           tr("<b>Partita %1</b><p>Design-space explorer for parallel DNN training: HyPar, "
                              "AccPar, FlexFlow, MPT and Learn-to-Scale in one engine.</p>")
                               .arg(PARTITA_VERSION));
    });
    rebuildRecentMenu();
}

}  // namespace partita::gui
