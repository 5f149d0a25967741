#pragma once
// The window's views by name (--view, screenshots) and their export targets by
// name (--export, File ▸ Export): looked up, never compared as strings. Each
// method and each view tab registers its own entries when it builds its widgets.
#include <functional>
#include <vector>

#include <QObject>
#include <QString>
#include <QStringList>

#include "app/gui/view_list.h"
#include "widgets/common/selection.h"

class QUndoStack;
class QWidget;

namespace partita::gui {

class TaskTabs;

// Writes one target to `path`; `csv` is the path's type (else a figure). Returns "" or the problem.
using ExportWriter = std::function<QString(const QString& path, bool csv)>;

struct ExportEntry {
    QString target;  // what --export and ExportActions::write() take, e.g. "grid", "l2s-traffic"
    QString label;   // what the menu and the dialog say
    ExportWriter write;
    // Suffixes (lower case, no dot) of a format of the entry's own, besides .png/.svg/.pdf/.csv:
    // such a path goes to `write` (with csv = false) unchecked, e.g. "dot" for a graph's DOT text.
    QStringList suffixes = {};
};

struct ViewEntry {
    QString name;               // --view name
    QWidget* tab = nullptr;     // the tab showTab() brings forward; null for docks
    std::function<QWidget*()> shot = {};      // what a screenshot of the view grabs
    std::function<void()> prepare = {};       // fills an empty view before a screenshot (may be empty)
    std::vector<ExportEntry> exports = {};  // its main figure first
    std::function<QString()> alias = {};      // a name for another view, decided when asked ("main")
    QUndoStack* undo = nullptr;  // what Edit ▸ Undo / Redo step through while the tab is shown (else the grid's)
    // Asked before the window closes or loads another network: false keeps things as they are
    // (the user cancelled saving the view's work).
    std::function<bool()> release = {};
    bool own_properties = false;  // the tab edits its own properties: the Properties dock steps aside
    bool central() const { return tab != nullptr; }
};

class ViewRegistry {
public:
    void add(ViewEntry entry) { entries_.push_back(std::move(entry)); }
    const ViewEntry* find(const QString& name) const;
    const ViewEntry* findFollowingAlias(const QString& name) const;  // "main" is the method's view
    void showNamed(const QString& name);  // brings a view's tab forward (--view names)
    const ViewEntry* findByTab(const QWidget* tab) const;
    const ExportEntry* findTarget(const QString& target) const;
    QStringList targets() const;  // every export target, in registration order
    const std::vector<ViewEntry>& entries() const { return entries_; }

    // The tab area: each tab is a view in a scroll area (a view never makes the window larger than
    // the screen), among its task's tabs, in the order added; every tab is remembered (get<T>()).
    void setTabs(TaskTabs* tabs);  // declares the tasks of viewList()
    TaskTabs* tabs() const { return tabs_; }
    void addTab(const QString& name, QWidget* view);  // titled and grouped as viewList() says
    void addTab(QWidget* view, const QString& title, ViewTask task);
    QWidget* shown() const;  // the shown tab's view
    void show(QWidget* view);

    // The cell, operator, device and link the views share: each view sets it and follows it.
    Selection& selection() { return selection_; }

    // The window's views, their parts, the tab controllers and the docks, found by type:
    // views().get<GanttView>(). Each tab is remembered as it is added (MainWindow::addViewTab).
    void remember(QObject* object) { objects_.push_back(object); }
    template <class T>
    T* get() const {
        for (QObject* o : objects_)
            if (auto* t = qobject_cast<T*>(o)) return t;
        return nullptr;
    }

private:
    std::vector<ViewEntry> entries_;
    std::vector<QObject*> objects_;
    TaskTabs* tabs_ = nullptr;
    Selection selection_;
};

}  // namespace partita::gui
