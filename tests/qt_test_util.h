#pragma once
// Helpers the Qt test suites (tests/widgets, tests/gui) share: where pictures
// go, and typing into a line edit as a user would.
#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QLineEdit>
#include <QPointer>
#include <QTemporaryDir>
#include <QTimer>
#include <QWidget>
#include <QtTest>

#include <memory>

// A directory this test binary owns, removed when it exits, so runs never
// share or leave files. Set PARTITA_SHOTS to keep copies of the screenshots.
inline QString shotDir() {
    static QTemporaryDir dir;
    return dir.path();
}

inline QString shotPath(const QString& name) { return shotDir() + "/" + name; }

// Copies a file the test wrote (a screenshot, an export) to $PARTITA_SHOTS when set.
inline void keepCopy(const QString& path) {
    const QString keep = qEnvironmentVariable("PARTITA_SHOTS");
    if (keep.isEmpty()) return;
    QDir().mkpath(keep);
    const QString name = QFileInfo(path).fileName();
    QFile::remove(keep + "/" + name);
    QVERIFY(QFile::copy(path, keep + "/" + name));
}

// Saves a screenshot of `w` as `name` in shotDir(), and a copy in $PARTITA_SHOTS when set.
inline void shoot(QWidget& w, const QString& name) {
    const QString path = shotPath(name);
    QVERIFY(w.grab().save(path));
    keepCopy(path);
}

// Replaces a line edit's text by typing it.
inline void type(QWidget* field, const QString& text) {
    auto* edit = qobject_cast<QLineEdit*>(field);
    QVERIFY(edit);
    edit->selectAll();
    QTest::keyClicks(edit, text);
}

// The same with the field focused first (editors that act when focus moves).
inline void typeInto(QWidget* field, const QString& text) {
    auto* edit = qobject_cast<QLineEdit*>(field);
    QVERIFY(edit);
    edit->setFocus();
    edit->selectAll();
    QTest::keyClicks(edit, text);
}

// Runs `act` once on the first modal widget of type T that shows within 5 s: a dialog run by exec()
// is driven from inside its own event loop. Several may wait at once (a question, then a file
// dialog). Deleting the returned timer stops waiting.
template <class T, class F>
QPointer<QTimer> whenModal(QObject* context, F act) {
    auto* timer = new QTimer(context);
    auto since = std::make_shared<QElapsedTimer>();
    since->start();
    QObject::connect(timer, &QTimer::timeout, context, [timer, since, act] {
        auto* shown = qobject_cast<T*>(QApplication::activeModalWidget());
        if (!shown && since->elapsed() < 5000) return;
        timer->stop();
        timer->deleteLater();
        if (shown) act(shown);
    });
    timer->start(20);
    return timer;
}
