// MainWindow's figure/table export and the --screenshot renderer.
#include <QApplication>
#include <QDockWidget>
#include <QFileInfo>
#include <QImage>
#include <QLabel>
#include <QSplitter>
#include <QTabWidget>

#include "app/gui/explore_view.h"
#include "app/gui/library_dock.h"
#include "app/gui/main_window.h"
#include "app/gui/network_view.h"
#include "app/gui/runs_dock.h"
#include <qcustomplot.h>

#include "widgets/heatmap/comm_heatmap_view.h"
#include "widgets/compare/compare_view.h"
#include "widgets/explore/explore_surface.h"
#include "widgets/common/figure_export.h"
#include "widgets/timeline/gantt_view.h"
#include "widgets/grid/grid_view.h"
#include "widgets/l2s/l2s_view.h"
#include "widgets/charts/layer_bars.h"
#include "widgets/grid/choice_grid.h"
#include "widgets/mpt/mpt_view.h"
#include "widgets/grid/metrics_panel.h"
#include "widgets/editors/params_editor.h"
#include "widgets/simulation/simulation_view.h"
#include "widgets/charts/study_view.h"
#include "widgets/charts/sweep_chart.h"
#include "widgets/teaching/teaching_view.h"

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

std::vector<ExportChoice> MainWindow::shownExportTargets() const {
    using T = std::vector<ExportChoice>;
    const QWidget* tab = shownView();
    const std::pair<const QWidget*, T> by_tab[] = {
        {grid_stack_, T{{"grid", tr("Grid")}, {"metrics", tr("Metrics")}}},
        {simulation_, T{{"simulation", tr("Simulation")}, {"simulation-starts", tr("MCMC starts")},
                        {"simulation-traffic", tr("Device traffic (CSV)")}}},
        {compare_, T{{"compare", tr("Comparison")}, {"compare-metrics", tr("Comparison metrics")},
                     {"level-chart", tr("Communication per level chart")}, {"time-chart", tr("Step time chart")}}},
        {explore_, T{{"explore", tr("Exploration")}, {"surface", tr("Exploration surface")}}},
        {network_view_, T{{"network", tr("Network table")}}},
        {gantt_, T{{"timeline", tr("Timeline")}}},
        {heatmap_, T{{"heatmap", tr("Heatmap")}}},
        {teaching_, T{{"teaching", tr("Teaching figure")}}},
        {studies_, T{{"studies", tr("Study plot")}}},
        {mpt_, T{{"mpt", tr("MPT view")}, {"mpt-grid", tr("MPT choice grid")}, {"mpt-bars", tr("MPT time per layer")},
                 {"mpt-sweep", tr("MPT scaling")}, {"mpt-compare", tr("MPT configurations")}}},
        {l2s_, T{{"l2s", tr("L2S view")}, {"l2s-grid", tr("L2S choice grid")}, {"l2s-traffic", tr("L2S traffic matrix")},
                 {"l2s-links", tr("L2S link loads")}, {"l2s-bars", tr("L2S cycles per layer")},
                 {"l2s-sweep", tr("L2S core count")}, {"l2s-compare", tr("L2S scenarios")}}}};
    for (const auto& [widget, targets] : by_tab)
        if (widget == tab) return targets;
    return {};
}

QStringList MainWindow::exportTargets() {
    return {"grid",       "metrics",  "simulation", "simulation-starts", "simulation-traffic",
            "compare",    "compare-metrics", "compare-levels", "level-chart", "time-chart",
            "explore",    "surface",  "timeline",   "heatmap",           "teaching",
            "studies",    "network",  "mpt",        "mpt-grid",          "mpt-bars",
            "mpt-sweep",  "mpt-compare", "l2s",     "l2s-grid",          "l2s-traffic",
            "l2s-links",  "l2s-bars", "l2s-sweep",  "l2s-compare"};
}

QString MainWindow::exportTarget(const QString& target, const QString& path) {
    const bool csv = QFileInfo(path).suffix().compare("csv", Qt::CaseInsensitive) == 0;
    FigureFormat format;
    if (!csv && !figureFormatFor(path, &format))
        return tr("%1: unknown export format (use .png, .svg, .pdf or .csv)").arg(path);
    if (target.startsWith("mpt") || target.startsWith("l2s")) return exportMethodTarget(target, path);
    const bool no_compare = compare_->runs().empty();
    if (target.startsWith("compare") || target.endsWith("chart")) {
        if (no_compare) return tr("Nothing to export: the comparison is empty");
    } else if (!current_ && target != "network") {
        return tr("Nothing to export: no run is shown");
    }
    FigureOptions options;
    options.title = "Partita — " + target;
    if (target == "grid") return csv ? exportCsv(grid_->csv(), path) : exportFigure(*grid_, path, options);
    if (target == "metrics") return csv ? exportCsv(metrics_->csv(), path) : exportWidget(*metrics_, path, options);
    if (target == "compare")
        return csv ? exportCsv(compare_->metricsCsv(), path) : exportWidget(*compare_, path, options);
    if (target == "compare-metrics") return csv ? exportCsv(compare_->metricsCsv(), path) : exportWidget(*compare_->metricsTable(), path, options);
    if (target == "compare-levels" || target == "level-chart")
        return csv ? exportCsv(compare_->levelCommCsv(), path)
                   : exportWidget(*compare_->levelChart(), path, options);
    if (target == "time-chart")
        return csv ? exportCsv(compare_->metricsCsv(), path)
                   : exportWidget(*compare_->timeChart(), path, options);
    // The figure views: each draws itself for export and gives the data behind it.
    const std::pair<const char*, FigureSource*> figures[] = {
        {"timeline", gantt_}, {"heatmap", heatmap_}, {"teaching", teaching_}, {"studies", studies_}};
    for (const auto& [name, view] : figures)
        if (target == name) {
            const CsvTable table = target == "timeline" ? gantt_->csv()
                                   : target == "heatmap" ? heatmap_->csv()
                                   : target == "teaching" ? teaching_->csv()
                                                          : studies_->csv();
            if (table.rows.empty()) return tr("Nothing to export: the %1 view is empty").arg(target);
            return csv ? exportCsv(table, path) : exportFigure(*view, path, options);
        }
    if (target == "surface") {
        if (!explore_->result()) return tr("Nothing to export: no exploration has run");
        return csv ? exportCsv(explorationCsv(*explore_->result()), path)
                   : exportFigure(*explore_->surface(), path, options);
    }
    if (target == "explore") {
        if (!explore_->result()) return tr("Nothing to export: no exploration has run");
        return csv ? exportCsv(explorationCsv(*explore_->result()), path) : exportWidget(*explore_, path, options);
    }
    if (target.startsWith("simulation")) {
        if (!simulation_->hasSimulation()) return tr("Nothing to export: the shown run is not simulated");
        if (target == "simulation")
            return csv ? exportCsv(simulation_->resourcesCsv(), path) : exportWidget(*simulation_, path, options);
        if (target == "simulation-starts") {
            if (!current_->simulation->mcmc) return tr("Nothing to export: the shown run is not an MCMC search");
            return csv ? exportCsv(simulation_->startsCsv(), path)
                       : exportWidget(*simulation_->startsTable(), path, options);
        }
        if (target == "simulation-traffic") {
            if (!csv) return tr("%1: the traffic matrix exports as CSV only").arg(path);
            return exportCsv(simulation_->trafficCsv(), path);
        }
    }
    if (target == "network") return csv ? exportCsv(network_view_->csv(), path) : exportWidget(*network_view_, path, options);
    return tr("Unknown export target '%1' (use %2)").arg(target, exportTargets().join(", "));
}

QString MainWindow::exportMethodTarget(const QString& target, const QString& path) {
    const bool csv = QFileInfo(path).suffix().compare("csv", Qt::CaseInsensitive) == 0;
    FigureOptions options;
    options.title = "Partita — " + target;
    const bool is_mpt = target.startsWith("mpt");
    if (is_mpt ? !mpt_->hasEvaluation() : !l2s_->hasEvaluation())
        return tr("Nothing to export: %1 has not run (choose it as the method and Run)").arg(is_mpt ? "MPT" : "L2S");
    const QString part = target.section('-', 1);
    ChoiceGrid* grid = is_mpt ? mpt_->grid() : l2s_->grid();
    LayerBars* bars = is_mpt ? mpt_->bars() : l2s_->bars();
    if (part.isEmpty()) return csv ? exportCsv(is_mpt ? mpt_->compareCsv() : l2s_->compareCsv(), path)
                                   : exportWidget(is_mpt ? static_cast<QWidget&>(*mpt_) : *l2s_, path, options);
    if (part == "grid") return csv ? exportCsv(grid->csv(), path) : exportFigure(*grid, path, options);
    if (part == "bars") return csv ? exportCsv(bars->csv(), path) : exportFigure(*bars, path, options);
    if (part == "sweep") {
        SweepChart* sweep = is_mpt ? mpt_->sweepChart() : l2s_->sweepChart();
        return csv ? exportCsv(sweep->csv(), path) : exportFigure(*sweep, path, options);
    }
    if (part == "compare")
        return csv ? exportCsv(is_mpt ? mpt_->compareCsv() : l2s_->compareCsv(), path)
                   : exportWidget(is_mpt ? *mpt_->compareTable() : *l2s_->compareTable(), path, options);
    if (is_mpt || (part != "traffic" && part != "links"))
        return tr("Unknown export target '%1' (use %2)").arg(target, exportTargets().join(", "));
    CommHeatmap* map = part == "traffic" ? l2s_->trafficView() : l2s_->linkView();
    return csv ? exportCsv(map->csv(), path) : exportFigure(*map, path, options);
}

void MainWindow::showView(const QString& view) {
    if (view == "mpt" || (view == "main" && methodKey() == "mpt")) showMpt();
    else if (view == "l2s" || (view == "main" && methodKey() == "l2s")) showL2s();
    else if (view == "main" && current_ && current_->isSimulation()) showTab(simulation_);
    else if (view == "grid" || view == "metrics" || view == "main") tabs_->setCurrentIndex(0);
    else if (view == "simulation") showTab(simulation_);
    else if (view == "compare") showTab(compare_);
    else if (view == "explore") showTab(explore_);
    else if (view == "network") showTab(network_view_);
    else if (view == "timeline") showTab(gantt_);
    else if (view == "heatmap") showTab(heatmap_);
    else if (view == "teaching") showTab(teaching_);
    else if (view == "studies") showTab(studies_);
}

bool MainWindow::saveScreenshot(const QString& path, const QString& view) {
    jobs_.waitForIdle();
    if (view == "compare" && compare_->runs().empty()) compareWithBaselines();
    // The chosen method is not simulated: simulate it for these two views.
    if ((view == "simulation" || view == "timeline") && !simulation_->hasSimulation()) {
        runSimulation();
        jobs_.waitForIdle();
    }
    if (view == "explore" && !explore_->result()) {
        explore(explore_->cells());
        jobs_.waitForIdle();
    }
    showView(view);
    // A single view gets the whole window's width: docks step aside while it is rendered.
    const bool central = view == "grid" || view == "metrics" || view == "compare" || view == "explore" ||
                         view == "network" || view == "simulation" || view == "timeline" || view == "heatmap" ||
                         view == "teaching" || view == "studies" || view == "mpt" || view == "l2s";
    std::vector<QDockWidget*> hidden;
    if (central)
        for (QDockWidget* dock : findChildren<QDockWidget*>())
            if (dock->isVisible()) {
                dock->hide();
                hidden.push_back(dock);
            }
    QApplication::processEvents();
    QWidget* target = this;
    if (view == "grid" || view == "metrics") target = view == "grid" ? static_cast<QWidget*>(grid_) : metrics_;
    if (central && gridNotApplicableShown() && (view == "grid" || view == "metrics")) target = grid_na_;
    else if (view == "simulation") target = simulation_;
    else if (view == "compare") target = compare_;
    else if (view == "explore") target = explore_;
    else if (view == "network") target = network_view_;
    else if (view == "timeline") target = gantt_;
    else if (view == "heatmap") target = heatmap_;
    else if (view == "teaching") target = teaching_;
    else if (view == "studies") target = studies_;
    else if (view == "mpt") target = mpt_;
    else if (view == "l2s") target = l2s_;
    else if (view == "runs") target = runs_dock_;
    else if (view == "library") target = library_;
    else if (view == "params") target = findChild<QDockWidget*>("properties");
    const bool ok = target->grab().save(path, "PNG");
    for (QDockWidget* dock : hidden) dock->show();
    return ok;
}

}  // namespace partita::gui
