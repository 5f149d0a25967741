#include "widgets/network_editor/editor_palette.h"

#include <QHeaderView>
#include <QMimeData>

#include "widgets/network_editor/editor_canvas.h"
#include "widgets/network_editor/op_fields.h"

namespace partita {

namespace {
constexpr int kKeyRole = Qt::UserRole;
}

EditorPalette::EditorPalette(QWidget* parent) : QTreeWidget(parent) {
    setObjectName("editor-palette");
    setHeaderHidden(true);
    setRootIsDecorated(false);
    setIndentation(8);
    setDragEnabled(true);
    setDragDropMode(QAbstractItemView::DragOnly);
    setToolTip(tr("Operators and templates: double-click one to add it (after the selected node), or drag it "
                  "onto the canvas (onto a node to connect it after that node)"));
    ops_ = new QTreeWidgetItem(this, {tr("Operators")});
    templates_ = new QTreeWidgetItem(this, {tr("Templates")});
    for (QTreeWidgetItem* group : {ops_, templates_}) {
        group->setFlags(Qt::ItemIsEnabled);
        QFont f = font();
        f.setBold(true);
        group->setFont(0, f);
    }
    ops_->setToolTip(0, tr("One operator of each native kind"));
    templates_->setToolTip(0, tr("Parameterised blocks of several operators"));
    for (OpType type : allOpTypes()) {
        auto* item = new QTreeWidgetItem(ops_, {opTypeLabel(type)});
        item->setData(0, kKeyRole, QString::fromLatin1(opTypeName(type)));
        item->setToolTip(0, opTypeTip(type));
    }
    templates_->setHidden(true);
    expandAll();
    connect(this, &QTreeWidget::itemDoubleClicked, this, [this](QTreeWidgetItem* item) {
        if (const QString key = item->data(0, kKeyRole).toString(); !key.isEmpty()) emit chosen(key);
    });
    const auto pick = [this](QTreeWidgetItem* item) {
        if (!item) return;
        if (const QString key = item->data(0, kKeyRole).toString(); !key.isEmpty()) emit picked(key);
    };
    connect(this, &QTreeWidget::itemClicked, this, pick);
    connect(this, &QTreeWidget::currentItemChanged, this, pick);
}

void EditorPalette::setTemplates(const std::vector<PaletteEntry>& templates) {
    qDeleteAll(templates_->takeChildren());
    for (const PaletteEntry& e : templates) {
        auto* item = new QTreeWidgetItem(templates_, {e.label});
        item->setData(0, kKeyRole, "template:" + e.key);
        item->setToolTip(0, e.tip);
    }
    templates_->setHidden(templates.empty());
    templates_->setExpanded(true);
}

QTreeWidgetItem* EditorPalette::itemOf(const QString& key) const {
    for (QTreeWidgetItem* group : {ops_, templates_})
        for (int i = 0; i < group->childCount(); ++i)
            if (group->child(i)->data(0, kKeyRole).toString() == key) return group->child(i);
    return nullptr;
}

QMimeData* EditorPalette::mimeData(const QList<QTreeWidgetItem*>& items) const {
    if (items.isEmpty() || items.front()->data(0, kKeyRole).toString().isEmpty()) return nullptr;
    auto* data = new QMimeData;
    data->setData(EditorCanvas::kMime, items.front()->data(0, kKeyRole).toString().toUtf8());
    return data;
}

}  // namespace partita
