#include "widgets/common/figure_export.h"

#include <algorithm>
#include <cmath>
#include <functional>

#include <QBuffer>
#include <QFileInfo>
#include <QImage>
#include <QLayout>
#include <QPageLayout>
#include <QPageSize>
#include <QPdfWriter>
#include <QSaveFile>
#include <QSvgGenerator>
#include <QWidget>


namespace partita {

namespace {

// Paints in logical (96 DPI) coordinates covering QRect(0, 0, size).
using PaintFn = std::function<void(QPainter&)>;

// Fonts are resolved against the paint device's DPI, so every target is painted
// at 96 DPI and scaled by the painter; otherwise text would grow twice with dpi.
constexpr int kLogicalDpi = 96;

int dotsPerMeter(double dpi) { return static_cast<int>(std::lround(dpi / 0.0254)); }

QString failure(const QString& path, const QString& reason) {
    return QStringLiteral("Could not write %1: %2").arg(path, reason);
}

// Writes through QSaveFile so a failed export never leaves a truncated file,
// and the OS reason ("Permission denied") reaches the message.
QString saveBytes(const QString& path, const QByteArray& bytes) {
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) return failure(path, file.errorString());
    if (file.write(bytes) != bytes.size()) return failure(path, file.errorString());
    if (!file.commit()) return failure(path, file.errorString());
    return {};
}

QString renderPng(const QString& path, QSize logical, const FigureOptions& options, const PaintFn& paint) {
    const double scale = options.dpi / double(kLogicalDpi);
    const QSize pixels(static_cast<int>(std::lround(logical.width() * scale)),
                       static_cast<int>(std::lround(logical.height() * scale)));
    QImage image(pixels, QImage::Format_ARGB32_Premultiplied);
    if (image.isNull()) return failure(path, QStringLiteral("the image (%1 x %2 px) is too large")
                                                 .arg(pixels.width()).arg(pixels.height()));
    image.setDotsPerMeterX(dotsPerMeter(kLogicalDpi));
    image.setDotsPerMeterY(dotsPerMeter(kLogicalDpi));
    image.fill(Qt::white);
    {
        QPainter painter(&image);
        painter.setRenderHint(QPainter::Antialiasing);
        painter.setRenderHint(QPainter::TextAntialiasing);
        painter.scale(double(pixels.width()) / logical.width(), double(pixels.height()) / logical.height());
        paint(painter);
    }
    // The real resolution goes into the file only after painting (see kLogicalDpi).
    image.setDotsPerMeterX(dotsPerMeter(options.dpi));
    image.setDotsPerMeterY(dotsPerMeter(options.dpi));
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    if (!image.save(&buffer, "PNG")) return failure(path, QStringLiteral("PNG encoding failed"));
    return saveBytes(path, bytes);
}

QString renderSvg(const QString& path, QSize logical, const FigureOptions& options, const PaintFn& paint) {
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    QSvgGenerator svg;
    svg.setOutputDevice(&buffer);
    // Vector output: one user unit = one logical pixel, 96 per inch (the CSS reference).
    svg.setSize(logical);
    svg.setViewBox(QRect(QPoint(0, 0), logical));
    svg.setResolution(kLogicalDpi);
    svg.setTitle(options.title);
    svg.setDescription(QStringLiteral("Exported by Partita"));
    QPainter painter;
    if (!painter.begin(&svg)) return failure(path, QStringLiteral("the SVG generator did not start"));
    painter.fillRect(QRect(QPoint(0, 0), logical), Qt::white);
    paint(painter);
    painter.end();
    return saveBytes(path, bytes);
}

QString renderPdf(const QString& path, QSize logical, const FigureOptions& options, const PaintFn& paint) {
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    {
        QPdfWriter pdf(&buffer);
        pdf.setTitle(options.title);
        pdf.setCreator(QStringLiteral("Partita"));
        pdf.setResolution(kLogicalDpi);
        // One page exactly the figure's size: 96 px = 72 pt.
        const QSizeF points(logical.width() * 72.0 / kLogicalDpi, logical.height() * 72.0 / kLogicalDpi);
        const QPageLayout layout(QPageSize(points, QPageSize::Point, QString(), QPageSize::ExactMatch),
                                 QPageLayout::Portrait, QMarginsF(0, 0, 0, 0), QPageLayout::Point,
                                 QMarginsF(0, 0, 0, 0));
        if (!pdf.setPageLayout(layout)) return failure(path, QStringLiteral("the page size was refused"));
        QPainter painter;
        if (!painter.begin(&pdf)) return failure(path, QStringLiteral("the PDF writer did not start"));
        // Page sizes are rounded to whole points; map the figure onto what we got.
        painter.scale(pdf.width() / double(logical.width()), pdf.height() / double(logical.height()));
        painter.fillRect(QRect(QPoint(0, 0), logical), Qt::white);
        paint(painter);
        painter.end();
    }
    return saveBytes(path, bytes);
}

QString render(const QString& path, QSize logical, const FigureOptions& options, const PaintFn& paint) {
    FigureFormat format;
    if (!figureFormatFor(path, &format))
        return failure(path, QStringLiteral("unknown figure format (use .png, .svg or .pdf)"));
    if (logical.isEmpty()) return failure(path, QStringLiteral("the figure is empty"));
    if (options.dpi <= 0) return failure(path, QStringLiteral("the resolution must be positive"));
    try {
        switch (format) {
            case FigureFormat::Png: return renderPng(path, logical, options, paint);
            case FigureFormat::Svg: return renderSvg(path, logical, options, paint);
            case FigureFormat::Pdf: return renderPdf(path, logical, options, paint);
        }
    } catch (const std::exception& e) {  // a figure source failing must not take the app down
        return failure(path, QString::fromUtf8(e.what()));
    }
    return failure(path, QStringLiteral("unknown figure format"));
}

}  // namespace

bool figureFormatFor(const QString& path, FigureFormat* format) {
    const QString suffix = QFileInfo(path).suffix().toLower();
    FigureFormat f;
    if (suffix == QLatin1String("png")) f = FigureFormat::Png;
    else if (suffix == QLatin1String("svg")) f = FigureFormat::Svg;
    else if (suffix == QLatin1String("pdf")) f = FigureFormat::Pdf;
    else return false;
    if (format) *format = f;
    return true;
}

QString exportFigure(const FigureSource& source, const QString& path, const FigureOptions& options) {
    const QSize size = options.size.isEmpty() ? source.figureSize() : options.size;
    return render(path, size, options,
                  [&](QPainter& painter) { source.paintFigure(painter, QRect(QPoint(0, 0), size)); });
}

QString exportWidget(QWidget& widget, const QString& path, const FigureOptions& options) {
    // A widget never shown has not laid out its children yet.
    widget.ensurePolished();
    if (widget.layout()) widget.layout()->activate();
    const QSize natural = widget.size().isEmpty() ? widget.sizeHint() : widget.size();
    if (widget.size().isEmpty()) widget.resize(natural);
    const QSize size = options.size.isEmpty() ? natural : options.size;
    return render(path, size, options, [&](QPainter& painter) {
        if (natural.isEmpty()) return;
        // Fit the widget into the requested size keeping its aspect ratio, centred.
        const double scale = std::min(size.width() / double(natural.width()), size.height() / double(natural.height()));
        painter.translate((size.width() - natural.width() * scale) / 2, (size.height() - natural.height() * scale) / 2);
        painter.scale(scale, scale);
        widget.render(&painter, QPoint(0, 0), QRegion(), QWidget::DrawWindowBackground | QWidget::DrawChildren);
    });
}

QString exportCsv(const CsvTable& table, const QString& path) {
    // toCsv plus QSaveFile rather than writeCsvFile: atomic, and the OS reason reaches the user.
    return saveBytes(path, QByteArray::fromStdString(toCsv(table)));
}

QString exportText(const QString& text, const QString& path) { return saveBytes(path, text.toUtf8()); }

}  // namespace partita
