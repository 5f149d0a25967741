#include "widgets/teaching/teaching_paint_parts.h"

#include <QPainterPath>

#include "core/util/format.h"
#include "widgets/common/qt_text.h"
#include "widgets/geometry/palette.h"

namespace partita::teaching {

namespace {


QRectF sub(const QRectF& r, const Region& g) {
    return {r.left() + g.x0 * r.width(), r.top() + g.y0 * r.height(), (g.x1 - g.x0) * r.width(),
            (g.y1 - g.y0) * r.height()};
}

QString dims(double rows, double elements) {
    if (rows <= 0) return {};
    return QStringLiteral("%1 × %2").arg(qs(withCommas(rows)), qs(withCommas(elements / rows)));
}

}  // namespace

QString qs(const std::string& s) { return QString::fromStdString(s); }

Style::Style() : group{qcolor(view::okabeIto(1)), qcolor(view::okabeIto(5))} {
    title.setPointSizeF(12.5);
    title.setBold(true);
    head.setPointSizeF(10);
    head.setBold(true);
    body.setPointSizeF(9);
    small.setPointSizeF(8.5);
}

Style Style::faded() const {
    Style f = *this;
    auto pale = [](const QColor& c) {
        return QColor((c.red() + 2 * 255) / 3, (c.green() + 2 * 255) / 3, (c.blue() + 2 * 255) / 3);
    };
    for (auto& g : f.group) g = pale(g);
    f.ink = mute;
    f.mute = pale(mute);
    return f;
}

void hatch(QPainter& p, const QRectF& r, const QColor& colour, double spacing) {
    p.save();
    p.setClipRect(r, Qt::IntersectClip);
    p.setPen(QPen(colour, 1.2));
    for (double d = -r.height(); d < r.width(); d += spacing)
        p.drawLine(QPointF(r.left() + d, r.bottom()), QPointF(r.left() + d + r.height(), r.top()));
    p.restore();
}

void drawBadge(QPainter& p, QPointF c, int n, const Style& s) {
    p.setPen(Qt::NoPen);
    p.setBrush(s.ink);
    p.drawEllipse(c, 9, 9);
    p.setPen(Qt::white);
    p.setFont(s.small);
    p.drawText(QRectF(c.x() - 9, c.y() - 9, 18, 18), Qt::AlignCenter, QString::number(n));
}

void drawBlock(QPainter& p, const QRectF& r, const Block& b, double rho, const Style& s) {
    const double off = 7;  // a replicated tensor is two offset copies
    auto received = [&](const QRectF& box, int group) {
        for (const auto& m : b.missing[group]) hatch(p, sub(box, m), s.ink);
    };
    p.setPen(QPen(s.ink, 1));
    if (b.layout == Layout::Full) {
        const QRectF back(r.left() + off, r.top(), r.width() - off, r.height() - off);
        const QRectF front(r.left(), r.top() + off, r.width() - off, r.height() - off);
        for (int g : {1, 0}) {
            const QRectF box = g ? back : front;
            p.setBrush(s.group[g]);
            p.drawRect(box);
            if (b.partial) hatch(p, box, QColor(255, 255, 255, 170), 4);
            received(box, g);
            p.setBrush(Qt::NoBrush);
            p.drawRect(box);
        }
        if (b.partial) {
            p.setFont(QFont(s.head.family(), 16, QFont::Bold));
            p.setPen(Qt::white);
            p.drawText(front, Qt::AlignCenter, QStringLiteral("Σ"));
        }
    } else {
        for (int g : {0, 1}) {
            const QRectF part = sub(r, heldRegion(b.layout, rho, g));
            p.fillRect(part, s.group[g]);
            received(r, g);
        }
        p.setPen(QPen(s.ink, 1));
        p.setBrush(Qt::NoBrush);
        p.drawRect(r);
        const QRectF split = sub(r, heldRegion(b.layout, rho, 1));
        p.setPen(QPen(Qt::white, 2, Qt::DashLine));  // the cut between the groups
        if (b.layout == Layout::Rows) p.drawLine(split.topLeft(), split.topRight());
        else p.drawLine(split.topLeft(), split.bottomLeft());
    }
    p.setPen(s.ink);
    p.setFont(s.head);
    p.drawText(QRectF(r.left() - 20, r.top() - 20, r.width() + 40, 18), Qt::AlignHCenter | Qt::AlignBottom, b.name);
    p.setFont(s.small);
    p.drawText(QRectF(r.left() - 20, r.bottom() + 2, r.width() + 40, 16), Qt::AlignHCenter | Qt::AlignTop, b.dims);
    if (b.badge > 0) drawBadge(p, QPointF(r.right() - 2, r.top() + 2), b.badge, s);
}

void drawArrow(QPainter& p, QPointF a, QPointF b, bool moves, int badge, const Style& s) {
    p.setPen(QPen(moves ? s.ink : s.mute, moves ? 2.5 : 1, moves ? Qt::SolidLine : Qt::DotLine));
    p.drawLine(a, b);
    if (!moves) return;
    const double dir = b.x() > a.x() ? 1 : -1;
    QPainterPath head;
    head.moveTo(b);
    head.lineTo(b.x() - dir * 10, b.y() - 6);
    head.lineTo(b.x() - dir * 10, b.y() + 6);
    head.closeSubpath();
    p.fillPath(head, s.ink);
    drawBadge(p, QPointF((a.x() + b.x()) / 2, a.y() - 16), badge, s);
}

Band bandFor(const TeachingCell& t, Phase phase) {
    auto make = [](const char* name, const QString& dims, Layout layout, bool partial = false) {
        Block b;
        b.name = QString::fromUtf8(name);
        b.dims = dims;
        b.layout = layout;
        b.partial = partial;
        return b;
    };
    const CellExplanation& c = t.cell;
    const Split split = c.cell.split;
    const Layout w_layout = c.tensors[1].layout, in = inputLayout(split), out = outputLayout(split);
    const Layout prev_out = c.previous.empty() ? in : outputLayout(c.previous_split);
    const Layout next_in = t.next ? inputLayout(t.next->cell.split) : out;
    const double b = c.state.b, a_in = c.tensors[0].elements, a_w = c.tensors[1].elements, a_out = c.tensors[2].elements;
    const QString fl = dims(b, a_in), w = dims(a_w / c.state.d_out, a_w), fr = dims(b, a_out);
    Band band;
    band.present[0] = !c.previous.empty();
    band.present[4] = t.next.has_value();
    switch (phase) {
    case Phase::Forward:
        band.eq = QStringLiteral("F_l ⊗ W_l ⇒ F_l+1");
        band.blk = {make("F_l", fl, prev_out), make("F_l", fl, in), make("W_l", w, w_layout),
                    make("F_l+1", fr, split == Split::Input ? Layout::Full : out, split == Split::Input),
                    make("F_l+1", fr, next_in)};
        break;
    case Phase::Backward:
        band.eq = QStringLiteral("E_l ⇐ E_l+1 ⊗ W_lᵀ");
        band.blk = {make("E_l", fl, prev_out),
                    make("E_l", fl, split == Split::Output ? Layout::Full : in, split == Split::Output),
                    make("W_lᵀ", w, w_layout), make("E_l+1", fr, out), make("E_l+1", fr, next_in)};
        break;
    case Phase::Gradient:
        band.eq = QStringLiteral("ΔW_l = F_lᵀ ⊗ E_l+1");
        band.present[0] = band.present[4] = false;
        band.blk = {Block(), make("F_lᵀ", fl, in), make("ΔW_l", w, w_layout, split == Split::Batch),
                    make("E_l+1", fr, out), Block()};
        break;
    }
    return band;
}


}  // namespace partita::teaching
