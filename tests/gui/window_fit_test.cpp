// The window on a small screen: it opens within the screen's available area (fitWindow, and the
// window on a 1024x700 offscreen screen, which ctest configures), and at 800x520 the
// docks give way so that the tabs keep a usable width.
#include <QDockWidget>
#include <QTabBar>
#include <QFile>
#include <QScreen>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QtTest>

#include "app/gui/main_window.h"
#include "app/gui/options.h"
#include "app/gui/window_geometry.h"
#include "widgets/common/task_tabs.h"

using namespace partita;
using namespace partita::gui;

class WindowFitTest : public QObject {
    Q_OBJECT
private:
    QTemporaryDir dir_;
    Options options() const {
        Options o;
        o.db = dir_.filePath("results.sqlite");
        return o;
    }

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, dir_.filePath("settings"));
        QCOMPARE(QGuiApplication::primaryScreen()->geometry(), QRect(0, 0, 1024, 700));
    }

    void fitWindowKeepsTheWindowWithinTheAvailableArea() {
        // The default 1280x800 on a 1024x700 screen, and on one with a 24 px panel at the top.
        QCOMPARE(fitWindow({0, 0, 1280, 800}, {0, 0, 1024, 700}, true), QRect(0, 0, 1024, 700));
        QCOMPARE(fitWindow({0, 0, 1280, 800}, {0, 24, 1024, 676}, true), QRect(0, 24, 1024, 676));
        // A first start on a large screen: centred, at its size.
        QCOMPARE(fitWindow({0, 0, 1280, 800}, {0, 0, 1920, 1080}, true), QRect(320, 140, 1280, 800));
        // A restored place: kept where it fits, moved no further than needed where it does not.
        QCOMPARE(fitWindow({100, 50, 1000, 600}, {0, 0, 1920, 1080}, false), QRect(100, 50, 1000, 600));
        QCOMPARE(fitWindow({1500, 900, 800, 600}, {0, 0, 1920, 1080}, false), QRect(1120, 480, 800, 600));
        QCOMPARE(fitWindow({-300, -40, 1400, 900}, {0, 0, 1280, 720}, false), QRect(0, 0, 1280, 720));
        // Saved on a second monitor that is gone: back on the one there is.
        QCOMPARE(fitWindow({2000, 100, 1280, 800}, {0, 0, 1366, 768}, false), QRect(86, 0, 1280, 768));
        // A screen on the right of another.
        QCOMPARE(fitWindow({0, 0, 1280, 800}, {1920, 0, 1280, 1024}, true), QRect(1920, 112, 1280, 800));
    }

    // On a 1024x700 screen the window, asking for 1280x800 (or restoring a larger saved size), opens
    // within the screen: its Properties dock and status bar are on it.
    void theWindowOpensWithinTheScreen() {
        const QRect screen = QGuiApplication::primaryScreen()->availableGeometry();
        for (const bool saved : {false, true}) {
            QSettings().remove("window");
            if (saved) {
                MainWindow big(options());
                big.setGeometry(40, 40, 1600, 1000);
                QSettings().setValue("window/geometry", big.saveGeometry());
            }
            MainWindow w(options());
            QVERIFY(w.jobs().waitForIdle());
            w.fitToScreen();
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            w.fitToScreen();
            QVERIFY2(screen.contains(w.frameGeometry()),
                     qPrintable(QString("%1: %2,%3 %4x%5").arg(saved ? "saved" : "default").arg(w.x()).arg(w.y())
                                    .arg(w.width()).arg(w.height())));
            auto* props = w.findChild<QDockWidget*>("properties");
            QVERIFY(props->isVisible());
            const QRect inside = w.rect();
            QVERIFY(inside.contains(QRect(props->mapTo(&w, QPoint(0, 0)), props->size())));
            QVERIFY(w.statusBar()->isVisible());
            QVERIFY(inside.contains(QRect(w.statusBar()->mapTo(&w, QPoint(0, 0)), w.statusBar()->size())));
        }
    }

    // The views are grouped by task so that at 1024x700 neither the task bar nor any task's own tabs
    // need scroll arrows (17 tabs in one bar did: half sat behind them and positions shifted).
    void taskTabsFitWithoutScrollArrows() {
        MainWindow w(options());
        w.fitToScreen();
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.jobs().waitForIdle());
        QApplication::processEvents();
        QStringList tasks;
        const QTabWidget* bar = w.views().get<TaskTabs>()->taskBar();
        for (int t = 0; t < bar->count(); ++t)
            if (bar->isTabVisible(t)) tasks << bar->tabText(t);
        QCOMPARE(tasks, QStringList({"Model", "Machine", "Plan", "Simulate", "Sweeps", "MPT · L2S · LLM"}));
        QStringList crowded;
        for (const QTabBar* tabs : w.views().get<TaskTabs>()->findChildren<QTabBar*>()) {
            if (!tabs->isVisible()) continue;
            const int need = tabs->sizeHint().width();
            if (need > tabs->width()) crowded << QString("%1 tabs need %2 px of %3").arg(tabs->count()).arg(need).arg(tabs->width());
        }
        QVERIFY2(crowded.isEmpty(), qPrintable(crowded.join("; ")));
        // Every view is in its task, and flat indices walk them task by task.
        QCOMPARE(w.views().get<TaskTabs>()->taskOf(w.views().get<TaskTabs>()->indexOf(w.views().get<TaskTabs>()->widget(0))), QString("Model"));
        for (int i = 0; i < w.views().get<TaskTabs>()->count(); ++i) {
            w.views().get<TaskTabs>()->setCurrentIndex(i);
            QCOMPARE(w.views().get<TaskTabs>()->currentIndex(), i);
            QCOMPARE(bar->tabText(bar->currentIndex()), w.views().get<TaskTabs>()->taskOf(i));
        }
    }

    // At 800x520 the docks give way: the tabs keep at least kCentreMinWidth, the docks stay open.
    void docksGiveWayToTheTabsAt800x520() {
        MainWindow w(options());
        w.show();
        QVERIFY(w.jobs().waitForIdle());
        w.resize(800, 520);
        QTRY_COMPARE(w.size(), QSize(800, 520));
        QApplication::processEvents();
        const int centre = w.views().get<TaskTabs>()->width();
        QVERIFY2(centre >= MainWindow::kCentreMinWidth, qPrintable(QString::number(centre)));
        for (QDockWidget* dock : w.findChildren<QDockWidget*>()) {
            if (!dock->isVisible()) continue;
            QVERIFY2(dock->width() >= 120, qPrintable(dock->objectName() + " " + QString::number(dock->width())));
        }
        // Back at 1280x800 the tabs get the room again.
        w.resize(1280, 800);
        QTRY_COMPARE(w.size(), QSize(1280, 800));
        QApplication::processEvents();
        QVERIFY(w.views().get<TaskTabs>()->width() >= 640);
    }
};

// A 1024x700 screen: ctest starts this suite with QT_QPA_PLATFORM=offscreen:configfile= naming
// tests/data/qt/screen-1024x700.json (tests/CMakeLists.txt); initTestCase checks it did.
QTEST_MAIN(WindowFitTest)
#include "window_fit_test.moc"
