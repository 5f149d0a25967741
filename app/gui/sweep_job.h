#pragma once
// A sweep started from the window (Run ▸ Start sweep…): core/sweep's runner on a thread of its own
// with a database connection of its own, so the GUI keeps turning. As the JobRunner does for one
// run: a cancel flag the core polls, progress read at most ten times a second on the GUI thread,
// the outcome delivered there. Cancel lets the points in flight finish and be stored (a rerun
// resumes), so nothing half-computed reaches the database.
#include <memory>

#include <QObject>
#include <QString>
#include <QTimer>

class QThread;

namespace partita::gui {

class SweepJob : public QObject {
    Q_OBJECT
public:
    explicit SweepJob(QObject* parent = nullptr);
    ~SweepJob() override;  // stops the sweep and waits for it

    // Reads and checks the partita-sweep/1 file here (a bad spec is reported at once, nothing runs),
    // then runs its points not yet in `db_path` on `jobs` worker threads. Returns "" or the problem.
    QString start(const QString& spec_path, const QString& db_path, unsigned jobs);
    void cancel();
    bool running() const { return thread_ != nullptr; }
    // For tests and the screenshot mode: process events until the sweep has ended.
    bool waitForIdle(int timeout_ms = 60000);

signals:
    // Points done of this run's todo list, its size, failures among them, and the time left (s; -1 unknown).
    void progress(qulonglong done, qulonglong total, qulonglong failed, double eta_s);
    void finished(const QString& summary, bool cancelled);
    void failed(const QString& message);

private:
    struct State;
    void poll();
    void ended();

    std::shared_ptr<State> state_;
    QThread* thread_ = nullptr;
    QTimer timer_;
};

}  // namespace partita::gui
