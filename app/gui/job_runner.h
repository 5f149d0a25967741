#pragma once
// Runs engine work on a thread pool (docs/contributing/architecture.md#jobs-and-threads): each request gets a
// generation number, a newer request makes older ones cancel cooperatively,
// progress reaches the GUI at most ten times a second, and results come back
// as immutable runs on the GUI thread. Only the newest job's outcome is reported.
// A job may also post a one-line note (e.g. MCMC's iteration and best time),
// shown like progress at most ten times a second, and may keep the run it
// returns when cancelled by the user (a search's best so far).
#include <atomic>
#include <functional>
#include <memory>
#include <mutex>

#include <QObject>
#include <QString>
#include <QThreadPool>
#include <QTimer>

#include "core/run/run.h"
#include "core/util/progress.h"

namespace partita::gui {

class JobRunner : public QObject {
    Q_OBJECT
public:
    using Work = std::function<Run(const ProgressFn& progress, const CancelFn& cancel)>;
    using NoteFn = std::function<void(const QString& note)>;  // thread-safe; the latest note wins
    using NotedWork = std::function<Run(const ProgressFn& progress, const NoteFn& note, const CancelFn& cancel)>;
    // Discard: a cancelled job reports cancelled(). KeepResult: a run the work still returns
    // after the user's Cancel is reported by finished() (a newer job still discards it).
    enum class OnCancel { Discard, KeepResult };

    explicit JobRunner(QObject* parent = nullptr);
    ~JobRunner() override;  // cancels and waits for the workers

    // Starts `work` and cancels every older job; returns the new generation.
    quint64 start(const QString& label, Work work);
    quint64 start(const QString& label, NotedWork work, OnCancel on_cancel);
    void cancel();                   // cancels the newest job too
    bool busy() const { return running_ > 0; }
    quint64 generation() const { return generation_.load(); }
    QString label() const { return label_; }
    // For tests and the screenshot mode: process events until no job runs.
    bool waitForIdle(int timeout_ms = 60000);

signals:
    void started(quint64 generation, const QString& label);
    void progress(quint64 generation, double fraction);
    void note(quint64 generation, const QString& text);
    void finished(quint64 generation, partita::RunPtr run);
    void failed(quint64 generation, const QString& message);
    void cancelled(quint64 generation);
    void idle();

private:
    struct Job;
    void pollProgress();
    void flushNote(Job& job);
    void complete(const std::shared_ptr<Job>& job, RunPtr run, const QString& error, bool was_cancelled);

    QThreadPool pool_;
    QTimer progress_timer_;
    std::atomic<quint64> generation_{0};
    std::shared_ptr<Job> newest_;
    int running_ = 0;
    QString label_;
};

}  // namespace partita::gui
