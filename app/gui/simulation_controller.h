#pragma once
// Simulate and MCMC as the window offers them (FlexFlow's simulator, issue 5): the topologies
// (presets, files, generated, the editor's), SOAP strategy files, the simulation settings read from
// the properties, and the jobs. The window's method selection follows topologyChosen/strategyChosen.
#include <functional>
#include <map>
#include <memory>

#include <QObject>
#include <QString>

#include "core/run/simulation.h"

namespace partita {
class SimParamsEditor;
}

namespace partita::gui {

struct Options;
class WindowServices;

class SimulationController : public QObject {
    Q_OBJECT
public:
    SimulationController(WindowServices& services, SimParamsEditor* editor, QObject* parent = nullptr);

    // --topology, --iterations, --seed.
    void applyOptions(const Options& options);
    // A partita-topology/1 file: read, added to the topology list and chosen. On failure an
    // error naming the file is shown and returned; nothing else changes.
    bool loadTopology(const QString& path, QString* error = nullptr);
    // A topology from elsewhere than a preset (a file, the topology editor) under `key` (its path, or
    // "editor:<name>"): added to the topology list and chosen (topologyChosen).
    void useTopology(std::shared_ptr<const sim::Topology> topology, const QString& key);
    // File ▸ Generate topology…: the dialog; its Use chooses the graph under "generated:" + its name.
    void generateTopology();
    std::shared_ptr<const sim::Topology> chosenTopology() const;  // nullptr when none
    // A partita-soap/1 strategy for the loaded network: becomes Simulate's strategy file.
    bool loadSoapStrategy(const QString& path, QString* error = nullptr);
    // Simulate: the strategy the properties' source names on the chosen topology, in a worker.
    void runSimulation();
    // MCMC: FlexFlow's search in a worker, with live progress; Cancel keeps the best so far.
    void runMcmc();
    // A re-opened simulated run's settings in the properties (its stored graph, not the file as it is now).
    void showSettings(const Run& run);
    // A topology file that fails validation is offered to this (the topology editor); true: opened.
    std::function<bool(const QString& path)> open_invalid;

signals:
    void topologyChosen();  // a file's, the editor's or a generated topology became the chosen one
    void strategyChosen();  // a SOAP strategy file became Simulate's

private:
    void addPresets();
    bool readSpec(SimulationSpec* spec);  // from the properties; reports problems

    WindowServices& services_;
    SimParamsEditor* editor_;
    // Topologies read so far by key (preset name or file path): reading is cheap, but a
    // re-opened run must re-run on the graph it was stored with, not on a changed file.
    std::map<QString, std::shared_ptr<const sim::Topology>> topologies_;
};

}  // namespace partita::gui
