#pragma once
// The tabs that draw the shown run besides the grid: Timeline, Heatmap, Topology,
// Teaching and Studies, with their view entries and exports. They follow the shared Selection, never
// each other. A new run marks the Timeline, the Topology and the Studies stale; each is drawn when its
// tab is shown, or before it is exported or captured. The Heatmap and the Teaching view are cheap and
// follow at once (the grid's cell reaches them while hidden; L2S writes into the Heatmap).
// The study sweeps run in a JobRunner of the views' own (progress and Cancel in the status bar like
// any job; a new study cancels an older one, never the user's run, and its result is not a run).
#include <memory>
#include <set>

#include <QObject>

#include "app/gui/job_runner.h"
#include "core/run/run.h"

class QWidget;

namespace partita {
class CommHeatmap;
class GanttView;
class GridView;
class NetworkTabView;
class StudyView;
class TeachingView;
class TopologyPanel;
class TopologyView;
}  // namespace partita

namespace partita::gui {

class MainWindow;

class RunViews : public QObject {
    Q_OBJECT
public:
    explicit RunViews(MainWindow& window);  // after the plan tabs (plan_views.h): follows their grid and network

    void show(const RunPtr& run);  // the session's shown run: drawn in the shown tab, the rest marked stale
    bool stale(const QWidget* view) const { return stale_.count(view) > 0; }
    void refresh(QWidget* view);   // draws `view` if stale
    void registerViews();          // their view entries and export targets (after the window's own)
    JobRunner& jobs() { return jobs_; }  // the study sweeps (tests wait for it to be idle)
    // Cancel: the study job stops, what it finishes anyway is dropped, and the tab is drawn when next shown.
    void cancelStudies();

private:
    void subscribe();
    void showChosenTopology();  // the topology view, when it shows no simulation: Simulate's chosen topology
    void drawTimeline();
    void drawTopology();
    void drawStudies();

    MainWindow& window_;
    GridView* grid_;
    NetworkTabView* network_;
    GanttView* gantt_ = nullptr;
    CommHeatmap* heatmap_ = nullptr;
    TopologyPanel* topology_panel_ = nullptr;
    TopologyView* topology_view_ = nullptr;
    TeachingView* teaching_ = nullptr;
    StudyView* studies_ = nullptr;
    RunPtr run_;
    std::set<const QWidget*> stale_;
    bool topology_selected_ = false;    // a device or link was chosen while the topology was stale
    void studied(quint64 generation);  // the study job's plots, into the Studies tab

    JobRunner jobs_;
    InputsPtr studied_inputs_;          // the inputs the scale study was drawn (or is being drawn) for
    bool topology_study_done_ = false;  // Fig. 12 depends on no input: drawn once
    struct Studies;
    std::shared_ptr<Studies> studies_job_;  // what the newest study job fills
    quint64 studies_generation_ = 0;
};

}  // namespace partita::gui
