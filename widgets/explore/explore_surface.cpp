#include "widgets/explore/explore_surface.h"

#include <algorithm>
#include <cmath>

#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QToolTip>

#include "core/util/format.h"
#include "widgets/common/qt_text.h"
#include "widgets/geometry/palette.h"
#include "widgets/geometry/ticks.h"

namespace partita {

namespace {


QString digitString(int value, int radix, int count) {
    QString s(count, '0');
    for (int i = count - 1; i >= 0; --i, value /= radix) s[i] = QChar('0' + value % radix);
    return s;
}

const QColor kPeak = qcolor(view::okabeIto(6));   // vermillion
const QColor kHypar = Qt::white;
const QColor kExploreDp = qcolor(view::okabeIto(2));     // sky blue

}  // namespace

ExploreSurface::ExploreSurface(QWidget* parent) : QWidget(parent) {
    setMouseTracking(true);
    setMinimumSize(360, 300);
}

void ExploreSurface::setResult(std::shared_ptr<const ExploreResult> result, std::vector<std::string> layer_names) {
    result_ = std::move(result);
    layer_names_ = std::move(layer_names);
    hover_ = -1;
    recompute();
}

void ExploreSurface::setMetric(Metric metric) {
    metric_ = metric;
    recompute();
}

void ExploreSurface::setLogScale(bool log) {
    log_ = log;
    recompute();
}

double ExploreSurface::value(std::uint64_t code) const {
    return metric_ == Metric::PerfVsDp ? result_->perfVsDp(code) : result_->total_elements[code];
}

void ExploreSurface::recompute() {
    peaks_.clear();
    row_title_.clear();
    col_title_.clear();
    index_ = {};
    if (result_ && !result_->cells.empty()) {
        std::vector<std::pair<int, int>> cells;
        for (const CellRef& c : result_->cells) cells.push_back({c.level, c.layer});
        const int rows = view::surfaceRowDigits(cells);
        index_ = {result_->radix, rows, static_cast<int>(cells.size()) - rows};
        auto title = [&](int first, int count) {
            if (count == 0) return QString();
            const bool same_layer = std::all_of(cells.begin() + first, cells.begin() + first + count,
                                                [&](const auto& c) { return c.second == cells[size_t(first)].second; });
            QStringList parts;
            for (int i = first; i < first + count; ++i) {
                const auto [level, layer] = cells[static_cast<size_t>(i)];
                parts << (same_layer ? "H" + QString::number(level + 1) : q(layer_names_.at(size_t(layer))));
            }
            const auto [level, layer] = cells[static_cast<size_t>(first)];
            return same_layer && count > 1 ? q(layer_names_.at(size_t(layer))) + " at " + parts.join(", ")
                                           : "H" + QString::number(level + 1) + ": " + parts.join(", ");
        };
        row_title_ = title(0, rows);
        col_title_ = title(rows, index_.col_digits);
        std::vector<double> values(result_->size());
        for (std::uint64_t k = 0; k < values.size(); ++k) values[k] = value(k);
        peaks_ = view::bestCodes(values, metric_ == Metric::Communication);
        scale_ = view::ColorScale::fit(values, log_);
    }
    update();
}

QString ExploreSurface::rowLabel(int row) const { return digitString(row, index_.radix, index_.row_digits); }
QString ExploreSurface::colLabel(int col) const { return digitString(col, index_.radix, index_.col_digits); }

ExploreSurface::Frame ExploreSurface::frame(const QRect& area, const QFontMetricsF& fm) const {
    Frame f;
    const double line = fm.height();
    const double row_label_w = fm.horizontalAdvance(QString(std::max(index_.row_digits, 1), '0')) + 8;
    const double col_label_w = fm.horizontalAdvance(QString(std::max(index_.col_digits, 1), '0')) + 8;
    const double left = area.left() + line * 1.6 + row_label_w;   // rotated row title, then labels
    const double right = area.right() - 90;                        // colour bar and its labels
    const double top = area.top() + line * 2.6;                    // title and legend
    const double plot_w = std::max(1.0, right - left - 16);
    const int cols = std::max(index_.cols(), 1), rows = std::max(index_.rows(), 1);
    f.rotate_cols = plot_w / cols < col_label_w;
    const double bottom_labels = f.rotate_cols ? col_label_w : line + 4;
    const double bottom = area.bottom() - line * 1.6 - bottom_labels;
    f.plot = QRectF(left, top, plot_w, std::max(1.0, bottom - top));
    f.bar = QRectF(right - 4, top, 16, f.plot.height());
    // Label every k-th row/column so labels never overlap.
    const double cell_w = f.plot.width() / cols, cell_h = f.plot.height() / rows;
    const double need_w = f.rotate_cols ? line + 2 : col_label_w;
    f.label_every_col = std::max(1, static_cast<int>(std::ceil(need_w / cell_w)));
    f.label_every_row = std::max(1, static_cast<int>(std::ceil((line + 2) / cell_h)));
    return f;
}

QRectF ExploreSurface::cellRect(std::uint64_t code) const {
    if (!result_) return {};
    const Frame f = frame(rect(), QFontMetricsF(font()));
    const view::HeatmapLayout layout(index_.rows(), index_.cols(), f.plot.x(), f.plot.y(), f.plot.width(),
                                     f.plot.height());
    const auto [row, col] = index_.position(code);
    const view::CellRect c = layout.cell(row, col);
    return QRectF(c.x, c.y, c.w, c.h);
}

QString ExploreSurface::pointText(std::uint64_t code) const {
    const auto [row, col] = index_.position(code);
    QStringList notes;
    if (code == 0) notes << tr("dp on every explored cell");
    if (code == result_->base_code) notes << tr("HyPar's answer");
    if (std::find(peaks_.begin(), peaks_.end(), code) != peaks_.end())
        notes << (metric_ == Metric::PerfVsDp ? tr("fastest") : tr("least communication"));
    return tr("<b>%1 = %2</b><br><b>%3 = %4</b><br>performance %5× DP<br>total communication %6 elements<br>"
              "step time %7%8")
        .arg(row_title_.toHtmlEscaped(), rowLabel(row), col_title_.toHtmlEscaped(), colLabel(col))
        .arg(result_->perfVsDp(code), 0, 'f', 3)
        .arg(q(withCommas(result_->total_elements[code])), q(seconds(result_->time_step_s[code])))
        .arg(notes.isEmpty() ? QString() : "<br><i>" + notes.join(", ") + "</i>");
}

void ExploreSurface::paintFigure(QPainter& p, const QRect& area) const {
    p.save();
    p.fillRect(area, palette().color(QPalette::Base));
    p.setRenderHint(QPainter::Antialiasing, false);
    const QFontMetricsF fm(p.font());
    const QColor ink = palette().color(QPalette::Text);
    p.setPen(ink);
    if (!result_ || result_->cells.empty()) {
        p.drawText(area, Qt::AlignCenter, tr("No exploration yet: choose cells and press Explore."));
        p.restore();
        return;
    }
    const Frame f = frame(area, fm);
    const view::HeatmapLayout layout(index_.rows(), index_.cols(), f.plot.x(), f.plot.y(), f.plot.width(),
                                     f.plot.height());
    // Cells (slightly overlapping so no hairline gaps show between them).
    for (int r = 0; r < index_.rows(); ++r)
        for (int c = 0; c < index_.cols(); ++c) {
            const view::CellRect cr = layout.cell(r, c);
            p.fillRect(QRectF(cr.x, cr.y, cr.w + 0.5, cr.h + 0.5),
                       qcolor(view::viridis(scale_.normalize(value(index_.code(r, c))))));
        }
    // Markers: DP dashed, HyPar white, peaks vermillion (all of a tie).
    auto outline = [&](std::uint64_t code, const QColor& c, Qt::PenStyle style, double width, double inset) {
        const auto [r, col] = index_.position(code);
        const view::CellRect cr = layout.cell(r, col);
        QPen pen(c, width, style);
        pen.setJoinStyle(Qt::MiterJoin);
        p.setPen(pen);
        p.setBrush(Qt::NoBrush);
        const double in = std::min({inset, cr.w / 4, cr.h / 4});
        p.drawRect(QRectF(cr.x + in, cr.y + in, std::max(1.0, cr.w - 2 * in), std::max(1.0, cr.h - 2 * in)));
    };
    for (auto code : peaks_) outline(code, kPeak, Qt::SolidLine, 3, 1.5);
    outline(result_->base_code, kHypar, Qt::SolidLine, 2, 4.5);
    outline(0, kExploreDp, Qt::DashLine, 2, 4.5);
    if (hover_ >= 0) outline(static_cast<std::uint64_t>(hover_), ink, Qt::SolidLine, 1, 0);

    // Row labels (monospace digits), column labels, the two group titles.
    p.setPen(ink);
    QFont mono = p.font();
    mono.setFamily("monospace");
    mono.setStyleHint(QFont::Monospace);
    p.setFont(mono);
    for (int r = 0; r < index_.rows(); r += f.label_every_row) {
        const view::CellRect cr = layout.cell(r, 0);
        p.drawText(QRectF(area.left(), cr.y, f.plot.left() - area.left() - 4, cr.h), Qt::AlignRight | Qt::AlignVCenter,
                   rowLabel(r));
    }
    for (int c = 0; c < index_.cols(); c += f.label_every_col) {
        const view::CellRect cr = layout.cell(0, c);
        const double x = cr.x + cr.w / 2, y = f.plot.bottom() + 4;
        if (f.rotate_cols) {
            p.save();
            p.translate(x + fm.ascent() / 2 - 1, y);
            p.rotate(90);
            p.drawText(QPointF(0, 0), colLabel(c));
            p.restore();
        } else {
            p.drawText(QRectF(x - 40, y, 80, fm.height()), Qt::AlignHCenter | Qt::AlignTop, colLabel(c));
        }
    }
    p.setFont(font());
    QFont bold = p.font();
    bold.setBold(true);
    p.setFont(bold);
    p.drawText(QRectF(f.plot.left(), area.bottom() - fm.height() * 1.4, f.plot.width(), fm.height() * 1.3),
               Qt::AlignCenter, col_title_ + tr("  (columns; 0 = dp, 1 = mp)"));
    p.save();
    p.translate(area.left() + fm.height() * 0.2, f.plot.center().y());
    p.rotate(-90);
    p.drawText(QRectF(-f.plot.height() / 2, 0, f.plot.height(), fm.height() * 1.3), Qt::AlignCenter,
               row_title_ + tr("  (rows)"));
    p.restore();
    const QString heading = metric_ == Metric::PerfVsDp ? tr("Performance normalised to DP (×)")
                                                        : tr("Total communication (elements)");
    p.drawText(QPointF(f.plot.left(), area.top() + fm.ascent() + 2), heading);
    p.setFont(font());

    // Legend on the title line's right, then the colour bar.
    double lx = f.plot.right();
    auto legend = [&](const QString& text, const QColor& c, Qt::PenStyle style) {
        const double w = fm.horizontalAdvance(text);
        lx -= w;
        p.setPen(ink);
        p.drawText(QPointF(lx, area.top() + fm.ascent() + 2), text);
        lx -= 18;
        p.fillRect(QRectF(lx, area.top() + 3, 14, fm.ascent() - 1), QColor(120, 120, 120));
        QPen pen(c, 2, style);
        p.setPen(pen);
        p.drawRect(QRectF(lx + 1, area.top() + 4, 12, fm.ascent() - 3));
        lx -= 14;
    };
    legend(metric_ == Metric::PerfVsDp ? tr("fastest") : tr("least communication"), kPeak, Qt::SolidLine);
    legend(tr("HyPar"), kHypar, Qt::SolidLine);
    legend(tr("dp"), kExploreDp, Qt::DashLine);

    const int steps = std::max(2, static_cast<int>(f.bar.height()));
    for (int i = 0; i < steps; ++i) {
        const double t = 1.0 - static_cast<double>(i) / (steps - 1);
        p.fillRect(QRectF(f.bar.left(), f.bar.top() + i * f.bar.height() / steps, f.bar.width(),
                          f.bar.height() / steps + 1),
                   qcolor(view::viridis(t)));
    }
    p.setPen(ink);
    p.drawRect(f.bar);
    const double lo = scale_.lo, hi = scale_.hi;
    for (const view::Tick& t : view::niceTicks(lo, hi, std::max(2, static_cast<int>(f.bar.height() / (fm.height() * 2))))) {
        const double y = f.bar.bottom() - scale_.normalize(t.value) * f.bar.height();
        p.drawLine(QPointF(f.bar.right(), y), QPointF(f.bar.right() + 4, y));
        const QString label = metric_ == Metric::PerfVsDp ? q(t.label) : q(withPrefix(t.value, ""));
        p.drawText(QRectF(f.bar.right() + 6, y - fm.height() / 2, 80, fm.height()), Qt::AlignLeft | Qt::AlignVCenter,
                   label);
    }
    p.restore();
}

void ExploreSurface::paintEvent(QPaintEvent*) {
    QPainter p(this);
    paintFigure(p, rect());
}

void ExploreSurface::mouseMoveEvent(QMouseEvent* event) {
    if (!result_) return;
    const Frame f = frame(rect(), QFontMetricsF(font()));
    const view::HeatmapLayout layout(index_.rows(), index_.cols(), f.plot.x(), f.plot.y(), f.plot.width(),
                                     f.plot.height());
    const auto cell = layout.cellAt(event->position().x(), event->position().y());
    const long long hover = cell ? static_cast<long long>(index_.code(cell->first, cell->second)) : -1;
    if (hover != hover_) {
        hover_ = hover;
        update();
    }
    if (hover_ >= 0) QToolTip::showText(event->globalPosition().toPoint(), pointText(std::uint64_t(hover_)), this);
    else QToolTip::hideText();
}

void ExploreSurface::mousePressEvent(QMouseEvent* event) {
    if (!result_ || event->button() != Qt::LeftButton) return;
    const Frame f = frame(rect(), QFontMetricsF(font()));
    const view::HeatmapLayout layout(index_.rows(), index_.cols(), f.plot.x(), f.plot.y(), f.plot.width(),
                                     f.plot.height());
    if (const auto cell = layout.cellAt(event->position().x(), event->position().y()))
        emit pointClicked(index_.code(cell->first, cell->second));
}

void ExploreSurface::leaveEvent(QEvent*) {
    hover_ = -1;
    update();
}

}  // namespace partita
