// The status bar's job side over two runners (the user's and the views' studies): the bar shows the
// first busy runner, and a job ending in one while the other still works hands the bar over.
#include <atomic>

#include <QAction>
#include <QProgressBar>
#include <QPushButton>
#include <QStatusBar>
#include <QtTest>

#include "app/gui/job_runner.h"
#include "app/gui/job_status.h"
#include "app/gui/run_store.h"
#include "app/gui/session.h"

using namespace partita;
using namespace partita::gui;

class JobStatusTest : public QObject {
    Q_OBJECT

    // Work that runs until `release` is set (or it is cancelled), reporting half done.
    static JobRunner::Work heldUntil(const std::atomic<bool>& release) {
        return [&release](const ProgressFn& progress, const CancelFn& cancel) {
            progress(0.5);
            while (!release.load() && !cancel()) QThread::msleep(2);
            return Run{};
        };
    }

private slots:
    void aStudyStillRunningKeepsTheBarWhenTheUsersJobEnds() {
        RunStore store;
        Session session(store);
        QStatusBar bar;
        QAction cancel("Cancel");
        JobRunner user_jobs;
        JobRunner studies;
        JobStatus status(user_jobs, session, &bar, &cancel);
        std::atomic<bool> study_cancelled{false};
        status.alsoFollow(studies, [&] { study_cancelled = true; });
        auto* progress = bar.findChild<QProgressBar*>("job-progress");
        auto* cancel_button = bar.findChild<QPushButton*>("cancel-button");
        QVERIFY(progress && cancel_button);

        std::atomic<bool> study_done{false};
        std::atomic<bool> user_done{false};
        studies.start("Study", heldUntil(study_done));
        QVERIFY(!progress->isHidden());
        user_jobs.start("Search", heldUntil(user_done));
        user_done = true;
        QVERIFY(user_jobs.waitForIdle(20000));
        // The study goes on: its progress and Cancel stay.
        QVERIFY(studies.busy());
        QVERIFY(!progress->isHidden());
        QVERIFY(!cancel_button->isHidden());
        QVERIFY(cancel.isEnabled());
        QTRY_COMPARE_WITH_TIMEOUT(progress->value(), 500, 20000);
        cancel.trigger();
        QVERIFY(study_cancelled.load());
        study_done = true;
        QVERIFY(studies.waitForIdle(20000));
        QVERIFY(progress->isHidden());
        QVERIFY(cancel_button->isHidden());
        QVERIFY(!cancel.isEnabled());
    }
};

QTEST_MAIN(JobStatusTest)
#include "job_status_test.moc"
