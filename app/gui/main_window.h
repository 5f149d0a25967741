#pragma once
// The main window: library, runs and properties docks around a tab area
// (grid + metrics, comparison, exploration, network), a toolbar, and a status
// bar with progress and Cancel. Engine work runs in the JobRunner; the window
// only swaps immutable runs into its views. Public methods are the actions the
// UI triggers, so tests drive the window exactly as a user would.
#include <map>
#include <memory>
#include <optional>
#include <vector>

#include <QMainWindow>
#include <QTimer>

#include "app/gui/job_runner.h"
#include "app/gui/options.h"
#include "core/run/run.h"
#include "core/store/results_db.h"

class QAction;
class QComboBox;
class QLabel;
class QMenu;
class QProgressBar;
class QPushButton;
class QTabWidget;

namespace partita {
class CompareView;
class GridView;
class MetricsPanel;
class ParamsEditor;
}  // namespace partita

namespace partita::gui {

class ExploreView;
class LibraryDock;
class NetworkView;
class RunsDock;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(const Options& options, QWidget* parent = nullptr);
    ~MainWindow() override;

    // Loads a network, array or strategy (by its format). On failure the
    // parser's message is shown and returned; nothing else changes.
    bool openFile(const QString& path, QString* error = nullptr);
    bool loadNetwork(const QString& path, QString* error = nullptr);
    bool loadArray(const QString& path, QString* error = nullptr);
    bool loadStrategy(const QString& path, QString* error = nullptr);

    void runMethod(Method method);   // Run: search / plan in a worker
    void runAccPar();                // Run with AccPar selected
    void runSelected();              // the method in the toolbar's selector
    void evaluateCurrent();          // Evaluate: the shown grid under the current parameters
    void explore(const std::vector<CellRef>& cells);
    void toggleCell(int level, int layer);  // flip and re-evaluate at once
    void applyGrid(const Grid& grid);       // show a grid as an edit of the searched run
    void resetGrid();                       // back to the searched optimum
    void compareWithBaselines();            // the current run beside HyPar, DP, MP, OWT
    void compareRuns(const std::vector<RunPtr>& runs);
    bool compareStored(const std::vector<std::int64_t>& ids);
    bool openStoredRun(std::int64_t id);
    bool deleteStoredRuns(const std::vector<std::int64_t>& ids);
    bool renameStoredRun(std::int64_t id, const QString& name);
    void flushPendingStore();               // store a pending edited grid now
    void cancelJob();
    // Exports one target ("grid", "metrics", "compare", "compare-metrics",
    // "compare-levels", "level-chart", "time-chart", "explore", "network") to
    // a .png/.svg/.pdf figure or a .csv table. Returns an empty string or the problem.
    QString exportTarget(const QString& target, const QString& path);
    static QStringList exportTargets();
    // Renders the window or one view (Options::view names) to a PNG.
    bool saveScreenshot(const QString& path, const QString& view);
    void showView(const QString& view);

    JobRunner& jobs() { return jobs_; }
    RunPtr currentRun() const { return current_; }
    RunPtr searchedRun() const { return searched_; }
    InputsPtr inputs() const { return inputs_; }
    ResultsDb* db() const { return db_.get(); }
    QString dbProblem() const { return db_problem_; }
    QString lastError() const { return last_error_; }
    QString methodKey() const;       // "hypar", "dp", "mp", "owt" or "accpar"
    void setMethodKey(const QString& key);

    GridView* gridView() const { return grid_; }
    MetricsPanel* metricsPanel() const { return metrics_; }
    CompareView* compareView() const { return compare_; }
    ExploreView* exploreView() const { return explore_; }
    ParamsEditor* paramsEditor() const { return params_; }
    RunsDock* runsDock() const { return runs_dock_; }
    LibraryDock* libraryDock() const { return library_; }
    QTabWidget* tabs() const { return tabs_; }
    QAction* action(const QString& name) const;  // "run", "evaluate", "explore", "compare", "export", "reset", "cancel"

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    void buildActions();
    void buildDocks();
    void buildCentral();
    void buildStatusBar();
    void openDatabase(const QString& path);
    void restoreSettings();
    void addRecentFile(const QString& path);
    void rebuildRecentMenu();
    void rebuildInputs();                   // parameters changed: new inputs, re-run
    void setInputs(InputsPtr inputs);
    void showRun(const RunPtr& run);
    void storeRun(const RunPtr& run);       // returns silently without a database
    void onJobFinished(quint64 generation, RunPtr run);
    void setBusy(bool busy, const QString& label = {});
    void reportError(const QString& message);
    void updateActions();
    void updateTitle();

    Options options_;
    JobRunner jobs_;
    std::unique_ptr<ResultsDb> db_;
    QString db_problem_;
    QString last_error_;

    Network network_;
    Array array_;
    QString network_path_, array_path_;
    InputsPtr inputs_;
    RunPtr searched_;  // the method's answer that edits are compared with
    RunPtr current_;   // what the grid and metrics show
    RunPtr pending_store_;
    QTimer store_timer_;     // coalesces rapid grid edits into one stored run
    QTimer params_timer_;    // coalesces typing in the properties dock

    GridView* grid_ = nullptr;
    MetricsPanel* metrics_ = nullptr;
    CompareView* compare_ = nullptr;
    ExploreView* explore_ = nullptr;
    NetworkView* network_view_ = nullptr;
    ParamsEditor* params_ = nullptr;
    LibraryDock* library_ = nullptr;
    RunsDock* runs_dock_ = nullptr;
    QTabWidget* tabs_ = nullptr;
    QComboBox* method_box_ = nullptr;
    QLabel* status_label_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QPushButton* cancel_button_ = nullptr;
    QMenu* recent_menu_ = nullptr;
    std::map<QString, QAction*> actions_;
};

}  // namespace partita::gui
