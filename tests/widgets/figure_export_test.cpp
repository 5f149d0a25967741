// Figure and CSV export: PNG size and resolution, SVG and PDF validity, and
// error messages that name the file.
#include <QDir>
#include <QFile>
#include <QImage>
#include <QRegularExpression>
#include <QLabel>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QXmlStreamReader>
#include <QtTest>

#include "tests/qt_test_util.h"
#include "widgets/common/figure_export.h"

using namespace partita;

namespace {

// Red square at (10,10)-(60,60) in logical pixels, a blue bar and a caption.
class TestFigure : public FigureSource {
public:
    QSize figureSize() const override { return {200, 120}; }
    void paintFigure(QPainter& painter, const QRect& area) const override {
        painter.fillRect(QRect(10, 10, 50, 50), Qt::red);
        painter.fillRect(QRect(80, 10, 100, 20), Qt::blue);
        painter.setPen(Qt::black);
        painter.drawText(QRect(80, 40, area.width() - 90, 40), Qt::AlignLeft, "Partita figure");
        painter.drawRect(area.adjusted(0, 0, -1, -1));
    }
};

QByteArray readAll(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

}  // namespace

class FigureExportTest : public QObject {
    Q_OBJECT
private slots:
    void formatByExtension() {
        FigureFormat f = FigureFormat::Png;
        QVERIFY(figureFormatFor("/x/a.SVG", &f));
        QCOMPARE(f, FigureFormat::Svg);
        QVERIFY(figureFormatFor("b.pdf", &f));
        QCOMPARE(f, FigureFormat::Pdf);
        QVERIFY(figureFormatFor("c.Png", &f));
        QCOMPARE(f, FigureFormat::Png);
        QVERIFY(!figureFormatFor("d.jpg", &f));
        QVERIFY(!figureFormatFor("noext", &f));
    }

    void pngHasRequestedSizeAndDpi() {
        QTemporaryDir dir;
        const QString path = dir.filePath("fig.png");
        FigureOptions options;
        options.dpi = 192;
        QCOMPARE(exportFigure(TestFigure(), path, options), QString());
        QImage image(path);
        QVERIFY(!image.isNull());
        QCOMPARE(image.size(), QSize(400, 240));
        QCOMPARE(qRound(image.dotsPerMeterX() * 0.0254), 192);
        // Same layout at any DPI: logical (35, 35) is inside the red square.
        QCOMPARE(image.pixelColor(70, 70), QColor(Qt::red));
        QCOMPARE(image.pixelColor(260, 40), QColor(Qt::blue));
        QCOMPARE(image.pixelColor(140, 200), QColor(Qt::white));  // background
        // For looking at: text must scale with the shapes, not twice over.
        exportFigure(TestFigure(), shotPath("figure_192dpi.png"), options);
        exportFigure(TestFigure(), shotPath("figure_96dpi.png"), {});

        options.size = QSize(100, 60);
        options.dpi = 96;
        QCOMPARE(exportFigure(TestFigure(), path, options), QString());
        QCOMPARE(QImage(path).size(), QSize(100, 60));
    }

    void svgIsValid() {
        QTemporaryDir dir;
        const QString path = dir.filePath("fig.svg");
        FigureOptions options;
        options.title = "A test figure";
        QCOMPARE(exportFigure(TestFigure(), path, options), QString());
        QSvgRenderer renderer(path);
        QVERIFY(renderer.isValid());
        QCOMPARE(renderer.viewBox(), QRect(0, 0, 200, 120));
        QImage drawn(400, 240, QImage::Format_ARGB32);
        drawn.fill(Qt::transparent);
        {
            QPainter painter(&drawn);
            renderer.render(&painter);
        }
        QCOMPARE(drawn.pixelColor(70, 70), QColor(Qt::red));  // the same layout as the PNG
        QCOMPARE(drawn.pixelColor(260, 40), QColor(Qt::blue));
        drawn.save(shotPath("figure_svg_rendered.png"));
        QXmlStreamReader xml(readAll(path));
        QVERIFY(xml.readNextStartElement());
        QCOMPARE(xml.name().toString(), QString("svg"));
        while (!xml.atEnd()) xml.readNext();
        QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
        QVERIFY(readAll(path).contains("A test figure"));
    }

    void pdfHasOnePage() {
        QTemporaryDir dir;
        const QString path = dir.filePath("fig.pdf");
        QCOMPARE(exportFigure(TestFigure(), path, {}), QString());
        const QByteArray bytes = readAll(path);
        QVERIFY(bytes.startsWith("%PDF"));
        const QRegularExpression page("/Type\\s*/Page\\b(?!s)");
        int pages = 0;
        for (auto it = page.globalMatch(QString::fromLatin1(bytes)); it.hasNext(); it.next()) ++pages;
        QCOMPARE(pages, 1);
        // 200 x 120 px at 96 DPI is 150 x 90 pt.
        const QRegularExpression box("/MediaBox \\[0 0 150(\\.0*)? 90(\\.0*)?\\]");
        QVERIFY(box.match(QString::fromLatin1(bytes)).hasMatch());
    }

    void widgetToAllFormats() {
        QTemporaryDir dir;
        QLabel label("Hello from a label");
        label.resize(120, 40);
        FigureOptions options;
        options.size = QSize(240, 80);
        options.dpi = 192;
        QCOMPARE(exportWidget(label, dir.filePath("w.png"), options), QString());
        QCOMPARE(QImage(dir.filePath("w.png")).size(), QSize(480, 160));
        exportWidget(label, shotPath("label_192dpi.png"), options);
        QCOMPARE(exportWidget(label, dir.filePath("w.svg"), options), QString());
        QVERIFY(QSvgRenderer(dir.filePath("w.svg")).isValid());
        QCOMPARE(exportWidget(label, dir.filePath("w.pdf"), options), QString());
        QVERIFY(readAll(dir.filePath("w.pdf")).startsWith("%PDF"));
    }

    void errorsNameTheFile() {
        QTemporaryDir dir;
        for (const char* name : {"missing/sub/x.png", "missing/sub/x.svg", "missing/sub/x.pdf"}) {
            const QString path = dir.filePath(name);
            const QString error = exportFigure(TestFigure(), path, {});
            QVERIFY2(error.contains(path), qPrintable(error));
            QVERIFY(error.startsWith("Could not write"));
            QVERIFY(!QFile::exists(path));
        }
        const QString jpg = dir.filePath("x.jpg");
        QVERIFY(exportFigure(TestFigure(), jpg, {}).contains(jpg));
        QLabel label("x");
        const QString bad = dir.filePath("missing/w.png");
        QVERIFY(exportWidget(label, bad, {}).contains(bad));
        const QString csv = dir.filePath("missing/t.csv");
        QVERIFY(exportCsv(CsvTable{{"a"}, {{"1"}}}, csv).contains(csv));
    }

    void csvRoundTrip() {
        QTemporaryDir dir;
        const QString path = dir.filePath("table.csv");
        CsvTable table{{"metric", "value", "unit"}, {{"total, \"all\"", "3901560", "elements"}, {"step", "0.5", "s"}}};
        QCOMPARE(exportCsv(table, path), QString());
        const QByteArray bytes = readAll(path);
        QCOMPARE(bytes, QByteArray::fromStdString(toCsv(table)));
        QCOMPARE(bytes, QByteArray("metric,value,unit\r\n\"total, \"\"all\"\"\",3901560,elements\r\nstep,0.5,s\r\n"));
    }
};

QTEST_MAIN(FigureExportTest)
#include "figure_export_test.moc"
