#pragma once
// The status bar's line and its job side: while a job runs, its label, notes, a progress bar with the
// time left and a Cancel button; when none runs, the shown run's summary. Follows the JobRunner and
// the Session, so the window only says what else to show (showText).
#include <functional>
#include <memory>
#include <vector>

#include <QElapsedTimer>
#include <QObject>
#include <QString>

class QAction;
class QLabel;
class QProgressBar;
class QPushButton;
class QStatusBar;

namespace partita::gui {

class JobRunner;
class Session;

class JobStatus : public QObject {
    Q_OBJECT
public:
    // `cancel` (Run ▸ Cancel) is enabled while a job runs.
    JobStatus(JobRunner& jobs, Session& session, QStatusBar* bar, QAction* cancel, QObject* parent = nullptr);
    void showText(const QString& text);  // the status line, until replaced
    // A second runner's jobs (the views' studies) show in the same bar while the first is idle; Cancel
    // (the action and the button) also calls `cancel`.
    void alsoFollow(JobRunner& side, std::function<void()> cancel);

private:
    struct Followed {
        JobRunner* runner = nullptr;
        double fraction = 0;   // its running job's last progress
        QElapsedTimer clock;   // since that job started (the bar's time left)
    };
    void follow(JobRunner& runner);
    Followed* firstBusy();  // in the order followed: the user's runner first
    void showFirstBusy();   // after a job of any runner ends
    void setBusy(bool busy, const QString& label = {});
    void showProgress(const Followed& job);  // the bar's value, percent and time left

    JobRunner& jobs_;
    Session& session_;
    std::vector<std::unique_ptr<Followed>> runners_;  // first busy one shown
    Followed* shown_ = nullptr;                       // whose job the bar shows
    QAction* cancel_;
    QLabel* text_;
    QProgressBar* progress_;
    QPushButton* cancel_button_;
};

}  // namespace partita::gui
