#include "app/gui/library_dock.h"

#include <QHeaderView>
#include <QTreeWidget>

namespace partita::gui {

namespace {
constexpr int kPathRole = Qt::UserRole + 1;
}

LibraryDock::LibraryDock(QWidget* parent) : QDockWidget(tr("Library"), parent) {
    setObjectName("library");
    tree_ = new QTreeWidget(this);
    tree_->setHeaderHidden(true);
    tree_->setRootIsDecorated(true);
    networks_ = new QTreeWidgetItem(tree_, {tr("Networks")});
    arrays_ = new QTreeWidgetItem(tree_, {tr("Arrays")});
    strategies_ = new QTreeWidgetItem(tree_, {tr("Strategies")});
    for (auto* group : {networks_, arrays_, strategies_}) {
        group->setFlags(Qt::ItemIsEnabled);
        group->setExpanded(true);
    }
    strategies_->setHidden(true);
    setWidget(tree_);
    connect(tree_, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem* item) {
        const QString path = item->data(0, kPathRole).toString();
        if (path.isEmpty()) return;
        if (item->parent() == networks_) emit networkChosen(path);
        else if (item->parent() == arrays_) emit arrayChosen(path);
        else if (item->parent() == strategies_) emit strategyChosen(path);
    });
    // A single click is enough to pick an entry, as in a file browser's preview.
    connect(tree_, &QTreeWidget::itemClicked, tree_, &QTreeWidget::itemActivated);
}

void LibraryDock::add(QTreeWidgetItem* group, const QString& path, const QString& title, const QString& tip) {
    for (int i = 0; i < group->childCount(); ++i)
        if (group->child(i)->data(0, kPathRole).toString() == path) return;
    auto* item = new QTreeWidgetItem(group, {title});
    item->setData(0, kPathRole, path);
    item->setToolTip(0, tip + "\n" + path);
    group->setHidden(false);
}

void LibraryDock::addNetwork(const QString& path, const QString& title, bool built_in) {
    add(networks_, path, title, built_in ? tr("Built-in network") : tr("Opened network"));
}

void LibraryDock::addArray(const QString& path, const QString& title, bool built_in) {
    add(arrays_, path, title, built_in ? tr("Built-in array") : tr("Opened array"));
}

void LibraryDock::addStrategy(const QString& path, const QString& title) {
    add(strategies_, path, title, tr("Opened strategy"));
}

void LibraryDock::setActive(const QString& network_path, const QString& array_path) {
    for (auto* group : {networks_, arrays_}) {
        const QString& active = group == networks_ ? network_path : array_path;
        for (int i = 0; i < group->childCount(); ++i) {
            QFont font = group->child(i)->font(0);
            font.setBold(group->child(i)->data(0, kPathRole).toString() == active);
            group->child(i)->setFont(0, font);
        }
    }
}

}  // namespace partita::gui
