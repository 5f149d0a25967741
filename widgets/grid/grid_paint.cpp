// GridView's paint routine, shared by the widget and figure export.
#include <algorithm>
#include <cmath>

#include <QFontMetricsF>
#include <QPainter>
#include <QPainterPath>

#include "core/util/format.h"
#include "widgets/common/qt_text.h"
#include "widgets/geometry/palette.h"
#include "widgets/grid/grid_view.h"

namespace partita {

namespace {

QRectF gridRectOf(const view::Box& b) { return {b.x, b.y, b.w, b.h}; }

view::Rgb splitRgb(Split s) { return view::splitColour(index(s)); }
const QColor kGridInk(40, 40, 40), kMuted(110, 110, 110), kRule(205, 205, 205);
const view::Rgb kDiffer = view::okabeIto(6);  // vermillion

// The "differs" mark: a white band under a dashed vermillion line, readable on every fill.
void paintDiffOutline(QPainter& p, const QRectF& r) {
    p.setBrush(Qt::NoBrush);
    p.setPen(QPen(Qt::white, 5));
    p.drawRect(r.adjusted(2.5, 2.5, -2.5, -2.5));
    QPen dashed(qcolor(kDiffer), 3, Qt::CustomDashLine, Qt::FlatCap, Qt::MiterJoin);
    dashed.setDashPattern({2.0, 1.2});
    p.setPen(dashed);
    p.drawRect(r.adjusted(2.5, 2.5, -2.5, -2.5));
}

// Shortest of: "3,901,560", "3.902 M", elided; whichever fits `width`.
QString fittedNumber(const QFontMetricsF& fm, double v, const QString& prefixed, double width) {
    const QString full = q(withCommas(std::round(v)));
    if (fm.horizontalAdvance(full) <= width) return full;
    if (fm.horizontalAdvance(prefixed) <= width) return prefixed;
    return fm.elidedText(prefixed, Qt::ElideRight, width);
}

}  // namespace

void GridView::paintGrid(QPainter& p, const QRect& area, bool interactive) const {
    p.save();
    p.setRenderHint(QPainter::Antialiasing, true);
    p.setRenderHint(QPainter::TextAntialiasing, true);
    p.fillRect(area, Qt::white);
    const Fonts f = fonts();
    if (!hasCells()) {
        p.setFont(f.label);
        p.setPen(kMuted);
        p.drawText(area, Qt::AlignCenter,
                   run_ ? tr("One accelerator: nothing to partition") : tr("Run a method to see its grid"));
        p.restore();
        return;
    }
    const view::GridGeometry g = geometryIn(area);
    p.setClipRect(area);
    paintMargins(p, g, f);
    paintCells(p, g, f, interactive);
    paintLegend(p, g, f);
    p.restore();
}

void GridView::paintCells(QPainter& p, const view::GridGeometry& g, const Fonts& f, bool interactive) const {
    const Grid& grid = run_->grid;
    // Narrow columns (VGG-E at ~600 px) take the smaller cell font instead of eliding.
    const bool narrow = QFontMetricsF(f.cell).horizontalAdvance(QStringLiteral("mp")) + 8 > g.cell_w - g.gap;
    const QFont& cell_font = narrow ? f.cell_small : f.cell;
    const QFontMetricsF cell_fm(cell_font), small_fm(f.small);
    const bool two_lines = g.cell_h - g.gap >= cell_fm.height() + small_fm.height() + 4;
    for (int h = 0; h < g.levels; ++h)
        for (int l = 0; l < g.layers; ++l) {
            const Cell c = grid.at(h, l);
            const QRectF r = gridRectOf(g.cell(h, l));
            const view::Rgb fill = splitRgb(c.split);
            p.setPen(Qt::NoPen);
            p.setBrush(qcolor(fill));
            p.drawRoundedRect(r, 3, 3);
            p.setPen(qcolor(view::textOn(fill)));
            QString name = QString::fromLatin1(splitShortName(c.split));
            if (c.ratio == 0.5) {
                p.setFont(cell_font);
                p.drawText(r, Qt::AlignCenter, cell_fm.elidedText(name, Qt::ElideRight, r.width() - 2));
            } else if (two_lines) {
                // AccPar: the first group's share under the split name.
                const double top = r.center().y() - (cell_fm.height() + small_fm.height()) / 2;
                p.setFont(cell_font);
                p.drawText(QRectF(r.x(), top, r.width(), cell_fm.height()), Qt::AlignCenter, name);
                p.setFont(f.small);
                p.drawText(QRectF(r.x(), top + cell_fm.height(), r.width(), small_fm.height()), Qt::AlignCenter,
                           small_fm.elidedText(q(fixed(c.ratio, 3)), Qt::ElideRight, r.width() - 2));
            } else {
                p.setFont(f.small);
                const QString text = name + " " + q(fixed(c.ratio, 3));
                p.drawText(r, Qt::AlignCenter, small_fm.elidedText(text, Qt::ElideRight, r.width() - 2));
            }
            if (cellDiffers(h, l)) paintDiffOutline(p, r);
        }
    // Read-only views (comparison) only mark the current cell while they have focus.
    if (!interactive || (!editable_ && !hasFocus())) return;
    // The current cell: a dark frame just outside the cell, heavier while the view has focus.
    const QRectF cur = gridRectOf(g.cell(current_level_, current_layer_));
    p.setBrush(Qt::NoBrush);
    const double w = hasFocus() ? 2.5 : 1.5;
    p.setPen(QPen(hasFocus() ? QColor(0, 0, 0) : QColor(90, 90, 90), w));
    p.drawRoundedRect(cur.adjusted(-w / 2 + 0.5, -w / 2 + 0.5, w / 2 - 0.5, w / 2 - 0.5), 3, 3);
}

void GridView::paintMargins(QPainter& p, const view::GridGeometry& g, const Fonts& f) const {
    const Evaluation& ev = run_->shown();
    const QFontMetricsF label_fm(f.label), small_fm(f.small), header_fm(f.header);

    if (g.title.h > 0) {
        // Title: the run on the left, its headline numbers on the right.
        const QString summary = titleSummary();
        p.setFont(f.label);
        p.setPen(kMuted);
        const double sw = label_fm.horizontalAdvance(summary);
        const QRectF t = gridRectOf(g.title).adjusted(0, 0, 0, -8);
        p.drawText(t, Qt::AlignRight | Qt::AlignVCenter, summary);
        p.setFont(f.title);
        p.setPen(kGridInk);
        const double room = std::max(0.0, t.width() - sw - 16);
        p.drawText(t.adjusted(0, 0, -sw - 16, 0), Qt::AlignLeft | Qt::AlignVCenter,
                   QFontMetricsF(f.title).elidedText(q(run_->name), Qt::ElideRight, room));
    }

    // Layer names: horizontal when they fit a column, else read bottom-up (rotated -90 degrees).
    p.setFont(f.header);
    p.setPen(kGridInk);
    const auto& layers = run_->inputs->layers.layers;
    for (int l = 0; l < g.layers; ++l) {
        const QRectF hr = gridRectOf(g.header(l));
        const QString name = q(layers[static_cast<size_t>(l)].name);
        if (!g.rotated_headers) {
            p.drawText(hr.adjusted(2, 0, -2, -4), Qt::AlignHCenter | Qt::AlignBottom,
                       header_fm.elidedText(name, Qt::ElideRight, hr.width() - 4));
            continue;
        }
        const double len = hr.height() - 8;
        p.save();
        p.translate(hr.center().x(), hr.bottom() - 4);
        p.rotate(-90);
        p.drawText(QRectF(0, -header_fm.height() / 2, len, header_fm.height()), Qt::AlignLeft | Qt::AlignVCenter,
                   header_fm.elidedText(name, Qt::ElideRight, len));
        p.restore();
    }
    p.setPen(kMuted);
    QString heading = sideHeading();
    if (header_fm.horizontalAdvance(heading) > g.side.w) heading.replace(QLatin1Char(' '), QLatin1Char('\n'));
    p.drawText(QRectF(g.side.x, g.headers.y, g.side.w, g.headers.h - 4), Qt::AlignRight | Qt::AlignBottom, heading);

    // Level labels and the per-level column.
    for (int h = 0; h < g.levels; ++h) {
        p.setFont(f.label);
        p.setPen(kGridInk);
        p.drawText(gridRectOf(g.rowLabel(h)).adjusted(0, 0, -8, 0), Qt::AlignRight | Qt::AlignVCenter,
                   QStringLiteral("H%1").arg(h + 1));
        const QRectF s = gridRectOf(g.sideCell(h));
        const QString comm = q(withCommas(std::round(ev.level_comm[static_cast<size_t>(h)])));
        const QString time = q(seconds(ev.level_time_s[static_cast<size_t>(h)]));
        if (compact_ || s.height() < label_fm.height() + small_fm.height()) {
            // One line: "3,901,560   2.4 ms".
            p.drawText(s.adjusted(0, 0, -small_fm.horizontalAdvance(time) - 10, 0), Qt::AlignRight | Qt::AlignVCenter,
                       comm);
            p.setFont(f.small);
            p.setPen(kMuted);
            p.drawText(s, Qt::AlignRight | Qt::AlignVCenter, time);
            continue;
        }
        const double top = s.center().y() - (label_fm.height() + small_fm.height()) / 2;
        p.drawText(QRectF(s.x(), top, s.width(), label_fm.height()), Qt::AlignRight | Qt::AlignVCenter, comm);
        p.setFont(f.small);
        p.setPen(kMuted);
        p.drawText(QRectF(s.x(), top + label_fm.height(), s.width(), small_fm.height()),
                   Qt::AlignRight | Qt::AlignVCenter, time);
    }

    if (g.totals.h <= 0) return;
    // Per-layer totals over the whole array, each with a bar scaled to the largest.
    const std::vector<double> totals = layerTotals();
    const double top = *std::max_element(totals.begin(), totals.end());
    p.setPen(QPen(kRule, 1));
    p.drawLine(QPointF(g.row_labels.x, g.totals.y - 2), QPointF(g.side.right(), g.totals.y - 2));
    const double text_h = label_fm.height();
    // Horizontal numbers sit above the bars; rotated ones hang from the top, bars below them.
    const double text_len = g.totals.h - (text_h + small_fm.height() + 8);
    const double bar_y = g.totals.y + (g.rotated_totals ? text_len + 8 : text_h + 5);
    for (int l = 0; l < g.layers; ++l) {
        const QRectF t = gridRectOf(g.totalCell(l));
        const double v = totals[static_cast<size_t>(l)];
        const double bar_w = top > 0 ? (t.width() - g.gap - 4) * v / top : 0;
        p.setPen(Qt::NoPen);
        p.setBrush(qcolor(view::okabeIto(5)));
        p.drawRect(QRectF(t.x() + 2, bar_y, std::max(bar_w, v > 0 ? 1.0 : 0.0), 4));
        p.setFont(f.small);
        p.setPen(kGridInk);
        if (!g.rotated_totals) {
            p.drawText(QRectF(t.x(), t.y() + 2, t.width(), text_h), Qt::AlignCenter,
                       fittedNumber(small_fm, v, shortNumber(v), t.width() - 4));
            continue;
        }
        p.save();
        p.translate(t.center().x(), t.y() + 4 + text_len);
        p.rotate(-90);
        p.drawText(QRectF(0, -small_fm.height() / 2, text_len, small_fm.height()), Qt::AlignRight | Qt::AlignVCenter,
                   shortNumber(v));
        p.restore();
    }
    p.setFont(f.label);
    p.setPen(kGridInk);
    p.drawText(QRectF(g.row_labels.x, g.totals.y + 2, g.row_labels.w - 8, text_h), Qt::AlignRight | Qt::AlignVCenter,
               tr("total"));
    QFont bold = f.label;
    bold.setBold(true);
    p.setFont(bold);
    const QRectF grand(g.side.x, g.totals.y + 2, g.side.w, text_h);
    p.drawText(grand, Qt::AlignRight | Qt::AlignVCenter, q(withCommas(std::round(ev.total_elements))));
    p.setFont(f.small);
    p.setPen(kMuted);
    p.drawText(grand.translated(0, text_h), Qt::AlignRight | Qt::AlignVCenter, tr("elements"));
}

void GridView::paintLegend(QPainter& p, const view::GridGeometry& g, const Fonts& f) const {
    const auto entries = legendEntries();
    const QFontMetricsF fm(f.label);
    p.setFont(f.label);
    for (size_t i = 0; i < entries.size() && i < g.legend_items.size(); ++i) {
        const QRectF slot = gridRectOf(g.legend_items[i]);
        const QRectF swatch(slot.x(), slot.center().y() - 8, 22, 16);
        if (entries[i].kind == LegendEntry::Swatch) {
            p.setPen(Qt::NoPen);
            p.setBrush(qcolor(splitRgb(static_cast<Split>(entries[i].colour))));
            p.drawRoundedRect(swatch, 2, 2);
        } else {
            p.setPen(Qt::NoPen);
            p.setBrush(QColor(235, 235, 235));
            p.drawRoundedRect(swatch, 2, 2);
            paintDiffOutline(p, swatch.adjusted(-2, -2, 2, 2));
        }
        p.setPen(kGridInk);
        p.drawText(QRectF(slot.x() + 28, slot.y(), slot.width() - 28, slot.height()), Qt::AlignLeft | Qt::AlignVCenter,
                   fm.elidedText(entries[i].text, Qt::ElideRight, slot.width() - 28 + 1));
    }
}

}  // namespace partita
