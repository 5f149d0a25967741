#pragma once
// The status bar's line and its job side: while a job runs, its label, notes, a progress bar with the
// time left and a Cancel button; when none runs, the shown run's summary. Follows the JobRunner and
// the Session, so the window only says what else to show (showText).
#include <functional>

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
    void setBusy(bool busy, const QString& label = {});
    void showProgress(double fraction);  // the bar's value, percent and time left

    JobRunner& jobs_;
    Session& session_;
    QAction* cancel_;
    QLabel* text_;
    QProgressBar* progress_;
    QPushButton* cancel_button_;
    QElapsedTimer clock_;  // since the running job started (the bar's time left)
};

}  // namespace partita::gui
