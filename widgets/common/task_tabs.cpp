#include "widgets/common/task_tabs.h"

#include <QTabBar>
#include <QTabWidget>
#include <QVBoxLayout>
#include <algorithm>

namespace partita::gui {

TaskTabs::TaskTabs(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    tasks_ = new QTabWidget(this);
    tasks_->setObjectName("task-tabs");
    tasks_->setDocumentMode(true);
    layout->addWidget(tasks_);
    connect(tasks_, &QTabWidget::currentChanged, this, [this] {
        if (!quiet_) emit currentChanged(currentIndex());
    });
}

void TaskTabs::declareTasks(const QStringList& tasks) {
    for (const QString& t : tasks) taskWidget(t);
}

QTabWidget* TaskTabs::taskWidget(const QString& task) {
    for (int i = 0; i < tasks_->count(); ++i)
        if (tasks_->tabText(i) == task) return static_cast<QTabWidget*>(tasks_->widget(i));
    auto* views = new QTabWidget(tasks_);
    views->setObjectName("task-" + task.toLower());
    views->setDocumentMode(true);
    views->setTabBarAutoHide(true);  // a task with one view needs no second bar
    // Each task's own bar is a lighter second row under the task bar.
    views->tabBar()->setDrawBase(false);
    connect(views, &QTabWidget::currentChanged, this, [this] {
        if (!quiet_) emit currentChanged(currentIndex());
    });
    tasks_->addTab(views, task);
    // An empty task (declared, no view yet) stays hidden until a view joins it.
    tasks_->setTabVisible(tasks_->count() - 1, false);
    return views;
}

void TaskTabs::addTab(const QString& task, QWidget* page, const QString& title) {
    QTabWidget* views = taskWidget(task);
    const bool first = count() == 0;
    quiet_ = true;
    views->addTab(page, title);
    tasks_->setTabVisible(tasks_->indexOf(views), true);
    quiet_ = false;
    pages_.push_back({task, page, title});
    renumber();
    if (first) setCurrentIndex(indexOf(page));
}

void TaskTabs::renumber() {
    std::vector<Page> shown;
    for (int t = 0; t < tasks_->count(); ++t) {
        const auto* views = static_cast<const QTabWidget*>(tasks_->widget(t));
        for (int v = 0; v < views->count(); ++v) {
            const auto it = std::find_if(pages_.begin(), pages_.end(),
                                         [&](const Page& p) { return p.page == views->widget(v); });
            if (it != pages_.end()) shown.push_back(*it);
        }
    }
    pages_ = std::move(shown);
}

QWidget* TaskTabs::widget(int index) const {
    return index >= 0 && index < count() ? pages_[static_cast<size_t>(index)].page : nullptr;
}

QString TaskTabs::tabText(int index) const {
    return index >= 0 && index < count() ? pages_[static_cast<size_t>(index)].title : QString();
}

QString TaskTabs::taskOf(int index) const {
    return index >= 0 && index < count() ? pages_[static_cast<size_t>(index)].task : QString();
}

int TaskTabs::indexOf(const QWidget* page) const {
    for (int i = 0; i < count(); ++i)
        if (pages_[static_cast<size_t>(i)].page == page) return i;
    return -1;
}

QWidget* TaskTabs::currentWidget() const {
    const auto* views = static_cast<const QTabWidget*>(tasks_->currentWidget());
    return views ? views->currentWidget() : nullptr;
}

int TaskTabs::currentIndex() const { return indexOf(currentWidget()); }

void TaskTabs::setCurrentIndex(int index) { setCurrentWidget(widget(index)); }

void TaskTabs::setCurrentWidget(QWidget* page) {
    const int index = indexOf(page);
    if (index < 0 || index == currentIndex()) return;
    auto* views = taskWidget(pages_[static_cast<size_t>(index)].task);
    quiet_ = true;
    views->setCurrentWidget(page);
    tasks_->setCurrentWidget(views);
    quiet_ = false;
    emit currentChanged(index);
}

}  // namespace partita::gui
