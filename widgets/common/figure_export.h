#pragma once
// Figure and table export shared by every view: PNG (chosen size and DPI),
// SVG and PDF from one paint routine, and CSV from core's table type.
#include <QPainter>
#include <QSize>
#include <QString>

#include "core/io/csv.h"

class QWidget;

namespace partita {

// A view that can draw itself onto any paint device at any size.
class FigureSource {
public:
    virtual ~FigureSource() = default;
    virtual QSize figureSize() const = 0;                               // natural size, pixels at 96 DPI
    virtual void paintFigure(QPainter& painter, const QRect& area) const = 0;
};

enum class FigureFormat { Png, Svg, Pdf };

// By extension (.png .svg .pdf, case-insensitive); false for anything else.
bool figureFormatFor(const QString& path, FigureFormat* format);

struct FigureOptions {
    QSize size;       // empty = the source's figureSize()
    int dpi = 96;     // PNG: pixels = size * dpi / 96, stored as the file's resolution. SVG and PDF are
                      // vector and always laid out at 96 px per inch (1 px = 0.75 pt), so text and
                      // shapes keep the same proportions at any dpi.
    QString title;    // SVG/PDF document title
};

// Writes the figure; returns an empty string on success, else a message that
// names the file and the reason (never throws).
QString exportFigure(const FigureSource& source, const QString& path, const FigureOptions& options = {});
// The same for a plain widget (rendered through QWidget::render).
QString exportWidget(QWidget& widget, const QString& path, const FigureOptions& options = {});
// CSV, RFC 4180; returns an empty string on success, else the message.
QString exportCsv(const CsvTable& table, const QString& path);
// Any text as UTF-8 (a graph's DOT), written the same way.
QString exportText(const QString& text, const QString& path);

}  // namespace partita
