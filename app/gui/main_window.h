#pragma once
// The main window: library, runs and properties docks around a tab area (the plan tabs: PlanViews;
// the run's other views: RunViews; the editors, the sweep, the methods' tabs), a toolbar, and a status
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

namespace partita {
class ParamsEditor;
class SimParamsEditor;
}  // namespace partita

namespace partita::gui {

class TaskTabs;
class LibraryDock;
class NetworkEditor;
class TopologyEditorTab;
class RunsDock;
class RunViews;
class SweepTab;

class ActionSet;
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
    // Simulate and MCMC: topologies, strategy files and their jobs (choosing one makes Simulate the method).
    SimulationController& simulation() override { return *simulator_; }

    // WindowServices: what the simulation controller and the methods use.
    void showStatus(const QString& text) override;
    void showMessage(const QString& text, int timeout_ms) override;
    void reportError(const QString& message) override;
    void reportNotice(const QString& title, const QString& summary, const QStringList& lines) override;
    void addRecentFile(const QString& path) override;
    // The actions by name ("run", "cancel", …), the menus, the toolbar's method selector.
    ActionSet& actionSet() { return *actions_; }
    quint64 startStored(const QString& label, JobRunner::NotedWork work, JobRunner::OnCancel on_cancel) override {
        return runs_->startStored(label, std::move(work), on_cancel);
    }
    QWidget* dialogParent() override { return this; }
    void addMethodTab(QWidget* view, const QString& title) override { views_.addTab(view, title, ViewTask::Methods); }
    QUndoGroup& undoGroup() { return undo_group_; }  // the grid's edits, or the shown view's (ViewEntry::undo)
    // Figures and tables by target (each tab registers its own, e.g. plan_view_entries.cpp; the methods theirs).
    ExportActions& exports() { return exports_; }
    // (--screenshot and --cell: screenshot.h.)
    void showView(const QString& view) override { views_.showNamed(view); }

    JobRunner& jobs() override { return jobs_; }
    const Options& options() const { return options_; }
    bool dialogsAllowed() const { return options_.screenshot.isEmpty(); }  // none while rendering a screenshot
    // The inputs, the shown and searched runs and the grid's edits (Edit ▸ Undo / Redo).
    Session& session() override { return session_; }
    // The results database: stores, renames and deletes runs; the runs dock follows it.
    RunStore& runStore() override { return store_; }
    QString lastError() const { return last_error_; }
    // The last notice (what an import approximated): its summary, then one line per item.
    QString lastNotice() const { return last_notice_; }
    ViewRegistry& views() override { return views_; }  // methods add their views here (GuiMethod::buildViews)
    // (The views themselves: views().get<GanttView>(); the plan tabs' part: get<PlanViews>().)

signals:
    // A network the user opened (a file, the library, a stored run): views that edit it follow.
    void networkLoaded(const partita::Network& network, const QString& path);

protected:
    void closeEvent(QCloseEvent* event) override;
    void showEvent(QShowEvent* event) override;
    // Files dropped on the window open as File ▸ Open opens them (an ONNX model asks for its input sizes).
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;


private:
    void buildDocks();
    void buildCentral();
    void tabShown();                        // the shown view's undo stack and properties

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

    RunViews* run_views_ = nullptr;  // Timeline, Heatmap, Topology, Teaching, Studies
    bool docks_sized_ = false;  // showEvent: narrower docks on a narrow window, once
    bool geometry_restored_ = false, placed_ = false;  // fitToScreen: keep a saved place, else centre once
    bool props_hidden_ = false;        // the properties dock stepped aside (MPT/L2S, a view with its own)
    bool props_wanted_ = true;         // whether the user wants it shown (where it does not step aside)
    bool props_stepping_ = false;      // the window, not the user, is showing or hiding it
    void updatePropertiesDock();
    SimParamsEditor* sim_params_ = nullptr;
    ParamsEditor* params_ = nullptr;
    LibraryDock* library_ = nullptr;
    RunsDock* runs_dock_ = nullptr;
    TaskTabs* tabs_ = nullptr;
    JobStatus* status_ = nullptr;  // the status line, the job's progress and Cancel
    ActionSet* actions_ = nullptr;  // File, Edit, Run, View, Help and the toolbar
    NetworkEditor* editor_ = nullptr;
    TopologyEditorTab* topology_editor_ = nullptr;
    SweepTab* sweep_tab_ = nullptr;
};

}  // namespace partita::gui
