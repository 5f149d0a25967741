#include "app/gui/main_window.h"

#include <algorithm>

#include <QAction>
#include <QCloseEvent>
#include <QShowEvent>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QMimeData>
#include <QMessageBox>
#include <QScreen>
#include <QScopedValueRollback>
#include <QScrollArea>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>
#include <QVBoxLayout>

#include "widgets/explore/explore_view.h"
#include "app/gui/input_files.h"
#include "app/gui/action_set.h"
#include "app/gui/job_status.h"
#include "app/gui/library_dock.h"
#include "app/gui/network_editor.h"
#include "app/gui/simulation_controller.h"
#include "app/gui/sweep_tab.h"
#include "app/gui/topology_editor_tab.h"
#include "app/gui/plan_views.h"
#include "app/gui/window_geometry.h"
#include "app/gui/run_views.h"
#include "app/gui/runs_dock.h"
#include "core/io/array_io.h"
#include "core/io/network_io.h"
#include "widgets/common/task_tabs.h"
#include "widgets/settings/params_editor.h"
#include "widgets/settings/sim_params_editor.h"
#include "widgets/network/network_graph.h"
#include "widgets/network/network_tab_view.h"
#include "widgets/topology_editor/topology_editor_view.h"

namespace partita::gui {

MainWindow::MainWindow(const Options& options, QWidget* parent) : QMainWindow(parent), options_(options) {
    runs_ = new RunController(*this, this);  // before the tabs: the methods add theirs
    setObjectName("partita-main");
    setAcceptDrops(true);
    setWindowTitle("Partita");
    resize(options.size);
    buildCentral();
    buildDocks();
    actions_ = new ActionSet({*this, *runs_, session_, store_, views_, exports_, *simulator_, undo_group_, runs_dock_,
                              [this](const QString& path) { loader_->openFile(path); },
                              [this] {
                                  auto* explore = views_.get<ExploreView>();
                                  views_.show(explore);
                                  runs_->explore(explore->cells());
                              }});
    for (const auto& m : runs_->methods()) m->addRunActions(*runs_, actions_->menu("run"));
    status_ = new JobStatus(jobs_, session_, statusBar(), actions_->action("cancel"), this);
    loader_ = new InputLoader(*this, *runs_, params_, library_, dialogsAllowed(), this);
    connect(loader_, &InputLoader::networkLoaded, this, &MainWindow::networkLoaded);
    // Besides the tabs (views_.addTab), what views().get<T>() finds.
    for (QObject* o : std::initializer_list<QObject*>{sim_params_, params_, library_, runs_dock_, tabs_})
        views_.remember(o);
    editor_ = new NetworkEditor(*this);  // a tab, its view entry and its File menu entries
    topology_editor_ = new TopologyEditorTab(*this);
    sweep_tab_ = new SweepTab(*this);  // the Sweep tab, File ▸ Open sweep database…, Run ▸ Start sweep…
    for (QObject* o : std::initializer_list<QObject*>{editor_, topology_editor_, sweep_tab_}) views_.remember(o);
    connect(tabs_, &TaskTabs::currentChanged, this, &MainWindow::tabShown);
    // The workflow's answers besides the plan tabs' (plan_views.h): the selector and the Properties dock.
    connect(runs_, &RunController::methodChanged, this, [this] {
        actions_->showMethod(runs_->methodKey());
        updatePropertiesDock();
    });
    connect(runs_, &RunController::storedRunOpened, this, [this] {
        library_->setActive(session_.networkPath(), session_.arrayPath());
        emit networkLoaded(session_.network(), session_.networkPath());
    });

    connect(&jobs_, &JobRunner::failed, this, [this](quint64, const QString& m) { reportError(m); });
    // The views' own jobs (the studies) show in the same bar and stop with the same Cancel.
    status_->alsoFollow(run_views_->jobs(), [this] { run_views_->cancelStudies(); });

    const QString default_db =
        QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + "/results.sqlite";
    connect(&store_, &RunStore::error, this, [this](const QString& m) { reportError(m); });
    connect(&store_, &RunStore::changed, this, [this] { runs_dock_->refresh(store_.db(), store_.problem()); });
    connect(&store_, &RunStore::notice, this, [this](const QString& m) { statusBar()->showMessage(m, 5000); });
    connect(&store_, &RunStore::stored, this, [this](std::int64_t id) { runs_dock_->select({id}); });
    store_.open(options.db.isEmpty() ? default_db : options.db, options.db_read_only);
    // The plan tabs follow the session themselves (plan_views.h), before these.
    connect(&session_, &Session::runChanged, this, [this](const RunPtr& run) {
        run_views_->show(run);
        actions_->update();
    });
    connect(&session_, &Session::inputsChanged, this, [this] {
        // [*]: a view with unsaved work (the editor) marks the window modified.
        const InputsPtr inputs = session_.inputs();
        setWindowTitle(inputs ? QString("%1 on %2[*] — Partita")
                                    .arg(QString::fromStdString(inputs->network.name),
                                         QString::fromStdString(inputs->array.name))
                              : QString("Partita[*]"));
        actions_->update();
    });
    connect(&session_, &Session::pendingChanged, actions_, &ActionSet::update);
    connect(&session_, &Session::error, this, &MainWindow::reportError);

    for (const QString& path : builtInNetworks()) {
        try {
            library_->addNetwork(path, QString::fromStdString(partita::loadNetwork(path.toStdString()).name), true);
        } catch (const std::exception&) {
            // A broken example must not keep the app from starting; it is left out.
        }
    }
    for (const QString& path : builtInArrays()) {
        try {
            library_->addArray(path, QString::fromStdString(partita::loadArray(path.toStdString()).name), true);
        } catch (const std::exception&) {
        }
    }
    runs_->setMethodKey(options.method);
    simulator_->applyOptions(options_);
    for (const auto& m : runs_->methods()) m->applyOptions(*runs_, options_);
    params_->setValues(session_.array(), CostParams{});
    const QString network = options.network.isEmpty() ? examplesDir() + "/networks/vgg-a.json" : options.network;
    session_.setUserNetwork(!options.network.isEmpty());
    const QString array = options.array.isEmpty() ? examplesDir() + "/arrays/hmc-htree-16.json" : options.array;
    loader_->loadArray(array);
    if (options.collapse_repeats) views_.get<NetworkTabView>()->graph()->setCollapseRepeats(true);
    // An ONNX model named at start asks for its input sizes once the window shows (a dialog
    // before that would have no parent on screen); until then the built-in example stands.
    const bool asks = loader_->asksForDims(network) ||
                      std::any_of(options.files.begin(), options.files.end(), [this](const QString& f) { return loader_->asksForDims(f); });
    if (options.screenshot.isEmpty() && asks) {
        loader_->loadNetwork(examplesDir() + "/networks/vgg-a.json");
        QTimer::singleShot(0, this, [this, network, options] {
            loader_->loadNetwork(network);
            for (const QString& file : options.files) loader_->openFile(file);
            if (options.run) runs_->runSelected();
        });
    } else {
        loader_->loadNetwork(network);
        for (const QString& file : options.files) loader_->openFile(file);
        if (options.run) runs_->runSelected();
    }
    if (options.screenshot.isEmpty()) {
        QSettings settings;
        geometry_restored_ = restoreGeometry(settings.value("window/geometry").toByteArray());
        restoreState(settings.value("window/state").toByteArray());
    }
    actions_->update();
    tabShown();
}

MainWindow::~MainWindow() = default;

void MainWindow::buildCentral() {
    tabs_ = new TaskTabs(this);
    views_.setTabs(tabs_);
    auto* plan = new PlanViews(*this, *runs_, this);  // Grid, Simulation, Compare, Explore, Network
    run_views_ = new RunViews(*this);                 // Timeline, Heatmap, Topology, Teaching, Studies
    for (const auto& m : runs_->methods()) m->buildViews(*runs_);  // their own tabs
    plan->registerViews();
    run_views_->registerViews();
    views_.add({"runs", nullptr, [this] { return runs_dock_; }, {}, {}});
    views_.add({"library", nullptr, [this] { return library_; }, {}, {}});
    views_.add({"params", nullptr, [this] { return findChild<QDockWidget*>("properties"); }, {}, {}});
    // The docks give way before the tabs go below this (at 800 px the views keep a usable width).
    tabs_->setMinimumWidth(kCentreMinWidth);
    setCentralWidget(tabs_);
}

void MainWindow::buildDocks() {
    library_ = new LibraryDock(this);
    addDockWidget(Qt::LeftDockWidgetArea, library_);

    runs_dock_ = new RunsDock(this);
    addDockWidget(Qt::LeftDockWidgetArea, runs_dock_);
    connect(runs_dock_, &RunsDock::openRequested, runs_, &RunController::openStoredRun);
    connect(runs_dock_, &RunsDock::compareRequested, runs_, &RunController::compareStored);
    connect(runs_dock_, &RunsDock::deleteRequested, &store_, &RunStore::remove);
    connect(runs_dock_, &RunsDock::renameRequested, &store_, &RunStore::rename);
    connect(runs_dock_, &RunsDock::selectionChanged, this, [this] {
        if (actions_) actions_->update();
    });

    auto* props = new QDockWidget(tr("Properties"), this);
    props->setObjectName("properties");
    // Scrolls: with accelerator groups the editor is taller than a laptop screen.
    auto* scroll = new QScrollArea(props);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    auto* editors = new QWidget(scroll);
    auto* column = new QVBoxLayout(editors);
    column->setContentsMargins(0, 0, 0, 0);
    column->setSpacing(0);
    sim_params_ = new SimParamsEditor(editors);  // shown for Simulate and MCMC only
    params_ = new ParamsEditor(editors);
    column->addWidget(sim_params_);
    column->addWidget(params_, 1);
    scroll->setWidget(editors);
    simulator_ = new SimulationController(*this, sim_params_, this);
    connect(simulator_, &SimulationController::topologyChosen, this, [this] {
        if (!runs_->simulationMethod()) runs_->setMethodKey("simulate");
        if (topology_editor_) topology_editor_->followIfShown();
    });
    connect(simulator_, &SimulationController::strategyChosen, this, [this] { runs_->setMethodKey("simulate"); });
    // A topology file that fails validation opens in the editor to be fixed, unless that drops edits.
    simulator_->open_invalid = [this](const QString& path) {
        TopologyEditorView* editor = topology_editor_ ? topology_editor_->view() : nullptr;
        return editor && editor->undoStack().isClean() && editor->open(path);
    };
    props->setWidget(scroll);
    addDockWidget(Qt::RightDockWidgetArea, props);
    // What the user wants (View ▸ Properties, the dock's close button, a restored state), apart from
    // its stepping aside for a tab with its own properties: that is what comes back after such a tab.
    connect(props->toggleViewAction(), &QAction::toggled, this, [this](bool shown) {
        if (!props_stepping_) props_wanted_ = shown;
    });
    runs_->attachEditors(params_, sim_params_);
    resizeDocks({library_, props}, {250, 290}, Qt::Horizontal);
}

void MainWindow::showEvent(QShowEvent* event) {
    QMainWindow::showEvent(event);
    if (docks_sized_) return;
    docks_sized_ = true;
    // On a narrow window (1024 px) the docks start narrower, so that the tabs get room for the views
    // (a window restored from the last session keeps its docks as they were).
    if (!geometry_restored_ && width() < kNarrowWindow)
        if (auto* props = findChild<QDockWidget*>("properties"))
            resizeDocks({library_, props}, {kNarrowLibraryWidth, kNarrowPropertiesWidth}, Qt::Horizontal);
}

void MainWindow::fitToScreen() {
    const QScreen* shown_on = screen();
    if (!shown_on || isMaximized() || isFullScreen()) return;
    // The frame (title bar) is known once the window is on screen; before, the window is all there is.
    const QRect frame = frameGeometry(), inner = geometry();
    const QMargins margins(inner.left() - frame.left(), inner.top() - frame.top(), frame.right() - inner.right(),
                           frame.bottom() - inner.bottom());
    const bool centre = !geometry_restored_ && !placed_;
    placed_ = true;
    setGeometry(fitWindow(frame, shown_on->availableGeometry(), centre).marginsRemoved(margins));
}

void MainWindow::closeEvent(QCloseEvent* event) {
    if (!releaseViews() || !topology_editor_->maybeSave()) return event->ignore();
    session_.keep();  // an edit the user made is not lost by closing
    jobs_.cancel();
    if (options_.screenshot.isEmpty()) {
        if (auto* props = findChild<QDockWidget*>("properties"); props && props_hidden_) {
            const QScopedValueRollback<bool> stepping(props_stepping_, true);
            props->setVisible(props_wanted_);  // saved as the user wants it, not as a tab set it aside
        }
        QSettings settings;
        settings.setValue("window/geometry", saveGeometry());
        settings.setValue("window/state", saveState());
    }
    event->accept();
}

void MainWindow::addRecentFile(const QString& path) { actions_->addRecentFile(path); }

void MainWindow::tabShown() {
    const ViewEntry* entry = views_.findByTab(views_.shown());
    QUndoStack* stack = entry && entry->undo ? entry->undo : &session_.gridEdits();
    if (!undo_group_.stacks().contains(stack)) undo_group_.addStack(stack);
    undo_group_.setActiveStack(stack);
    updatePropertiesDock();
    if (actions_) actions_->update();  // Export follows the shown tab's targets
}

void MainWindow::updatePropertiesDock() {
    // MPT and L2S keep their settings in their own tab, and a view may edit its own properties: the
    // Properties dock (HyPar/AccPar/FlexFlow) steps aside and gives it the width, and comes back after.
    const ViewEntry* entry = tabs_ ? views_.findByTab(views_.shown()) : nullptr;
    const bool aside = runs_->method().settings() == GuiMethod::Settings::OwnTab || (entry && entry->own_properties);
    if (auto* props = findChild<QDockWidget*>("properties"); props && aside != props_hidden_) {
        const QScopedValueRollback<bool> stepping(props_stepping_, true);
        props->setVisible(aside ? false : props_wanted_);
        props_hidden_ = aside;
    }
}

bool MainWindow::releaseViews() {
    for (const ViewEntry& e : views_.entries())
        if (e.release && !e.release()) return false;
    return true;
}

void MainWindow::reportError(const QString& message) {
    last_error_ = message;
    status_->showText(message);
    if (!options_.screenshot.isEmpty()) return;
    // Not modal: a parse error must never block the event loop (or a test).
    auto* box = new QMessageBox(QMessageBox::Warning, tr("Partita"), message, QMessageBox::Ok, this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setModal(false);
    box->show();
}

void MainWindow::reportNotice(const QString& title, const QString& summary, const QStringList& lines) {
    last_notice_ = (QStringList{summary} + lines).join("\n");
    statusBar()->showMessage(summary, 15000);
    if (!options_.screenshot.isEmpty()) return;
    auto* box = new QMessageBox(QMessageBox::Information, title, summary, QMessageBox::Ok, this);
    box->setObjectName("notice");
    box->setInformativeText(lines.join("\n"));
    box->setTextInteractionFlags(Qt::TextSelectableByMouse);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setModal(false);
    box->show();
}

void MainWindow::showMessage(const QString& text, int timeout_ms) { statusBar()->showMessage(text, timeout_ms); }

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
    if (event->mimeData()->hasUrls()) event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
    for (const QUrl& url : event->mimeData()->urls())
        if (url.isLocalFile()) loader_->openFile(url.toLocalFile());
    event->acceptProposedAction();
}

void MainWindow::showStatus(const QString& text) { status_->showText(text); }

}  // namespace partita::gui
