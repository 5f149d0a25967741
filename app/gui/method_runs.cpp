// MainWindow and the results database for MPT and Learn-to-Scale: an
// evaluation is stored once edits settle (the 0.8 s pattern of grid edits),
// and re-opening one puts its settings back into its tab.
#include <utility>

#include <QTabWidget>

#include "app/gui/main_window.h"
#include "app/gui/runs_dock.h"
#include "core/store/method_codec.h"
#include "widgets/l2s_view.h"
#include "widgets/mpt_view.h"

namespace partita::gui {

namespace {

QString q(const std::string& s) { return QString::fromStdString(s); }

// Equal for equal settings on equal network text: the same evaluation is stored once.
std::string settingsKey(const MethodRun& run) {
    if (run.method == "mpt") return store::mptSettingsToJson(run.mpt).dump() + contentHash(run.mpt.network_json);
    return store::l2sSettingsToJson(run.l2s).dump() + contentHash(run.l2s.network_json);
}

}  // namespace

void MainWindow::buildMethodStore() {
    method_timer_.setSingleShot(true);
    method_timer_.setInterval(800);
    connect(&method_timer_, &QTimer::timeout, this, &MainWindow::flushMethodStore);
    connect(mpt_, &MptView::evaluated, this, [this] { scheduleMethodStore("mpt"); });
    connect(l2s_, &L2sView::evaluated, this, [this] { scheduleMethodStore("l2s"); });
}

void MainWindow::scheduleMethodStore(const QString& method) {
    if (!pending_method_.isEmpty() && pending_method_ != method) flushMethodStore();  // the other tab's, first
    pending_method_ = method;
    method_timer_.start();
}

void MainWindow::flushMethodStore() {
    method_timer_.stop();
    const QString method = std::exchange(pending_method_, QString());
    if (method.isEmpty() || !storing()) return;
    try {
        const MethodRun run = method == "mpt" ? methodRun(mpt_->settings(), mpt_->evaluation())
                                              : methodRun(l2s_->settings(), {l2s_->evaluation(), l2s_->baseline()});
        const std::string key = settingsKey(run);
        if (stored_methods_[method] == key) return;  // unchanged since the last store or re-open
        db_->storeMethod(run);
        stored_methods_[method] = key;
        runs_dock_->refresh(db_.get());
    } catch (const std::exception& e) {
        reportError(q(e.what()));
    }
}

bool MainWindow::openStoredMethodRun(std::int64_t id) {
    const MethodRun run = db_->loadMethod(id);  // the caller reports a StoreError
    flushMethodStore();  // an edit still pending is kept before the tab changes
    const QString method = q(run.method);
    setMethodKey(method);
    QString error;
    bool ok = false;
    if (method == "mpt") {
        tabs_->setCurrentWidget(mpt_);
        ok = mpt_->applySettings(run.mpt, &error);
    } else {
        tabs_->setCurrentWidget(l2s_);
        ok = l2s_->applySettings(run.l2s, &error);
    }
    // Applying emits evaluated(); what it shows is this stored run, not a new one.
    method_timer_.stop();
    pending_method_.clear();
    if (!ok) {
        reportError(tr("Run %1: %2").arg(id).arg(error));
        return false;
    }
    stored_methods_[method] = settingsKey(run);
    return true;
}

}  // namespace partita::gui
