#include "app/gui/plan_views.h"

#include <QLabel>
#include <QScrollArea>
#include <QSplitter>
#include <QStackedWidget>

#include "app/gui/run_controller.h"
#include "app/gui/session.h"
#include "app/gui/view_registry.h"
#include "app/gui/window_services.h"
#include "widgets/common/qt_text.h"
#include "widgets/common/task_tabs.h"
#include "widgets/compare/compare_view.h"
#include "widgets/explore/explore_view.h"
#include "widgets/grid/grid_view.h"
#include "widgets/grid/metrics_panel.h"
#include "widgets/network/network_tab_view.h"
#include "widgets/simulation/simulation_view.h"

namespace partita::gui {

PlanViews::PlanViews(WindowServices& window, RunController& runs, QObject* parent)
    : QObject(parent), window_(window), runs_(runs) {
    ViewRegistry& views = window.views();
    TaskTabs* tabs = views.tabs();
    grid_stack_ = new QStackedWidget(tabs);
    auto* grid_page = new QSplitter(Qt::Vertical, grid_stack_);
    grid_page->setObjectName("grid-page");
    grid_page_ = grid_page;
    // The grid scrolls rather than widening the window: ResNet-101's columns need ~3,000 px.
    auto* grid_scroll = new QScrollArea(grid_page);
    grid_scroll->setObjectName("grid-scroll");
    grid_scroll->setWidgetResizable(true);
    grid_scroll->setFrameShape(QFrame::NoFrame);
    grid_ = new GridView(grid_scroll);
    grid_scroll->setWidget(grid_);
    metrics_ = new MetricsPanel(grid_page);
    grid_page->addWidget(grid_scroll);
    grid_page->addWidget(metrics_);
    grid_page->setStretchFactor(0, 3);
    grid_page->setStretchFactor(1, 2);
    grid_page->setSizes({430, 300});
    grid_stack_->addWidget(grid_page);
    grid_na_ = new QLabel(grid_stack_);
    grid_na_->setObjectName("grid-not-applicable");
    grid_na_->setAlignment(Qt::AlignCenter);
    grid_na_->setWordWrap(true);
    grid_na_->setMargin(24);
    grid_stack_->addWidget(grid_na_);
    views.addTab("grid", grid_stack_);
    simulation_ = new SimulationView(tabs);
    views.addTab("simulation", simulation_);
    compare_ = new CompareView(tabs);
    views.addTab("compare", compare_);
    explore_ = new ExploreView(tabs);
    views.addTab("explore", explore_);
    network_ = new NetworkTabView(tabs);
    views.addTab("network", network_);
    // Besides the tabs, what views().get<T>() finds.
    for (QObject* o : std::initializer_list<QObject*>{grid_, metrics_, this}) views.remember(o);
    connectViews();
}

void PlanViews::connectViews() {
    Session& session = window_.session();
    ViewRegistry& views = window_.views();
    // Links name a method to switch to ("method:accpar") or lead to the Simulation tab.
    connect(grid_na_, &QLabel::linkActivated, this, [this, &views](const QString& link) {
        if (!link.startsWith("method:")) return views.show(simulation_);
        runs_.chooseMethod(link.mid(7));
    });
    connect(grid_, &GridView::cellToggled, this, [this, &session](int level, int layer) {
        session.toggleCell(level, layer);
        grid_->setCurrentCell(level, layer);
    });
    connect(explore_, &ExploreView::exploreRequested, &runs_, &RunController::explore);
    connect(explore_, &ExploreView::applyRequested, this, [this, &session, &views](const Grid& g) {
        session.applyGrid(g);
        views.show(grid_stack_);
    });
    // The workflow's answers: the Grid tab's note, Compare and Explore.
    connect(&runs_, &RunController::cannotPlan, this, [this](const QString& html) {
        grid_stack_->setCurrentWidget(grid_na_);
        grid_na_->setText(html);
    });
    connect(&runs_, &RunController::compared, this,
            [this, &views](const std::vector<RunPtr>& runs, const QStringList& refused) {
                compare_->setRuns(runs, refused);
                views.show(compare_);
            });
    connect(&runs_, &RunController::explored, explore_, &ExploreView::setResult);
    // Before the window's own: the views that draw the run besides the grid read the grid's cell.
    connect(&session, &Session::runChanged, this, &PlanViews::show);
    connect(&session, &Session::inputsChanged, this, [this, &session](bool reshaped) {
        if (reshaped) explore_->setInputs(session.inputs());
        network_->setInputs(session.inputs());
    });
    connect(&session, &Session::runStored, this, [this](const RunPtr& run, const RunPtr& stored) {
        if (explore_->result() == run) explore_->setResult(stored);
    });
}

void PlanViews::show(const RunPtr& run) {
    // A simulated strategy without a grid has nothing for the grid and its metrics to show.
    const bool gridless = run && run->isSimulation() && run->eval().levels == 0;
    grid_stack_->setCurrentWidget(gridless ? static_cast<QWidget*>(grid_na_) : grid_page_);
    if (gridless)
        grid_na_->setText(tr("<p><b>%1</b> has no grid.</p><p>The grid and its metrics show hierarchical HyPar and "
                             "AccPar strategies; this simulated SOAP strategy has none (simulate <i>Current grid, "
                             "lowered</i> to see one here). Its results are in the <a href='simulation'>Simulation "
                             "tab</a>.</p>")
                              .arg(q(run->name).toHtmlEscaped()));
    grid_->setRun(gridless ? nullptr : run);
    metrics_->setRun(gridless ? nullptr : run);
    simulation_->setRun(run);
    network_->setRun(run);
}

bool PlanViews::gridNotApplicableShown() const {
    return grid_stack_->currentWidget() == static_cast<QWidget*>(grid_na_);
}

}  // namespace partita::gui
