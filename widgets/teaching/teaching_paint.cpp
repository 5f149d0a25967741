// TeachingView's figure: one band per phase with the five block columns
// (boundary with l-1, layer l's L tensor, weights, R tensor, boundary with
// l+1), numbered arrows for what moves, and the numbers in a text column.
#include <algorithm>
#include <array>

#include <QPainter>

#include "core/util/format.h"
#include "widgets/teaching/teaching_paint_parts.h"
#include "widgets/teaching/teaching_view.h"

namespace partita {

namespace {

using namespace teaching;

// Column k of the five (boundary l-1, L tensor, weights, R tensor, boundary l+1).
struct Columns {
    double left = 0, width = 0, gap = 0;
    double x(int k) const { return left + k * (width + gap); }
};

QString splitWhat(Split s) {
    switch (s) {
    case Split::Batch: return QObject::tr("split the batch b");
    case Split::Input: return QObject::tr("split the input features C_in");
    case Split::Output: return QObject::tr("split the output features C_out");
    }
    return {};
}

}  // namespace

void TeachingView::paintFigure(QPainter& p, const QRect& area) const {
    const Style s;
    p.save();
    p.fillRect(area, Qt::white);
    p.setPen(s.ink);
    if (!teaching_) {
        p.setFont(s.head);
        p.drawText(area.adjusted(24, 0, -24, 0), Qt::AlignCenter | Qt::TextWordWrap, empty_text_);
        p.restore();
        return;
    }
    const TeachingCell& t = *teaching_;
    const CellExplanation& c = t.cell;
    const Split split = c.cell.split;
    const double rho = c.cell.ratio, bpe = t.bytes_per_element;
    const int levels = run_->grid.levels(), level = c.level;
    const QString hname = QStringLiteral("H%1").arg(level + 1);
    const double m = 14;
    const QRectF r = QRectF(area).adjusted(m, m, -m, -m);

    // Title: the cell, its choice, and which accelerators form the two groups.
    const int half = 1 << (levels - level - 1);
    const QString subarrays = level == 0 ? tr("the whole array") : tr("the first of %1 sub-arrays").arg(1 << level);
    p.setFont(s.title);
    p.drawText(QRectF(r.left(), r.top(), r.width(), 22), Qt::AlignLeft | Qt::AlignVCenter,
               tr("%1 at %2: %3%4, %5  ·  %6")
                   .arg(qs(c.layer), hname, QString::fromLatin1(splitTypeName(split)),
                        split == Split::Output ? QString() : QStringLiteral(" (%1)").arg(QString::fromLatin1(splitShortName(split))),
                        splitWhat(split), qs(defaultRunName(*run_))));
    p.setFont(s.body);
    const QString around = (c.previous.empty() ? tr("first layer") : tr("after %1 (%2)").arg(qs(c.previous), QString::fromLatin1(splitShortName(c.previous_split)))) +
                           QStringLiteral("  ·  ") +
                           (t.next ? tr("before %1 (%2)").arg(qs(t.next->layer), QString::fromLatin1(splitShortName(t.next->cell.split)))
                                   : tr("last layer"));
    p.drawText(QRectF(r.left(), r.top() + 22, r.width(), 18), Qt::AlignLeft | Qt::AlignVCenter,
               tr("Groups at %1 (%2): A = A0–A%3 (share α = %4), B = A%5–A%6  ·  %7")
                   .arg(hname, subarrays).arg(half - 1).arg(qs(formatNumber(rho))).arg(half).arg(2 * half - 1).arg(around));

    // Bands: header row of column names, three phases, two footer lines.
    const double text_w = std::min(370.0, r.width() * 0.3), label_w = 150, head_h = 62, foot_h = 40;
    const double band_h = (r.height() - head_h - foot_h) / 3;
    Columns col;
    const double blocks_w = r.width() - label_w - text_w - 16;
    col.width = std::min(blocks_w / 6.6, band_h - 60);
    col.gap = (blocks_w - 5 * col.width) / 4;
    col.left = r.left() + label_w;
    const QString colnames[5] = {c.previous.empty() ? tr("(no l-1)") : tr("l-1 | l  (%1)").arg(qs(c.previous)),
                                 tr("layer l in"), tr("weights"), tr("layer l out"),
                                 t.next ? tr("l | l+1  (%1)").arg(qs(t.next->layer)) : tr("(no l+1)")};
    p.setFont(s.small);
    p.setPen(s.mute);
    for (int k = 0; k < 5; ++k)
        p.drawText(QRectF(col.x(k) - col.gap / 2, r.top() + 42, col.width + col.gap, 16), Qt::AlignCenter, colnames[k]);
    p.drawText(QRectF(r.right() - text_w, r.top() + 42, text_w, 16), Qt::AlignLeft | Qt::AlignVCenter,
               tr("what group A receives (%1 B per element)").arg(qs(formatNumber(bpe))));

    const Style faded = s.faded();
    for (int ph = 0; ph < 3; ++ph) {
        const Phase phase = static_cast<Phase>(ph);
        const bool active = phase == phase_;
        const QRectF band(r.left(), r.top() + head_h + ph * band_h, r.width(), band_h);
        if (active) p.fillRect(band.adjusted(-6, 2, 6, -2), s.band);
        const Style& st = active ? s : faded;  // other phases recede, still opaque
        const auto moves = t.movesIn(phase);
        Band bd = bandFor(t, phase);
        auto& blk = bd.blk;
        const bool* present = bd.present;
        const QString& eq = bd.eq;
        int arrow_badge[2] = {0, 0};  // boundary l-1 | l, boundary l | l+1
        for (size_t i = 0; i < moves.size(); ++i) {
            const TeachingMove& mv = *moves[i];
            const int n = int(i) + 1;
            if (mv.where == Where::Intra) {
                blk[phase == Phase::Forward ? 3 : phase == Phase::Backward ? 1 : 2].badge = n;
                continue;
            }
            // The receiving block is the consumer's side of the boundary.
            const bool fwd = phase == Phase::Forward, before = mv.where == Where::Before;
            const int target = before ? (fwd ? 1 : 0) : (fwd ? 4 : 3);
            for (int g : {0, 1}) blk[size_t(target)].missing[g] = missingRegions(mv.from, mv.to, rho, g);
            arrow_badge[before ? 0 : 1] = n;
        }
        // Phase label and equation.
        p.setPen(st.ink);
        p.setFont(st.head);
        p.drawText(QRectF(band.left(), band.top() + 10, label_w - 10, 20), Qt::AlignLeft | Qt::AlignVCenter,
                   QStringLiteral("%1  %2").arg(ph + 1).arg(tr(phaseName(phase))));
        p.setFont(st.body);
        p.drawText(QRectF(band.left(), band.top() + 32, label_w - 10, 18), Qt::AlignLeft | Qt::AlignVCenter, eq);
        const double moved = t.phaseElements(phase);
        p.drawText(QRectF(band.left(), band.top() + 54, label_w - 10, 36), Qt::AlignLeft | Qt::TextWordWrap,
                   moved == 0 ? tr("nothing moves")
                              : tr("%1 elements\n%2").arg(qs(withCommas(moved)), qs(withPrefix(moved * bpe, "B"))));
        // Blocks, operators and boundary arrows.
        const double top = band.top() + (band_h - col.width) / 2 + 4;
        for (int k = 0; k < 5; ++k)
            if (present[k]) drawBlock(p, QRectF(col.x(k), top, col.width, col.width), blk[size_t(k)], rho, st);
        const double mid = top + col.width / 2;
        p.setPen(st.ink);
        p.setFont(QFont(st.head.family(), 15));
        const QString ops[2] = {phase == Phase::Forward ? "⊗" : phase == Phase::Backward ? "⇐" : "→",
                                phase == Phase::Forward ? "⇒" : phase == Phase::Backward ? "⊗" : "←"};
        for (int k : {1, 2})
            p.drawText(QRectF(col.x(k) + col.width, mid - 14, col.gap, 28), Qt::AlignCenter, ops[k - 1]);
        const bool back = phase == Phase::Backward;
        if (present[0]) {
            const QPointF a(col.x(0) + col.width + 4, mid), z(col.x(1) - 4, mid);
            drawArrow(p, back ? z : a, back ? a : z, arrow_badge[0] > 0, arrow_badge[0], st);
        }
        if (present[4]) {
            const QPointF a(col.x(3) + col.width + 4, mid), z(col.x(4) - 4, mid);
            drawArrow(p, back ? z : a, back ? a : z, arrow_badge[1] > 0, arrow_badge[1], st);
        }
        // The numbered exchanges with formula and this run's numbers.
        const QRectF text(r.right() - text_w, band.top() + 8, text_w, band_h - 12);
        double y = text.top();
        if (moves.empty()) {
            p.setFont(st.body);
            p.setPen(st.mute);
            p.drawText(QRectF(text.left(), y, text.width(), 18), Qt::AlignLeft, tr("no exchange in this phase"));
        }
        for (size_t i = 0; i < moves.size(); ++i) {
            const Transfer& tr_ = moves[i]->transfer;
            drawBadge(p, QPointF(text.left() + 9, y + 9), int(i) + 1, st);
            const QString what = moves[i]->where == Where::Intra
                                     ? qs(tr_.reason)
                                     : tr("%1: %2 → %3 across %4").arg(qs(tr_.tensor), QString::fromLatin1(layoutName(moves[i]->from)),
                                                                      QString::fromLatin1(layoutName(moves[i]->to)), QString::fromLatin1(whereName(moves[i]->where)));
            const QString body = what + QStringLiteral("\n") + qs(tr_.formula) + QStringLiteral("\n= %1 elements · %2")
                                     .arg(qs(withCommas(tr_.elements)), qs(withPrefix(tr_.elements * bpe, "B")));
            p.setPen(st.ink);
            p.setFont(st.small);
            const QRectF box(text.left() + 24, y, text.width() - 24, text.bottom() - y);
            const QRectF used = p.boundingRect(box, Qt::AlignLeft | Qt::TextWordWrap, body);
            p.drawText(box, Qt::AlignLeft | Qt::TextWordWrap, body);
            y = used.bottom() + 6;
        }
    }
    // Footer: the legend and what the amounts mean.
    const double fy = r.bottom() - foot_h + 6;
    p.setFont(s.small);
    double x = r.left();
    auto swatch = [&](const QColor& under, const QColor& lines, double spacing, const QString& label) {
        p.fillRect(QRectF(x, fy + 2, 14, 12), under);
        if (spacing > 0) hatch(p, QRectF(x, fy + 2, 14, 12), lines, spacing);
        p.setPen(s.ink);
        p.setBrush(Qt::NoBrush);
        p.drawRect(QRectF(x, fy + 2, 14, 12));
        const double w = p.fontMetrics().horizontalAdvance(label);
        p.drawText(QRectF(x + 18, fy, w + 4, 16), Qt::AlignLeft | Qt::AlignVCenter, label);
        x += 18 + w + 18;
    };
    swatch(s.group[0], s.ink, 0, tr("group A"));
    swatch(s.group[1], s.ink, 0, tr("group B"));
    swatch(Qt::white, s.ink, 6, tr("received from the other group"));
    swatch(s.group[0], QColor(255, 255, 255, 170), 4, tr("Σ partial sums, summed by exchange"));
    p.drawText(QRectF(x, fy, r.right() - x, 16), Qt::AlignLeft | Qt::AlignVCenter, tr("stacked: both groups hold a full copy"));
    p.setPen(s.mute);
    p.drawText(QRectF(r.left(), fy + 18, r.width(), 16), Qt::AlignLeft | Qt::AlignVCenter,
               tr("Elements one group receives at one split of %1. The grid charges l-1 | l and inside l to %2 (%3 elements)%4.")
                   .arg(hname, qs(c.layer), qs(withCommas(t.chargedHere())),
                        t.next ? tr(", l | l+1 to %1").arg(qs(t.next->layer)) : QString()));
    p.restore();
}

}  // namespace partita
