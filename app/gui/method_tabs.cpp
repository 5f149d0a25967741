// The MPT and Learn-to-Scale tabs: self-contained method views over their own
// engines (core/mpt, core/l2s). Each evaluates on the GUI thread: an evaluation is
// analytic (15-200 us, tests/bench/method_bench.cpp), a click a few of them.
#include <QStackedWidget>
#include <QTabWidget>

#include "app/gui/explore_view.h"
#include "app/gui/input_files.h"
#include "app/gui/main_window.h"
#include "app/gui/network_view.h"
#include "widgets/heatmap/comm_heatmap_view.h"
#include "widgets/compare/compare_view.h"
#include "widgets/timeline/gantt_view.h"
#include "widgets/simulation/simulation_view.h"
#include "widgets/charts/study_view.h"
#include "widgets/teaching/teaching_view.h"
#include "widgets/l2s/l2s_view.h"
#include "widgets/mpt/mpt_view.h"

namespace partita::gui {

void MainWindow::buildMethodTabs() {
    mpt_ = new MptView(tabs_);
    mpt_->setObjectName("mpt-view");
    mpt_->setExamplesDir(examplesDir());
    addViewTab(mpt_, tr("MPT"));
    l2s_ = new L2sView(tabs_);
    l2s_->setObjectName("l2s-view");
    l2s_->setExamplesDir(examplesDir());
    addViewTab(l2s_, tr("L2S"));
    // With Learn-to-Scale chosen, the Heatmap tab shows the boundary the L2S tab shows.
    connect(l2s_, &L2sView::boundarySelected, this, [this] {
        if (methodKey() == "l2s") heatmap_->setMatrix(l2s_->trafficView()->matrix(), l2s_->trafficView()->title());
    });
}

// The network the user chose, else the paper's workload (MPT: Table II layers; L2S: ConvNet). The tab
// evaluates as the user clicks (analytic, microseconds); Run stores what it shows.
void MainWindow::showMpt() {
    showTab(mpt_);
    if (user_network_ && !network_path_.isEmpty()) {
        if (mpt_->workloadKey() != network_path_) mpt_->loadWorkload(network_path_);
    } else if (!mpt_->hasEvaluation()) {
        mpt_->loadWorkload("layers");
    }
}

void MainWindow::showL2s() {
    showTab(l2s_);
    if (user_network_ && !network_path_.isEmpty()) {
        if (l2s_->presetKey() != network_path_) l2s_->loadPreset(network_path_);
    } else if (!l2s_->hasEvaluation()) {
        l2s_->loadPreset("convnet");
    }
}

void MainWindow::runMpt() {
    showMpt();
    if (mpt_->hasEvaluation()) storeMethodRun("mpt");
}

void MainWindow::runL2s() {
    showL2s();
    if (l2s_->hasEvaluation()) storeMethodRun("l2s");
}

}  // namespace partita::gui
