#include "widgets/llm/scatter_axes.h"

#include <algorithm>
#include <cmath>

#include <QFontMetrics>
#include <QPainter>

#include "widgets/geometry/ticks.h"

namespace partita::llmview {

void Axis::setRange(double l, double h) {
    lo = l, hi = h;
    log_lo = lo > 0 ? std::log10(lo) : 0, log_hi = hi > 0 ? std::log10(hi) : 1;
}

double Axis::toUnit(double v) const {
    if (log) return (std::log10(std::max(v, 1e-300)) - log_lo) / (log_hi - log_lo);
    return (v - lo) / (hi - lo);
}

double Axis::fromUnit(double u) const {
    if (log) return std::pow(10.0, log_lo + u * (log_hi - log_lo));
    return lo + u * (hi - lo);
}

Axis Axis::covering(double lo, double hi, bool log_axis, double margin) {
    Axis a;
    if (!(lo <= hi)) lo = 0, hi = 1;
    a.log = log_axis && lo > 0;
    if (a.log) {
        const double l0 = std::log10(lo), l1 = std::log10(hi), span = std::max(l1 - l0, 0.1);
        a.setRange(std::pow(10.0, l0 - margin * span), std::pow(10.0, l1 + margin * span));
    } else {
        const double span = hi > lo ? hi - lo : std::max(std::abs(hi), 1.0);
        a.setRange(lo >= 0 ? std::max(0.0, lo - margin * span) : lo - margin * span, hi + margin * span);
    }
    return a;
}

QRectF plotRect(const QRect& area, const QFont& font, double top_reserved) {
    const QFontMetrics fm(font);
    const double left = fm.horizontalAdvance(QStringLiteral("000.0 ms")) + fm.height() + 14;
    const double bottom = 2.0 * fm.height() + 14;
    return QRectF(area.left() + left, area.top() + top_reserved + fm.height() / 2.0,
                  std::max(10.0, area.width() - left - fm.horizontalAdvance(QStringLiteral("000")) - 4.0),
                  std::max(10.0, area.height() - top_reserved - bottom - fm.height() / 2.0));
}

namespace {
std::vector<view::Tick> ticksOf(const Axis& a, int max_ticks) {
    // Ticks fall on round numbers of the shown unit (GiB, not bytes).
    const double lo = a.lo * a.scale, hi = a.hi * a.scale;
    std::vector<view::Tick> t = a.log ? view::logTicks(lo, hi, max_ticks) : view::niceTicks(lo, hi, max_ticks);
    for (auto& k : t) {
        const double v = k.value;
        k.value /= a.scale;
        // Large plain counts read as 100k / 2.5M rather than 1e+05.
        QString text = QString::number(v, 'g', 4);
        if (std::abs(v) >= 1e6) text = QString::number(v / 1e6, 'g', 4) + QStringLiteral("M");
        else if (std::abs(v) >= 1e4) text = QString::number(v / 1e3, 'g', 4) + QStringLiteral("k");
        k.label = text.append(a.unit.isEmpty() ? QString() : QStringLiteral(" ") + a.unit).toStdString();
    }
    return t;
}
}  // namespace

void paintAxes(QPainter& p, const PlotArea& a, const QFont& font) {
    p.save();
    p.setFont(font);
    const QFontMetrics fm(font);
    const QRectF r = a.plot;
    const QColor grid(225, 225, 225), ink(60, 60, 60);
    const auto xt = ticksOf(a.x, std::max(2, static_cast<int>(r.width() / (fm.horizontalAdvance("0000.0 ms") + 12))));
    const auto yt = ticksOf(a.y, std::max(2, static_cast<int>(r.height() / (2.5 * fm.height()))));
    for (const auto& t : xt) {
        const double x = a.px(t.value);
        if (x < r.left() - 0.5 || x > r.right() + 0.5) continue;
        p.setPen(grid);
        p.drawLine(QPointF(x, r.top()), QPointF(x, r.bottom()));
        p.setPen(ink);
        const QString s = QString::fromStdString(t.label);
        p.drawText(QRectF(x - 60, r.bottom() + 4, 120, fm.height()), Qt::AlignHCenter | Qt::AlignTop, s);
    }
    for (const auto& t : yt) {
        const double y = a.py(t.value);
        if (y < r.top() - 0.5 || y > r.bottom() + 0.5) continue;
        p.setPen(grid);
        p.drawLine(QPointF(r.left(), y), QPointF(r.right(), y));
        p.setPen(ink);
        const QString s = QString::fromStdString(t.label);
        p.drawText(QRectF(r.left() - 6 - 200, y - fm.height() / 2.0, 200, fm.height()), Qt::AlignRight | Qt::AlignVCenter, s);
    }
    p.setPen(ink);
    p.setBrush(Qt::NoBrush);
    p.drawRect(r);
    p.drawText(QRectF(r.left(), r.bottom() + 6 + fm.height(), r.width(), fm.height() + 4), Qt::AlignHCenter | Qt::AlignTop,
               a.x.title + (a.x.log ? QStringLiteral(" (log)") : QString()));
    p.translate(r.left() - fm.horizontalAdvance(QStringLiteral("000.0 ms")) - 12 - fm.height(), r.center().y());
    p.rotate(-90);
    p.drawText(QRectF(-r.height() / 2, 0, r.height(), fm.height() + 2), Qt::AlignHCenter | Qt::AlignTop,
               a.y.title + (a.y.log ? QStringLiteral(" (log)") : QString()));
    p.restore();
}

}  // namespace partita::llmview
