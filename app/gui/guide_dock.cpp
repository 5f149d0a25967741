#include "app/gui/guide_dock.h"

#include <QAction>
#include <QFile>
#include <QRegularExpression>
#include <QTextBrowser>

// The resources live in a static library: registered by hand, from the global namespace as Qt asks.
static void initResources() { Q_INIT_RESOURCE(partita); }

namespace partita::gui {

QString GuideDock::applicationSection(const QString& readme) {
    const qsizetype start = readme.indexOf("## The desktop application");
    if (start < 0) return {};
    const qsizetype end = readme.indexOf("\n## ", start + 3);
    const QStringList lines = readme.mid(start, end < 0 ? -1 : end - start).split('\n');
    QStringList kept;
    for (const QString& line : lines)
        if (!line.contains("](resources/screenshots/") && !line.startsWith("|---|---|") && line != "| | |")
            kept << line;
    return kept.join('\n');
}

QString GuideDock::shortcutTable(const QList<QAction*>& actions) {
    QString table = QObject::tr("## Keyboard shortcuts\n\n| Action | Shortcut |\n|---|---|\n");
    for (const QAction* a : actions) {
        if (a->shortcut().isEmpty()) continue;
        QString name = a->text();
        name.remove('&').remove(QChar(0x2026)).remove("...");
        table += QString("| %1 | %2 |\n").arg(name, a->shortcut().toString(QKeySequence::NativeText));
    }
    return table;
}

GuideDock::GuideDock(const QList<QAction*>& actions, QWidget* parent) : QDockWidget(tr("Guide"), parent) {
    setObjectName("guide");
    browser_ = new QTextBrowser(this);
    browser_->setOpenExternalLinks(true);
    initResources();
    QFile file(":/partita/README.md");
    QString readme;
    if (file.open(QIODevice::ReadOnly)) readme = QString::fromUtf8(file.readAll());
    browser_->setMarkdown(shortcutTable(actions) + "\n" + applicationSection(readme));
    setWidget(browser_);
}

}  // namespace partita::gui
