// See simulation_controller.h.
#include <chrono>

#include <QFileDialog>
#include <QFileInfo>

#include "app/gui/input_files.h"
#include "app/gui/job_runner.h"
#include "app/gui/options.h"
#include "app/gui/session.h"
#include "app/gui/simulation_controller.h"
#include "app/gui/window_services.h"
#include "app/gui/topology_generate_dialog.h"
#include "core/llm/profile.h"
#include "core/run/simulation_run.h"
#include "core/sim/compute_cost.h"
#include "core/topology/check.h"
#include "core/util/format.h"
#include "widgets/common/qt_text.h"
#include "widgets/settings/sim_params_editor.h"

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

SimulationController::SimulationController(WindowServices& services, SimParamsEditor* editor, QObject* parent)
    : QObject(parent), services_(services), editor_(editor) {
    addPresets();
    connect(editor_, &SimParamsEditor::topologyFileRequested, this, [this] {
        const QString path = QFileDialog::getOpenFileName(services_.dialogParent(), tr("Load topology"),
                                                          examplesDir() + "/topologies",
                                                          tr("Topologies (*.json *.yml *.yaml);;All files (*)"));
        if (!path.isEmpty()) loadTopology(path);
    });
    connect(editor_, &SimParamsEditor::strategyFileRequested, this, [this] {
        const QString path = QFileDialog::getOpenFileName(services_.dialogParent(), tr("Choose a SOAP strategy"),
                                                          QString(), tr("Strategies (*.json);;All files (*)"));
        if (!path.isEmpty()) loadSoapStrategy(path);
    });
}

void SimulationController::addPresets() {
    for (const std::string& name : sim::builtinTopologyNames()) {
        try {
            auto topology = std::make_shared<const sim::Topology>(sim::builtinTopology(name));
            const QString key = q(name);
            editor_->addPreset(key, tr("%1 · %2 devices").arg(key).arg(topology->deviceCount()));
            topologies_[key] = std::move(topology);
        } catch (const std::exception&) {
            // A broken preset must not keep the app from starting; it is left out.
        }
    }
    editor_->setTopology("p100-16");
}

void SimulationController::applyOptions(const Options& options) {
    if (!options.topology.isEmpty() && !editor_->setTopology(options.topology)) loadTopology(options.topology);
    McmcSettings m = editor_->mcmc();
    if (options.iterations > 0) {
        m.iterations = options.iterations;
        m.budget_s = 0;  // an iteration budget alone: the same search on every machine
    }
    if (options.seed >= 0) m.seed = static_cast<std::uint64_t>(options.seed);
    editor_->setMcmc(m);
}

bool SimulationController::loadTopology(const QString& given, QString* error) {
    const QString path = QFileInfo(given).absoluteFilePath();
    try {
        std::vector<std::string> warnings;
        useTopology(std::make_shared<const sim::Topology>(sim::loadTopology(path.toStdString(), &warnings)), path);
        services_.addRecentFile(path);
        if (!warnings.empty()) {
            // An importer's approximations change what is simulated: said where the user looks.
            QStringList lines;
            for (const auto& w : warnings) lines << q(w);
            services_.reportNotice(tr("Topology imported"),
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
                const bool opened = open_invalid && open_invalid(path);
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
        services_.reportError(message);
        return false;
    }
}

void SimulationController::generateTopology() {
    TopologyGenerateDialog dialog(services_.dialogParent());
    if (dialog.exec() != QDialog::Accepted) return;
    // A stored run keeps the graph itself, not this key.
    if (const auto topology = dialog.topology())
        useTopology(std::make_shared<const sim::Topology>(*topology), "generated:" + q(topology->name));
}

void SimulationController::useTopology(std::shared_ptr<const sim::Topology> topology, const QString& key) {
    const QString title = q(topology->name);
    topologies_[key] = std::move(topology);
    editor_->addTopologyFile(key, title);
    editor_->setTopology(key);
    services_.showMessage(tr("Topology %1 chosen: press Run to simulate on it").arg(title), 8000);
    emit topologyChosen();
}

std::shared_ptr<const sim::Topology> SimulationController::chosenTopology() const {
    const auto it = topologies_.find(editor_->topology());
    return it == topologies_.end() ? nullptr : it->second;
}

bool SimulationController::loadSoapStrategy(const QString& given, QString* error) {
    const QString path = QFileInfo(given).absoluteFilePath();
    try {
        if (!services_.session().inputs()) throw std::runtime_error("load a network before a strategy");
        sim::loadSoap(path.toStdString(), services_.session().inputs()->network);  // checked now; the job reads it again
        editor_->setStrategyFile(path);
        editor_->setSource(SimSource::File);
        services_.addRecentFile(path);
        emit strategyChosen();
        services_.showMessage(tr("Strategy %1 chosen: press Run to simulate it").arg(QFileInfo(path).fileName()),
                                 8000);
        return true;
    } catch (const std::exception& e) {
        QString message = q(e.what());
        if (!message.contains(path)) message = path + ": " + message;
        if (error) *error = message;
        services_.reportError(message);
        return false;
    }
}

bool SimulationController::readSpec(SimulationSpec* spec) {
    if (!editor_->valid()) {
        services_.reportError(editor_->problem());
        return false;
    }
    const QString key = editor_->topology();
    const auto it = topologies_.find(key);
    if (it == topologies_.end()) {
        services_.reportError(tr("Choose a topology to simulate on"));
        return false;
    }
    spec->topology = it->second;
    spec->topology_origin = (editor_->topologyIsFile() ? key : kBuiltIn + key).toStdString();
    spec->source = editor_->source();
    spec->strategy_origin = editor_->strategyFile().toStdString();
    spec->options.element_bytes = services_.session().inputs()->params.bytes_per_element;
    spec->options.sync = editor_->sync();
    spec->options.collectives = editor_->collectives();
    if (const std::string profile = editor_->kernelProfile(); !profile.empty()) {
        try {
            sim::useKernelCurves(spec->options, llm::profilePreset(profile), editor_->kernelPrecision(), profile);
        } catch (const std::exception& e) {  // a precision the profile has no unit for
            services_.reportError(tr("Compute: %1").arg(QString::fromStdString(e.what())));
            return false;
        }
    }
    spec->mcmc = editor_->mcmc();
    return true;
}

void SimulationController::runSimulation() {
    SimulationSpec spec;
    const InputsPtr inputs = services_.session().inputs();
    if (!inputs || !readSpec(&spec)) return;
    const Grid grid = spec.source == SimSource::Grid ? services_.session().gridToLower() : Grid{};
    services_.startStored(
        tr("Simulating %1 of %2 on %3").arg(simSourceLabel(spec.source), q(inputs->network.name), q(spec.topology->name)),
        [inputs, spec, grid](const ProgressFn&, const JobRunner::NoteFn&, const CancelFn& cancel) {
            return simulationRun(inputs, spec, grid, cancel);
        },
        JobRunner::OnCancel::Discard);
}

void SimulationController::runMcmc() {
    SimulationSpec spec;
    const InputsPtr inputs = services_.session().inputs();
    if (!inputs || !readSpec(&spec)) return;
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
    services_.startStored(tr("MCMC search on %1 over %2").arg(q(inputs->network.name), q(spec.topology->name)), work,
                          JobRunner::OnCancel::KeepResult);
}

void SimulationController::showSettings(const Run& run) {
    const SimulationSpec& spec = run.simulation->spec;
    const QString origin = q(spec.topology_origin);
    if (origin.startsWith(kBuiltIn)) {
        editor_->setTopology(origin.mid(static_cast<int>(qstrlen(kBuiltIn))));
    } else {
        // The stored graph, not the file as it is now: a re-run repeats this run.
        topologies_[origin] = spec.topology;
        editor_->addTopologyFile(origin, q(spec.topology->name));
        editor_->setTopology(origin);
    }
    editor_->setSync(spec.options.sync, spec.options.collectives);
    if (spec.options.kernels) editor_->setKernels(spec.options.kernels->profile, spec.options.kernels->dtype);
    else editor_->setKernels({}, llm::Dtype::Fp32);
    if (spec.source == SimSource::Mcmc) {
        editor_->setMcmc(spec.mcmc);
    } else {
        editor_->setSource(spec.source);
        if (spec.source == SimSource::File) editor_->setStrategyFile(q(spec.strategy_origin));
    }
}

}  // namespace partita::gui
