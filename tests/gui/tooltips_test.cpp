// Every control a user can reach says what it does: with each method chosen and each tab shown,
// every visible button, box, field and slider of the window has a tooltip, in words (not an id).
#include <QAbstractButton>
#include <QAbstractSpinBox>
#include <QComboBox>
#include <QDockWidget>
#include <QLineEdit>
#include <QSlider>
#include <QStandardPaths>
#include <QTabBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QToolBar>
#include <QToolButton>
#include <QtTest>

#include "app/gui/main_window.h"
#include "widgets/common/task_tabs.h"
#include "app/gui/options.h"

using namespace partita::gui;

namespace {

bool isControl(const QWidget* w) {
    return qobject_cast<const QAbstractButton*>(w) || qobject_cast<const QComboBox*>(w) ||
           qobject_cast<const QAbstractSpinBox*>(w) || qobject_cast<const QSlider*>(w) ||
           (qobject_cast<const QLineEdit*>(w) && !qobject_cast<const QComboBox*>(w->parentWidget()) &&
            !qobject_cast<const QAbstractSpinBox*>(w->parentWidget()));
}

// Qt's own parts (tab scroll arrows, dock title buttons, the toolbar's overflow) explain themselves.
bool isQtInternal(const QWidget* w) {
    if (w->objectName().startsWith("qt_")) return true;
    return qobject_cast<const QTabBar*>(w->parentWidget()) != nullptr;
}

// A toolbar button shows its action's tooltip.
QString tipOf(const QWidget* w) {
    if (const auto* b = qobject_cast<const QToolButton*>(w); b && b->defaultAction()) return b->defaultAction()->toolTip();
    return w->toolTip();
}

}  // namespace

class TooltipsTest : public QObject {
    Q_OBJECT
private:
    QTemporaryDir dir_;

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void everyVisibleControlHasATooltip() {
        Options o;
        o.db = dir_.filePath("results.sqlite");
        o.screenshot = dir_.filePath("x.png");  // no dialogs
        MainWindow w(o);
        w.show();
        QVERIFY(w.jobs().waitForIdle());
        QStringList missing;
        for (const auto& method : w.runs().methods()) {
            w.runs().setMethodKey(method->key());
            QVERIFY(w.jobs().waitForIdle());
            for (int t = 0; t < w.views().get<TaskTabs>()->count(); ++t) {
                w.views().get<TaskTabs>()->setCurrentIndex(t);
                QApplication::processEvents();
                for (QWidget* c : w.findChildren<QWidget*>()) {
                    if (!c->isVisible() || !isControl(c) || isQtInternal(c)) continue;
                    const QString tip = tipOf(c);
                    const QString name = QString("%1 '%2' '%3' (tab %4)")
                                             .arg(c->metaObject()->className(), c->objectName(),
                                                  c->property("text").toString(), w.views().get<TaskTabs>()->tabText(t));
                    // A tooltip that is only an object name or a single lower-case word is an id, not words.
                    if (tip.trimmed().isEmpty() || tip == c->objectName() || !tip.contains(' '))
                        if (!missing.contains(name)) missing << name;
                }
            }
        }
        for (const QString& m : missing) qWarning("no tooltip: %s", qPrintable(m));
        QVERIFY2(missing.isEmpty(), qPrintable(QString("%1 controls have no tooltip").arg(missing.size())));
    }
};

QTEST_MAIN(TooltipsTest)
#include "tooltips_test.moc"
