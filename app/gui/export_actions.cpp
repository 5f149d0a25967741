#include "app/gui/export_actions.h"

#include <algorithm>

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QSettings>

#include "app/gui/view_registry.h"
#include "app/gui/window_services.h"
#include "widgets/common/figure_export.h"

namespace partita::gui {

ExportActions::ExportActions(const ViewRegistry& views, WindowServices& services, QObject* parent)
    : QObject(parent), views_(views), services_(services) {}

QStringList ExportActions::targets() const { return views_.targets(); }

std::vector<ExportChoice> ExportActions::of(const QWidget* tab) const {
    // A tab holding several views (the LLM tab's pages) offers every view's targets, each once.
    std::vector<ExportChoice> out;
    if (!tab) return out;
    for (const ViewEntry& view : views_.entries())
        if (view.tab == tab)
            for (const ExportEntry& e : view.exports)
                if (std::none_of(out.begin(), out.end(), [&](const ExportChoice& c) { return c.target == e.target; }))
                    out.push_back({e.target, e.label});
    return out;
}

QString ExportActions::write(const QString& target, const QString& path) const {
    const ExportEntry* entry = views_.findTarget(target);
    if (entry && entry->suffixes.contains(QFileInfo(path).suffix().toLower())) return entry->write(path, false);
    const bool csv = QFileInfo(path).suffix().compare("csv", Qt::CaseInsensitive) == 0;
    FigureFormat format;
    if (!csv && !figureFormatFor(path, &format))
        return tr("%1: unknown export format (use .png, .svg, .pdf or .csv)").arg(path);
    if (!entry) return tr("Unknown export target '%1' (use %2)").arg(target, targets().join(", "));
    return entry->write(path, csv);
}

// Remembers the folder; the file gets the chosen type's extension when it has none.
void ExportActions::withDialog(const ExportChoice& choice) {
    QSettings settings;
    const QString folder = settings.value("export/folder", QDir::homePath()).toString();
    QStringList filters{tr("PNG image (*.png)"), tr("SVG image (*.svg)"), tr("PDF document (*.pdf)"),
                        tr("CSV table (*.csv)")};
    if (const ExportEntry* e = views_.findTarget(choice.target); e && !e->suffixes.isEmpty())  // its own format first
        filters.prepend(QStringLiteral("%1 (*.%2)").arg(choice.label, e->suffixes.join(" *.")));
    QString filter = filters.front();
    QString path = QFileDialog::getSaveFileName(services_.dialogParent(), tr("Export %1").arg(choice.label),
                                                QDir(folder).filePath(choice.target + ".png"), filters.join(";;"),
                                                &filter);
    if (path.isEmpty()) return;
    if (QFileInfo(path).suffix().isEmpty()) {
        const qsizetype star = filter.indexOf("*.");
        path += filter.mid(star + 1, filter.indexOf(')', star) - star - 1);
    }
    settings.setValue("export/folder", QFileInfo(path).absolutePath());
    const QString problem = write(choice.target, path);
    if (!problem.isEmpty()) services_.reportError(problem);
    else services_.showMessage(tr("Exported %1").arg(path), 5000);
}

}  // namespace partita::gui
