#include "app/gui/job_status.h"

#include <algorithm>

#include <QAction>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QStatusBar>

#include "app/gui/job_runner.h"
#include "app/gui/session.h"
#include "core/util/format.h"

namespace partita::gui {

JobStatus::JobStatus(JobRunner& jobs, Session& session, QStatusBar* bar, QAction* cancel, QObject* parent)
    : QObject(parent), jobs_(jobs), session_(session), cancel_(cancel) {
    text_ = new QLabel(bar);
    text_->setObjectName("status-text");
    progress_ = new QProgressBar(bar);
    progress_->setObjectName("job-progress");
    progress_->setRange(0, 1000);
    progress_->setMaximumWidth(220);
    progress_->hide();
    cancel_button_ = new QPushButton(tr("Cancel"), bar);
    cancel_button_->setObjectName("cancel-button");
    cancel_button_->setToolTip(tr("Stop the running job (Esc)"));
    cancel_button_->hide();
    connect(cancel_button_, &QPushButton::clicked, &jobs_, &JobRunner::cancel);
    bar->addWidget(text_, 1);
    bar->addPermanentWidget(progress_);
    bar->addPermanentWidget(cancel_button_);
    connect(&jobs_, &JobRunner::cancelled, this, [bar] { bar->showMessage(tr("Cancelled"), 4000); });
    follow(jobs_);
    // A run shown while a job runs (or after): the line follows it.
    connect(&session_, &Session::runChanged, this, [this] {
        setBusy(shown_ != nullptr, shown_ ? shown_->runner->label() : QString());
        if (shown_) showProgress(*shown_);
    });
}

void JobStatus::alsoFollow(JobRunner& side, std::function<void()> cancel) {
    follow(side);
    connect(cancel_, &QAction::triggered, this, cancel);
    connect(cancel_button_, &QPushButton::clicked, this, cancel);
}

// One set of connections for every runner; the bar shows the first busy one, so a job ending in one
// runner while another still works hands the bar over instead of hiding it.
void JobStatus::follow(JobRunner& runner) {
    Followed* job = runners_.emplace_back(std::make_unique<Followed>()).get();
    job->runner = &runner;
    connect(&runner, &JobRunner::started, this, [this, job](quint64, const QString& label) {
        job->fraction = 0;
        job->clock.start();
        if (firstBusy() != job) return;
        shown_ = job;
        setBusy(true, label);
        showProgress(*job);
    });
    connect(&runner, &JobRunner::progress, this, [this, job](quint64, double f) {
        job->fraction = f;
        if (shown_ == job) showProgress(*job);
    });
    connect(&runner, &JobRunner::note, this, [this, job](quint64, const QString& text) {
        if (shown_ == job) text_->setText(text);
    });
    connect(&runner, &JobRunner::idle, this, [this] { showFirstBusy(); });
}

JobStatus::Followed* JobStatus::firstBusy() {
    for (const auto& job : runners_)
        if (job->runner->busy()) return job.get();
    return nullptr;
}

void JobStatus::showFirstBusy() {
    Followed* busy = firstBusy();
    if (busy && busy == shown_) return;
    shown_ = busy;
    setBusy(busy != nullptr, busy ? busy->runner->label() : QString());
    if (busy) showProgress(*busy);
}

void JobStatus::showText(const QString& text) { text_->setText(text); }

void JobStatus::setBusy(bool busy, const QString& label) {
    progress_->setVisible(busy);
    cancel_button_->setVisible(busy);
    cancel_->setEnabled(busy);
    if (busy) {
        text_->setText(label + "…");
        return;
    }
    const RunPtr current = session_.currentRun();
    if (current && current->isSimulation()) {
        text_->setText(tr("%1: makespan %2 ms, %3× DP")
                                   .arg(QString::fromStdString(current->name))
                                   .arg(current->stepTime() * 1e3, 0, 'f', 3)
                                   .arg(current->perfVsDp(), 0, 'f', 3));
    } else if (current) {
        const QString traffic =
            current->isAccPar() ? tr("AccPar model") : QString::fromStdString(withCommas(current->eval().total_elements)) + tr(" elements");
        text_->setText(tr("%1: %2, step %3")
                                   .arg(QString::fromStdString(current->name), traffic)
                                   .arg(QString::fromStdString(seconds(current->stepTime()))));
    }
}

void JobStatus::showProgress(const Followed& job) {
    const double fraction = job.fraction;
    progress_->setValue(static_cast<int>(fraction * 1000));
    // Time left at the pace so far: for a wall-time budget (MCMC) the budget's remainder.
    const double elapsed = static_cast<double>(job.clock.elapsed()) / 1000.0;
    if (fraction < 0.01 || fraction >= 1 || elapsed < 0.5) {
        progress_->setFormat(tr("%p%"));
        return;
    }
    const double left = elapsed * (1 - fraction) / fraction;
    const QString when = left < 60 ? tr("%1 s left").arg(std::max(1, qRound(left)))
                                   : tr("%1 min left").arg(qRound(left / 60));
    progress_->setFormat(tr("%p% · %1").arg(when));
}

}  // namespace partita::gui
