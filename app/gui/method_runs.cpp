// MainWindow and the results database for methods that store a MethodRun (MPT,
// Learn-to-Scale): an evaluation is stored once per settings, and re-opening
// one hands it to its method, which evaluates the stored settings again.
#include <QLabel>
#include <QStatusBar>

#include "app/gui/main_window.h"
#include "app/gui/runs_dock.h"
#include "core/run/method_run.h"
#include "core/store/results_db.h"
#include "widgets/common/qt_text.h"
#include "widgets/l2s/l2s_view.h"
#include "widgets/mpt/mpt_view.h"

namespace partita::gui {

bool MainWindow::openStoredMethodRun(std::int64_t id) {
    const MethodRun run = store_.db()->loadMethod(id);  // the caller reports a StoreError
    const QString key = q(run.method);
    setMethodKey(key);
    for (const auto& m : methods_)
        if (m->key() == key) {
            m->openStored(*this, run);
            store_.rememberMethod(run);
            return true;
        }
    reportError(tr("Run %1: no method '%2' in this version").arg(id).arg(key));
    return false;
}

void MainWindow::showStatus(const QString& text) { status_label_->setText(text); }

MptView* MainWindow::mptView() const { return findChild<MptView*>(); }
L2sView* MainWindow::l2sView() const { return findChild<L2sView*>(); }

}  // namespace partita::gui
