// The visualisation tabs: the Gantt timeline of a simulated run, the
// communication heatmap (device x device for simulations, level x layer for
// hierarchical grids), the teaching view of the grid's current cell, and the
// study plots. All read the shown run; the grid's current cell is shared.
#include "widgets/common/task_tabs.h"

#include "app/gui/input_files.h"
#include "app/gui/main_window.h"
#include "app/gui/simulation_controller.h"
#include "core/io/network_io.h"
#include "core/run/simulation.h"
#include "core/study/plots.h"
#include "widgets/charts/study_view.h"
#include "widgets/grid/grid_view.h"
#include "widgets/heatmap/comm_heatmap_view.h"
#include "widgets/network/network_view.h"
#include "widgets/teaching/teaching_view.h"
#include "widgets/editors/sim_params_editor.h"
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

void MainWindow::buildViewTabs() {
    gantt_ = new GanttView(tabs_);
    addViewTab(gantt_, tr("Timeline"), Task::Simulate);
    heatmap_ = new CommHeatmap(tabs_);
    addViewTab(heatmap_, tr("Heatmap"), Task::Plan);
    topology_panel_ = new TopologyPanel(tabs_);
    topology_view_ = topology_panel_->view();
    addViewTab(topology_panel_, tr("Topology"), Task::Machine);
    teaching_ = new TeachingView(tabs_);
    addViewTab(teaching_, tr("Teaching"), Task::Plan);
    studies_ = new StudyView(tabs_);
    addViewTab(studies_, tr("Studies"), Task::Plan);

    connect(tabs_, &TaskTabs::currentChanged, this, [this] {
        if (shownView() == topology_panel_) showChosenTopology();
    });

    // Views never talk to each other: each sets the shared selection when the user picks something and
    // follows it. The grid owns the cell's range (it clamps), so a cell chosen elsewhere goes to the grid,
    // and the cell it settles on reaches the others. Timeline lanes 0..D-1 are the topology's devices in
    // its order, then lane D + l is link l.
    Selection& sel = views_.selection();
    connect(grid_, &GridView::currentCellChanged, &sel, [this, &sel](int lv, int ly) { sel.setCell(lv, ly, grid_); });
    connect(teaching_, &TeachingView::cellChanged, &sel, [this, &sel](int lv, int ly) { sel.setCell(lv, ly, teaching_); });
    connect(heatmap_, &CommHeatmap::levelLayerClicked, &sel, [this, &sel](int lv, int ly) { sel.setCell(lv, ly, heatmap_); });
    connect(network_view_, &NetworkTabView::currentCellChanged, &sel,
            [this, &sel](int lv, int ly) { sel.setCell(lv, ly, network_view_); });
    connect(&sel, &Selection::cellChanged, this, [this](int level, int layer, QObject* source) {
        if (source != grid_) return grid_->setCurrentCell(level, layer);
        teaching_->setCell(level, layer);
        heatmap_->setSelectedCell(level, layer);
        network_view_->setCurrentCell(level, layer);
    });
    // An operator (a Timeline bar) is its layer's cell at the grid's level (operators without weights have none).
    connect(gantt_, &GanttView::operatorClicked, &sel, [this, &sel](int op) { sel.setOperator(op, gantt_); });
    connect(&sel, &Selection::operatorChanged, this, [this, &sel](int op) {
        const RunPtr run = session_.currentRun();
        if (!run || !run->inputs) return;
        const auto& layers = run->inputs->layers;
        for (size_t l = 0; l < layers.size(); ++l)
            if (layers[l].op_id == op) sel.setCell(std::max(grid_->currentLevel(), 0), static_cast<int>(l));
    });
    const auto devices = [this] {
        const sim::Topology* t = topology_view_->topology();
        return t ? t->deviceCount() : -1;
    };
    connect(topology_view_, &TopologyView::deviceClicked, &sel, [this, &sel](int d) { sel.setDevice(d, topology_view_); });
    connect(topology_view_, &TopologyView::linkClicked, &sel, [this, &sel](int l) { sel.setLink(l, topology_view_); });
    connect(gantt_, &GanttView::resourceClicked, &sel, [this, &sel, devices](int resource) {
        const int d = devices();
        if (d >= 0 && resource >= d) return sel.setLink(resource - d, gantt_);
        sel.setDevice(d >= 0 ? resource : -1, gantt_);
    });
    connect(&sel, &Selection::deviceChanged, this, [this](int device, QObject* source) {
        if (source != gantt_) gantt_->selectResource(device);
        if (source != topology_view_) topology_view_->selectDevice(device);
    });
    connect(&sel, &Selection::linkChanged, this, [this, devices](int link, QObject* source) {
        if (source != gantt_ && devices() >= 0) gantt_->selectResource(devices() + link);
        if (source != topology_view_) topology_view_->selectLink(link);
    });
}

void MainWindow::showRunInViews(const RunPtr& run) {
    const bool simulated = run && run->isSimulation();
    const bool has_grid = run && run->eval().levels > 0;
    if (simulated) {
        const SimulationResult& sim = *run->simulation;
        auto input = std::make_shared<view::GanttInput>();
        input->resources = view::ganttResources(sim.topology());
        input->op_names = sim.op_names;
        input->records = sim.timeline;
        input->critical_path = sim.critical_path;
        input->makespan = sim.makespan_s;
        gantt_->setInput(std::move(input));
        topology_view_->setSimulation(run->simulation);
        heatmap_->setDeviceTraffic(sim.traffic,
                                   {sim.resources.begin(), sim.resources.begin() + sim.compute_devices},
                                   QString::fromStdString(run->name + " (simulated)"));
    } else {
        gantt_->setInput(nullptr);
        heatmap_->setRun(has_grid ? run : nullptr);
        topology_view_->setSimulation(nullptr);
    }
    teaching_->setEmptyText(run && !has_grid
                                ? tr("%1 is a simulated strategy without a grid. The teaching view explains a cell "
                                     "of a HyPar or AccPar grid: run one, or simulate the grid lowered.")
                                      .arg(QString::fromStdString(run->name))
                                : tr("Choose a run to see how a layer is split."));
    teaching_->setRun(has_grid ? run : nullptr);
    if (has_grid) {
        teaching_->setCell(std::max(grid_->currentLevel(), 0), std::max(grid_->currentLayer(), 0));
        studies_->setLayerComm(layerComm(*run));
    }
    // The sweeps take milliseconds (VGG-A: about 1 ms), so they follow the inputs directly.
    if (run && run->inputs && run->inputs != studied_inputs_) {
        studied_inputs_ = run->inputs;
        try {
            if (run->inputs->hyparApplies())
                studies_->setScaleStudy(scaleStudy(run->inputs->layers, run->inputs->array, run->inputs->params,
                                                   run->inputs->accpar));
            if (!topology_study_done_) {
                studies_->setTopologyStudy(topologyStudy(hyparNetworks(), defaultArray(4), CostParams{}));
                topology_study_done_ = true;
            }
        } catch (const std::exception&) {
            // inputs the sweep cannot price (e.g. arrays that do not halve) leave the plot as it was
        }
    }
}

void MainWindow::showChosenTopology() {
    if (topology_view_->hasLoad()) return;
    topology_view_->setTopology(simulator_->chosenTopology());
}

}  // namespace partita::gui
