#pragma once
// Every view of the window in one list: its --view name, its tab's title and the task its tab is
// grouped under (docs/guide/application.md#views-by-task). --help, --view's check and the tabs read it;
// the widget behind each name is made by whoever owns it (the window, RunViews, a tab controller, a
// method) and added by name (ViewRegistry::addTab).
#include <vector>

#include <QString>
#include <QStringList>

namespace partita::gui {

// The tasks the views are grouped by, in the bar's order.
enum class ViewTask { Model, Machine, Plan, Simulate, Sweeps, Methods };
QString taskName(ViewTask task);

struct ViewKind {
    const char* name;   // --view name
    const char* title;  // the tab's title; null for a dock, the whole window, or a method's own tab (it titles it)
    ViewTask task;
};

const std::vector<ViewKind>& viewList();  // in --help's order
const ViewKind* viewKind(const QString& name);
QStringList viewNames();

}  // namespace partita::gui
