#pragma once
// The tabs that plan and weigh a strategy: Grid (with its metrics, or a note when the shown run has no
// grid), Simulation, Compare, Explore and Network, with their view entries and exports. They follow the
// Session (its inputs and shown run) and the RunController's answers (compared, explored, cannot plan)
// themselves; tests reach the widgets by type, views().get<GridView>(), and this by get<PlanViews>().
// (The tabs that draw the shown run besides the grid: run_views.h.)
#include <QObject>

#include "core/run/run.h"

class QLabel;
class QStackedWidget;

namespace partita {
class CompareView;
class ExploreView;
class GridView;
class MetricsPanel;
class NetworkTabView;
class SimulationView;
}  // namespace partita

namespace partita::gui {

class RunController;
class WindowServices;

class PlanViews : public QObject {
    Q_OBJECT
public:
    // Adds the tabs to window.views() (its tab area is set).
    PlanViews(WindowServices& window, RunController& runs, QObject* parent);
    void registerViews();  // their view entries and export targets, "main" first
    // The Grid tab shows the note ("grid-not-applicable") for a simulated run without a grid.
    bool gridNotApplicableShown() const;

private:
    void show(const RunPtr& run);  // the session's shown run
    void connectViews();

    WindowServices& window_;
    RunController& runs_;
    GridView* grid_ = nullptr;
    QStackedWidget* grid_stack_ = nullptr;  // the grid page, or grid_na_
    QWidget* grid_page_ = nullptr;
    QLabel* grid_na_ = nullptr;
    MetricsPanel* metrics_ = nullptr;
    SimulationView* simulation_ = nullptr;
    CompareView* compare_ = nullptr;
    ExploreView* explore_ = nullptr;
    NetworkTabView* network_ = nullptr;
};

}  // namespace partita::gui
