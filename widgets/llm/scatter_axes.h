#pragma once
// The plot area of the LLM scatter views (trade-off, predicted vs measured): a linear or log axis
// per direction mapped onto pixels, and the frame, ticks and axis titles painted from it.
#include <QFont>
#include <QRectF>
#include <QString>

class QPainter;

namespace partita::llmview {

struct Axis {
    double lo = 0, hi = 1;
    bool log = false;
    QString title;
    QString unit;  // appended to tick labels ("ms", "GiB", ...); empty: plain numbers
    double scale = 1;  // tick label = value * scale
    double log_lo = 0, log_hi = 1;  // log10 of lo and hi (set by covering() and setRange())
    void setRange(double lo, double hi);
    double toUnit(double v) const;       // 0..1 along the axis
    double fromUnit(double u) const;
    // Range covering [lo, hi] with a margin; log when asked and positive.
    static Axis covering(double lo, double hi, bool log, double margin = 0.05);
};

struct PlotArea {
    QRectF plot;  // inner rectangle of the data
    Axis x, y;
    double px(double v) const { return plot.left() + x.toUnit(v) * plot.width(); }
    double py(double v) const { return plot.bottom() - y.toUnit(v) * plot.height(); }
    double vx(double px) const { return x.fromUnit((px - plot.left()) / plot.width()); }
    double vy(double py) const { return y.fromUnit((plot.bottom() - py) / plot.height()); }
};

// The plot rectangle inside `area` leaving room for the tick labels and titles under `font`.
QRectF plotRect(const QRect& area, const QFont& font, double top_reserved = 0);
// Frame, grid, ticks and axis titles.
void paintAxes(QPainter& p, const PlotArea& a, const QFont& font);

}  // namespace partita::llmview
