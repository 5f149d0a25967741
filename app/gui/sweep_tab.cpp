#include "app/gui/sweep_tab.h"

#include <QAction>
#include <QFileDialog>
#include <QLabel>
#include <QMenu>
#include <QProgressBar>
#include <QPushButton>
#include <QStatusBar>
#include "widgets/common/task_tabs.h"
#include <QTemporaryDir>
#include <QThread>

#include "app/gui/export_entries.h"
#include "app/gui/input_files.h"
#include "app/gui/action_set.h"
#include "app/gui/main_window.h"
#include "app/gui/runs_dock.h"
#include "app/gui/sweep_job.h"
#include "core/sweep/table.h"
#include "widgets/common/qt_text.h"
#include "widgets/sweep/sweep_multiples.h"
#include "widgets/sweep/sweep_scatter.h"
#include "widgets/sweep/sweep_view.h"

namespace partita::gui {

namespace {
// While points arrive, the view re-reads the database at most this often.
constexpr int kRefreshMs = 1000;

QString etaText(double s) {
    if (s < 0) return QString();
    if (s < 60) return SweepJob::tr(", about %1 s left").arg(qRound(s));
    return SweepJob::tr(", about %1 min left").arg(qRound(s / 60));
}
}  // namespace

SweepTab::SweepTab(MainWindow& window) : QObject(&window), window_(window), job_(new SweepJob(this)) {
    view_ = new SweepView(window.views().tabs());
    window.views().addTab("sweep", view_);
    connect(view_, &SweepView::runChosen, this, [this](qint64 id) { window_.runs().openStoredRun(id); });
    // The tab reads the database when shown: another database may have been opened meanwhile.
    connect(window.views().tabs(), &TaskTabs::currentChanged, this, [this] {
        if (window_.views().shown() == view_ && !job_->running()) refresh();
    });

    progress_label_ = new QLabel(&window);
    progress_ = new QProgressBar(&window);
    progress_->setMaximumWidth(160);
    cancel_ = new QPushButton(tr("Cancel sweep"), &window);
    cancel_->setToolTip(tr("Stop after the points in flight; Start sweep again resumes where it stopped"));
    for (QWidget* w : {static_cast<QWidget*>(progress_label_), static_cast<QWidget*>(progress_), static_cast<QWidget*>(cancel_)}) {
        window.statusBar()->addPermanentWidget(w);
        w->hide();
    }
    connect(cancel_, &QPushButton::clicked, job_, &SweepJob::cancel);
    connect(job_, &SweepJob::progress, this, [this](qulonglong done, qulonglong total, qulonglong failed, double eta) {
        progress_->setRange(0, static_cast<int>(std::max<qulonglong>(total, 1)));
        progress_->setValue(static_cast<int>(done));
        progress_label_->setText(tr("Sweep: %1 / %2 points (%3 failed)%4").arg(done).arg(total).arg(failed).arg(etaText(eta)));
        if (done > 0 && since_refresh_.elapsed() >= kRefreshMs) refresh();
    });
    const auto idle = [this] {
        for (QWidget* w : {static_cast<QWidget*>(progress_label_), static_cast<QWidget*>(progress_), static_cast<QWidget*>(cancel_)})
            w->hide();
        refresh();
        window_.runStore().written();
    };
    connect(job_, &SweepJob::finished, this, [this, idle](const QString& summary) {
        idle();
        window_.statusBar()->showMessage(summary, 10000);
    });
    connect(job_, &SweepJob::failed, this, [this, idle](const QString& message) {
        idle();
        window_.showStatus(tr("Sweep failed: %1").arg(message));
    });

    auto* open = new QAction(tr("Open s&weep database…"), this);
    open->setToolTip(tr("A results database a sweep wrote (partita-cli sweep, merge-db): its points in the Sweep tab"));
    connect(open, &QAction::triggered, this, [this] { chooseAndOpenDatabase(); });
    auto* start = new QAction(tr("Start s&weep…"), this);
    start->setToolTip(tr("Run a partita-sweep/1 file on every local core into the results database"));
    connect(start, &QAction::triggered, this, [this] { chooseAndStartSweep(); });
    window.actionSet().add("open-sweep-db", open);
    window.actionSet().add("start-sweep", start);
    if (QMenu* file = window.actionSet().menu("file")) file->insertAction(file->actions().value(3), open);
    if (QMenu* run = window.actionSet().menu("run")) {
        run->addSeparator();
        run->addAction(start);
    }

    const auto ready = [this] { return this->ready(); };
    window.views().add(
        {"sweep", view_, [this] { return view_; },
         [this] {
             // The window's database when it holds a sweep, else the committed example, computed now. A
             // database that was refused keeps its own error in view (an example would replace it).
             refresh();
             if (!window_.runStore().db() && !window_.runStore().problem().isEmpty()) return window_.showStatus(window_.runStore().problem());
             if (!view_->table() || view_->table()->rows.empty()) showBuiltInExample();
         },
         {widgetTarget("sweep", tr("Sweep table"), [this] { return view_; }, [this] { return view_->csv(); }, ready),
          figureTarget("sweep-pareto", tr("Sweep Pareto front"), view_->scatter(), [this] { return view_->scatter()->csv(); },
                       ready),
          figureTarget("sweep-multiples", tr("Sweep per method"), view_->multiples(),
                       [this] { return view_->multiples()->csv(); }, ready)}});
}

SweepTab::~SweepTab() = default;

void SweepTab::refresh() {
    since_refresh_.start();
    const ResultsDb* db = window_.runStore().db();
    if (!db) return view_->setTable(nullptr, QString());
    try {
        QString source = q(db->path());
        if (example_dir_ && source == example_dir_->filePath("sweep.sqlite"))
            source = tr("examples/sweeps/analytic.json, computed now");
        view_->setTable(std::make_shared<const sweep::Table>(sweep::readTable(*db)), source);
    } catch (const std::exception& e) {
        window_.showStatus(q(e.what()));
    }
}

QString SweepTab::openDatabase(const QString& path) {
    if (job_->running()) return tr("A sweep is running into the open database: cancel it first");
    const QString problem = window_.runStore().open(path, window_.options().db_read_only);
    refresh();
    if (problem.isEmpty()) window_.views().show(view_);
    return problem;
}

QString SweepTab::startSweep(const QString& spec_path) {
    if (!window_.runStore().storing()) return tr("No writable results database is open: open one (File ▸ Open sweep database…)");
    const QString problem =
        job_->start(spec_path, q(window_.runStore().db()->path()), static_cast<unsigned>(std::max(1, QThread::idealThreadCount())));
    if (!problem.isEmpty()) return problem;
    for (QWidget* w : {static_cast<QWidget*>(progress_label_), static_cast<QWidget*>(progress_), static_cast<QWidget*>(cancel_)})
        w->show();
    since_refresh_.start();
    window_.views().show(view_);
    return {};
}

QString SweepTab::chooseAndOpenDatabase() {
    const QString path = QFileDialog::getOpenFileName(&window_, tr("Open sweep database"), QString(),
                                                      tr("Results databases (*.sqlite *.db);;All files (*)"));
    if (path.isEmpty()) return {};
    const QString problem = openDatabase(path);
    if (!problem.isEmpty()) window_.showStatus(problem);
    return problem;
}

QString SweepTab::chooseAndStartSweep() {
    const QString path = QFileDialog::getOpenFileName(&window_, tr("Start sweep"), examplesDir() + "/sweeps",
                                                      tr("Sweeps (partita-sweep/1) (*.json)"));
    if (path.isEmpty()) return {};
    const QString problem = startSweep(path);
    if (!problem.isEmpty()) window_.showStatus(problem);
    return problem;
}

QString SweepTab::ready() const {
    return view_->table() && !view_->table()->rows.empty() ? QString()
                                                           : tr("Nothing to export: the sweep view is empty");
}

void SweepTab::showBuiltInExample() {
    // Never into the user's database: a temporary one, kept while the window lives.
    example_dir_ = std::make_unique<QTemporaryDir>();
    const QString problem = window_.runStore().open(example_dir_->filePath("sweep.sqlite"), false);  // read-write
    if (!problem.isEmpty()) return window_.showStatus(problem);
    if (startSweep(examplesDir() + "/sweeps/analytic.json").isEmpty()) job_->waitForIdle();
    refresh();
    // The figures show one network (the first by default): VGG-A's front has more to show than LeNet's.
    view_->setNetwork("vgg-a");
}

}  // namespace partita::gui
