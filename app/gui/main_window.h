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

#include <QMainWindow>
#include <QTimer>
#include <QUndoGroup>
#include <QUndoStack>

#include "app/gui/export_actions.h"
#include "app/gui/input_loader.h"
#include "app/gui/job_runner.h"
#include "app/gui/run_controller.h"
#include "app/gui/run_store.h"
#include "app/gui/session.h"
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
class ExploreView;
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

namespace partita::gui {

class TaskTabs;
class LibraryDock;
class NetworkEditor;
class TopologyEditorTab;
class RunsDock;
class SweepTab;

class JobStatus;
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

    // Opens networks, arrays, strategies and topologies into the session (File ▸ Open, the library).
    InputLoader& loader() { return *loader_; }
    // Asks each view whose work would be lost (ViewEntry::release); false: the user kept it.
    bool releaseViews() override;
    // Within the screen's available area (the application calls it before and after showing the
    // window; screenshots keep their --size): no larger, moved inside, centred on a first start.
    void fitToScreen();

    // The chosen method, Run, Evaluate, Explore, Compare and re-opening stored runs (the run policy).
    RunController& runs() { return *runs_; }
    const RunController& runs() const { return *runs_; }
    // The tasks the views are grouped by (docs/guide/application.md#views-by-task), in the bar's order.
    enum class Task { Model, Machine, Plan, Simulate, Sweeps, Methods };
    static QString taskName(Task task);
    // In a scroll area (no view grows the window), among `task`'s tabs.
    void addViewTab(QWidget* view, const QString& title, Task task);
    // Simulate and MCMC: topologies, strategy files and their jobs (choosing one makes Simulate the method).
    SimulationController& simulation() override { return *simulator_; }

    // WindowServices: what the simulation controller and the methods use.
    void showStatus(const QString& text) override;
    void showMessage(const QString& text, int timeout_ms) override;
    void reportError(const QString& message) override;
    void reportNotice(const QString& title, const QString& summary, const QStringList& lines) override;
    void addRecentFile(const QString& path) override;
    void storeWhenFinished(quint64 generation) override { runs_->storeWhenFinished(generation); }
    QWidget* dialogParent() override { return this; }
    void addMethodTab(QWidget* view, const QString& title) override { addViewTab(view, title, Task::Methods); }
    QUndoGroup& undoGroup() { return undo_group_; }  // the grid's edits, or the shown view's (ViewEntry::undo)
    // Figures and tables by target (each view's, registered in view_entries.cpp and by the methods).
    ExportActions& exports() { return exports_; }
    std::vector<ExportChoice> shownExportTargets() const { return exports_.of(shownView()); }
    // Renders the window or one view (Options::view names) to a PNG, filling an empty view first.
    bool saveScreenshot(const QString& path, const QString& view);
    void showView(const QString& view) override;
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
    ViewRegistry& views() override { return views_; }  // methods add their views here (GuiMethod::buildViews)

    GridView* gridView() const { return grid_; }
    MetricsPanel* metricsPanel() const { return metrics_; }
    CompareView* compareView() const { return compare_; }
    ExploreView* exploreView() const { return explore_; }
    ParamsEditor* paramsEditor() const { return params_; }
    SimParamsEditor* simParams() const { return sim_params_; }
    SimulationView* simulationView() const { return simulation_; }
    GanttView* ganttView() const { return gantt_; }
    CommHeatmap* heatmapView() const { return heatmap_; }
    TopologyView* topologyView() const { return topology_view_; }
    TopologyPanel* topologyPanel() const { return topology_panel_; }
    TeachingView* teachingView() const { return teaching_; }
    StudyView* studyView() const { return studies_; }
    MptView* mptView() const;  // the MPT and L2S methods' tabs
    L2sView* l2sView() const;
    // The Grid tab shows the grid page, or this note for a simulated run without a grid.
    QLabel* gridNotApplicable() const { return grid_na_; }
    bool gridNotApplicableShown() const;
    RunsDock* runsDock() const { return runs_dock_; }
    LibraryDock* libraryDock() const { return library_; }
    TaskTabs* tabs() const { return tabs_; }
    // Each tab is a view in a scroll area (a view never makes the window larger than the screen).
    QWidget* shownView() const;
    void showTab(QWidget* view);
    QAction* action(const QString& name) const;  // "run", "evaluate", "explore", "compare", "export", "reset", "cancel"
    // Views add their own actions (listed in the guide with their shortcuts) and menu entries.
    void addNamedAction(const QString& name, QAction* action);
    QMenu* menu(const QString& name) const;  // "file", "edit", "run", "view", "help"
    NetworkEditor* networkEditor() const { return editor_; }
    TopologyEditorTab* topologyEditor() const { return topology_editor_; }
    SweepTab* sweepTab() const { return sweep_tab_; }

signals:
    // A network the user opened (a file, the library, a stored run): views that edit it follow.
    void networkLoaded(const partita::Network& network, const QString& path);
    void methodRefusalChanged(const QString& html);  // RunController::methodRefusalChanged, passed on

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
    void restoreSettings();
    void rebuildRecentMenu();
    void inputsChanged(bool reshaped);      // the session's new inputs: views, title, actions
    void showRun(const RunPtr& run);        // the session's shown run, in the views
    void updateActions();
    void updateTitle();
    void tabShown();                        // the shown view's undo stack and properties
    // The visualisation tabs (views.cpp): timeline, heatmap, teaching, studies.
    void buildViewTabs();
    void showRunInViews(const RunPtr& run);
    void showChosenTopology();  // the topology view, when it shows no simulation: Simulate's chosen topology
    void registerViews();                   // every tab's view and export targets (view_entries.cpp)
    const ViewEntry* findView(const QString& name) const;  // by --view name, aliases followed
    // For view_entries.cpp, network_editor.cpp, sweep_tab.cpp and topology_editor_tab.cpp (edited on
    // another branch): they pass to runs() and loader(), and go once those files call them.
    const GuiMethod& method() const { return runs_->method(); }
    bool simulationMethod() const { return runs_->simulationMethod(); }
    void compareWithBaselines() { runs_->compareWithBaselines(); }
    void explore(const std::vector<CellRef>& cells) { runs_->explore(cells); }

public:
    void chooseMethod(const QString& key) { runs_->chooseMethod(key); }
    bool openStoredRun(std::int64_t id) { return runs_->openStoredRun(id); }
    QString useNetwork(Network network, const QString& origin) { return loader_->useNetwork(std::move(network), origin); }
    bool loadArray(const QString& path) { return loader_->loadArray(path); }

private:
    Options options_;
    ViewRegistry views_;
    ExportActions exports_{views_, *this};
    JobRunner jobs_;
    RunStore store_;
    Session session_{store_};
    QString last_error_, last_notice_;

    RunController* runs_ = nullptr;
    InputLoader* loader_ = nullptr;
    QUndoGroup undo_group_;
    SimulationController* simulator_ = nullptr;

    GridView* grid_ = nullptr;
    QStackedWidget* grid_stack_ = nullptr;   // the grid page, or grid_na_
    QWidget* grid_page_ = nullptr;
    QLabel* grid_na_ = nullptr;
    SimulationView* simulation_ = nullptr;
    GanttView* gantt_ = nullptr;
    CommHeatmap* heatmap_ = nullptr;
    TopologyPanel* topology_panel_ = nullptr;  // the tab: the view under its colouring bar
    TopologyView* topology_view_ = nullptr;
    TeachingView* teaching_ = nullptr;
    StudyView* studies_ = nullptr;
    bool docks_sized_ = false;  // showEvent: narrower docks on a narrow window, once
    bool geometry_restored_ = false, placed_ = false;  // fitToScreen: keep a saved place, else centre once
    bool props_hidden_ = false;        // the properties dock stepped aside (MPT/L2S, a view with its own)
    bool props_wanted_ = true;         // whether the user wants it shown (where it does not step aside)
    bool props_stepping_ = false;      // the window, not the user, is showing or hiding it
    void updatePropertiesDock();
    InputsPtr studied_inputs_;          // the inputs the scale study was drawn for
    bool topology_study_done_ = false;  // Fig. 12 depends on no input: drawn once
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
    JobStatus* status_ = nullptr;  // the status line, the job's progress and Cancel
    QMenu* recent_menu_ = nullptr;
    std::map<QString, QAction*> actions_;
    NetworkEditor* editor_ = nullptr;
    TopologyEditorTab* topology_editor_ = nullptr;
    SweepTab* sweep_tab_ = nullptr;
};

}  // namespace partita::gui
