#include "app/gui/guide_window.h"

#include <algorithm>

#include <QAction>
#include <QFile>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QShortcut>
#include <QTextBrowser>
#include <QTextDocument>
#include <QToolButton>
#include <QVBoxLayout>

// The resources live in a static library: registered by hand, from the global namespace as Qt asks.
static void initResources() { Q_INIT_RESOURCE(partita); }

namespace partita::gui {

namespace {
const char* const kShortcutMarker = "<!-- shortcuts -->";
}  // namespace

QString GuideWindow::shortcutTable(const QList<QAction*>& actions) {
    QString table = QObject::tr("## Keyboard shortcuts\n\n| Action | Shortcut |\n|---|---|\n");
    for (const QAction* a : actions) {
        if (a->shortcut().isEmpty()) continue;
        QString name = a->text();
        name.remove('&').remove(QChar(0x2026)).remove("...");
        table += QString("| %1 | %2 |\n").arg(name, a->shortcut().toString(QKeySequence::NativeText));
    }
    return table;
}

QString GuideWindow::guideText(const QList<QAction*>& actions) {
    initResources();
    QFile file(":/partita/guide.md");
    QString text;
    if (file.open(QIODevice::ReadOnly)) text = QString::fromUtf8(file.readAll());
    const QString table = shortcutTable(actions);
    return text.contains(kShortcutMarker) ? text.replace(kShortcutMarker, table) : text + "\n" + table;
}

GuideWindow::GuideWindow(const QList<QAction*>& actions, QWidget* parent) : QWidget(parent, Qt::Window) {
    setObjectName("guide");
    setWindowTitle(tr("Partita guide"));
    setAttribute(Qt::WA_DeleteOnClose, false);  // closing hides it; F1 shows it again where it was

    search_ = new QLineEdit(this);
    search_->setObjectName("guide-search");
    search_->setPlaceholderText(tr("Search the guide"));
    search_->setClearButtonEnabled(true);
    search_->setToolTip(tr("Highlights every match; Enter finds the next, Shift+Enter the previous"));
    search_->installEventFilter(this);
    auto* previous = new QToolButton(this);
    previous->setText(tr("Previous"));
    previous->setToolTip(tr("The previous match (Shift+Enter, Shift+F3)"));
    auto* next = new QToolButton(this);
    next->setText(tr("Next"));
    next->setToolTip(tr("The next match (Enter, F3)"));
    status_ = new QLabel(this);
    status_->setObjectName("guide-status");
    status_->setMinimumWidth(status_->fontMetrics().horizontalAdvance(tr("not found")) + 8);

    browser_ = new QTextBrowser(this);
    browser_->setOpenExternalLinks(true);
    browser_->setMarkdown(guideText(actions));

    auto* bar = new QHBoxLayout;
    bar->addWidget(search_, 1);
    bar->addWidget(previous);
    bar->addWidget(next);
    bar->addWidget(status_);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addLayout(bar);
    layout->addWidget(browser_, 1);

    connect(search_, &QLineEdit::textChanged, this, [this] {
        current_ = -1;
        find();
    });
    connect(next, &QToolButton::clicked, this, [this] { find(); });
    connect(previous, &QToolButton::clicked, this, [this] { find(true); });
    connect(new QShortcut(QKeySequence::Find, this), &QShortcut::activated, this, [this] {
        search_->setFocus();
        search_->selectAll();
    });
    connect(new QShortcut(QKeySequence::FindNext, this), &QShortcut::activated, this, [this] { find(); });
    connect(new QShortcut(QKeySequence::FindPrevious, this), &QShortcut::activated, this, [this] { find(true); });
    connect(new QShortcut(QKeySequence::Close, this), &QShortcut::activated, this, &QWidget::close);
}

bool GuideWindow::eventFilter(QObject* watched, QEvent* event) {
    if (watched == search_ && event->type() == QEvent::KeyPress) {
        const auto* key = static_cast<QKeyEvent*>(event);
        if (key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter) {
            find(key->modifiers().testFlag(Qt::ShiftModifier));
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

bool GuideWindow::find(bool backward) {
    matches_.clear();
    const QString text = search_->text();
    QTextDocument* doc = browser_->document();
    QTextCharFormat all;
    all.setBackground(QColor(255, 236, 140));
    for (QTextCursor c = doc->find(text); !text.isEmpty() && !c.isNull(); c = doc->find(text, c))
        matches_.append({c, all});
    if (matches_.isEmpty()) {
        current_ = -1;
    } else {
        const int n = static_cast<int>(matches_.size());
        if (current_ < 0) {  // a new search: the first match at or after the view's top
            const int top = browser_->cursorForPosition(QPoint(0, 0)).position();
            current_ = 0;
            while (current_ < n && matches_[current_].cursor.selectionStart() < top) ++current_;
            if (current_ == n) current_ = 0;
            if (backward) current_ = (current_ + n - 1) % n;
        } else {
            current_ = (current_ + (backward ? n - 1 : 1)) % n;
        }
        browser_->setTextCursor(matches_[current_].cursor);  // scrolls to it and selects it
    }
    highlight();
    return current_ >= 0;
}

void GuideWindow::highlight() {
    QList<QTextEdit::ExtraSelection> shown = matches_;
    if (current_ >= 0) shown[current_].format.setBackground(QColor(255, 160, 60));
    browser_->setExtraSelections(shown);
    status_->setText(status());
}

QString GuideWindow::status() const {
    if (search_->text().isEmpty()) return {};
    if (matches_.isEmpty()) return tr("not found");
    return tr("%1 of %2").arg(current_ + 1).arg(matches_.size());
}

void GuideWindow::placeWithin(const QRect& available) {
    // Room for the frame and title bar, which the window system adds outside the geometry.
    constexpr int kFrame = 40;
    const int w = std::min(820, available.width() - kFrame);
    const int h = std::min(900, available.height() - kFrame);
    resize(w, h);
    move(available.x() + (available.width() - w) / 2, available.y() + (available.height() - h - kFrame / 2) / 2);
}

}  // namespace partita::gui
