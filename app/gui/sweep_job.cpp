#include "app/gui/sweep_job.h"

#include <atomic>
#include <mutex>

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QThread>

#include "app/gui/input_files.h"
#include "core/store/results_db.h"
#include "core/sweep/runner.h"

namespace partita::gui {

// Shared by the GUI thread and the sweep's thread; the thread writes, the timer reads.
struct SweepJob::State {
    sweep::Spec spec;
    std::string db_path;
    unsigned jobs = 1;
    std::atomic<bool> stop{false};
    std::atomic<std::size_t> done{0}, total{0}, failed{0};
    std::atomic<double> elapsed_s{0};
    std::mutex mutex;  // guards the outcome
    QString summary, error;
    bool stopped = false;
};

SweepJob::SweepJob(QObject* parent) : QObject(parent) {
    timer_.setInterval(100);  // at most ten progress updates a second
    connect(&timer_, &QTimer::timeout, this, &SweepJob::poll);
}

SweepJob::~SweepJob() {
    if (!thread_) return;
    state_->stop = true;
    thread_->wait();
}

QString SweepJob::start(const QString& spec_path, const QString& db_path, unsigned jobs) {
    if (thread_) return tr("A sweep is already running");
    auto state = std::make_shared<State>();
    try {
        state->spec = sweep::loadSpec(spec_path.toStdString(), examplesDir().toStdString());
    } catch (const std::exception& e) {
        return QString::fromStdString(e.what());
    }
    state->db_path = db_path.toStdString();
    state->jobs = std::max(jobs, 1u);
    state_ = state;
    thread_ = QThread::create([state] {
        QString summary, error;
        try {
            const sweep::PointInputs inputs(state->spec);
            ResultsDb db(state->db_path);  // this thread's own connection
            sweep::Options options;
            options.jobs = state->jobs;
            const sweep::Plan plan = sweep::plan(inputs, db.sweepPointStates(), options);
            state->total = plan.todo.size();
            const sweep::Report report = sweep::run(
                inputs, plan, db, options,
                [state](const sweep::Progress& p) {
                    state->done = p.done;
                    state->failed = p.failed;
                    state->elapsed_s = p.elapsed_s;
                },
                [state] { return state->stop.load(); });
            summary = tr("Sweep %1: %2 points computed (%3 failed) in %4 s; %5 were already stored")
                          .arg(QString::fromStdString(state->spec.name))
                          .arg(report.ran)
                          .arg(report.failed)
                          .arg(report.elapsed_s, 0, 'f', 1)
                          .arg(plan.stored + plan.failed);
            std::lock_guard lock(state->mutex);
            state->stopped = report.stopped;
        } catch (const std::exception& e) {
            error = QString::fromStdString(e.what());
        }
        std::lock_guard lock(state->mutex);
        state->summary = summary;
        state->error = error;
    });
    connect(thread_, &QThread::finished, this, &SweepJob::ended);  // queued: delivered on the GUI thread
    thread_->start();
    timer_.start();
    emit progress(0, 0, 0, -1);
    return {};
}

void SweepJob::cancel() {
    if (state_) state_->stop = true;
}

void SweepJob::poll() {
    if (!state_) return;
    const std::size_t done = state_->done, total = state_->total;
    const double elapsed = state_->elapsed_s;
    const double eta = done > 0 && total >= done ? elapsed / static_cast<double>(done) * static_cast<double>(total - done) : -1;
    emit progress(done, total, state_->failed, eta);
}

void SweepJob::ended() {
    timer_.stop();
    poll();
    thread_->deleteLater();
    thread_ = nullptr;
    const auto state = std::exchange(state_, nullptr);
    QString summary, error;
    bool stopped = false;
    {
        std::lock_guard lock(state->mutex);
        summary = state->summary;
        error = state->error;
        stopped = state->stopped;
    }
    if (!error.isEmpty()) emit failed(error);
    else emit finished(stopped ? summary + tr(" — cancelled; Start sweep again resumes it") : summary, stopped);
}

bool SweepJob::waitForIdle(int timeout_ms) {
    QDeadlineTimer deadline(timeout_ms);
    while (thread_ && !deadline.hasExpired()) QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
    return !thread_;
}

}  // namespace partita::gui
