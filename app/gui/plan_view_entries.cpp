// The plan tabs as named views with their export targets (--view, --screenshot, File ▸ Export):
// where their names meet their widgets.
#include <QFileInfo>
#include <QLabel>
#include <QStackedWidget>
#include <QTableWidget>
#include <qcustomplot.h>

#include "app/gui/export_entries.h"
#include "app/gui/plan_views.h"
#include "app/gui/run_controller.h"
#include "app/gui/session.h"
#include "app/gui/simulation_controller.h"
#include "app/gui/view_registry.h"
#include "app/gui/window_services.h"
#include "core/util/format.h"
#include "widgets/explore/explore_view.h"
#include "widgets/common/figure_export.h"
#include "widgets/compare/compare_view.h"
#include "widgets/explore/explore_surface.h"
#include "widgets/grid/grid_view.h"
#include "widgets/grid/metrics_panel.h"
#include "widgets/network/network_graph.h"
#include "widgets/network/network_table.h"
#include "widgets/network/network_tab_view.h"
#include "widgets/simulation/simulation_view.h"

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

void PlanViews::registerViews() {
    Session& session = window_.session();
    ViewRegistry& views = window_.views();
    const auto no_run = [&session] { return session.currentRun() ? QString() : tr("Nothing to export: no run is shown"); };
    const auto no_compare = [this] {
        return compare_->runs().empty() ? tr("Nothing to export: the comparison is empty") : QString();
    };
    const auto no_simulation = [this, &session] {
        return session.currentRun() && simulation_->hasSimulation() ? QString()
                                                        : tr("Nothing to export: the shown run is not simulated");
    };
    const auto no_exploration = [this] {
        return explore_->result() ? QString() : tr("Nothing to export: no exploration has run");
    };
    // The grid page, or the note that stands in for it.
    const auto grid_shot = [this](QWidget* part) {
        return [this, part] { return gridNotApplicableShown() ? static_cast<QWidget*>(grid_na_) : part; };
    };

    views.add({"main", nullptr, {}, {}, {}, [this, &session] {
                    if (!runs_.method().mainView().isEmpty()) return runs_.method().mainView();
                    const RunPtr run = session.currentRun();
                    return run && run->isSimulation() ? QString("simulation") : QString("grid");
                }});
    views.add({"grid", grid_stack_, grid_shot(grid_), {},
                {figureTarget("grid", tr("Grid"), grid_, [this] { return grid_->csv(); }, no_run),
                 widgetTarget("metrics", tr("Metrics"), [this] { return metrics_; }, [this] { return metrics_->csv(); },
                              no_run)}});
    views.add({"metrics", grid_stack_, grid_shot(metrics_), {}, {}});
    views.add({"simulation", simulation_, [this] { return simulation_; },
                [this] {
                    if (!simulation_->hasSimulation()) window_.simulation().runSimulation();  // the chosen method, simulated
                },
                {widgetTarget("simulation", tr("Simulation"), [this] { return simulation_; },
                              [this] { return simulation_->resourcesCsv(); }, no_simulation),
                 widgetTarget("simulation-starts", tr("MCMC starts"), [this] { return simulation_->startsTable(); },
                              [this] { return simulation_->startsCsv(); },
                              [&session, no_simulation] {
                                  if (QString why = no_simulation(); !why.isEmpty()) return why;
                                  return session.currentRun()->simulation->mcmc ? QString()
                                                                    : tr("Nothing to export: the shown run is not "
                                                                         "an MCMC search");
                              }),
                 {"simulation-traffic", tr("Device traffic (CSV)"), [this, no_simulation](const QString& path, bool csv) {
                      if (QString why = no_simulation(); !why.isEmpty()) return why;
                      if (!csv) return tr("%1: the traffic matrix exports as CSV only").arg(path);
                      return exportCsv(simulation_->trafficCsv(), path);
                  }}}});
    views.add({"compare", compare_, [this] { return compare_; },
                [this] {
                    if (compare_->runs().empty()) runs_.compareWithBaselines();
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
    views.add({"explore", explore_, [this] { return explore_; },
                [this] {
                    if (!explore_->result()) runs_.explore(explore_->cells());
                },
                {widgetTarget("explore", tr("Exploration"), [this] { return explore_; },
                              [this] { return explorationCsv(*explore_->result()); }, no_exploration),
                 figureTarget("surface", tr("Exploration surface"), explore_->surface(),
                              [this] { return explorationCsv(*explore_->result()); }, no_exploration)}});
    // The graph is laid out in a worker when large: screenshots and exports wait for it.
    NetworkGraphView* graph = network_->graph();
    const auto no_graph = [graph] {
        graph->waitForLayout();
        if (!graph->graphLayout().empty()) return QString();
        return graph->problem().isEmpty() ? tr("Nothing to export: no network is drawn") : graph->problem();
    };
    views.add({"network", network_, [this] { return network_; }, [graph] { graph->waitForLayout(); },
                {figureTarget("network-graph", tr("Network graph"), graph, [graph] { return graph->csv(); }, no_graph),
                 widgetTarget("network", tr("Network table"), [this] { return network_->table(); },
                              [this] { return network_->csv(); }),
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
}

}  // namespace partita::gui
