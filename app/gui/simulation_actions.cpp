// MainWindow's Simulate and MCMC methods (FlexFlow's simulator, issue 5):
// topologies, SOAP strategy files, the simulation settings and the jobs.
#include <chrono>

#include <QDockWidget>
#include <QFileInfo>
#include <QStackedWidget>
#include <QStatusBar>

#include "app/gui/input_files.h"
#include "app/gui/main_window.h"
#include "app/gui/topology_editor_tab.h"
#include "app/gui/topology_generate_dialog.h"
#include "core/run/simulation_run.h"
#include "core/sim/topology_check.h"
#include "core/util/format.h"
#include "widgets/common/qt_text.h"
#include "widgets/editors/params_editor.h"
#include "widgets/editors/sim_params_editor.h"
#include "widgets/simulation/simulation_view.h"
#include "widgets/topology_editor/topology_editor_view.h"

#include <QLabel>


namespace partita::gui {

namespace {


constexpr const char* kBuiltIn = "built-in:";

// "MCMC: start 2/3 (owt), iteration 1,234 · best 10.123 ms · current 12.345 ms · 1 restart"
QString mcmcNote(const sim::McmcProgress& p, const std::vector<std::string>& starts) {
    const auto k = static_cast<size_t>(p.start);
    return QObject::tr("MCMC: start %1/%2 (%3), iteration %4 · best %5 ms · current %6 ms · %7")
        .arg(p.start + 1)
        .arg(starts.size())
        .arg(k < starts.size() ? q(starts[k]) : QString())
        .arg(q(withCommas(static_cast<double>(p.iteration))))
        .arg(p.best_s * 1e3, 0, 'f', 3)
        .arg(p.current_s * 1e3, 0, 'f', 3)
        .arg(p.restarts == 1 ? QObject::tr("1 restart") : QObject::tr("%1 restarts").arg(p.restarts));
}

}  // namespace

bool MainWindow::gridNotApplicableShown() const { return grid_stack_->currentWidget() == static_cast<QWidget*>(grid_na_); }

bool MainWindow::simulationMethod() const {
    return method().settings() == GuiMethod::Settings::Simulation || method().settings() == GuiMethod::Settings::Mcmc;
}

void MainWindow::updateMethodFields() {
    updatePropertiesDock();
    sim_params_->setVisible(simulationMethod());
    params_->setSimulationMode(simulationMethod());
    sim_params_->setMode(method().settings() == GuiMethod::Settings::Mcmc ? SimParamsEditor::Mode::Mcmc
                                                                           : SimParamsEditor::Mode::Simulate);
}

void MainWindow::addTopologyPresets() {
    for (const std::string& name : sim::builtinTopologyNames()) {
        try {
            auto topology = std::make_shared<const sim::Topology>(sim::builtinTopology(name));
            const QString key = q(name);
            sim_params_->addPreset(key, tr("%1 · %2 devices").arg(key).arg(topology->deviceCount()));
            topologies_[key] = std::move(topology);
        } catch (const std::exception&) {
            // A broken preset must not keep the app from starting; it is left out.
        }
    }
    sim_params_->setTopology("p100-16");
}

void MainWindow::applyOptionsToSimulation() {
    if (!options_.topology.isEmpty() && !sim_params_->setTopology(options_.topology)) loadTopology(options_.topology);
    McmcSettings m = sim_params_->mcmc();
    if (options_.iterations > 0) {
        m.iterations = options_.iterations;
        m.budget_s = 0;  // an iteration budget alone: the same search on every machine
    }
    if (options_.seed >= 0) m.seed = static_cast<std::uint64_t>(options_.seed);
    sim_params_->setMcmc(m);
}

bool MainWindow::loadTopology(const QString& given, QString* error) {
    const QString path = QFileInfo(given).absoluteFilePath();
    try {
        std::vector<std::string> warnings;
        useTopology(std::make_shared<const sim::Topology>(sim::loadTopology(path.toStdString(), &warnings)), path);
        addRecentFile(path);
        if (!warnings.empty()) {
            // An importer's approximations change what is simulated: said where the user looks.
            QStringList lines;
            for (const auto& w : warnings) lines << q(w);
            reportNotice(tr("Topology imported"),
                         tr("Topology %1 chosen; the import approximated or ignored %2 (listed in the message)")
                             .arg(QFileInfo(path).fileName(),
                                  lines.size() == 1 ? tr("1 thing") : tr("%1 things").arg(lines.size())),
                         lines);
        }
        return true;
    } catch (const std::exception& e) {
        QString message = q(e.what());
        if (!message.contains(path)) message = path + ": " + message;  // always say which file
        // A file that reads but fails validation: every problem with its place, as `topology check` lists them.
        try {
            const auto problems = sim::checkTopologyFile(path.toStdString());
            if (!problems.empty()) {
                QStringList lines;
                for (size_t k = 0; k < problems.size() && k < 10; ++k)
                    lines << q(sim::describeProblem(path.toStdString(), problems[k]));
                if (problems.size() > 10) lines << tr("… and %1 more").arg(problems.size() - 10);
                // Opened in the editor to be fixed there, unless that would drop unsaved edits.
                TopologyEditorView* editor = topology_editor_ ? topology_editor_->view() : nullptr;
                const bool opened = editor && editor->undoStack().isClean() && editor->open(path);
                message = tr("%1 fails validation (%2%3):")
                              .arg(path, problems.size() == 1 ? tr("1 problem") : tr("%1 problems").arg(problems.size()),
                                   opened ? tr("; opened in the Topology editor tab to fix") : QString()) +
                          "\n" + lines.join("\n");
            }
        } catch (const std::exception&) {
            // unreadable as well: the reader's message stands
        }
        message = tr("Cannot load the topology: %1").arg(message);
        if (error) *error = message;
        reportError(message);
        return false;
    }
}

void MainWindow::generateTopology() {
    TopologyGenerateDialog dialog(this);
    if (dialog.exec() != QDialog::Accepted) return;
    // A stored run keeps the graph itself, not this key.
    if (const auto topology = dialog.topology())
        useTopology(std::make_shared<const sim::Topology>(*topology), "generated:" + q(topology->name));
}

void MainWindow::useTopology(std::shared_ptr<const sim::Topology> topology, const QString& key) {
    const QString title = q(topology->name);
    topologies_[key] = std::move(topology);
    sim_params_->addTopologyFile(key, title);
    sim_params_->setTopology(key);
    if (!simulationMethod()) setMethodKey("simulate");
    updateMethodFields();
    statusBar()->showMessage(tr("Topology %1 chosen: press Run to simulate on it").arg(title), 8000);
    if (topology_editor_) topology_editor_->followIfShown();
}

std::shared_ptr<const sim::Topology> MainWindow::chosenTopology() const {
    const auto it = topologies_.find(sim_params_->topology());
    return it == topologies_.end() ? nullptr : it->second;
}

bool MainWindow::loadSoapStrategy(const QString& given, QString* error) {
    const QString path = QFileInfo(given).absoluteFilePath();
    try {
        if (!session_.inputs()) throw std::runtime_error("load a network before a strategy");
        sim::loadSoap(path.toStdString(), session_.inputs()->network);  // checked now; the job reads it again
        sim_params_->setStrategyFile(path);
        sim_params_->setSource(SimSource::File);
        addRecentFile(path);
        setMethodKey("simulate");
        updateMethodFields();
        statusBar()->showMessage(tr("Strategy %1 chosen: press Run to simulate it").arg(QFileInfo(path).fileName()),
                                 8000);
        return true;
    } catch (const std::exception& e) {
        QString message = q(e.what());
        if (!message.contains(path)) message = path + ": " + message;
        if (error) *error = message;
        reportError(message);
        return false;
    }
}

bool MainWindow::simulationSpec(SimulationSpec* spec) {
    if (!sim_params_->valid()) {
        reportError(sim_params_->problem());
        return false;
    }
    const QString key = sim_params_->topology();
    const auto it = topologies_.find(key);
    if (it == topologies_.end()) {
        reportError(tr("Choose a topology to simulate on"));
        return false;
    }
    spec->topology = it->second;
    spec->topology_origin = (sim_params_->topologyIsFile() ? key : kBuiltIn + key).toStdString();
    spec->source = sim_params_->source();
    spec->strategy_origin = sim_params_->strategyFile().toStdString();
    spec->options.element_bytes = session_.inputs()->params.bytes_per_element;
    spec->options.sync = sim_params_->sync();
    spec->mcmc = sim_params_->mcmc();
    return true;
}

void MainWindow::runSimulation() {
    SimulationSpec spec;
    const InputsPtr inputs = session_.inputs();
    if (!inputs || !simulationSpec(&spec)) return;
    const Grid grid = spec.source == SimSource::Grid ? session_.gridToLower() : Grid{};
    startStored(jobs_.start(
        tr("Simulating %1 of %2 on %3").arg(simSourceLabel(spec.source), q(inputs->network.name), q(spec.topology->name)),
        [inputs, spec, grid](const ProgressFn&, const CancelFn& cancel) {
            return simulationRun(inputs, spec, grid, cancel);
        }));
}

void MainWindow::runMcmc() {
    SimulationSpec spec;
    const InputsPtr inputs = session_.inputs();
    if (!inputs || !simulationSpec(&spec)) return;
    const auto work = [inputs, spec](const ProgressFn& progress, const JobRunner::NoteFn& note,
                                     const CancelFn& cancel) {
        using clock = std::chrono::steady_clock;
        auto last = clock::now() - std::chrono::seconds(1);
        const sim::McmcProgressFn report = [&](const sim::McmcProgress& p) {
            progress(p.fraction);
            // The window shows ten notes a second; formatting one per proposal would slow the search.
            const auto now = clock::now();
            if (now - last < std::chrono::milliseconds(50)) return;
            last = now;
            note(mcmcNote(p, spec.mcmc.starts));
        };
        return mcmcRun(inputs, spec, report, cancel);
    };
    startStored(jobs_.start(tr("MCMC search on %1 over %2").arg(q(inputs->network.name), q(spec.topology->name)),
                            work, JobRunner::OnCancel::KeepResult));
}

void MainWindow::showSimulationSettings(const Run& run) {
    const SimulationSpec& spec = run.simulation->spec;
    const QString origin = q(spec.topology_origin);
    if (origin.startsWith(kBuiltIn)) {
        sim_params_->setTopology(origin.mid(static_cast<int>(qstrlen(kBuiltIn))));
    } else {
        // The stored graph, not the file as it is now: a re-run repeats this run.
        topologies_[origin] = spec.topology;
        sim_params_->addTopologyFile(origin, q(spec.topology->name));
        sim_params_->setTopology(origin);
    }
    sim_params_->setSync(spec.options.sync);
    if (spec.source == SimSource::Mcmc) {
        sim_params_->setMcmc(spec.mcmc);
    } else {
        sim_params_->setSource(spec.source);
        if (spec.source == SimSource::File) sim_params_->setStrategyFile(q(spec.strategy_origin));
    }
}

}  // namespace partita::gui
