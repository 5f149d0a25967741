#pragma once
// The plan/run workflow (docs/guide/application.md#when-a-run-is-stored): the chosen method, Run and
// the live preview, Evaluate, Explore, comparisons, re-opening stored runs, and what the jobs hand
// back. It reads the parameter editors and acts through WindowServices; the window follows its
// signals (the selector, the grid's note, Compare and Explore).
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <QObject>
#include <QString>
#include <QStringList>
#include <QTimer>

#include "app/gui/job_runner.h"
#include "app/gui/methods/method.h"
#include "core/run/run.h"
#include "core/util/progress.h"

namespace partita {
class ParamsEditor;
class SimParamsEditor;
}  // namespace partita

namespace partita::gui {

class WindowServices;
struct PreparedRun;

class RunController : public QObject {
    Q_OBJECT
public:
    explicit RunController(WindowServices& services, QObject* parent = nullptr);
    ~RunController() override;

    WindowServices& services() { return services_; }
    // The editors the inputs are made from; their edits are coalesced, then previewed.
    void attachEditors(ParamsEditor* params, SimParamsEditor* sim_params);

    // The methods, in the selector's order, and the chosen one.
    const MethodList& methods() const { return methods_; }
    const GuiMethod& method() const { return *methods_[chosen_]; }
    bool isChosen(const GuiMethod& m) const { return &method() == &m; }
    bool simulationMethod() const;  // Simulate or MCMC chosen
    QString methodKey() const { return method().key(); }  // "hypar", "accpar", "simulate", "mpt", …
    void setMethodKey(const QString& key);   // chosen, nothing started (methodChanged)
    void chooseMethod(const QString& key);   // as choosing it in the toolbar: the method previews the inputs
    // Why the chosen method cannot analyse the current inputs (HTML, a link names a method that can,
    // "method:accpar"); "" when it can. Follows every start of the method (methodRefusalChanged).
    QString methodRefusal() const { return refusal_; }

    // The run policy: Run starts the chosen method and stores what it finishes (an identical stored run
    // is re-selected instead of stored twice). Choosing a network, a method or a parameter only
    // previews: the analytic methods follow at once, unstored; simulations, MCMC, MPT and L2S wait for Run.
    void runSelected();
    // Run (store) or the preview (no store). keep_tab: a view that handed the network over stays in front.
    void startMethod(bool store, bool keep_tab = false);
    void rebuildInputs();  // the parameters changed: new inputs, previewed
    // What the methods start: a grid-plan method of core's registry by key (or its refusal, said in the
    // Grid tab), AccPar's plan, or a note that the chosen method waits for Run.
    void plan(const std::string& key, bool store);
    void planAccPar(bool store);
    void askForRun();
    void runMethod(const std::string& key, bool store = false);  // in a worker; stored when `store`
    void runAccPar(bool store = false);
    // Starts `work` and stores the run it finishes with. The worker also serialises the run and builds
    // its views' rows (prepareRun), so the GUI thread only stores and swaps them in. Returns the generation.
    quint64 startStored(const QString& label, JobRunner::NotedWork work,
                        JobRunner::OnCancel on_cancel = JobRunner::OnCancel::Discard);
    void evaluateCurrent();  // Evaluate: the shown grid under the current parameters
    void explore(const std::vector<CellRef>& cells);
    void cancelJob();

    // The current run beside the baselines (HyPar, DP, MP, OWT; AccPar's from its result; a simulated
    // run beside DP simulated): made in a worker (progress, Cancel), then compared.
    void compareWithBaselines();
    // 2-4 stored runs side by side; simulated ones are simulated again in a worker first (wait for the jobs).
    // Records of a method (LLM) go to the method's own comparison; a selection mixing kinds is refused
    // with a message.
    bool compareStored(const std::vector<std::int64_t>& ids);
    // Analytic runs re-open at once; a simulated run is re-simulated in a worker (wait for the jobs).
    bool openStoredRun(std::int64_t id);

signals:
    void methodChanged();  // the chosen method: the selector and the properties follow
    void methodRefusalChanged(const QString& html);  // after each start of the method: methodRefusal()
    void cannotPlan(const QString& html);            // the Grid tab's note, in place of a plan
    void compared(const std::vector<partita::RunPtr>& runs, const QStringList& refused);
    void explored(const partita::RunPtr& run);       // an exploration arrived (or was re-opened)
    void storedRunOpened(const partita::RunPtr& run);  // a stored run's inputs became the session's

private:
    bool explainCannotPlan();  // HyPar's model cannot price the inputs: say so, offer AccPar
    void onJobFinished(quint64 generation, RunPtr run);
    // Runs a comparison needs that take time: made in a worker like any job, then compared.
    void compareInWorker(const QString& label, std::function<std::vector<RunPtr>(const CancelFn&)> work);
    void showStoredRun(const RunPtr& run);     // with its inputs and settings
    bool openStoredMethodRun(std::int64_t id);  // throws StoreError; its method shows it
    bool compareMethodRuns(const std::vector<std::int64_t>& ids);  // throws StoreError; their method compares
    void updateEditors();                       // the properties the chosen method reads

    WindowServices& services_;
    MethodList methods_;
    size_t chosen_ = 0;
    ParamsEditor* params_ = nullptr;
    SimParamsEditor* sim_params_ = nullptr;
    QTimer params_timer_;  // coalesces typing in the properties dock
    QString refusal_;
    bool keep_tab_ = false;  // startMethod(keep_tab): the Grid tab does not come forward
    quint64 store_generation_ = 0;    // the job whose run is stored when it finishes (Run, Explore)
    // What that job's worker prepared (startStored): filled by the worker before the job reports.
    std::shared_ptr<std::shared_ptr<const PreparedRun>> prepared_;
    quint64 compare_generation_ = 0;  // the job whose runs are compared (compareInWorker)
    std::shared_ptr<std::vector<RunPtr>> compare_runs_;  // its runs, filled by the worker
    QStringList compare_refused_;                        // what it could not compare with, and why
};

}  // namespace partita::gui
