#include "widgets/timeline/gantt_paint.h"

#include <algorithm>
#include <cmath>

#include <QFontMetricsF>
#include <QPainter>

#include "widgets/common/qt_text.h"
#include "widgets/geometry/ticks.h"

namespace partita {

namespace {

// Faded bars: most of the way to white, so highlighted ones stand out in any colour.
view::Rgb faded(view::Rgb c) {
    auto f = [](std::uint8_t v) { return static_cast<std::uint8_t>((v + 2 * 255) / 3); };
    return {f(c.r), f(c.g), f(c.b)};
}
const QColor kGanttInk(40, 40, 40), kMuted(100, 100, 100), kRule(200, 200, 200), kGridLine(232, 232, 232);
const QColor kGanttOverMemory(200, 30, 30);
const QColor kHeader(232, 236, 242), kAltRow(247, 248, 250), kSelectedRow(255, 236, 179);

QFont bold(QFont f) {
    f.setBold(true);
    return f;
}

QString counted(int n, const char* one, const char* many) {
    return QStringLiteral("%1 %2").arg(n).arg(QString::fromUtf8(n == 1 ? one : many));
}

// "node 0 — 4 devices, 4 streams": a node's collective streams are lanes of its group, not devices.
QString groupHeading(const view::GanttModel& m, const view::LaneGroup& g, int index) {
    const int streams = m.groupStreams(index), others = g.lane_count - streams;
    QString what = m.groupIsLinks(index) ? counted(others, "link", "links") : counted(others, "device", "devices");
    if (streams > 0) what = (others > 0 ? what + QStringLiteral(", ") : QString()) + counted(streams, "stream", "streams");
    const QString arrow = g.collapsed ? QStringLiteral("\u25b8 ") : QStringLiteral("\u25be ");
    return arrow + q(g.name) + QStringLiteral(" \u2014 ") + what;
}

QString tickLabel(const std::string& s) {
    QString t = q(s);
    if (t.endsWith(QStringLiteral(" us"))) t.replace(t.size() - 2, 1, QChar(0x00b5));
    return t;
}

}  // namespace

GanttFrame ganttFrame(const QRect& area, const view::GanttModel& model, const QFont& font) {
    const QFontMetricsF fm(font), bfm(bold(font));
    GanttFrame f;
    f.row_height = std::ceil(fm.height() + 6);
    f.header_height = std::ceil(fm.height() + 8);
    double label_w = 120;
    for (const auto& lane : model.lanes()) label_w = std::max(label_w, fm.horizontalAdvance(q(lane.name)) + 30);
    for (size_t g = 0; g < model.groups().size(); ++g)
        label_w = std::max(label_w, bfm.horizontalAdvance(groupHeading(model, model.groups()[g], static_cast<int>(g))) + 16);
    const int lw = static_cast<int>(std::min(std::ceil(label_w), area.width() * 0.35));
    const int axis_h = static_cast<int>(std::ceil(fm.height() + 14));
    const int legend_h = static_cast<int>(std::ceil(fm.height() + 16));
    f.title = QRect(area.left(), area.top(), lw, axis_h);
    f.axis = QRect(area.left() + lw, area.top(), area.width() - lw, axis_h);
    f.labels = QRect(area.left(), area.top() + axis_h, lw, area.height() - axis_h - legend_h);
    f.lanes = QRect(area.left() + lw, area.top() + axis_h, area.width() - lw, f.labels.height());
    f.legend = QRect(area.left(), area.bottom() + 1 - legend_h, area.width(), legend_h);
    return f;
}

void fitAxisToFrame(view::TimeAxis& axis, const GanttFrame& frame) {
    axis.x0 = frame.lanes.left() + 8;
    axis.x1 = frame.lanes.right() - 12;
}

namespace {

std::vector<view::Tick> ticks(const GanttFrame& f, const view::TimeAxis& axis, const QFontMetricsF& fm) {
    const int spacing = std::max(90, static_cast<int>(fm.horizontalAdvance(QStringLiteral("0.0000 ms")) + 24));
    return view::timeTicks(axis.t0, axis.t1, std::max(2, f.axis.width() / spacing));
}

void paintGridLines(QPainter& p, const GanttFrame& f, const view::TimeAxis& axis, const QFontMetricsF& fm) {
    p.setPen(kGridLine);
    for (const auto& t : ticks(f, axis, fm)) {
        const double x = axis.toPixel(t.value);
        if (x >= f.lanes.left() && x <= f.lanes.right()) p.drawLine(QPointF(x, f.lanes.top()), QPointF(x, f.lanes.bottom()));
    }
}

void paintAxis(QPainter& p, const GanttFrame& f, const view::TimeAxis& axis, const QFont& font) {
    const QFontMetricsF fm(font);
    p.setFont(font);
    p.fillRect(f.axis, Qt::white);
    for (const auto& t : ticks(f, axis, fm)) {
        const double x = axis.toPixel(t.value);
        if (x < f.lanes.left() || x > f.lanes.right()) continue;
        p.setPen(kGanttInk);
        p.drawLine(QPointF(x, f.axis.bottom() - 5), QPointF(x, f.axis.bottom()));
        const QString label = tickLabel(t.label);
        const double w = fm.horizontalAdvance(label);
        const double left = std::clamp(x - w / 2, double(f.axis.left()) + 2, double(f.axis.right()) - w - 2);
        p.drawText(QRectF(left, f.axis.top(), w + 1, f.axis.height() - 6), Qt::AlignCenter, label);
    }
    p.setPen(kRule);
    p.drawLine(f.axis.bottomLeft(), f.axis.bottomRight());
}

// `summary`: a collapsed group's lanes drawn over each other in its header row, without names.
void paintLane(QPainter& p, const view::GanttModel& m, int lane, const QRectF& row, const GanttPaintState& s,
               const QFontMetricsF& fm, bool summary = false) {
    const bool highlighting = s.selected_op >= 0 || s.show_critical;
    const double y = row.top() + 3, h = row.height() - 6;
    const double left = row.left() - 2, right = row.right() + 2;
    for (const auto& r : view::layoutLane(m.bars(lane), s.axis, 1.0)) {
        const QRectF bar(QPointF(std::max(r.x0, left), y), QPointF(std::min(r.x1, right), y + h));
        if (bar.width() <= 0) continue;
        const bool sel = s.selected_op >= 0 && m.anyOfOperator(lane, r.first, r.count, s.selected_op);
        const bool crit = s.show_critical && m.anyCritical(lane, r.first, r.count);
        const view::Rgb base = view::ganttColour(m.colouring(), r.color_key);
        const view::Rgb c = highlighting && !sel && !crit ? faded(base) : base;
        p.fillRect(bar, qcolor(c));
        if (sel || crit) {
            p.setBrush(Qt::NoBrush);
            p.setPen(QPen(kGanttInk, crit ? 2.0 : 1.2));
            p.drawRect(bar.adjusted(0.5, 0.5, -0.5, -0.5));
        }
        if (!summary && r.count == 1 && bar.width() >= 44) {
            p.setPen(qcolor(view::textOn(c)));
            const QString name = fm.elidedText(q(m.opName(m.record(lane, r.first).op)), Qt::ElideRight, bar.width() - 6);
            p.drawText(bar.adjusted(3, 0, -3, 0), Qt::AlignVCenter | Qt::AlignLeft, name);
        }
    }
}

void paintCriticalLinks(QPainter& p, const view::GanttModel& m, const view::LaneLayout& layout, const GanttFrame& f,
                        const GanttPaintState& s) {
    QPen pen(kGanttInk, 1.5, Qt::DashLine);
    p.setPen(pen);
    const auto& path = m.criticalBars();
    auto mid = [&](int lane) { return f.lanes.top() + *layout.laneTop(lane) - s.scroll + f.row_height / 2; };
    for (size_t k = 1; k < path.size(); ++k) {
        const auto [la, ia] = path[k - 1];
        const auto [lb, ib] = path[k];
        if (la == lb || !layout.laneTop(la) || !layout.laneTop(lb)) continue;
        const double x = s.axis.toPixel(m.bars(lb)[static_cast<size_t>(ib)].start);
        if (x < f.lanes.left() || x > f.lanes.right()) continue;
        (void)ia;
        p.drawLine(QPointF(x, mid(la)), QPointF(x, mid(lb)));
    }
}

void paintLegend(QPainter& p, const view::GanttModel& m, const GanttFrame& f, const GanttPaintState& s,
                 const QFont& font) {
    const QFontMetricsF fm(font);
    p.setFont(font);
    p.setPen(kRule);
    p.drawLine(f.legend.topLeft(), f.legend.topRight());
    const auto items = m.legend();
    double x = f.legend.left() + 8;
    const double cy = f.legend.center().y() + 1;
    const double right = f.legend.right() - 8;
    p.setPen(kMuted);
    const QString caption = m.colouring() == view::GanttColouring::Phase ? QStringLiteral("Phase:") : QStringLiteral("Layer:");
    p.drawText(QPointF(x, cy + fm.ascent() / 2 - 1), caption);
    x += fm.horizontalAdvance(caption) + 10;
    // Trailing entries (mixed merge, critical path) are reserved before layers fill the rest.
    const QString mixed = QStringLiteral("merged, mixed");
    const QString critical = QStringLiteral("critical path");
    const double tail = 36 + fm.horizontalAdvance(mixed) + (s.show_critical ? 36 + fm.horizontalAdvance(critical) : 0);
    auto swatch = [&](const QColor& fill, const QString& text, bool outline) {
        const QRectF sw(x, cy - 7, 22, 14);
        p.fillRect(sw, fill);
        if (outline) {
            p.setBrush(Qt::NoBrush);
            p.setPen(QPen(kGanttInk, 2));
            p.drawRect(sw.adjusted(1, 1, -1, -1));
        }
        p.setPen(kGanttInk);
        p.drawText(QPointF(x + 28, cy + fm.ascent() / 2 - 1), text);
        x += 28 + fm.horizontalAdvance(text) + 16;
    };
    for (size_t i = 0; i < items.size(); ++i) {
        const QString text = q(items[i].label);
        const double need = 28 + fm.horizontalAdvance(text) + 16;
        if (x + need + tail > right && i + 1 < items.size()) {
            p.setPen(kMuted);
            const QString more = QStringLiteral("+%1 more").arg(items.size() - i);
            p.drawText(QPointF(x, cy + fm.ascent() / 2 - 1), more);
            x += fm.horizontalAdvance(more) + 16;
            break;
        }
        swatch(qcolor(view::ganttColour(m.colouring(), items[i].key)), text, false);
    }
    swatch(qcolor(view::ganttColour(m.colouring(), -1)), mixed, false);
    if (s.show_critical) swatch(QColor(Qt::white), critical, true);
}

}  // namespace

void paintGantt(QPainter& p, const view::GanttModel& m, const view::LaneLayout& layout, const GanttFrame& f,
                const GanttPaintState& s, const QFont& font) {
    p.save();
    const QRect area = f.title.united(f.legend).united(f.lanes);
    p.fillRect(area, Qt::white);
    const QFontMetricsF fm(font);
    p.setFont(font);
    if (m.empty()) {
        p.setPen(kMuted);
        p.drawText(area, Qt::AlignCenter, QStringLiteral("Simulate a strategy to see its timeline"));
        p.restore();
        return;
    }
    p.setPen(kGanttInk);
    p.setFont(bold(font));
    p.drawText(f.title.adjusted(6, 0, -4, -6), Qt::AlignVCenter | Qt::AlignLeft,
               QStringLiteral("makespan ") + q(view::timeText(m.makespan())));
    const QRect band = f.labels.united(f.lanes);
    p.setClipRect(band);
    // Two passes: rows and labels, then (over the tick lines) the bars.
    for (int pass = 0; pass < 2; ++pass) {
        if (pass == 1) paintGridLines(p, f, s.axis, fm);
        for (size_t gi = 0; gi < layout.groups().size(); ++gi) {
            const auto& g = layout.groups()[gi];
            const double top = band.top() + layout.groupTop(static_cast<int>(gi)) - s.scroll;
            if (top > band.bottom() || (s.whole_rows && top + f.header_height > band.bottom() + 1)) break;
            const double bottom = top + f.header_height + (g.collapsed ? 0 : g.lane_count * f.row_height);
            if (bottom < band.top()) continue;
            if (pass == 0) {
                p.fillRect(QRectF(band.left(), top, band.width(), f.header_height), kHeader);
                p.setPen(kGanttInk);
                p.setFont(bold(font));
                p.drawText(QRectF(f.labels.left() + 6, top, f.labels.width() - 10, f.header_height),
                           Qt::AlignVCenter | Qt::AlignLeft, groupHeading(m, g, static_cast<int>(gi)));
                p.setFont(font);
            }
            if (g.collapsed) {
                if (pass == 1) {
                    p.save();
                    p.setClipRect(f.lanes.intersected(band));
                    const QRectF row(f.lanes.left(), top + 2, f.lanes.width(), f.header_height - 4);
                    for (int l = g.first_lane; l < g.first_lane + g.lane_count; ++l) paintLane(p, m, l, row, s, fm, true);
                    p.restore();
                }
                continue;
            }
            for (int l = g.first_lane; l < g.first_lane + g.lane_count; ++l) {
                const double y = band.top() + *layout.laneTop(l) - s.scroll;
                if (y + f.row_height < band.top() || y > band.bottom()) continue;
                if (s.whole_rows && y + f.row_height > band.bottom() + 1) break;
                if (pass == 1) {
                    p.save();
                    p.setClipRect(f.lanes.intersected(band));
                    paintLane(p, m, l, QRectF(f.lanes.left(), y, f.lanes.width(), f.row_height), s, fm);
                    p.restore();
                    continue;
                }
                if (m.lanes()[static_cast<size_t>(l)].resource == s.selected_resource)
                    p.fillRect(QRectF(band.left(), y, band.width(), f.row_height), kSelectedRow);
                else if ((l - g.first_lane) % 2 == 1)
                    p.fillRect(QRectF(band.left(), y, band.width(), f.row_height), kAltRow);
                // A device over its memory capacity: its name in red (docs/methods/flexflow.md#memory-per-device).
                const int res = m.lanes()[static_cast<size_t>(l)].resource;
                const bool over = m.input()->overMemory(res);
                p.setPen(over ? kGanttOverMemory : kGanttInk);
                const QString name = q(m.lanes()[static_cast<size_t>(l)].name);
                p.drawText(QRectF(f.labels.left() + 20, y, f.labels.width() - 26, f.row_height),
                           Qt::AlignVCenter | Qt::AlignLeft, fm.elidedText(name, Qt::ElideMiddle, f.labels.width() - 26));
            }
        }
    }
    p.setClipRect(f.lanes);
    if (s.show_critical) paintCriticalLinks(p, m, layout, f, s);
    p.setClipping(false);
    paintAxis(p, f, s.axis, font);
    p.setPen(kRule);
    p.drawLine(f.labels.topRight() + QPoint(1, 0), f.labels.bottomRight() + QPoint(1, 0));
    paintLegend(p, m, f, s, font);
    p.restore();
}

}  // namespace partita
