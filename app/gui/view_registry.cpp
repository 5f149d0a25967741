#include "app/gui/view_registry.h"

#include <QStringList>

namespace partita::gui {

const ViewEntry* ViewRegistry::find(const QString& name) const {
    for (const ViewEntry& e : entries_)
        if (e.name == name) return &e;
    return nullptr;
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

QStringList ViewRegistry::targets() const {
    QStringList out;
    for (const ViewEntry& e : entries_)
        for (const ExportEntry& x : e.exports) out << x.target;
    return out;
}

}  // namespace partita::gui
