#include "widgets/common/graph_paint.h"

#include <algorithm>
#include <cmath>

#include <QFontMetricsF>
#include <QPainter>
#include <QPolygonF>

#include "widgets/common/qt_text.h"

namespace partita::graphpaint {

namespace {
constexpr double kPadX = 8, kPadY = 5, kMinNodeW = 84, kMinTextPx = 6, kCoarseScale = 0.12;

view::Rgb rgbOf(const QColor& c) {
    return {static_cast<std::uint8_t>(c.red()), static_cast<std::uint8_t>(c.green()), static_cast<std::uint8_t>(c.blue())};
}
}  // namespace

Fonts fonts(const QFont& base) {
    auto sized = [&base](int px, bool bold) {
        QFont f = base;
        f.setPixelSize(px);
        f.setBold(bold);
        return f;
    };
    return {sized(12, true), sized(11, false), sized(13, true), sized(12, false)};
}

QSizeF nodeSize(const QStringList& lines, const Fonts& f) {
    const QFontMetricsF name(f.name), detail(f.detail);
    double w = 0;
    for (int k = 0; k < lines.size(); ++k) w = std::max(w, (k == 0 ? name : detail).horizontalAdvance(lines[k]));
    const double h =
        name.height() + static_cast<double>(std::max<qsizetype>(lines.size() - 1, 0)) * (detail.height() + kLineGap) +
        2 * kPadY;
    return {std::max(kMinNodeW, std::ceil(w + 2 * kPadX)), std::ceil(h)};
}

void drawNode(QPainter& p, const QRectF& box, const QStringList& lines, const QColor& fill, const QPen& border,
              const Fonts& f, bool text) {
    p.setPen(border);
    p.setBrush(fill);
    p.drawRoundedRect(box, 5, 5);
    if (!text) return;
    const QFontMetricsF name(f.name), detail(f.detail);
    p.setPen(qcolor(view::textOn(rgbOf(fill))));
    double y = box.y() + kPadY;
    for (int k = 0; k < lines.size(); ++k) {
        const QFontMetricsF& fm = k == 0 ? name : detail;
        p.setFont(k == 0 ? f.name : f.detail);
        p.drawText(QRectF(box.x() + 2, y, box.width() - 4, fm.height()), Qt::AlignHCenter | Qt::AlignVCenter,
                   fm.elidedText(lines[k], Qt::ElideRight, box.width() - 6));
        y += fm.height() + kLineGap;
    }
}

void drawEdge(QPainter& p, const QPainterPath& path, QPointF base, QPointF tip, bool arrowhead) {
    p.setBrush(Qt::NoBrush);
    p.drawPath(path);
    const QPointF dir = tip - base;
    if (!arrowhead || std::hypot(dir.x(), dir.y()) < 0.5) return;
    const QPointF n(-dir.y() * 0.38, dir.x() * 0.38);  // half the arrowhead's base
    p.setBrush(p.pen().color());
    p.drawPolygon(QPolygonF({tip, base + n, base - n}));
}

QPainterPath splinePath(const std::vector<view::Point>& pts) {
    if (pts.empty()) return {};
    QPainterPath path(QPointF(pts[0].x, pts[0].y));
    for (size_t k = 1; k + 2 < pts.size(); k += 3)
        path.cubicTo(pts[k].x, pts[k].y, pts[k + 1].x, pts[k + 1].y, pts[k + 2].x, pts[k + 2].y);
    return path;
}

QPen cosmeticPen(const QColor& colour, double width) {
    QPen pen(colour, width);
    pen.setCosmetic(true);
    return pen;
}

bool coarse(const QPainter& p) { return p.deviceTransform().m22() < kCoarseScale; }

bool textReadable(const QPainter& p, const Fonts& f) {
    return f.detail.pixelSize() * p.deviceTransform().m22() >= kMinTextPx;  // device pixels
}

}  // namespace partita::graphpaint
