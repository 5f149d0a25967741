// Every tab of the window as a named view with its export targets (--view,
// --screenshot, File ▸ Export): the one place a view's name meets its widget.
#include <QDockWidget>
#include <QFileInfo>
#include <QLabel>
#include <QStackedWidget>
#include <QTableWidget>
#include <qcustomplot.h>

#include <QTableWidget>

#include "widgets/explore/explore_view.h"
#include "app/gui/export_entries.h"
#include "app/gui/library_dock.h"
#include "app/gui/main_window.h"
#include "app/gui/simulation_controller.h"
#include "app/gui/runs_dock.h"
#include "core/util/format.h"
#include "widgets/charts/study_view.h"
#include "widgets/common/figure_export.h"
#include "widgets/compare/compare_view.h"
#include "widgets/explore/explore_surface.h"
#include "widgets/grid/grid_view.h"
#include "widgets/grid/metrics_panel.h"
#include "widgets/heatmap/comm_heatmap_view.h"
#include "widgets/network/network_graph.h"
#include "widgets/network/network_table.h"
#include "widgets/network/network_tab_view.h"
#include "widgets/simulation/simulation_view.h"
#include "widgets/teaching/teaching_view.h"
#include "widgets/timeline/gantt_view.h"
#include "widgets/topology/topology_panel.h"
#include "widgets/topology/topology_view.h"

namespace partita::gui {

namespace {

// Every point of an exploration: its code, one column per explored cell, and its numbers.
CsvTable explorationCsv(const Run& run) {
    CsvTable t;
    const ExploreResult& x = *run.exploration;
    const auto& layers = run.inputs->layers;
    t.header.push_back("code");
    for (const CellRef& c : x.cells)
        t.header.push_back(layers[static_cast<size_t>(c.layer)].name + "@H" + std::to_string(c.level + 1));
    for (const char* h : {"total_elements", "time_step_s", "perf_vs_dp_x"}) t.header.push_back(h);
    const int k = static_cast<int>(x.cells.size());
    for (std::uint64_t code = 0; code < x.size(); ++code) {
        std::vector<std::string> row{std::to_string(code)};
        const std::string d = digits(code, x.radix, k, 0, k);
        for (char c : d) row.push_back(splitShortName(static_cast<Split>(c - '0')));
        row.push_back(formatNumber(x.total_elements[code]));
        row.push_back(formatNumber(x.time_step_s[code]));
        row.push_back(formatNumber(x.perfVsDp(code)));
        t.rows.push_back(std::move(row));
    }
    return t;
}

}  // namespace

void MainWindow::registerViews() {
    const auto no_run = [this] { return session_.currentRun() ? QString() : tr("Nothing to export: no run is shown"); };
    const auto no_compare = [this] {
        return compare_->runs().empty() ? tr("Nothing to export: the comparison is empty") : QString();
    };
    const auto no_simulation = [this] {
        return session_.currentRun() && simulation_->hasSimulation() ? QString()
                                                        : tr("Nothing to export: the shown run is not simulated");
    };
    const auto no_exploration = [this] {
        return explore_->result() ? QString() : tr("Nothing to export: no exploration has run");
    };
    const auto empty_view = [](const QString& view, std::function<CsvTable()> table) {
        return [view, table] {
            return table().rows.empty() ? tr("Nothing to export: the %1 view is empty").arg(view) : QString();
        };
    };
    // The grid page, or the note that stands in for it.
    const auto grid_shot = [this](QWidget* part) {
        return [this, part] { return gridNotApplicableShown() ? static_cast<QWidget*>(grid_na_) : part; };
    };

    views_.add({"main", nullptr, {}, {}, {}, [this] {
                    if (!method().mainView().isEmpty()) return method().mainView();
                    const RunPtr run = session_.currentRun();
                    return run && run->isSimulation() ? QString("simulation") : QString("grid");
                }});
    views_.add({"grid", grid_stack_, grid_shot(grid_), {},
                {figureTarget("grid", tr("Grid"), grid_, [this] { return grid_->csv(); }, no_run),
                 widgetTarget("metrics", tr("Metrics"), [this] { return metrics_; }, [this] { return metrics_->csv(); },
                              no_run)}});
    views_.add({"metrics", grid_stack_, grid_shot(metrics_), {}, {}});
    views_.add({"simulation", simulation_, [this] { return simulation_; },
                [this] {
                    if (!simulation_->hasSimulation()) simulator_->runSimulation();  // the chosen method, simulated
                },
                {widgetTarget("simulation", tr("Simulation"), [this] { return simulation_; },
                              [this] { return simulation_->resourcesCsv(); }, no_simulation),
                 widgetTarget("simulation-starts", tr("MCMC starts"), [this] { return simulation_->startsTable(); },
                              [this] { return simulation_->startsCsv(); },
                              [this, no_simulation] {
                                  if (QString why = no_simulation(); !why.isEmpty()) return why;
                                  return session_.currentRun()->simulation->mcmc ? QString()
                                                                    : tr("Nothing to export: the shown run is not "
                                                                         "an MCMC search");
                              }),
                 {"simulation-traffic", tr("Device traffic (CSV)"), [this, no_simulation](const QString& path, bool csv) {
                      if (QString why = no_simulation(); !why.isEmpty()) return why;
                      if (!csv) return tr("%1: the traffic matrix exports as CSV only").arg(path);
                      return exportCsv(simulation_->trafficCsv(), path);
                  }}}});
    views_.add({"timeline", gantt_, [this] { return gantt_; },
                [this] {
                    if (!simulation_->hasSimulation()) simulator_->runSimulation();
                },
                {figureTarget("timeline", tr("Timeline"), gantt_, [this] { return gantt_->csv(); },
                              empty_view("timeline", [this] { return gantt_->csv(); }))}});
    views_.add({"heatmap", heatmap_, [this] { return heatmap_; }, {},
                {figureTarget("heatmap", tr("Heatmap"), heatmap_, [this] { return heatmap_->csv(); },
                              empty_view("heatmap", [this] { return heatmap_->csv(); }))}});
    // With Simulate or MCMC chosen, the screenshot runs it and shows the load; else the chosen topology.
    views_.add({"topology", topology_panel_, [this] { return topology_panel_; },
                [this] {
                    if (simulationMethod() && !simulation_->hasSimulation()) simulator_->runSimulation();
                    showChosenTopology();
                },
                {figureTarget("topology", tr("Topology"), topology_view_, [this] { return topology_view_->csv(); },
                              empty_view("topology", [this] { return topology_view_->csv(); }))}});
    views_.add({"teaching", teaching_, [this] { return teaching_; }, {},
                {figureTarget("teaching", tr("Teaching figure"), teaching_, [this] { return teaching_->csv(); },
                              empty_view("teaching", [this] { return teaching_->csv(); }))}});
    views_.add({"studies", studies_, [this] { return studies_; }, {},
                {figureTarget("studies", tr("Study plot"), studies_, [this] { return studies_->csv(); },
                              empty_view("studies", [this] { return studies_->csv(); }))}});
    views_.add({"compare", compare_, [this] { return compare_; },
                [this] {
                    if (compare_->runs().empty()) compareWithBaselines();
                },
                {widgetTarget("compare", tr("Comparison"), [this] { return compare_; },
                              [this] { return compare_->metricsCsv(); }, no_compare),
                 widgetTarget("compare-metrics", tr("Comparison metrics"), [this] { return compare_->metricsTable(); },
                              [this] { return compare_->metricsCsv(); }, no_compare),
                 widgetTarget("level-chart", tr("Communication per level chart"),
                              [this] { return compare_->levelChart(); }, [this] { return compare_->levelCommCsv(); },
                              no_compare),
                 widgetTarget("time-chart", tr("Step time chart"), [this] { return compare_->timeChart(); },
                              [this] { return compare_->metricsCsv(); }, no_compare)}});
    views_.add({"explore", explore_, [this] { return explore_; },
                [this] {
                    if (!explore_->result()) explore(explore_->cells());
                },
                {widgetTarget("explore", tr("Exploration"), [this] { return explore_; },
                              [this] { return explorationCsv(*explore_->result()); }, no_exploration),
                 figureTarget("surface", tr("Exploration surface"), explore_->surface(),
                              [this] { return explorationCsv(*explore_->result()); }, no_exploration)}});
    // The graph is laid out in a worker when large: screenshots and exports wait for it.
    NetworkGraphView* graph = network_view_->graph();
    const auto no_graph = [graph] {
        graph->waitForLayout();
        if (!graph->graphLayout().empty()) return QString();
        return graph->problem().isEmpty() ? tr("Nothing to export: no network is drawn") : graph->problem();
    };
    views_.add({"network", network_view_, [this] { return network_view_; }, [graph] { graph->waitForLayout(); },
                {figureTarget("network-graph", tr("Network graph"), graph, [graph] { return graph->csv(); }, no_graph),
                 widgetTarget("network", tr("Network table"), [this] { return network_view_->table(); },
                              [this] { return network_view_->csv(); }),
                 {"network-dot", tr("Network graph (DOT)"),
                  [graph](const QString& path, bool csv) {
                      if (csv) return exportCsv(graph->csv(), path);
                      const QString suffix = QFileInfo(path).suffix().toLower();
                      if (suffix != "dot" && suffix != "gv")
                          return tr("%1: the DOT export writes .dot or .gv (or the node table as .csv)").arg(path);
                      if (!graph->inputs()) return tr("Nothing to export: no network is loaded");
                      return exportText(graph->dot(), path);
                  },
                  {"dot", "gv"}}}});
    views_.add({"runs", nullptr, [this] { return runs_dock_; }, {}, {}});
    views_.add({"library", nullptr, [this] { return library_; }, {}, {}});
    views_.add({"params", nullptr, [this] { return findChild<QDockWidget*>("properties"); }, {}, {}});
}

}  // namespace partita::gui
