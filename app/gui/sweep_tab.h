#pragma once
// Sweeps in the window (issue 18 item 5): the "Sweep" tab (widgets/sweep) over the window's results
// database, its view entry ("sweep": screenshots, exports of the table and the figures), File ▸
// Open sweep database… (the file becomes the window's results database, so the runs dock and a
// clicked point's run come from it), and Run ▸ Start sweep…, which runs a partita-sweep/1 file on
// every local core into that database, with progress, ETA and Cancel in the status bar, the view
// following as points arrive.
#include <memory>

#include <QElapsedTimer>
#include <QObject>
#include <QString>

class QLabel;
class QProgressBar;
class QPushButton;
class QTemporaryDir;

namespace partita {
class SweepView;
}

namespace partita::gui {

class MainWindow;
class SweepJob;

class SweepTab : public QObject {
    Q_OBJECT
public:
    explicit SweepTab(MainWindow& window);
    ~SweepTab() override;
    SweepView* view() const { return view_; }
    SweepJob& job() const { return *job_; }

    // Re-reads the sweep points of the window's results database.
    void refresh();
    // The file becomes the window's results database and the tab shows its sweeps. Returns "" or the problem.
    QString openDatabase(const QString& path);
    // Runs the spec into the window's results database on QThread::idealThreadCount() workers.
    // Returns "" or the problem (a bad spec, no writable database, a sweep already running).
    QString startSweep(const QString& spec_path);
    QString chooseAndOpenDatabase();  // File ▸ Open sweep database… (a file dialog)
    QString chooseAndStartSweep();    // Run ▸ Start sweep… (a file dialog)

private:
    QString ready() const;  // "" or why there is nothing to export
    void showBuiltInExample();  // screenshots: the committed example sweep, run into a temporary database

    MainWindow& window_;
    SweepView* view_ = nullptr;
    SweepJob* job_ = nullptr;
    QLabel* progress_label_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QPushButton* cancel_ = nullptr;
    QElapsedTimer since_refresh_;
    std::unique_ptr<QTemporaryDir> example_dir_;
};

}  // namespace partita::gui
