#pragma once
// Help ▸ Guide: the README's section on the application (compiled in, so it always describes this
// build) followed by the keyboard shortcuts of the window's actions, in a dock beside the views.
#include <QDockWidget>
#include <QList>

class QAction;
class QTextBrowser;

namespace partita::gui {

class GuideDock : public QDockWidget {
    Q_OBJECT
public:
    GuideDock(const QList<QAction*>& actions, QWidget* parent = nullptr);
    QTextBrowser* browser() const { return browser_; }

    // The markdown from "## The desktop application" up to the next "## " heading, without the
    // screenshots (their files are not part of the program).
    static QString applicationSection(const QString& readme);
    // A markdown table of each action's name and shortcut, for the actions that have one.
    static QString shortcutTable(const QList<QAction*>& actions);

private:
    QTextBrowser* browser_ = nullptr;
};

}  // namespace partita::gui
