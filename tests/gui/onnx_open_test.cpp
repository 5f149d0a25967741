// Opening an ONNX model in the window: the input-size dialog lists each graph input with open sizes,
// prefilled with the importer's suggestion, the chosen sizes shape the network, and the choice is
// remembered per file (the second open asks nothing). A scalar or fully static input asks nothing, an
// unsupported operator is refused before any question, and a placeholder graph name gives way to the
// file's name.
#include <QDialogButtonBox>
#include <QFile>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTimer>
#include <QTreeWidget>
#include <QtTest>

#include "app/gui/library_dock.h"
#include "app/gui/main_window.h"
#include "app/gui/onnx_dims_dialog.h"
#include "app/gui/options.h"
#include "tests/core/onnx_builder.h"

using namespace partita;
using namespace partita::gui;

namespace {

// Answers every input-size dialog that comes up while it lives: notes its fields, clicks OK, and
// rejects a dialog that refuses OK (so a test fails instead of waiting forever).
struct DialogWatch {
    int shown = 0;
    QStringList fields;
    QTimer timer;
    DialogWatch() {
        timer.setInterval(50);
        QObject::connect(&timer, &QTimer::timeout, [this] {
            auto* dialog = qobject_cast<OnnxDimsDialog*>(QApplication::activeModalWidget());
            if (!dialog) return;
            ++shown;
            fields.clear();
            for (const QLineEdit* f : dialog->findChildren<QLineEdit*>()) fields << f->objectName();
            fields.sort();
            dialog->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok)->click();
            if (dialog->isVisible()) dialog->reject();
        });
        timer.start();
    }
};

// silero-vad's inputs: audio [batch, 512], a recurrent state [2, batch, 128] and the sample rate `sr`, a scalar.
std::string vadLike() {
    test::OnnxBuilder b(16, "vad");
    b.input("input", {std::string("batch"), std::int64_t{512}});
    b.input("state", {std::int64_t{2}, std::string("batch"), std::int64_t{128}});
    b.input("sr", {}, test::OnnxBuilder::kInt64);
    b.weight("w", {512, 128});
    b.node("MatMul", {"input", "w"}, {"h"}, "proj");
    b.node("Relu", {"h"}, {"y"}, "act");
    b.output("y");
    return b.write("vad-like");
}

QString writeModel(const QTemporaryDir& dir, const test::OnnxBuilder& b, const QString& file) {
    const QString path = dir.filePath(file);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly)) return {};
    const std::string data = b.bytes();
    f.write(data.data(), static_cast<qint64>(data.size()));
    return path;
}

}  // namespace

class OnnxOpenTest : public QObject {
    Q_OBJECT
private:
    QTemporaryDir dir_;

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void dialogAsksOnceAndShapesTheNetwork() {
        test::OnnxBuilder b(13, "two-convs");
        b.input("pixels", {std::string("N"), std::int64_t{3}, std::string("H"), std::string("W")});
        b.weight("w1", {8, 3, 3, 3});
        OnnxBuilder_pads(b.node("Conv", {"pixels", "w1"}, {"c1"}, "c1"));
        b.weight("w2", {4, 8, 1, 1});
        b.node("Conv", {"c1", "w2"}, {"c2"}, "c2");
        b.output("c2");
        const QString model = QString::fromStdString(b.write("two-convs"));
        QSettings().remove("onnx-dims");

        Options o;
        o.db = dir_.filePath("results.sqlite");
        MainWindow w(o);
        w.show();
        QVERIFY(w.jobs().waitForIdle());
        QString prefilled;
        int dialogs = 0;
        auto answer = [&](const QString& sizes) {
            QTimer::singleShot(100, [&, sizes] {
                auto* dialog = qobject_cast<OnnxDimsDialog*>(QApplication::activeModalWidget());
                if (!dialog) return;
                ++dialogs;
                auto* field = dialog->findChild<QLineEdit*>("dims-pixels");
                prefilled = field->text();
                field->setText(sizes);
                dialog->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok)->click();
            });
        };
        answer("1,3,64,48");
        QVERIFY(w.loader().openFile(model));
        QCOMPARE(dialogs, 1);
        QCOMPARE(prefilled, QString("1,3,224,224"));  // batch 1, 224 px sides
        QVERIFY(w.jobs().waitForIdle());
        QCOMPARE(w.session().inputs()->network.input, (Shape{3, 64, 48}));
        QCOMPARE(w.session().inputs()->layers.size(), size_t{2});

        answer("1,3,32,32");  // not asked again: the file's sizes are remembered
        QVERIFY(w.loader().openFile(model));
        QTest::qWait(200);
        QCOMPARE(dialogs, 1);
        QCOMPARE(w.session().inputs()->network.input, (Shape{3, 64, 48}));
    }

    // A model named on the command line asks once the window is on screen, not before.
    void modelGivenAtStartAsksWhenShown() {
        test::OnnxBuilder b(13, "one-conv");
        b.input("pixels", {std::string("N"), std::int64_t{3}, std::string("H"), std::string("W")});
        b.weight("w1", {8, 3, 3, 3});
        OnnxBuilder_pads(b.node("Conv", {"pixels", "w1"}, {"c1"}, "c1"));
        b.output("c1");
        const QString model = QString::fromStdString(b.write("one-conv"));
        QSettings().remove("onnx-dims");

        Options o;
        o.db = dir_.filePath("start.sqlite");
        o.files = {model};
        int dialogs = 0;
        QTimer::singleShot(300, [&] {
            auto* dialog = qobject_cast<OnnxDimsDialog*>(QApplication::activeModalWidget());
            if (!dialog) return;
            ++dialogs;
            dialog->findChild<QLineEdit*>("dims-pixels")->setText("1,3,40,40");
            dialog->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok)->click();
        });
        MainWindow w(o);
        w.show();
        QTRY_COMPARE(dialogs, 1);
        QVERIFY(w.jobs().waitForIdle());
        QCOMPARE(w.session().inputs()->network.input, (Shape{3, 40, 40}));
    }

    // A scalar input (silero-vad's `sr []`) has no size to give: only the open inputs are asked for.
    void aScalarInputIsNotAskedFor() {
        const QString model = QString::fromStdString(vadLike());
        Options o;
        o.db = dir_.filePath("vad.sqlite");
        MainWindow w(o);
        w.show();
        QVERIFY(w.jobs().waitForIdle());
        DialogWatch watch;
        QVERIFY2(w.loader().openFile(model), qPrintable(w.lastError()));
        QCOMPARE(watch.shown, 1);
        QCOMPARE(watch.fields, (QStringList{"dims-input", "dims-state"}));
        QVERIFY(w.jobs().waitForIdle());
        QCOMPARE(w.session().inputs()->network.input, (Shape{512, 1, 1}));
    }

    // A model whose every input is fixed opens without a question.
    void aStaticModelAsksNothing() {
        test::OnnxBuilder b(13, "static");
        b.input("pixels", {std::int64_t{1}, std::int64_t{3}, std::int64_t{32}, std::int64_t{32}});
        b.weight("w1", {8, 3, 3, 3});
        OnnxBuilder_pads(b.node("Conv", {"pixels", "w1"}, {"c1"}, "c1"));
        b.output("c1");
        const QString model = QString::fromStdString(b.write("static"));
        Options o;
        o.db = dir_.filePath("static.sqlite");
        MainWindow w(o);
        w.show();
        QVERIFY(w.jobs().waitForIdle());
        DialogWatch watch;
        QVERIFY2(w.loader().openFile(model), qPrintable(w.lastError()));
        QTest::qWait(150);
        QCOMPARE(watch.shown, 0);
        QCOMPARE(w.session().inputs()->network.input, (Shape{3, 32, 32}));
    }

    // An `If` is refused with the CLI's message before the user is asked for any size.
    void anUnsupportedOperatorIsRefusedBeforeAsking() {
        test::OnnxBuilder b(13, "gate");
        b.input("x", {std::string("N"), std::int64_t{3}, std::string("H"), std::string("W")});
        b.node("ReduceMean", {"x"}, {"m"}, "mean");
        b.node("If", {"m"}, {"y"}, "gate");
        b.output("y");
        const std::string path = b.write("gate");
        std::string cli;
        try {
            partita::onnx::importOnnx(path);
        } catch (const partita::onnx::UnsupportedOperators& e) {
            cli = e.what();
        }
        QVERIFY(!cli.empty());
        Options o;
        o.db = dir_.filePath("gate.sqlite");
        MainWindow w(o);
        w.show();
        QVERIFY(w.jobs().waitForIdle());
        const Network before = w.session().inputs()->network;
        DialogWatch watch;
        QString error;
        QVERIFY(!w.loader().openFile(QString::fromStdString(path), &error));
        QCOMPARE(watch.shown, 0);
        QCOMPARE(error, QString::fromStdString(cli));
        QVERIFY2(error.contains("'gate' (If, #1)"), qPrintable(error));
        QCOMPARE(w.session().inputs()->network.name, before.name);
    }

    // Paddle2ONNX names every graph "Model from PaddlePaddle.": two such models keep their files' names.
    void placeholderGraphNamesGiveWayToFileNames() {
        QStringList paths;
        for (const QString& file : {QString("ch_PP-OCRv4_det.onnx"), QString("ch_PP-OCRv4_rec.onnx")}) {
            test::OnnxBuilder b(11, "Model from PaddlePaddle.");
            b.model.set_producer_name("PaddlePaddle");
            b.model.set_doc_string("Model from PaddlePaddle.");
            b.input("x", {std::int64_t{1}, std::int64_t{3}, std::int64_t{48}, std::int64_t{64}});
            b.weight("w1", {8, 3, 3, 3});
            OnnxBuilder_pads(b.node("Conv", {"x", "w1"}, {"c1"}, "c1"));
            b.output("c1");
            paths << writeModel(dir_, b, file);
        }
        Options o;
        o.db = dir_.filePath("paddle.sqlite");
        MainWindow w(o);
        w.show();
        QVERIFY(w.jobs().waitForIdle());
        QStringList names;
        for (const QString& path : paths) {
            QVERIFY2(w.loader().openFile(path), qPrintable(w.lastError()));
            QVERIFY(w.jobs().waitForIdle());
            names << QString::fromStdString(w.session().inputs()->network.name);
            QVERIFY(w.windowTitle().startsWith(names.back() + " on "));
        }
        QCOMPARE(names, (QStringList{"ch_PP-OCRv4_det", "ch_PP-OCRv4_rec"}));
        const QTreeWidget* tree = w.findChild<LibraryDock*>()->tree();
        for (const QString& name : names) QCOMPARE(tree->findItems(name, Qt::MatchExactly | Qt::MatchRecursive).size(), 1);
        QVERIFY(tree->findItems("Model from PaddlePaddle.", Qt::MatchContains | Qt::MatchRecursive).isEmpty());
    }

private:
    static void OnnxBuilder_pads(::onnx::NodeProto& n) { test::OnnxBuilder::attrInts(n, "pads", {1, 1, 1, 1}); }
};

QTEST_MAIN(OnnxOpenTest)
#include "onnx_open_test.moc"
