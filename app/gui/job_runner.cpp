#include "app/gui/job_runner.h"

#include <QEventLoop>
#include <QPointer>

#include "core/util/error.h"

namespace partita::gui {

struct JobRunner::Job {
    quint64 generation = 0;
    std::atomic<bool> cancel{false};
    std::atomic<double> fraction{0.0};
    double reported = -1;
    bool keep_on_cancel = false;
    std::mutex note_mutex;
    QString note;
    bool note_pending = false;
};

JobRunner::JobRunner(QObject* parent) : QObject(parent) {
    qRegisterMetaType<partita::RunPtr>("partita::RunPtr");
    // Workers may start threads of their own (exploration), so one job at a
    // time per pool thread is plenty; two lets a new job start while an old one winds down.
    pool_.setMaxThreadCount(2);
    progress_timer_.setInterval(100);  // at most ~10 progress updates a second
    connect(&progress_timer_, &QTimer::timeout, this, &JobRunner::pollProgress);
}

JobRunner::~JobRunner() {
    if (newest_) newest_->cancel = true;
    generation_ += 1;  // every running job sees a newer generation and stops
    pool_.waitForDone();
}

quint64 JobRunner::start(const QString& label, Work work) {
    return start(
        label, [work = std::move(work)](const ProgressFn& p, const NoteFn&, const CancelFn& c) { return work(p, c); },
        OnCancel::Discard);
}

quint64 JobRunner::start(const QString& label, NotedWork work, OnCancel on_cancel) {
    if (newest_) newest_->cancel = true;
    auto job = std::make_shared<Job>();
    job->generation = ++generation_;
    job->keep_on_cancel = on_cancel == OnCancel::KeepResult;
    newest_ = job;
    label_ = label;
    ++running_;
    progress_timer_.start();
    emit started(job->generation, label);

    QPointer<JobRunner> self(this);
    const std::atomic<quint64>* latest = &generation_;
    pool_.start([self, job, latest, work = std::move(work)] {
        const CancelFn cancel = [job, latest] { return job->cancel.load() || latest->load() != job->generation; };
        const ProgressFn progress = [job](double f) { job->fraction = f; };
        const NoteFn note = [job](const QString& text) {
            const std::lock_guard lock(job->note_mutex);
            job->note = text;
            job->note_pending = true;
        };
        RunPtr run;
        QString error;
        bool was_cancelled = false;
        try {
            run = std::make_shared<const Run>(work(progress, note, cancel));
            was_cancelled = cancel();
        } catch (const Cancelled&) {
            was_cancelled = true;
        } catch (const std::exception& e) {
            error = QString::fromStdString(e.what());
        }
        if (!self) return;
        QMetaObject::invokeMethod(
            self.data(),
            [self, job, run, error, was_cancelled] {
                if (self) self->complete(job, run, error, was_cancelled);
            },
            Qt::QueuedConnection);
    });
    return job->generation;
}

void JobRunner::cancel() {
    if (newest_) newest_->cancel = true;
}

void JobRunner::pollProgress() {
    if (!newest_) return;
    const double f = newest_->fraction.load();
    if (f != newest_->reported) {
        newest_->reported = f;
        emit progress(newest_->generation, f);
    }
    flushNote(*newest_);
}

void JobRunner::flushNote(Job& job) {
    QString text;
    {
        const std::lock_guard lock(job.note_mutex);
        if (!job.note_pending) return;
        job.note_pending = false;
        text = job.note;
    }
    emit note(job.generation, text);
}

void JobRunner::complete(const std::shared_ptr<Job>& job, RunPtr run, const QString& error, bool was_cancelled) {
    --running_;
    const bool newest = job == newest_;
    if (newest) {
        flushNote(*job);  // a short job's last note still reaches the window
        if (was_cancelled && !(job->keep_on_cancel && run)) emit cancelled(job->generation);
        else if (!error.isEmpty()) emit failed(job->generation, error);
        else emit finished(job->generation, std::move(run));
    }
    if (running_ == 0) {
        progress_timer_.stop();
        emit idle();
    }
}

bool JobRunner::waitForIdle(int timeout_ms) {
    if (!busy()) return true;
    QEventLoop loop;
    connect(this, &JobRunner::idle, &loop, &QEventLoop::quit);
    QTimer::singleShot(timeout_ms, &loop, &QEventLoop::quit);
    loop.exec();
    return !busy();
}

}  // namespace partita::gui
