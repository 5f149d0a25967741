#include "app/gui/run_views.h"

#include <algorithm>
#include <optional>
#include <utility>

#include "app/gui/export_entries.h"
#include "app/gui/input_files.h"
#include "app/gui/main_window.h"
#include "app/gui/simulation_controller.h"
#include "core/io/network_io.h"
#include "core/run/simulation.h"
#include "core/study/plots.h"
#include "widgets/charts/study_view.h"
#include "widgets/common/selection.h"
#include "widgets/common/task_tabs.h"
#include "widgets/grid/grid_view.h"
#include "widgets/heatmap/comm_heatmap_view.h"
#include "widgets/network/network_tab_view.h"
#include "widgets/simulation/simulation_view.h"
#include "widgets/teaching/teaching_view.h"
#include "widgets/timeline/gantt_view.h"
#include "widgets/topology/topology_panel.h"
#include "widgets/topology/topology_view.h"

namespace partita::gui {

namespace {

// HyPar's ten networks (Fig. 12), as far as the examples folder has them.
std::vector<LayerTable> hyparNetworks() {
    std::vector<LayerTable> out;
    for (const char* name : {"sfc", "sconv", "lenet-c", "cifar-c", "alexnet", "vgg-a", "vgg-b", "vgg-c", "vgg-d",
                             "vgg-e"}) {
        try {
            out.push_back(weightedLayers(loadNetwork((examplesDir() + "/networks/" + name + ".json").toStdString())));
        } catch (const std::exception&) {
            // a missing or edited example drops out of the plot; the rest still compare
        }
    }
    return out;
}

}  // namespace

RunViews::RunViews(MainWindow& window)
    : QObject(&window), window_(window), grid_(window.views().get<GridView>()),
      network_(window.views().get<NetworkTabView>()) {
    QWidget* parent = window.views().tabs();
    gantt_ = new GanttView(parent);
    window.views().addTab("timeline", gantt_);
    heatmap_ = new CommHeatmap(parent);
    window.views().addTab("heatmap", heatmap_);
    topology_panel_ = new TopologyPanel(parent);
    topology_view_ = topology_panel_->view();
    window.views().remember(topology_view_);
    window.views().remember(this);
    window.views().addTab("topology", topology_panel_);
    teaching_ = new TeachingView(parent);
    window.views().addTab("teaching", teaching_);
    studies_ = new StudyView(parent);
    window.views().addTab("studies", studies_);
    connect(window.views().tabs(), &TaskTabs::currentChanged, this, [this] {
        QWidget* shown = window_.views().shown();
        refresh(shown);
        if (shown == topology_panel_) showChosenTopology();
    });
    subscribe();
    connect(&jobs_, &JobRunner::finished, this, [this](quint64 generation, const RunPtr&) { studied(generation); });
    // Cancelled (by the user or a newer study): drawn again when next shown.
    connect(&jobs_, &JobRunner::cancelled, this, [this](quint64 generation) {
        if (generation == studies_generation_) cancelStudies();
    });
}

void RunViews::cancelStudies() {
    jobs_.cancel();
    if (!studies_job_) return;
    studies_job_.reset();  // what the job still delivers is dropped
    studied_inputs_.reset();
    stale_.insert(studies_);
}

// Views never talk to each other: each sets the shared selection when the user picks something and
// follows it. The grid owns the cell's range (it clamps), so a cell chosen elsewhere goes to the grid,
// and the cell it settles on reaches the others. Timeline lanes 0..D-1 are the topology's devices in
// its order, then lane D + l is link l.
void RunViews::subscribe() {
    Selection& sel = window_.views().selection();
    connect(grid_, &GridView::currentCellChanged, &sel, [this, &sel](int lv, int ly) { sel.setCell(lv, ly, grid_); });
    connect(teaching_, &TeachingView::cellChanged, &sel, [this, &sel](int lv, int ly) { sel.setCell(lv, ly, teaching_); });
    connect(heatmap_, &CommHeatmap::levelLayerClicked, &sel, [this, &sel](int lv, int ly) { sel.setCell(lv, ly, heatmap_); });
    connect(network_, &NetworkTabView::currentCellChanged, &sel, [this, &sel](int lv, int ly) { sel.setCell(lv, ly, network_); });
    connect(&sel, &Selection::cellChanged, this, [this](int level, int layer, QObject* source) {
        if (source != grid_) return grid_->setCurrentCell(level, layer);
        teaching_->setCell(level, layer);
        heatmap_->setSelectedCell(level, layer);
        network_->setCurrentCell(level, layer);
    });
    // An operator (a Timeline bar) is its layer's cell at the grid's level (operators without weights have none).
    connect(gantt_, &GanttView::operatorClicked, &sel, [this, &sel](int op) { sel.setOperator(op, gantt_); });
    connect(&sel, &Selection::operatorChanged, this, [this, &sel](int op) {
        const RunPtr run = window_.session().currentRun();
        if (!run || !run->inputs) return;
        const auto& layers = run->inputs->layers;
        for (size_t l = 0; l < layers.size(); ++l)
            if (layers[l].op_id == op) sel.setCell(std::max(grid_->currentLevel(), 0), static_cast<int>(l));
    });
    const auto devices = [this] {
        const sim::Topology* t = topology_view_->topology();
        return t ? t->deviceCount() : -1;
    };
    const auto links = [this] {
        const sim::Topology* t = topology_view_->topology();
        return t ? static_cast<int>(t->links.size()) : 0;
    };
    connect(topology_view_, &TopologyView::deviceClicked, &sel, [this, &sel](int d) { sel.setDevice(d, topology_view_); });
    connect(topology_view_, &TopologyView::linkClicked, &sel, [this, &sel](int l) { sel.setLink(l, topology_view_); });
    connect(gantt_, &GanttView::resourceClicked, &sel, [this, &sel, devices, links](int resource) {
        const int d = devices();
        if (d >= 0 && resource >= d + links()) return sel.setDevice(resource - d - links(), gantt_);  // its stream
        if (d >= 0 && resource >= d) return sel.setLink(resource - d, gantt_);
        sel.setDevice(d >= 0 ? resource : -1, gantt_);
    });
    // A stale topology view is told again once it is drawn (drawTopology).
    connect(&sel, &Selection::deviceChanged, this, [this](int device, QObject* source) {
        if (source != gantt_) gantt_->selectResource(device);
        if (source != topology_view_) topology_view_->selectDevice(device);
        topology_selected_ = stale(topology_panel_);
    });
    connect(&sel, &Selection::linkChanged, this, [this, devices](int link, QObject* source) {
        if (source != gantt_ && devices() >= 0) gantt_->selectResource(devices() + link);
        if (source != topology_view_) topology_view_->selectLink(link);
        topology_selected_ = stale(topology_panel_);
    });
}

void RunViews::show(const RunPtr& run) {
    run_ = run;
    const bool has_grid = run && run->eval().levels > 0;
    if (run && run->isSimulation()) {
        const SimulationResult& sim = *run->simulation;
        heatmap_->setDeviceTraffic(sim.traffic,
                                   {sim.resources.begin(), sim.resources.begin() + sim.compute_devices},
                                   QString::fromStdString(run->name + " (simulated)"));
    } else {
        heatmap_->setRun(has_grid ? run : nullptr);
    }
    teaching_->setEmptyText(run && !has_grid
                                ? tr("%1 is a simulated strategy without a grid. The teaching view explains a cell "
                                     "of a HyPar or AccPar grid: run one, or simulate the grid lowered.")
                                      .arg(QString::fromStdString(run->name))
                                : tr("Choose a run to see how a layer is split."));
    teaching_->setRun(has_grid ? run : nullptr);
    if (has_grid) teaching_->setCell(std::max(grid_->currentLevel(), 0), std::max(grid_->currentLayer(), 0));
    stale_ = {gantt_, topology_panel_, studies_};
    topology_selected_ = false;
    refresh(window_.views().shown());
}

void RunViews::refresh(QWidget* view) {
    if (!stale_.erase(view)) return;
    if (view == gantt_) drawTimeline();
    else if (view == topology_panel_) drawTopology();
    else if (view == studies_) drawStudies();
}

void RunViews::drawTimeline() {
    if (!run_ || !run_->isSimulation()) return gantt_->setInput(nullptr);
    const SimulationResult& sim = *run_->simulation;
    auto input = std::make_shared<view::GanttInput>();
    input->resources = view::ganttResources(sim.topology(), sim.streamCount() > 0);
    input->op_names = sim.op_names;
    input->records = sim.timeline;
    input->critical_path = sim.critical_path;
    input->makespan = sim.makespan_s;
    view::setGanttMemory(*input, sim.memory, sim.topology());
    gantt_->setInput(std::move(input));
}

void RunViews::drawTopology() {
    topology_view_->setSimulation(run_ && run_->isSimulation() ? run_->simulation : nullptr);
    if (!std::exchange(topology_selected_, false)) return;
    const Selection& sel = window_.views().selection();
    if (sel.link() >= 0) topology_view_->selectLink(sel.link());
    else topology_view_->selectDevice(sel.device());
}

struct RunViews::Studies {
    std::optional<ScaleStudy> scale;
    std::optional<TopologyStudy> topology;
};

void RunViews::drawStudies() {
    const RunPtr run = run_;
    if (run && run->eval().levels > 0) studies_->setLayerComm(layerComm(*run));
    if (!run || !run->inputs || run->inputs == studied_inputs_) return;
    studied_inputs_ = run->inputs;
    const InputsPtr in = run->inputs;
    const bool topology = !topology_study_done_;
    auto out = std::make_shared<Studies>();
    studies_job_ = out;
    studies_generation_ = jobs_.start(tr("Drawing the studies"), [in, topology, out](const ProgressFn& progress,
                                                                                      const CancelFn& cancel) {
        const double share = topology ? 0.2 : 1.0;  // the scale study is quick beside the ten networks
        try {
            if (in->hyparApplies())
                out->scale = scaleStudy(in->layers, in->array, in->params, in->accpar, 6,
                                        [&](double f) { progress(f * share); }, cancel);
            if (topology)
                out->topology = topologyStudy(hyparNetworks(), defaultArray(4), CostParams{},
                                              [&](double f) { progress(share + f * (1 - share)); }, cancel);
        } catch (const Cancelled&) {
            throw;
        } catch (const std::exception&) {
            // inputs the sweep cannot price (e.g. arrays that do not halve) leave the plot as it was
        }
        return Run{};
    });
}

void RunViews::studied(quint64 generation) {
    if (generation != studies_generation_ || !studies_job_) return;
    const std::shared_ptr<Studies> out = std::exchange(studies_job_, nullptr);
    if (out->scale) studies_->setScaleStudy(*out->scale);
    if (out->topology) {
        studies_->setTopologyStudy(*out->topology);
        topology_study_done_ = true;
    }
}

void RunViews::showChosenTopology() {
    if (topology_view_->hasLoad()) return;
    topology_view_->setTopology(window_.simulation().chosenTopology());
}

void RunViews::registerViews() {
    // A figure of `tab`, drawn first when stale; nothing to export while its table is empty.
    const auto figure = [this](const QString& name, const QString& label, QWidget* tab, const FigureSource* fig,
                               std::function<CsvTable()> table) {
        ExportEntry e = figureTarget(name, label, fig, table, [name, table] {
            return table().rows.empty() ? tr("Nothing to export: the %1 view is empty").arg(name) : QString();
        });
        e.write = [this, tab, write = std::move(e.write)](const QString& path, bool csv) {
            refresh(tab);
            jobs_.waitForIdle();
            return write(path, csv);
        };
        return std::vector<ExportEntry>{std::move(e)};
    };
    const auto simulate = [this] {
        if (!window_.views().get<SimulationView>()->hasSimulation()) window_.simulation().runSimulation();
    };
    ViewRegistry& views = window_.views();
    views.add({"timeline", gantt_, [this] { return gantt_; }, simulate,
               figure("timeline", tr("Timeline"), gantt_, gantt_, [this] { return gantt_->csv(); })});
    views.add({"heatmap", heatmap_, [this] { return heatmap_; }, {},
               figure("heatmap", tr("Heatmap"), heatmap_, heatmap_, [this] { return heatmap_->csv(); })});
    // With Simulate or MCMC chosen, the screenshot runs it and shows the load; else the chosen topology.
    views.add({"topology", topology_panel_, [this] { return topology_panel_; },
               [this, simulate] {
                   const auto s = window_.runs().method().settings();
                   if (s == GuiMethod::Settings::Simulation || s == GuiMethod::Settings::Mcmc) simulate();
                   refresh(topology_panel_);
                   showChosenTopology();
               },
               figure("topology", tr("Topology"), topology_panel_, topology_view_,
                      [this] { return topology_view_->csv(); })});
    views.add({"teaching", teaching_, [this] { return teaching_; }, {},
               figure("teaching", tr("Teaching figure"), teaching_, teaching_, [this] { return teaching_->csv(); })});
    views.add({"studies", studies_, [this] { return studies_; }, [this] {
                   refresh(studies_);
                   jobs_.waitForIdle();
               },
               figure("studies", tr("Study plot"), studies_, studies_, [this] { return studies_->csv(); })});
}

}  // namespace partita::gui
