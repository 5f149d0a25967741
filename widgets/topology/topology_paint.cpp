// The topology view's painting: the band (title, legend) and the graph, one routine for the
// screen and figure export.
#include <algorithm>
#include <cmath>

#include <QFontMetricsF>
#include <QLinearGradient>
#include <QPainter>

#include "widgets/common/graph_paint.h"
#include "widgets/common/qt_text.h"
#include "widgets/geometry/gantt_model.h"  // timeText
#include "widgets/geometry/palette.h"
#include "widgets/topology/topology_view.h"

namespace partita {

namespace {
constexpr double kPaintMargin = 10, kSwatch = 14, kRampW = 110, kLineSwatch = 28;
// Named for this file: a unity batch may hold gantt_paint.cpp, which has its own kInk and kMuted.
const QColor kTopoInk(40, 40, 40), kTopoMuted(100, 100, 100);
const QColor kSelect(0, 114, 178), kTopoOverMemory(200, 30, 30);
const QColor kIdleEdge(222, 222, 222);  // topology_view.cpp's kIdle  // Okabe-Ito blue, as the other views' selection
}  // namespace

// ---- the band ------------------------------------------------------------------------------------

std::vector<std::vector<int>> TopologyView::legendRows(double width) const {
    const QFontMetricsF fm(graphpaint::fonts(font()).legend);
    std::vector<std::vector<int>> rows(1);
    double x = kPaintMargin;
    for (size_t i = 0; i < legend_.size(); ++i) {
        const LegendItem& item = legend_[i];
        const double w = item.type == LegendItem::Type::Ramp
                             ? fm.horizontalAdvance(item.text + ": " + item.low) + kRampW + fm.horizontalAdvance(item.high) + 40
                             : (item.type == LegendItem::Type::Line ? kLineSwatch : kSwatch) + 6 +
                                   fm.horizontalAdvance(item.text) + 18;
        if (x + w > width - kPaintMargin && !rows.back().empty()) {
            rows.emplace_back();
            x = kPaintMargin;
        }
        rows.back().push_back(static_cast<int>(i));
        x += w;
    }
    return rows;
}

double TopologyView::headerHeight(double width) const {
    if (!topology_ || placement_.centre.empty()) return 0;
    const graphpaint::Fonts f = graphpaint::fonts(font());
    const double line = std::max(QFontMetricsF(f.legend).height(), kSwatch) + 6;
    return kPaintMargin / 2 + QFontMetricsF(f.title).height() + 4 + legendRows(width).size() * line + 6;
}

double TopologyView::paintHeader(QPainter& p, const QRectF& area) const {
    const double height = headerHeight(area.width());
    if (height <= 0) return 0;
    const graphpaint::Fonts f = graphpaint::fonts(font());
    const QFontMetricsF title(f.title), label(f.legend);
    p.fillRect(QRectF(area.left(), area.top(), area.width(), height), Qt::white);
    p.setPen(kTopoInk);
    p.setFont(f.title);
    const sim::Topology& t = *topology_;
    QString text = tr("%1 — %2 devices, %3 switches, %4 links (%5 drawn) · %6")
                       .arg(q(t.name))
                       .arg(t.deviceCount())
                       .arg(t.switches.size())
                       .arg(t.links.size())
                       .arg(edges_.size())
                       .arg(q(placement_.description));
    if (result_) text += tr(" · simulated: makespan %1").arg(q(view::timeText(load_.makespan_s)));
    QRectF title_box(area.left() + kPaintMargin, area.top() + kPaintMargin / 2, area.width() - 2 * kPaintMargin, title.height());
    // A strategy that does not fit: the note in red at the right, the title elided before it.
    const QString note = memoryNote();
    if (!note.isEmpty()) {
        const QString shown = title.elidedText(note, Qt::ElideRight, title_box.width() * 0.7);
        p.setPen(kTopoOverMemory);
        p.drawText(title_box, Qt::AlignRight | Qt::AlignVCenter, shown);
        p.setPen(kTopoInk);
        title_box.setRight(title_box.right() - title.horizontalAdvance(shown) - 16);
    }
    p.drawText(title_box, Qt::AlignLeft | Qt::AlignVCenter, title.elidedText(text, Qt::ElideRight, title_box.width()));
    title_box.setRight(area.right() - kPaintMargin);
    const double line = std::max(label.height(), kSwatch) + 6;
    double y = title_box.bottom() + 4;
    p.setFont(f.legend);
    for (const auto& row : legendRows(area.width())) {
        double x = area.left() + kPaintMargin;
        for (int i : row) {
            const LegendItem& item = legend_[static_cast<size_t>(i)];
            const double cy = y + line / 2;
            if (item.type == LegendItem::Type::Ramp) {
                const QString caption = item.text + ": " + item.low;
                p.setPen(kTopoInk);
                p.drawText(QRectF(x, y, label.horizontalAdvance(caption) + 1, line), Qt::AlignLeft | Qt::AlignVCenter, caption);
                x += label.horizontalAdvance(caption) + 6;
                QLinearGradient ramp(x, 0, x + kRampW, 0);
                for (int k = 0; k <= 8; ++k) {
                    const view::Rgb c = view::viridis(k / 8.0);
                    ramp.setColorAt(k / 8.0, QColor(c.r, c.g, c.b));
                }
                p.setPen(Qt::NoPen);
                p.setBrush(ramp);
                p.drawRect(QRectF(x, cy - kSwatch / 2, kRampW, kSwatch));
                x += kRampW + 6;
                p.setPen(kTopoInk);
                p.drawText(QRectF(x, y, label.horizontalAdvance(item.high) + 1, line), Qt::AlignLeft | Qt::AlignVCenter,
                           item.high);
                x += label.horizontalAdvance(item.high) + 28;
                continue;
            }
            double sw = kSwatch;
            if (item.type == LegendItem::Type::Line) {
                sw = kLineSwatch;
                p.setPen(QPen(item.colour, item.width, Qt::SolidLine, Qt::FlatCap));
                p.drawLine(QPointF(x, cy), QPointF(x + sw, cy));
            } else if (item.type == LegendItem::Type::Switch) {
                p.setPen(QPen(item.colour.darker(150), 1));
                p.setBrush(item.colour);
                const QRectF r(x, cy - kSwatch / 2, kSwatch, kSwatch);
                p.drawPolygon(QPolygonF({QPointF(r.left(), cy), QPointF(r.left() + 4, r.top()), QPointF(r.right() - 4, r.top()),
                                         QPointF(r.right(), cy), QPointF(r.right() - 4, r.bottom()),
                                         QPointF(r.left() + 4, r.bottom())}));
            } else {
                p.setPen(QPen(item.colour.darker(140), 1));
                p.setBrush(item.colour);
                p.drawRoundedRect(QRectF(x, cy - kSwatch / 2, kSwatch, kSwatch), 3, 3);
            }
            p.setPen(kTopoInk);
            const double w = label.horizontalAdvance(item.text) + 1;
            p.drawText(QRectF(x + sw + 6, y, w, line), Qt::AlignLeft | Qt::AlignVCenter, item.text);
            x += sw + 6 + w + 17;
        }
        y += line;
    }
    p.setPen(QPen(QColor(220, 220, 220), 1));
    p.drawLine(QPointF(area.left(), area.top() + height - 0.5), QPointF(area.right(), area.top() + height - 0.5));
    return height;
}

// ---- the graph -----------------------------------------------------------------------------------

void TopologyView::paintScene(QPainter& p, bool interactive) const {
    const graphpaint::Fonts f = graphpaint::fonts(font());
    p.setRenderHint(QPainter::Antialiasing, true);
    // Only what the window shows is drawn; a fitted large machine (boxes under 24 px wide) drops
    // the links inside each node (a blur at that size) until zoomed in.
    const QRectF visible = p.clipBoundingRect().isEmpty() ? scene_ : p.clipBoundingRect();
    const double px = std::abs(p.transform().m11());
    const bool inner_links = placement_.shape != view::TopologyShape::Nodes || box(0).width() * px >= 24;
    const bool load = colouring() != Colouring::Kind;
    // Widths are window pixels: zoomed out, they narrow with the drawing (to a third), so a node's
    // many links stay apart.
    const double thin = std::clamp(px, 0.35, 1.0);
    // Edges: a dark casing under a load colour, so the light end of viridis reads on white.
    const auto paintEdges = [&](bool under) {
        for (int pass = load ? 0 : 1; pass < 2; ++pass)
            for (size_t e = 0; e < paths_.size(); ++e) {
                if (static_cast<bool>(beneath_[e]) != under || !bounds_[e].intersects(visible)) continue;
                if (!under && !inner_links) continue;
                const double w = thin * edgeWidth(static_cast<int>(e));
                if (pass == 0 && edge_colours_[e] == kIdleEdge) continue;  // grey reads without a casing
                const QColor c = pass == 0 ? QColor(70, 70, 70) : edge_colours_[e];
                QPen pen = graphpaint::cosmeticPen(c, pass == 0 ? w + 2 : w);
                pen.setCapStyle(Qt::FlatCap);
                p.setPen(pen);
                p.setBrush(Qt::NoBrush);
                p.drawPath(paths_[e]);
                if (pass == 1 && !edges_[e].duplex()) {
                    // The arrowhead in widget pixels, whatever the zoom.
                    const QPointF tip = tips_[e], base = bases_[e];
                    const QLineF dir(tip, base);
                    const double scale = std::max(1e-9, px);
                    const double len = (9 + w) / scale, half = (4 + w / 2) / scale;
                    const QPointF u = (base - tip) / std::max(1e-9, dir.length());
                    const QPointF n(-u.y(), u.x());
                    p.setPen(Qt::NoPen);
                    p.setBrush(c);
                    p.drawPolygon(QPolygonF({tip, tip + u * len + n * half, tip + u * len - n * half}));
                }
            }
    };
    // Links between nodes run under the node boxes, which frame each node's devices and links.
    paintEdges(true);
    p.setFont(f.detail);
    const bool group_text = f.detail.pixelSize() * px >= 7;
    for (const Group& g : groups_) {
        if (!g.box.intersects(visible)) continue;
        p.setPen(QPen(QColor(200, 200, 200), 1, Qt::DashLine));
        p.setBrush(QColor(246, 247, 250));
        p.drawRoundedRect(g.box, 8, 8);
        if (group_text) {
            p.setPen(kTopoMuted);
            p.drawText(g.box.adjusted(8, 0, -8, -3), Qt::AlignLeft | Qt::AlignBottom, g.label);
        }
    }
    if (!group_text && !groups_.empty()) {
        // The node names in window pixels, where a box has room for them.
        p.save();
        const QTransform to_window = p.transform();
        p.resetTransform();
        QFont small = f.detail;
        small.setPixelSize(9);
        p.setFont(small);
        p.setPen(kTopoMuted);
        const QFontMetricsF fm(small);
        for (const Group& g : groups_) {
            const QRectF r = to_window.mapRect(g.box);
            if (r.width() < fm.horizontalAdvance(g.label) + 6 || r.height() < 2 * fm.height() || !g.box.intersects(visible))
                continue;
            p.drawText(r.adjusted(3, 0, -3, -1), Qt::AlignLeft | Qt::AlignBottom, g.label);
        }
        p.restore();
    }
    // The selected cable: a halo under everything else on it.
    if (const int sel = interactive ? edgeOfLink(selected_link_) : -1; sel >= 0) {
        QPen halo = graphpaint::cosmeticPen(kSelect, thin * edgeWidth(sel) + 8);
        halo.setCapStyle(Qt::RoundCap);
        p.setPen(halo);
        p.setBrush(Qt::NoBrush);
        p.drawPath(paths_[static_cast<size_t>(sel)]);
    }
    paintEdges(false);
    // Vertices: devices as boxes (name, kind), switches as grey hexagons.
    const bool text = graphpaint::textReadable(p, f);
    for (int v = 0; v < vertexCount(); ++v) {
        const QRectF r = box(v);
        if (!r.intersects(visible)) continue;
        const QColor fill = fills_[static_cast<size_t>(v)];
        const bool selected = interactive && v == selected_;
        const QPen border = selected           ? graphpaint::cosmeticPen(kSelect, 3)
                            : overMemory(v)    ? graphpaint::cosmeticPen(kTopoOverMemory, 3)
                                               : graphpaint::cosmeticPen(fill.darker(160), 1);
        if (isSwitch(v)) {
            const double cy = r.center().y(), k = 10;
            p.setPen(border);
            p.setBrush(fill);
            p.drawPolygon(QPolygonF({QPointF(r.left(), cy), QPointF(r.left() + k, r.top()), QPointF(r.right() - k, r.top()),
                                     QPointF(r.right(), cy), QPointF(r.right() - k, r.bottom()),
                                     QPointF(r.left() + k, r.bottom())}));
            if (text) {
                p.setPen(kTopoInk);
                p.setFont(f.detail);
                const QFontMetricsF fm(f.detail);
                p.drawText(r.adjusted(k, 0, -k, 0), Qt::AlignCenter,
                           fm.elidedText(q(topology_->vertexName(v)), Qt::ElideMiddle, r.width() - 2 * k));
            }
        } else {
            QStringList lines = vertexLines(v);
            graphpaint::drawNode(p, r, lines, fill, border, f, false);
            if (text) {
                const view::Rgb ink = view::textOn({static_cast<std::uint8_t>(fill.red()),
                                                    static_cast<std::uint8_t>(fill.green()),
                                                    static_cast<std::uint8_t>(fill.blue())});
                p.setPen(QColor(ink.r, ink.g, ink.b));
                const QFontMetricsF nm(f.name), dm(f.detail);
                const double top = r.center().y() - (nm.height() + dm.height() + 2) / 2;
                p.setFont(f.name);
                p.drawText(QRectF(r.left() + 3, top, r.width() - 6, nm.height()), Qt::AlignCenter,
                           nm.elidedText(lines[0], Qt::ElideMiddle, r.width() - 6));
                p.setFont(f.detail);
                p.drawText(QRectF(r.left() + 3, top + nm.height() + 2, r.width() - 6, dm.height()), Qt::AlignCenter,
                           dm.elidedText(lines[1], Qt::ElideRight, r.width() - 6));
            }
        }
    }
}

void TopologyView::paintAll(QPainter& p, const QRectF& area, double scale, QPointF offset, bool interactive) const {
    p.save();
    p.fillRect(area, Qt::white);
    if (!topology_ || placement_.centre.empty()) {
        p.setPen(kTopoMuted);
        p.drawText(area.adjusted(20, 20, -20, -20), Qt::AlignCenter | Qt::TextWordWrap, problem_);
        p.restore();
        return;
    }
    const double band = paintHeader(p, area);
    p.setClipRect(area.adjusted(0, band, 0, 0));
    p.translate(offset);
    p.scale(scale, scale);
    paintScene(p, interactive);
    p.restore();
}

void TopologyView::paintEvent(QPaintEvent*) {
    QPainter p(this);
    paintAll(p, rect(), scale_, offset_, true);
    paintOverview(p);
}

void TopologyView::paintOverviewScene(QPainter& p) const {
    for (size_t e = 0; e < paths_.size(); ++e) {
        p.setPen(graphpaint::cosmeticPen(edge_colours_[e], 1));
        p.drawPath(paths_[e]);
    }
    p.setPen(Qt::NoPen);
    for (int v = 0; v < vertexCount(); ++v) {
        p.setBrush(fills_[static_cast<size_t>(v)]);
        p.drawRect(box(v));
    }
}

QSize TopologyView::figureSize() const {
    if (scene_.isEmpty()) return {640, 400};
    const double s = std::min(1.0, 2400 / std::max(scene_.width(), scene_.height()));
    const double w = std::max(800.0, scene_.width() * s + 2 * kPaintMargin);
    return QSize(static_cast<int>(std::ceil(w)), static_cast<int>(std::ceil(headerHeight(w) + scene_.height() * s + 2 * kPaintMargin)));
}

void TopologyView::paintFigure(QPainter& painter, const QRect& area) const {
    const QRectF a = area;
    const QRectF g = a.adjusted(kPaintMargin, headerHeight(a.width()) + kPaintMargin, -kPaintMargin, -kPaintMargin);
    double s = 1;
    if (!scene_.isEmpty())
        s = std::min({1.0, g.width() / std::max(scene_.width(), 1.0), g.height() / std::max(scene_.height(), 1.0)});
    const QPointF offset = g.center() - scene_.center() * s;
    paintAll(painter, a, s, offset, false);
}

}  // namespace partita
