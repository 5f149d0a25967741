// MainWindow and the results database for MPT and Learn-to-Scale: Run stores
// the evaluation a job computed (once per settings), and re-opening one
// evaluates its stored settings again in a job for its tab.
#include <QStatusBar>

#include "app/gui/main_window.h"
#include "app/gui/runs_dock.h"
#include "core/run/method_run.h"
#include "core/store/method_codec.h"
#include "widgets/common/qt_text.h"
#include "widgets/l2s/l2s_view.h"
#include "widgets/mpt/mpt_view.h"

namespace partita::gui {

namespace {

// Equal for equal settings on equal network text: the same evaluation is stored once.
std::string settingsKey(const MethodRun& run) {
    if (run.method == "mpt") return store::mptSettingsToJson(run.mpt).dump() + contentHash(run.mpt.network_json);
    return store::l2sSettingsToJson(run.l2s).dump() + contentHash(run.l2s.network_json);
}

}  // namespace

void MainWindow::storeMethodRun(const MethodRun& run) {
    if (!storing()) return;
    try {
        const QString method = q(run.method);
        const std::string key = settingsKey(run);
        if (stored_methods_[method] == key) {  // Run again on what is stored: nothing new
            statusBar()->showMessage(tr("This evaluation is already stored"), 5000);
            return;
        }
        db_->storeMethod(run);
        stored_methods_[method] = key;
        runs_dock_->refresh(db_.get());
    } catch (const std::exception& e) {
        reportError(q(e.what()));
    }
}

bool MainWindow::openStoredMethodRun(std::int64_t id) {
    const MethodRun run = db_->loadMethod(id);  // the caller reports a StoreError
    const QString method = q(run.method);
    setMethodKey(method);
    // The stored settings carry their network text: the job reads no file.
    if (method == "mpt") {
        showTab(mpt_);
        requestMpt(run.mpt);
    } else {
        showTab(l2s_);
        requestL2s(run.l2s);
    }
    stored_methods_[method] = settingsKey(run);
    return true;
}

}  // namespace partita::gui
