#pragma once
// The main window: library, runs and properties docks around a tab area
// (grid + metrics, simulation, comparison, exploration, network), a toolbar, and a status
// bar with progress and Cancel. Engine work runs in the JobRunner; the window
// only swaps immutable runs into its views. Public methods are the actions the
// UI triggers, so tests drive the window exactly as a user would.
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <vector>

#include <QElapsedTimer>
#include <QMainWindow>
#include <QTimer>
#include <QUndoGroup>
#include <QUndoStack>

#include "app/gui/export_actions.h"
#include "app/gui/job_runner.h"
#include "app/gui/run_store.h"
#include "app/gui/session.h"
#include "app/gui/methods/method.h"
#include "app/gui/options.h"
#include "app/gui/view_registry.h"
#include "app/gui/window_services.h"
#include "core/run/run.h"
#include "core/run/simulation.h"
#include "core/store/results_db.h"

class QAction;
class QComboBox;
class QLabel;
class QMenu;
class QProgressBar;
class QPushButton;
class QStackedWidget;

namespace partita {
class CompareView;
class GridView;
class MetricsPanel;
class ParamsEditor;
class SimParamsEditor;
class SimulationView;
class GanttView;
class CommHeatmap;
class TopologyPanel;
class TopologyView;
class TeachingView;
class StudyView;
class MptView;
class L2sView;
class NetworkTabView;
struct MethodRun;
}  // namespace partita

namespace partita::onnx {
struct InputDims;
struct GraphInput;
}

namespace partita::gui {

class ExploreView;
class TaskTabs;
class LibraryDock;
class NetworkEditor;
class TopologyEditorTab;
class RunsDock;
class RunViews;
class SweepTab;

class SimulationController;

class MainWindow : public QMainWindow, public WindowServices {
    Q_OBJECT
public:
    // The tabs keep this width however narrow the window: the docks give way first.
    static constexpr int kCentreMinWidth = 420;
    // Below this width the docks start narrower (showEvent).
    static constexpr int kNarrowWindow = 1200, kNarrowLibraryWidth = 180, kNarrowPropertiesWidth = 245;
    explicit MainWindow(const Options& options, QWidget* parent = nullptr);
    ~MainWindow() override;

    // Loads a network, array or strategy (by its format). On failure the
    // parser's message is shown and returned; nothing else changes.
    bool openFile(const QString& path, QString* error = nullptr);
    bool loadNetwork(const QString& path, QString* error = nullptr);
    bool loadArray(const QString& path, QString* error = nullptr);
    bool loadStrategy(const QString& path, QString* error = nullptr);
    // A network from elsewhere than a file (the editor): it becomes the window's network and the
    // chosen method previews it, as a loaded one. `origin` is informational (a path, or "editor:<name>").
    // Returns "" or why the network cannot be analysed (e.g. no weighted layer); nothing changes then.
    QString useNetwork(Network network, const QString& origin);
    // Asks each view whose work would be lost (ViewEntry::release); false: the user kept it.
    bool releaseViews();
    // Within the screen's available area (the application calls it before and after showing the
    // window; screenshots keep their --size): no larger, moved inside, centred on a first start.
    void fitToScreen();

    // The run policy: Run starts the method in the toolbar's selector and stores what it finishes
    // (an identical stored run is re-selected instead of stored twice). Choosing a network, a method or
    // a parameter only previews: the analytic methods follow at once, unstored; simulations, MCMC, MPT
    // and L2S wait for Run. Edited grids are stored by Keep (or on close); searches when they finish.
    void runSelected();
    // A grid-plan method of core's registry by key (HyPar's search, a baseline, a plug-in's), in a
    // worker (not stored).
    void runMethod(const std::string& key);
    void runAccPar();                // AccPar's plan, in a worker (not stored)
    // What the methods (methods/) start: a plan of HyPar's model (or its refusal, said in the Grid
    // tab), AccPar's plan, or a note that the chosen method waits for Run.
    void plan(const std::string& key, bool store);
    void planAccPar(bool store);
    void askForRun();
    // For methods with their own tab: the tab area, the network the user chose ("" before they chose
    // one: the method shows its paper's workload), the status line, and storing an evaluation once.
    // The tab area is the registry's (views().addTab, shown, show); these are what methods/ call.
    using Task = ViewTask;
    void addViewTab(QWidget* view, const QString& title, Task task) { views_.addTab(view, title, task); }
    bool isChosen(const GuiMethod& m) const { return &method() == &m; }
    // Simulate and MCMC: topologies, strategy files and their jobs (choosing one makes Simulate the method).
    SimulationController& simulation() { return *simulator_; }

    // WindowServices: what the simulation controller and the methods use.
    void showStatus(const QString& text) override;
    void showMessage(const QString& text, int timeout_ms) override;
    void reportError(const QString& message) override;
    void reportNotice(const QString& title, const QString& summary, const QStringList& lines) override;
    void addRecentFile(const QString& path) override;
    void storeWhenFinished(quint64 generation) override { store_generation_ = generation; }
    QWidget* dialogParent() override { return this; }
    void evaluateCurrent();          // Evaluate: the shown grid under the current parameters
    void explore(const std::vector<CellRef>& cells);
    QUndoGroup& undoGroup() { return undo_group_; }  // the grid's edits, or the shown view's (ViewEntry::undo)
    void compareWithBaselines();            // the current run beside HyPar, DP, MP, OWT
    void compareRuns(const std::vector<RunPtr>& runs, const QStringList& refused = {});
    // 2-4 stored runs side by side; simulated ones are simulated again in a worker first (wait for the jobs).
    bool compareStored(const std::vector<std::int64_t>& ids);
    // Analytic runs re-open at once; a simulated run is re-simulated in a worker (wait for the jobs).
    bool openStoredRun(std::int64_t id);
    void cancelJob();
    // Figures and tables by target (each view's, registered in view_entries.cpp and by the methods).
    ExportActions& exports() { return exports_; }
    std::vector<ExportChoice> shownExportTargets() const { return exports_.of(shownView()); }
    // Renders the window or one view (Options::view names) to a PNG, filling an empty view first.
    bool saveScreenshot(const QString& path, const QString& view);
    void showView(const QString& view);
    // Options::cell_level and cell_layer as the grid's current cell; false (and the error reported) when
    // the shown run has no such level or layer.
    bool selectOptionCell();

    JobRunner& jobs() override { return jobs_; }
    const Options& options() const { return options_; }
    bool dialogsAllowed() const { return options_.screenshot.isEmpty(); }  // none while rendering a screenshot
    // The inputs, the shown and searched runs and the grid's edits (Edit ▸ Undo / Redo).
    Session& session() override { return session_; }
    const Session& session() const { return session_; }
    // The results database: stores, renames and deletes runs; the runs dock follows it.
    RunStore& runStore() override { return store_; }
    QString lastError() const { return last_error_; }
    // The last notice (what an import approximated): its summary, then one line per item.
    QString lastNotice() const { return last_notice_; }
    QString methodKey() const;       // "hypar", "dp", "mp", "owt", "accpar", "simulate", "mcmc", "mpt" or "l2s"
    void setMethodKey(const QString& key);
    void chooseMethod(const QString& key);  // as choosing it in the toolbar: the method previews the inputs
    // Why the chosen method cannot analyse the current inputs (HTML, a link names a method that can,
    // "method:accpar"); "" when it can. Follows every start of the method (methodRefusalChanged).
    QString methodRefusal() const { return refusal_; }
    const GuiMethod& method() const;  // the chosen one
    const MethodList& methods() const { return methods_; }
    ViewRegistry& views() { return views_; }  // methods add their views here (GuiMethod::buildViews)

    // (The views themselves: views().get<GanttView>(); heatmapView(), mptView() and l2sView() are
    // what methods/ still call.)
    CommHeatmap* heatmapView() const;
    MptView* mptView() const;  // the MPT and L2S methods' tabs
    L2sView* l2sView() const;
    // The Grid tab shows the grid page, or a note ("grid-not-applicable") for a simulated run without a grid.
    bool gridNotApplicableShown() const;
    TaskTabs* tabs() const { return tabs_; }
    QWidget* shownView() const { return views_.shown(); }
    void showTab(QWidget* view) { views_.show(view); }
    QAction* action(const QString& name) const;  // "run", "evaluate", "explore", "compare", "export", "reset", "cancel"
    // Views add their own actions (listed in the guide with their shortcuts) and menu entries.
    void addNamedAction(const QString& name, QAction* action);
    QMenu* menu(const QString& name) const;  // "file", "edit", "run", "view", "help"

signals:
    // A network the user opened (a file, the library, a stored run): views that edit it follow.
    void networkLoaded(const partita::Network& network, const QString& path);
    void methodRefusalChanged(const QString& html);  // after each start of the method: methodRefusal()

protected:
    void closeEvent(QCloseEvent* event) override;
    void showEvent(QShowEvent* event) override;
    // Files dropped on the window open as File ▸ Open opens them (an ONNX model asks for its input sizes).
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;


private:
    void buildActions();
    void buildDocks();
    void buildCentral();
    void buildStatusBar();
    void restoreSettings();
    void rebuildRecentMenu();
    void rebuildInputs();                   // parameters changed: new inputs, previewed
    void startMethod(bool store);           // Run (store) or the live preview (no store)
    void methodChosen();                    // the selector changed: fields, tab, preview
    bool explainCannotPlan();               // HyPar's model cannot price the inputs: say so, offer AccPar
    void inputsChanged(bool reshaped);      // the session's new inputs: views, title, actions
    void showRun(const RunPtr& run);        // the session's shown run, in the views
    void showStoredRun(const RunPtr& run);  // a run re-opened from the database, with its inputs and settings
    void onJobFinished(quint64 generation, RunPtr run);
    // Runs a comparison needs that take time (re-simulating stored runs, DP beside a simulated run):
    // made in a worker like any job (progress, Cancel), then shown in Compare.
    void compareInWorker(const QString& label, std::function<std::vector<RunPtr>(const CancelFn&)> work);
    void setBusy(bool busy, const QString& label = {});
    void showProgress(double fraction);     // the bar's value, percent and time left
    void updateActions();
    void updateTitle();
    void tabShown();                        // the shown view's undo stack and properties
    void showRunInViews(const RunPtr& run);  // the tabs besides the grid (RunViews)
    void registerViews();                   // every tab's view and export targets (view_entries.cpp)
    // Sizes for the inputs the model leaves open: asked once per file; false: cancelled.
    bool onnxDims(const QString& path, const std::vector<onnx::GraphInput>& inputs, onnx::InputDims* dims);
    bool asksForDims(const QString& path) const;  // an ONNX model whose input sizes are not chosen yet
    const ViewEntry* findView(const QString& name) const;  // by --view name, aliases followed
    bool openStoredMethodRun(std::int64_t id);  // throws StoreError; its method shows it (method_runs.cpp)

    bool simulationMethod() const;                     // Simulate or MCMC chosen
    void updateMethodFields();                         // the properties a method uses

    Options options_;
    MethodList methods_;
    ViewRegistry views_;
    ExportActions exports_{views_, *this};
    JobRunner jobs_;
    RunStore store_;
    Session session_{store_};
    QString last_error_, last_notice_;

    quint64 store_generation_ = 0;  // the job whose run is stored when it finishes (Run, Explore)
    quint64 compare_generation_ = 0;  // the job whose runs go to Compare (compareInWorker)
    std::shared_ptr<std::vector<RunPtr>> compare_runs_;  // its runs, filled by the worker
    QUndoGroup undo_group_;
    QTimer params_timer_;    // coalesces typing in the properties dock
    SimulationController* simulator_ = nullptr;

    GridView* grid_ = nullptr;
    QStackedWidget* grid_stack_ = nullptr;   // the grid page, or grid_na_
    QWidget* grid_page_ = nullptr;
    QLabel* grid_na_ = nullptr;
    SimulationView* simulation_ = nullptr;
    RunViews* run_views_ = nullptr;  // Timeline, Heatmap, Topology, Teaching, Studies
    QString refusal_;          // methodRefusal()
    bool keep_tab_ = false;    // a view handed the network over (useNetwork): its tab stays in front
    bool docks_sized_ = false;  // showEvent: narrower docks on a narrow window, once
    bool geometry_restored_ = false, placed_ = false;  // fitToScreen: keep a saved place, else centre once
    bool props_hidden_ = false;        // the properties dock stepped aside (MPT/L2S, a view with its own)
    bool props_wanted_ = true;         // whether the user wants it shown (where it does not step aside)
    bool props_stepping_ = false;      // the window, not the user, is showing or hiding it
    void updatePropertiesDock();
    SimParamsEditor* sim_params_ = nullptr;
    MetricsPanel* metrics_ = nullptr;
    CompareView* compare_ = nullptr;
    ExploreView* explore_ = nullptr;
    NetworkTabView* network_view_ = nullptr;
    ParamsEditor* params_ = nullptr;
    LibraryDock* library_ = nullptr;
    RunsDock* runs_dock_ = nullptr;
    TaskTabs* tabs_ = nullptr;
    QComboBox* method_box_ = nullptr;
    QLabel* status_label_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QElapsedTimer job_clock_;               // since the running job started (the bar's time left)
    QPushButton* cancel_button_ = nullptr;
    QMenu* recent_menu_ = nullptr;
    std::map<QString, QAction*> actions_;
    NetworkEditor* editor_ = nullptr;
    TopologyEditorTab* topology_editor_ = nullptr;
    SweepTab* sweep_tab_ = nullptr;
};

}  // namespace partita::gui
