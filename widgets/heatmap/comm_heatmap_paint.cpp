// CommHeatmap's paint code: one routine for the screen and for PNG/SVG/PDF
// export. Every position comes from view::layoutHeatmap (tested headless).
#include <algorithm>

#include <QCheckBox>
#include <QPainter>

#include "widgets/common/qt_text.h"
#include "widgets/geometry/palette.h"
#include "widgets/geometry/ticks.h"
#include "widgets/heatmap/comm_heatmap_view.h"

namespace partita {

namespace {

const QColor kZero(222, 222, 222);                      // no traffic: outside the colour scale
const QColor kSelected = qcolor(view::okabeIto(6));     // vermillion, reads on every viridis colour
using comm_heatmap::kLabelPx;
using comm_heatmap::kTitlePx;
constexpr int kCellPx = 11;

QRectF box(const view::CellRect& c) { return {c.x, c.y, c.w, c.h}; }

}  // namespace

void CommHeatmap::paintFigure(QPainter& painter, const QRect& area) const { paint(painter, area, false); }

void CommHeatmap::paintEvent(QPaintEvent*) {
    QPainter p(this);
    paint(p, rect(), true);
}

void CommHeatmap::paint(QPainter& p, const QRect& area, bool interactive) const {
    p.save();
    p.fillRect(area, palette().color(QPalette::Base));
    const QColor ink = palette().color(QPalette::Text);
    p.setPen(ink);
    p.setFont(pxFont(kLabelPx));
    if (matrix_.empty()) {
        p.drawText(area, Qt::AlignCenter, tr("No communication to show: simulate a strategy or run a hierarchical method."));
        p.restore();
        return;
    }
    const view::HeatmapFrame f = frameIn(area);
    const Shown& s = shown(f);

    // Heading: title and total on the left; the "no traffic" key on the right (left of the log box on screen).
    const QFontMetricsF fm(pxFont(kLabelPx)), tfm(pxFont(kTitlePx, true));
    const double base = area.top() + 6 + tfm.ascent();
    double right = area.right() - 8 - (interactive && !log_box_->isHidden() ? log_box_->width() + 16 : 0);
    if (std::find(s.bytes.begin(), s.bytes.end(), 0.0) != s.bytes.end()) {
        const QString key = tr("no traffic");
        right -= fm.horizontalAdvance(key);
        p.drawText(QPointF(right, base), key);
        right -= 20;
        p.fillRect(QRectF(right, base - fm.ascent() + 1, 14, fm.ascent() - 1), kZero);
        right -= 12;
    }
    const QString total = tr("total %1").arg(barLabel(matrix_.total()));
    const double total_w = fm.horizontalAdvance(total);
    p.setFont(pxFont(kTitlePx, true));
    const double title_w = std::max(0.0, right - area.left() - 8 - total_w - 16);
    const QString title = tfm.elidedText(title_, Qt::ElideRight, title_w);
    p.drawText(QPointF(area.left() + 8, base), title);
    p.setFont(pxFont(kLabelPx));
    p.drawText(QPointF(area.left() + 8 + tfm.horizontalAdvance(title) + 16, base), total);

    paintCells(p, f, s, interactive);
    paintLabels(p, area, f, s);
    paintBar(p, f, s);
    p.restore();
}

void CommHeatmap::paintCells(QPainter& p, const view::HeatmapFrame& f, const Shown& s, bool interactive) const {
    const view::HeatmapLayout layout(s.rows, s.cols, f.plot.x, f.plot.y, f.plot.w, f.plot.h);
    const double cw = f.plot.w / s.cols, ch = f.plot.h / s.rows;
    const bool gaps = cw >= 10 && ch >= 10;  // white hairlines between big cells; none between small ones
    // Big cells (a level x layer grid) read like the grid view: larger text, the split above the value.
    p.setFont(pxFont(ch >= 40 && cw >= 60 ? kCellPx + 2 : kCellPx));
    const QFontMetricsF fm(p.font());
    const bool tags = matrix_.cell_tags.size() == matrix_.bytes.size() && s.rows == matrix_.rows && s.cols == matrix_.cols;
    for (int r = 0; r < s.rows; ++r)
        for (int c = 0; c < s.cols; ++c) {
            const double v = s.bytes[static_cast<size_t>(r * s.cols + c)];
            const view::Rgb rgb = v > 0 ? view::viridis(s.scale.normalize(v)) : view::Rgb{222, 222, 222};
            const QRectF cell = box(layout.cell(r, c));
            p.fillRect(gaps ? cell.adjusted(0.5, 0.5, -0.5, -0.5) : cell.adjusted(0, 0, 0.5, 0.5),
                       v > 0 ? qcolor(rgb) : kZero);
            if (v <= 0) continue;
            // The value in the cell when it fits on one line, or as number over unit on two.
            QString text = barLabel(v);
            if (fm.horizontalAdvance(text) + 6 > cw) text.replace(' ', '\n');
            if (tags) text = QString::fromStdString(matrix_.cell_tags[static_cast<size_t>(r * s.cols + c)]) + '\n' + text;
            const QRectF need = fm.boundingRect(QRectF(0, 0, 1e4, 1e4), Qt::AlignCenter, text);
            if (need.width() + 6 <= cw && need.height() + 2 <= ch) {
                p.setPen(qcolor(view::textOn(rgb)));
                p.drawText(cell, Qt::AlignCenter, text);
            }
        }
    auto outline = [&](const std::pair<int, int>& src, const QColor& c, double width) {
        const QRectF cell = box(layout.cell(src.first * s.rows / matrix_.rows, src.second * s.cols / matrix_.cols));
        const double in = std::min({width / 2, cell.width() / 4, cell.height() / 4});
        QPen pen(c, width);
        pen.setJoinStyle(Qt::MiterJoin);
        p.setPen(pen);
        p.setBrush(Qt::NoBrush);
        p.drawRect(cell.adjusted(in, in, -in, -in));
    };
    if (selected_) outline(*selected_, kSelected, 3);
    if (interactive && hover_) outline(*hover_, palette().color(QPalette::Text), 1.5);
}

void CommHeatmap::paintLabels(QPainter& p, const QRect& area, const view::HeatmapFrame& f, const Shown& s) const {
    const view::HeatmapLayout layout(s.rows, s.cols, f.plot.x, f.plot.y, f.plot.w, f.plot.h);
    p.setPen(palette().color(QPalette::Text));
    p.setFont(pxFont(kLabelPx));
    const QFontMetricsF fm(p.font());
    const double line = fm.height();
    // Row labels, right-aligned against the cells, every row_stride-th row.
    for (int r = 0; r < s.rows; r += f.row_stride) {
        const view::CellRect c = layout.cell(r, 0);
        p.drawText(QRectF(area.left(), c.y + c.h / 2 - line / 2, f.plot.x - 6 - area.left(), line),
                   Qt::AlignRight | Qt::AlignVCenter, label(true, r, s.rows));
    }
    // Column labels above the cells: across when they fit, else upwards.
    for (int c = 0; c < s.cols; c += f.col_stride) {
        const view::CellRect cell = layout.cell(0, c);
        const double x = cell.x + cell.w / 2;
        if (f.rotate_cols) {
            p.save();
            p.translate(x + (fm.ascent() - fm.descent()) / 2, f.plot.y - 4);
            p.rotate(-90);
            p.drawText(QPointF(0, 0), label(false, c, s.cols));
            p.restore();
        } else {
            const double w = cell.w * f.col_stride;
            p.drawText(QRectF(x - w / 2, f.plot.y - line - 4, w, line), Qt::AlignHCenter | Qt::AlignBottom,
                       label(false, c, s.cols));
        }
    }
    // Axis titles: the column title on the line above the column labels, the row title rotated on the left.
    const bool devices = matrix_.kind == CommMatrix::Kind::Devices;
    const QString col_title = devices ? tr("to device (receiver)") : tr("layer");
    const QString row_title = devices ? tr("from device (sender)") : tr("level (H1 = top split)");
    p.setFont(pxFont(kLabelPx, true));
    const QRectF title_line(f.plot.x, f.col_labels_top - line * 1.3, f.plot.w, line);
    p.drawText(title_line, Qt::AlignHCenter | Qt::AlignVCenter, col_title);
    p.save();
    p.translate(f.row_title_x, f.plot.y + f.plot.h / 2);
    p.rotate(-90);
    p.drawText(QRectF(-f.plot.h / 2, 0, f.plot.h, line), Qt::AlignCenter, row_title);
    p.restore();
    p.setFont(pxFont(kLabelPx));
    // The bar's title sits a half line higher than the column labels: its top tick label is centred on the bar's top.
    p.drawText(QRectF(f.bar.x - 4, f.plot.y - line * 1.5 - 4, area.right() - f.bar.x, line), Qt::AlignLeft | Qt::AlignBottom,
               log_ ? tr("bytes (log)") : tr("bytes"));
}

void CommHeatmap::paintBar(QPainter& p, const view::HeatmapFrame& f, const Shown& s) const {
    const QRectF bar(f.bar.x, f.bar.y, f.bar.w, f.bar.h);
    const int steps = std::max(2, static_cast<int>(bar.height()));
    for (int i = 0; i < steps; ++i) {
        const double t = 1.0 - static_cast<double>(i) / (steps - 1);
        p.fillRect(QRectF(bar.left(), bar.top() + i * bar.height() / steps, bar.width(), bar.height() / steps + 1),
                   qcolor(view::viridis(t)));
    }
    const QColor ink = palette().color(QPalette::Text);
    p.setPen(ink);
    p.setBrush(Qt::NoBrush);
    p.drawRect(bar);
    p.setFont(pxFont(kLabelPx));
    const QFontMetricsF fm(p.font());
    const int max_ticks = std::max(2, static_cast<int>(bar.height() / (fm.height() * 3)));
    const view::ColorScale& sc = s.scale;
    std::vector<view::Tick> ticks = sc.log ? view::logTicks(sc.lo, sc.hi, max_ticks) : view::niceTicks(sc.lo, sc.hi, max_ticks);
    if (ticks.empty()) ticks = {{sc.lo, {}}, {sc.hi, {}}};  // a one-value scale
    double last_y = 1e300;
    for (const view::Tick& t : ticks) {
        const double y = bar.bottom() - sc.normalize(t.value) * bar.height();
        if (std::abs(last_y - y) < fm.height()) continue;  // never overlap (equal ends of a flat scale)
        last_y = y;
        p.drawLine(QPointF(bar.right(), y), QPointF(bar.right() + 4, y));
        p.drawText(QRectF(bar.right() + 6, y - fm.height() / 2, 200, fm.height()), Qt::AlignLeft | Qt::AlignVCenter,
                   barLabel(t.value));
    }
}

}  // namespace partita
