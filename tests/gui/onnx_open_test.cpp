// Opening an ONNX model in the window: the input-size dialog lists each graph input prefilled with
// the importer's suggestion, the chosen sizes shape the network, and the choice is remembered per
// file (the second open asks nothing).
#include <QDialogButtonBox>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>

#include "app/gui/main_window.h"
#include "app/gui/onnx_dims_dialog.h"
#include "app/gui/options.h"
#include "tests/core/onnx_builder.h"

using namespace partita;
using namespace partita::gui;

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
        QVERIFY(w.openFile(model));
        QCOMPARE(dialogs, 1);
        QCOMPARE(prefilled, QString("1,3,224,224"));  // batch 1, 224 px sides
        QVERIFY(w.jobs().waitForIdle());
        QCOMPARE(w.inputs()->network.input, (Shape{3, 64, 48}));
        QCOMPARE(w.inputs()->layers.size(), size_t{2});

        answer("1,3,32,32");  // not asked again: the file's sizes are remembered
        QVERIFY(w.openFile(model));
        QTest::qWait(200);
        QCOMPARE(dialogs, 1);
        QCOMPARE(w.inputs()->network.input, (Shape{3, 64, 48}));
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
        QCOMPARE(w.inputs()->network.input, (Shape{3, 40, 40}));
    }

private:
    static void OnnxBuilder_pads(::onnx::NodeProto& n) { test::OnnxBuilder::attrInts(n, "pads", {1, 1, 1, 1}); }
};

QTEST_MAIN(OnnxOpenTest)
#include "onnx_open_test.moc"
