// The MPT and Learn-to-Scale tabs: method views over their own engines
// (core/mpt, core/l2s). Every choice in a tab is a request; a job computes the
// whole outcome (network read, evaluation, sweep, comparison) and the tab draws
// the immutable result when it arrives, like every other method's run.
#include <QLabel>
#include <QTabWidget>

#include "app/gui/input_files.h"
#include "app/gui/main_window.h"
#include "core/run/l2s_outcome.h"
#include "core/run/method_run.h"
#include "core/run/mpt_outcome.h"
#include "widgets/common/qt_text.h"
#include "widgets/heatmap/comm_heatmap_view.h"
#include "widgets/l2s/l2s_view.h"
#include "widgets/mpt/mpt_view.h"

namespace partita::gui {

void MainWindow::buildMethodTabs() {
    mpt_ = new MptView(tabs_);
    mpt_->setObjectName("mpt-view");
    addViewTab(mpt_, tr("MPT"));
    l2s_ = new L2sView(tabs_);
    l2s_->setObjectName("l2s-view");
    addViewTab(l2s_, tr("L2S"));
    connect(mpt_, &MptView::settingsRequested, this, [this](const MptSettings& s) { requestMpt(s); });
    connect(l2s_, &L2sView::settingsRequested, this, [this](const L2sSettings& s) { requestL2s(s); });
    // With Learn-to-Scale chosen, the Heatmap tab shows the boundary the L2S tab shows.
    connect(l2s_, &L2sView::boundarySelected, this, [this] {
        if (methodKey() == "l2s") heatmap_->setMatrix(l2s_->trafficView()->matrix(), l2s_->trafficView()->title());
    });
    // A failed or cancelled request leaves its tab as it was; a failure is said there too.
    connect(&jobs_, &JobRunner::failed, this, [this](quint64 generation, const QString& message) {
        if (generation == method_jobs_["mpt"].generation) mpt_->showError(message);
        if (generation == method_jobs_["l2s"].generation) l2s_->showError(message);
        for (auto& [method, job] : method_jobs_)
            if (job.generation == generation) job = {};
    });
    connect(&jobs_, &JobRunner::cancelled, this, [this](quint64 generation) {
        for (auto& [method, job] : method_jobs_)
            if (job.generation == generation) job = {};
    });
}

void MainWindow::requestMpt(const MptSettings& given, bool store) {
    const std::string dir = examplesDir().toStdString();
    MptSettings s = given;
    s.workload = mptWorkloadKey(s.workload, dir);  // a built-in's file is that built-in
    const quint64 generation =
        jobs_.start(tr("Evaluating MPT %1 on %2").arg(q(mpt::scenarioName(s.scenario)), q(s.workload)),
                    [s, dir](const ProgressFn&, const CancelFn& cancel) { return mptRun(s, dir, cancel); });
    method_jobs_["mpt"] = {generation, store, s.workload};
}

void MainWindow::requestL2s(const L2sSettings& given, bool store) {
    const std::string dir = examplesDir().toStdString();
    L2sSettings s = given;
    s.preset = l2sPresetKey(s.preset, dir);
    const quint64 generation =
        jobs_.start(tr("Evaluating L2S %1 on %2").arg(q(l2sScenarioName(s.scenario)), q(s.preset)),
                    [s, dir](const ProgressFn&, const CancelFn& cancel) { return l2sRun(s, dir, cancel); });
    method_jobs_["l2s"] = {generation, store, s.preset};
}

// Only the newest job reports, so a tab's job is pending while no newer one has started.
bool MainWindow::methodJobPending(const QString& method) const {
    const auto it = method_jobs_.find(method);
    return it != method_jobs_.end() && it->second.generation != 0 && it->second.generation == jobs_.generation();
}

bool MainWindow::takeMethodOutcome(quint64 generation, const RunPtr& run) {
    if (!run->mpt && !run->l2s) return false;
    const QString method = run->mpt ? "mpt" : "l2s";
    MethodJob& job = method_jobs_[method];
    const bool store = job.generation == generation && job.store;
    job = {};
    if (run->mpt) mpt_->setOutcome(run->mpt);
    else l2s_->setOutcome(run->l2s);
    // Replaces the job's label (a shown analytic run's summary, if any, follows when the runner is idle).
    status_label_->setText(tr("%1: evaluated in %2 ms").arg(q(run->name)).arg(run->job_ms, 0, 'f', 1));
    if (store) storeMethodRun(run->mpt ? methodRun(*run->mpt) : methodRun(*run->l2s));
    return true;
}

// The network the user chose, else the paper's workload (MPT: Table II layers; L2S: ConvNet). A job
// starts only when the tab neither shows nor awaits that workload.
void MainWindow::showMpt() {
    showTab(mpt_);
    const std::string shown = methodJobPending("mpt") ? method_jobs_["mpt"].workload
                              : mpt_->hasEvaluation()  ? mpt_->settings().workload
                                                       : std::string();
    std::string wanted = shown.empty() ? "layers" : shown;
    if (user_network_ && !network_path_.isEmpty())
        wanted = mptWorkloadKey(network_path_.toStdString(), examplesDir().toStdString());
    if (wanted == shown) return;
    MptSettings s = mpt_->settings();
    s.workload = wanted;
    s.network_json.clear();
    s.overrides.clear();
    requestMpt(s);
}

void MainWindow::showL2s() {
    showTab(l2s_);
    const std::string shown = methodJobPending("l2s") ? method_jobs_["l2s"].workload
                              : l2s_->hasEvaluation()  ? l2s_->settings().preset
                                                       : std::string();
    std::string wanted = shown.empty() ? "convnet" : shown;
    if (user_network_ && !network_path_.isEmpty())
        wanted = l2sPresetKey(network_path_.toStdString(), examplesDir().toStdString());
    if (wanted == shown) return;
    L2sSettings s = l2s_->settings();
    s.preset = wanted;
    s.network_json.clear();
    s.schemes.clear();
    requestL2s(s);
}

// Run stores what the tab shows, or what it is about to show when its job arrives.
void MainWindow::runMpt() {
    showMpt();
    if (methodJobPending("mpt")) method_jobs_["mpt"].store = true;
    else if (mpt_->hasEvaluation()) storeMethodRun(methodRun(*mpt_->outcome()));
}

void MainWindow::runL2s() {
    showL2s();
    if (methodJobPending("l2s")) method_jobs_["l2s"].store = true;
    else if (l2s_->hasEvaluation()) storeMethodRun(methodRun(*l2s_->outcome()));
}

}  // namespace partita::gui
