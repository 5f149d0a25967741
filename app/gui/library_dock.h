#pragma once
// The library dock: built-in networks and arrays, plus files the user opened.
// Choosing an entry asks the window to load it.
#include <QDockWidget>

class QTreeWidget;
class QTreeWidgetItem;

namespace partita::gui {

class LibraryDock : public QDockWidget {
    Q_OBJECT
public:
    explicit LibraryDock(QWidget* parent = nullptr);

    // Adds (once) an entry; `title` is what the list shows.
    void addNetwork(const QString& path, const QString& title, bool built_in);
    void addArray(const QString& path, const QString& title, bool built_in);
    void addStrategy(const QString& path, const QString& title);
    // Marks the loaded network and array in bold, without emitting anything.
    void setActive(const QString& network_path, const QString& array_path);
    QTreeWidget* tree() const { return tree_; }

signals:
    void networkChosen(const QString& path);
    void arrayChosen(const QString& path);
    void strategyChosen(const QString& path);

private:
    void add(QTreeWidgetItem* group, const QString& path, const QString& title, const QString& tip);
    QTreeWidget* tree_ = nullptr;
    QTreeWidgetItem* networks_ = nullptr;
    QTreeWidgetItem* arrays_ = nullptr;
    QTreeWidgetItem* strategies_ = nullptr;
};

}  // namespace partita::gui
