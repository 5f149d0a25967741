#include "app/gui/view_registry.h"

#include <QCoreApplication>
#include <QScrollArea>
#include <QStringList>

#include "widgets/common/task_tabs.h"

namespace partita::gui {

const ViewEntry* ViewRegistry::find(const QString& name) const {
    for (const ViewEntry& e : entries_)
        if (e.name == name) return &e;
    return nullptr;
}

const ViewEntry* ViewRegistry::findFollowingAlias(const QString& name) const {
    const ViewEntry* view = find(name);
    return view && view->alias ? find(view->alias()) : view;
}

void ViewRegistry::showNamed(const QString& name) {
    if (const ViewEntry* view = findFollowingAlias(name); view && view->central()) show(view->tab);
}

const ViewEntry* ViewRegistry::findByTab(const QWidget* tab) const {
    for (const ViewEntry& e : entries_)
        if (e.tab && e.tab == tab) return &e;
    return nullptr;
}

const ExportEntry* ViewRegistry::findTarget(const QString& target) const {
    for (const ViewEntry& e : entries_)
        for (const ExportEntry& x : e.exports)
            if (x.target == target) return &x;
    return nullptr;
}

void ViewRegistry::setTabs(TaskTabs* tabs) {
    tabs_ = tabs;
    using T = ViewTask;
    tabs->declareTasks({taskName(T::Model), taskName(T::Machine), taskName(T::Plan), taskName(T::Simulate),
                        taskName(T::Sweeps), taskName(T::Methods)});
}

void ViewRegistry::addTab(const QString& name, QWidget* view) {
    const ViewKind* kind = viewKind(name);
    Q_ASSERT(kind && kind->title);
    addTab(view, QCoreApplication::translate("partita::gui::ViewList", kind->title), kind->task);
}

void ViewRegistry::addTab(QWidget* view, const QString& title, ViewTask task) {
    auto* page = new QScrollArea(tabs_);
    page->setWidgetResizable(true);
    page->setFrameShape(QFrame::NoFrame);
    page->setWidget(view);
    tabs_->addTab(taskName(task), page, title);
    remember(view);
}

QWidget* ViewRegistry::shown() const {
    const auto* page = qobject_cast<const QScrollArea*>(tabs_->currentWidget());
    return page ? page->widget() : tabs_->currentWidget();
}

void ViewRegistry::show(QWidget* view) {
    for (int i = 0; i < tabs_->count(); ++i)
        if (const auto* page = qobject_cast<const QScrollArea*>(tabs_->widget(i)); page && page->widget() == view)
            return tabs_->setCurrentIndex(i);
}

QStringList ViewRegistry::targets() const {
    QStringList out;
    for (const ViewEntry& e : entries_)
        for (const ExportEntry& x : e.exports) out << x.target;
    return out;
}

}  // namespace partita::gui
