#pragma once
// What the window offers the parts that act for it (the run and simulation controllers, the methods):
// the session, the jobs, the status line, error and notice reporting, recent files, which job's run
// is stored when it finishes, the views by name and a tab for a method's own view. Those parts take
// this, not the whole MainWindow.
#include <QString>
#include <QStringList>

#include <QtGlobal>

#include "app/gui/job_runner.h"

class QWidget;

namespace partita::gui {

class JobRunner;
class RunStore;
class Session;
class SimulationController;
class ViewRegistry;

class WindowServices {
public:
    virtual Session& session() = 0;
    virtual JobRunner& jobs() = 0;
    virtual RunStore& runStore() = 0;
    virtual void showStatus(const QString& text) = 0;                // the status line, until replaced
    virtual void showMessage(const QString& text, int timeout_ms) = 0;  // a passing message over it
    virtual void reportError(const QString& message) = 0;             // the status line and a non-modal box
    // Not an error: a summary in the status bar and a non-modal message listing `lines`.
    virtual void reportNotice(const QString& title, const QString& summary, const QStringList& lines) = 0;
    virtual void addRecentFile(const QString& path) = 0;
    // Starts a job whose run is stored when it finishes, serialised in its worker (RunController::startStored).
    virtual quint64 startStored(const QString& label, JobRunner::NotedWork work, JobRunner::OnCancel on_cancel) = 0;
    virtual QWidget* dialogParent() = 0;
    virtual SimulationController& simulation() = 0;  // Simulate's and MCMC's topologies and jobs
    virtual ViewRegistry& views() = 0;               // the views by name, their export targets
    virtual void showView(const QString& name) = 0;  // brings a view's tab forward (--view names)
    virtual void addMethodTab(QWidget* view, const QString& title) = 0;  // among the methods' tabs
    virtual bool releaseViews() = 0;  // asks views whose work would be lost; false: the user kept it

protected:
    ~WindowServices() = default;
};

}  // namespace partita::gui
