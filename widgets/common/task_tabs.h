#pragma once
// The window's views grouped by task (docs/guide/application.md#views-by-task): a bar of tasks
// (Model, Machine, Plan, …), each with the tabs of its views. Pages are numbered in the order they
// are shown (task by task), so callers and tests walk every view with count() and widget(i) as with
// one QTabWidget.
#include <QString>
#include <QWidget>
#include <vector>

class QTabWidget;

namespace partita::gui {

class TaskTabs : public QWidget {
    Q_OBJECT

public:
    explicit TaskTabs(QWidget* parent = nullptr);

    // Fixes the order of the tasks' tabs; a task not declared here goes after them when first used.
    void declareTasks(const QStringList& tasks);
    // Adds `page` with title `title` to `task`'s tabs.
    void addTab(const QString& task, QWidget* page, const QString& title);

    int count() const { return static_cast<int>(pages_.size()); }
    QWidget* widget(int index) const;
    QString tabText(int index) const;  // the page's title
    QString taskOf(int index) const;
    int indexOf(const QWidget* page) const;  // -1 when it is not a page
    int currentIndex() const;
    QWidget* currentWidget() const;
    void setCurrentIndex(int index);
    void setCurrentWidget(QWidget* page);
    QTabWidget* taskBar() const { return tasks_; }

signals:
    void currentChanged(int index);

private:
    struct Page {
        QString task;
        QWidget* page;
        QString title;
    };
    QTabWidget* taskWidget(const QString& task);
    void renumber();  // pages_ in shown order
    QTabWidget* tasks_ = nullptr;
    std::vector<Page> pages_;
    bool quiet_ = false;  // setCurrentIndex switches task and page: one currentChanged, not two
};

}  // namespace partita::gui
