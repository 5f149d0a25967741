// MainWindow's status line and the MPT and L2S methods' views.
#include <QLabel>

#include "app/gui/job_status.h"
#include "app/gui/main_window.h"
#include "widgets/l2s/l2s_view.h"
#include "widgets/mpt/mpt_view.h"

namespace partita::gui {

void MainWindow::showStatus(const QString& text) { status_->showText(text); }

MptView* MainWindow::mptView() const { return findChild<MptView*>(); }
L2sView* MainWindow::l2sView() const { return findChild<L2sView*>(); }

}  // namespace partita::gui
