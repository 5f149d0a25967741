#pragma once
// Help ▸ Guide: the user guide (docs/guide/in-app.md, compiled in, so it always describes this build)
// with the keyboard shortcuts of the window's actions, in a window of its own: non-modal,
// resizable, placed within the screen, and searchable (every match highlighted, next / previous).
#include <QList>
#include <QTextEdit>
#include <QWidget>

class QAction;
class QLabel;
class QLineEdit;
class QTextBrowser;

namespace partita::gui {

class GuideWindow : public QWidget {
    Q_OBJECT
public:
    // `parent` is the main window: the guide opens over its screen and closes with it.
    GuideWindow(const QList<QAction*>& actions, QWidget* parent = nullptr);
    QTextBrowser* browser() const { return browser_; }
    QLineEdit* searchField() const { return search_; }

    // Searches for the field's text; with `backward` the previous match. Wraps around; false when none.
    bool find(bool backward = false);
    int matchCount() const { return static_cast<int>(matches_.size()); }
    int currentMatch() const { return current_; }  // 0-based; -1 before a search or without matches
    QString status() const;                        // "2 of 7", "not found", or empty

    // Sized to fit the screen area `available` (at most about 820 x 900), centred on it.
    void placeWithin(const QRect& available);

    // The guide as the window shows it: the markdown with the shortcut table at its marker.
    static QString guideText(const QList<QAction*>& actions);
    // A markdown table of each action's name and shortcut, for the actions that have one.
    static QString shortcutTable(const QList<QAction*>& actions);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void highlight();  // every match, the current one stronger

    QTextBrowser* browser_ = nullptr;
    QLineEdit* search_ = nullptr;
    QLabel* status_ = nullptr;
    QList<QTextEdit::ExtraSelection> matches_;
    int current_ = -1;
};

}  // namespace partita::gui
