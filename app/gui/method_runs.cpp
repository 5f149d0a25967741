// MainWindow and the results database for MPT and Learn-to-Scale: Run stores
// the tab's evaluation (once per settings), and re-opening one puts its
// settings back into its tab.
#include <utility>

#include <QStatusBar>
#include <QTabWidget>

#include "app/gui/main_window.h"
#include "app/gui/runs_dock.h"
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

void MainWindow::storeMethodRun(const QString& method) {
    if (!storing()) return;
    try {
        const MethodRun run = method == "mpt" ? methodRun(mpt_->settings(), mpt_->evaluation())
                                              : methodRun(l2s_->settings(), {l2s_->evaluation(), l2s_->baseline()});
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
    QString error;
    bool ok = false;
    if (method == "mpt") {
        showTab(mpt_);
        ok = mpt_->applySettings(run.mpt, &error);
    } else {
        showTab(l2s_);
        ok = l2s_->applySettings(run.l2s, &error);
    }
    if (!ok) {
        reportError(tr("Run %1: %2").arg(id).arg(error));
        return false;
    }
    stored_methods_[method] = settingsKey(run);
    return true;
}

}  // namespace partita::gui
