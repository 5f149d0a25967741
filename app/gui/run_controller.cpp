#include "app/gui/run_controller.h"

#include <algorithm>
#include <utility>

#include <QScopedValueRollback>

#include "app/gui/job_runner.h"
#include "app/gui/methods/registry.h"
#include "app/gui/prepared_run.h"
#include "app/gui/run_store.h"
#include "app/gui/session.h"
#include "app/gui/simulation_controller.h"
#include "app/gui/window_services.h"
#include "core/run/method_registry.h"
#include "core/run/method_run.h"
#include "core/run/simulation_run.h"
#include "core/store/results_db.h"
#include "core/util/error.h"
#include "core/util/format.h"
#include "widgets/common/qt_text.h"
#include "widgets/settings/params_editor.h"
#include "widgets/settings/sim_params_editor.h"
#include "widgets/simulation/simulation_view.h"

namespace partita::gui {

RunController::RunController(WindowServices& services, QObject* parent)
    : QObject(parent), services_(services), methods_(makeMethods()) {
    params_timer_.setSingleShot(true);
    params_timer_.setInterval(300);
    connect(&params_timer_, &QTimer::timeout, this, &RunController::rebuildInputs);
    connect(&services_.jobs(), &JobRunner::finished, this, &RunController::onJobFinished);
    connect(this, &RunController::methodChanged, this, &RunController::updateEditors);
}

RunController::~RunController() = default;

void RunController::attachEditors(ParamsEditor* params, SimParamsEditor* sim_params) {
    params_ = params;
    sim_params_ = sim_params;
    connect(params_, &ParamsEditor::changed, this, [this] { params_timer_.start(); });
    connect(sim_params_, &SimParamsEditor::changed, this, [this] { params_timer_.start(); });
    updateEditors();
}

bool RunController::simulationMethod() const {
    return method().settings() == GuiMethod::Settings::Simulation || method().settings() == GuiMethod::Settings::Mcmc;
}

void RunController::updateEditors() {
    if (!params_) return;
    sim_params_->setVisible(simulationMethod());
    params_->setSimulationMode(simulationMethod());
    sim_params_->setMode(method().settings() == GuiMethod::Settings::Mcmc ? SimParamsEditor::Mode::Mcmc
                                                                           : SimParamsEditor::Mode::Simulate);
}

void RunController::setMethodKey(const QString& key) {
    for (size_t i = 0; i < methods_.size(); ++i)
        if (methods_[i]->key() == key && i != chosen_) {
            chosen_ = i;
            emit methodChanged();
        }
}

void RunController::chooseMethod(const QString& key) {
    setMethodKey(key);
    startMethod(false);
}

void RunController::runSelected() {
    // Edits typed just before Run are still waiting for their debounce: apply them now, or the run
    // would use the old settings and the late rebuild would restart the preview over the job.
    if (params_timer_.isActive()) {
        params_timer_.stop();
        rebuildInputs();
    }
    // A hint such as askForRun()'s is stale once Run is pressed; left up, it would hide the job's
    // progress notes in the status bar for its last seconds.
    services_.showMessage({}, 0);
    startMethod(true);
}

void RunController::startMethod(bool store, bool keep_tab) {
    refusal_.clear();
    const QScopedValueRollback<bool> keep(keep_tab_, keep_tab);
    method().start(*this, store);
    emit methodRefusalChanged(refusal_);
}

void RunController::rebuildInputs() {
    Session& session = services_.session();
    if (!params_ || !params_->valid() || session.networkPath().isEmpty()) return;
    try {
        session.setInputs(makeInputs(session.network(), params_->array(), params_->params(),
                                     session.networkPath().toStdString(), session.arrayPath().toStdString(),
                                     params_->accparParams()));
        startMethod(false);
    } catch (const std::exception& e) {
        services_.reportError(q(e.what()));
    }
}

void RunController::plan(const std::string& key, bool store) {
    if (!services_.session().inputs() || explainCannotPlan()) return;
    runMethod(key, store);
}

void RunController::planAccPar(bool store) {
    if (!services_.session().inputs()) return;
    runAccPar(store);
}

void RunController::askForRun() {
    services_.showMessage(tr("%1: set it up in the properties, then press Run").arg(method().label()), 8000);
}

bool RunController::explainCannotPlan() {
    Session& session = services_.session();
    if (session.inputs()->hyparApplies()) return false;
    // Said where the user looks, with the method that can; the choice stays the user's. A view that
    // handed the network over (the editor) stays in front and shows methodRefusal() itself.
    services_.jobs().cancel();
    const QString label = method().label().toHtmlEscaped();
    const QString problem = q(session.inputs()->hypar_problem).toHtmlEscaped();
    refusal_ = tr("<b>%1 cannot plan this network.</b> %2 <a href='method:accpar'>Use AccPar</a>, whose model "
                  "prices any graph.")
                   .arg(label, problem);
    if (!keep_tab_) services_.showView("grid");
    session.show(nullptr);
    // The status line described the previous network's run: it now says why there is none.
    services_.showStatus(tr("%1 cannot plan %2: choose AccPar").arg(method().label(), q(session.inputs()->network.name)));
    emit cannotPlan(tr("<p><b>%1 cannot plan %2.</b></p><p>%3</p><p>AccPar's model prices this network: "
                       "<a href='method:accpar'>use AccPar</a>.</p>")
                        .arg(label, q(session.inputs()->network.name).toHtmlEscaped(), problem));
    return true;
}

void RunController::runMethod(const std::string& key, bool store) {
    const InputsPtr inputs = services_.session().inputs();
    if (!inputs) return;
    const MethodInfo& m = partita::method(key);
    const QString label = tr("Running %1 on %2").arg(q(m.label()), q(inputs->network.name));
    const auto work = [inputs, &m](const ProgressFn&, const JobRunner::NoteFn&, const CancelFn& cancel) {
        return m.runPoint(inputs, {}, cancel);
    };
    if (store) return void(startStored(label, work));
    services_.jobs().start(label, work, JobRunner::OnCancel::Discard);
}

void RunController::runAccPar(bool store) {
    const InputsPtr inputs = services_.session().inputs();
    if (!inputs) return;
    const QString label = tr("Running AccPar on %1").arg(q(inputs->network.name));
    const auto work = [inputs](const ProgressFn&, const JobRunner::NoteFn&, const CancelFn& cancel) {
        return accparRun(inputs, nullptr, RunKind::Search, nullptr, cancel);
    };
    if (store) return void(startStored(label, work));
    services_.jobs().start(label, work, JobRunner::OnCancel::Discard);
}

void RunController::evaluateCurrent() {
    const RunPtr current = services_.session().currentRun();
    const InputsPtr inputs = services_.session().inputs();
    if (!inputs || !current) return;
    const Grid grid = current->grid;
    const Grid reference = current->reference;
    const std::string method = current->method;
    startStored(tr("Evaluating"), [=](const ProgressFn&, const JobRunner::NoteFn&, const CancelFn&) {
        return gridRun(inputs, grid, RunKind::Evaluate, method, &reference);
    });
}

void RunController::explore(const std::vector<CellRef>& cells) {
    const InputsPtr inputs = services_.session().inputs();
    if (!inputs || cells.empty()) return;
    ExploreRequest request;
    request.cells = cells;
    startStored(tr("Exploring 2^%1 points").arg(cells.size()),
                [inputs, request](const ProgressFn& progress, const JobRunner::NoteFn&, const CancelFn& cancel) {
                    return exploreRun(inputs, request, progress, cancel);
                });
}

void RunController::cancelJob() { services_.jobs().cancel(); }

quint64 RunController::startStored(const QString& label, JobRunner::NotedWork work, JobRunner::OnCancel on_cancel) {
    auto prepared = std::make_shared<std::shared_ptr<const PreparedRun>>();
    store_generation_ = services_.jobs().start(
        label,
        [work = std::move(work), prepared](const ProgressFn& progress, const JobRunner::NoteFn& note,
                                           const CancelFn& cancel) {
            Run run = work(progress, note, cancel);
            // After Cancel too: a search's best so far is stored like a finished one.
            *prepared = prepareRun(run);
            return run;
        },
        on_cancel);
    prepared_ = std::move(prepared);
    return store_generation_;
}

void RunController::onJobFinished(quint64 generation, RunPtr run) {
    Session& session = services_.session();
    if (generation == compare_generation_ && compare_runs_) {
        const std::vector<RunPtr> runs = std::move(*std::exchange(compare_runs_, nullptr));
        return emit compared(runs, std::exchange(compare_refused_, {}));
    }
    for (const auto& m : methods_)  // a method with its own tab (MPT, L2S) claims its runs
        if (m->takeRun(*this, generation, run)) return;
    if (run->id > 0) return showStoredRun(run);  // re-opened from the database, not new
    const bool store = generation == store_generation_;
    // The worker's serialisation and rows (startStored); a job started otherwise is stored from the run.
    const std::shared_ptr<const PreparedRun> prepared =
        store && prepared_ ? *std::exchange(prepared_, nullptr) : nullptr;
    const store::RunRows* rows = prepared && prepared->rows ? &*prepared->rows : nullptr;
    if (run->isSimulation()) {
        if (auto* view = services_.views().get<SimulationView>(); view && prepared)
            view->usePrepared(prepared->simulation);
        session.show(run);
        if (store) session.store(run, rows);
        services_.showView("simulation");
        if (run->simulation->cancelled())
            services_.showMessage(tr("MCMC cancelled: showing the best strategy found so far"), 8000);
        return;
    }
    if (run->kind == RunKind::Explore) {
        emit explored(run);
        if (store) session.store(run, rows);
        services_.showView("explore");
        services_.showMessage(tr("Explored %1 points in %2 ms")
                                  .arg(q(withCommas(static_cast<double>(run->exploration->size()))))
                                  .arg(run->job_ms, 0, 'f', 1),
                              5000);
        return;
    }
    session.arrive(run);
    if (store) session.store(run, rows);
}

void RunController::compareWithBaselines() {
    const RunPtr current = services_.session().currentRun();
    if (!current) return;
    if (current->isSimulation()) {  // beside DP simulated on the same topology (OWT beside DP itself)
        SimulationSpec spec = current->simulation->spec;
        spec.source = spec.source == SimSource::DataParallel ? SimSource::OneWeirdTrick : SimSource::DataParallel;
        spec.strategy_origin.clear();
        return compareInWorker(tr("Simulating %1 to compare with").arg(simSourceLabel(spec.source)),
                               [current, spec](const CancelFn& cancel) {
                                   return std::vector<RunPtr>{
                                       std::make_shared<const Run>(simulationRun(current->inputs, spec, Grid{}, cancel)),
                                       current};
                               });
    }
    std::vector<RunPtr> runs;
    if (current->edited() && services_.session().searchedRun()) runs.push_back(services_.session().searchedRun());
    runs.push_back(current);
    if (current->isAccPar()) {  // the baselines under AccPar's model, from the same result
        QStringList refused;
        if (!current->accpar->hypar_refused.empty())  // no HyPar plan to compare with
            refused << tr("HyPar: %1").arg(q(current->accpar->hypar_refused));
        compareInWorker(tr("Planning the baselines under AccPar's model"), [runs, current](const CancelFn& cancel) {
            std::vector<RunPtr> all = runs;
            for (Scheme s : {Scheme::HyPar, Scheme::OneWeirdTrick, Scheme::DataParallel}) {
                if (cancel && cancel()) throw Cancelled();
                if (s == Scheme::HyPar && !current->accpar->hypar_refused.empty()) continue;
                if (all.size() < 4) all.push_back(std::make_shared<const Run>(accparBaselineRun(*current, s)));
            }
            return all;
        });
        compare_refused_ = refused;
        return;
    }
    compareInWorker(tr("Planning the baselines"), [runs, current](const CancelFn& cancel) {
        std::vector<RunPtr> all = runs;
        for (Method m : kAllMethods) {
            if (all.size() == 4) break;
            const bool present = std::any_of(all.begin(), all.end(), [&](const RunPtr& r) {
                return r->kind == RunKind::Search && r->method == methodName(m);
            });
            if (!present) all.push_back(std::make_shared<const Run>(planRun(current->inputs, m, cancel)));
        }
        return all;
    });
}

void RunController::compareInWorker(const QString& label, std::function<std::vector<RunPtr>(const CancelFn&)> work) {
    auto runs = std::make_shared<std::vector<RunPtr>>();
    compare_runs_ = runs;
    compare_refused_.clear();
    compare_generation_ =
        services_.jobs().start(label, [work = std::move(work), runs](const ProgressFn&, const CancelFn& cancel) {
            *runs = work(cancel);
            if (runs->empty()) throw Error("nothing to compare");
            return Run(*runs->back());  // the job's result; onJobFinished hands `runs` to Compare instead
        });
}

bool RunController::compareStored(const std::vector<std::int64_t>& ids) {
    ResultsDb* db = services_.runStore().db();
    if (!db || ids.size() < 2 || ids.size() > 4) return false;
    try {
        // Records of a method (MPT, L2S, LLM) compare in their method's tab, grid runs here: not mixed.
        std::vector<std::int64_t> kept, records;
        bool simulated = false;
        for (std::int64_t id : ids) {
            if (db->isMethodRun(id)) {
                records.push_back(id);
                continue;
            }
            kept.push_back(id);
            simulated = simulated || db->hasSimulation(id);
        }
        if (!records.empty() && !kept.empty()) {
            services_.showMessage(tr("Compare takes runs of one kind: this selection mixes HyPar, AccPar or simulated "
                                     "runs with LLM, MPT or L2S runs; select 2-4 of one kind"),
                                  8000);
            return false;
        }
        if (!records.empty()) return compareMethodRuns(records);
        if (simulated) {  // re-opening re-simulates the stored strategies: worker work, on a connection of its own
            const std::string path = db->path();
            compareInWorker(tr("Simulating %1 stored runs again to compare them").arg(kept.size()),
                            [path, kept](const CancelFn& cancel) {
                                ResultsDb reader(path, true);  // reads only
                                std::vector<RunPtr> runs;
                                for (std::int64_t id : kept)
                                    runs.push_back(std::make_shared<const Run>(reader.load(id, cancel)));
                                return runs;
                            });
            return true;
        }
        std::vector<RunPtr> runs;
        for (std::int64_t id : kept) runs.push_back(std::make_shared<const Run>(db->load(id)));
        emit compared(runs, {});
        return true;
    } catch (const std::exception& e) {
        services_.reportError(q(e.what()));
        return false;
    }
}

bool RunController::compareMethodRuns(const std::vector<std::int64_t>& ids) {
    std::vector<MethodRun> records;
    for (std::int64_t id : ids) records.push_back(services_.runStore().db()->loadMethod(id));
    for (const MethodRun& r : records)
        if (r.method != records.front().method) {
            services_.showMessage(tr("Compare takes runs of one method: this selection mixes %1 and %2 runs")
                                      .arg(q(records.front().method).toUpper(), q(r.method).toUpper()),
                                  8000);
            return false;
        }
    for (const auto& m : methods_)
        if (m->key() == q(records.front().method) && m->compareStored(*this, records)) return true;
    services_.showMessage(tr("Compare is not applicable to MPT or L2S runs; pick 2-4 HyPar, AccPar, simulated or LLM "
                             "runs (the MPT and L2S tabs give their own baselines)"),
                          8000);
    return false;
}

bool RunController::openStoredRun(std::int64_t id) {
    ResultsDb* db = services_.runStore().db();
    if (!db) return false;
    try {
        if (db->isMethodRun(id)) return openStoredMethodRun(id);
        if (db->hasSimulation(id)) {
            // Re-opening re-simulates the stored strategy: worker work, on a connection of its own.
            const std::string path = db->path();
            services_.jobs().start(tr("Re-opening run %1").arg(id), [path, id](const ProgressFn&, const CancelFn& cancel) {
                return ResultsDb(path, true).load(id, cancel);  // reads only
            });
            return true;
        }
        showStoredRun(std::make_shared<const Run>(db->load(id)));
        return true;
    } catch (const std::exception& e) {
        services_.reportError(q(e.what()));
        return false;
    }
}

bool RunController::openStoredMethodRun(std::int64_t id) {
    const MethodRun run = services_.runStore().db()->loadMethod(id);  // the caller reports a StoreError
    const QString key = q(run.method);
    setMethodKey(key);
    for (const auto& m : methods_)
        if (m->key() == key) {
            m->openStored(*this, run);
            services_.runStore().rememberMethod(run);
            return true;
        }
    services_.reportError(tr("Run %1: no method '%2' in this version").arg(id).arg(key));
    return false;
}

void RunController::showStoredRun(const RunPtr& run) {
    Session& session = services_.session();
    try {
        services_.jobs().cancel();
        session.gridEdits().clear();
        session.setNetwork(run->inputs->network, q(run->inputs->network_origin));
        session.setArray(run->inputs->array, q(run->inputs->array_origin));
        if (params_) {
            params_->setValues(session.array(), run->inputs->params);
            params_->setAccParValues(run->inputs->accpar);
        }
        setMethodKey(run->isAccPar() ? "accpar" : QString::fromStdString(run->method));
        session.setInputs(run->inputs);
        emit storedRunOpened(run);
        if (run->isSimulation()) {
            services_.simulation().showSettings(*run);
            session.setSearched(nullptr);  // a simulated run is no grid search for edits to refer to
            services_.showView("simulation");
            session.show(run);
            return;
        }
        const std::string method = run->isAccPar() ? "accpar" : "reference";
        session.setSearched(run->edited() ? std::make_shared<const Run>(
                                                gridRun(run->inputs, run->reference, RunKind::Search, method))
                                          : run);
        if (run->exploration) {
            emit explored(run);
            services_.showView("explore");
        } else {
            services_.showView("grid");
        }
        session.show(run);
    } catch (const std::exception& e) {
        services_.reportError(q(e.what()));
    }
}

}  // namespace partita::gui
