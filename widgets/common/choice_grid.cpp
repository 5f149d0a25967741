#include "widgets/common/choice_grid.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <QFontMetricsF>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include "core/util/format.h"
#include "widgets/common/qt_text.h"
#include "widgets/geometry/palette.h"

namespace partita {

namespace {

QRectF rectOf(const view::Box& b) { return {b.x, b.y, b.w, b.h}; }
const QColor kInk(40, 40, 40), kMuted(110, 110, 110), kRule(205, 205, 205), kNa(236, 236, 236);
// Options in the grid view's category colours: sky blue, orange, bluish green, then the rest.
view::Rgb optionRgb(int row) {
    static const int order[] = {2, 1, 3, 5, 7, 4};
    return view::okabeIto(order[row % 6]);
}
QFont sized(const QFont& base, int px, bool bold) {
    QFont f = base;
    f.setPixelSize(px);
    f.setBold(bold);
    return f;
}

}  // namespace

bool ChoiceGridData::allowed(int row, int col) const { return std::isfinite(at(row, col)); }

bool ChoiceGridData::overridden(int col) const {
    const auto c = static_cast<size_t>(col);
    return c < chosen.size() && c < best.size() && best[c] >= 0 && chosen[c] != best[c];
}

ChoiceGrid::ChoiceGrid(QWidget* parent) : QWidget(parent) {
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
}

void ChoiceGrid::setData(ChoiceGridData data) {
    const size_t cells = data.rows.size() * data.columns.size();
    if (data.values.size() != cells || (!data.notes.empty() && data.notes.size() != cells) ||
        (!data.chosen.empty() && data.chosen.size() != data.columns.size()) ||
        (!data.best.empty() && data.best.size() != data.columns.size()))
        throw std::invalid_argument("ChoiceGrid: values, notes, chosen and best must match rows x columns");
    data_ = std::move(data);
    current_row_ = std::clamp(current_row_, 0, std::max(0, static_cast<int>(data_.rows.size()) - 1));
    current_col_ = std::clamp(current_col_, 0, std::max(0, static_cast<int>(data_.columns.size()) - 1));
    updateGeometry();
    update();
}

view::GridMetrics ChoiceGrid::metrics() const {
    view::GridMetrics m;
    m.levels = static_cast<int>(data_.rows.size());
    m.layers = static_cast<int>(data_.columns.size());
    const QFontMetricsF label(sized(font(), 12, false)), cell(sized(font(), 12, true));
    m.title_h = data_.title.empty() ? 0 : 26;
    m.header_line_h = label.height();
    for (const auto& c : data_.columns) m.header_text_w = std::max(m.header_text_w, label.horizontalAdvance(q(c)));
    m.row_label_w = 0;
    for (const auto& r : data_.rows) m.row_label_w = std::max(m.row_label_w, label.horizontalAdvance(q(r)));
    m.row_label_w = std::max(m.row_label_w, label.horizontalAdvance(q(data_.row_title)));
    m.row_label_w += 12;
    m.side_w = 0;
    m.side_gap = 0;
    m.min_cell_w = cell.horizontalAdvance(QStringLiteral("99.99 µs")) + 6;
    m.max_cell_w = 140;
    m.min_cell_h = 30;
    m.max_cell_h = 48;
    m.totals_h = label.height() + 6;
    m.totals_text_w = m.min_cell_w - 6;
    for (const QString& text : legendTexts()) m.legend_items.push_back(label.horizontalAdvance(text) + 26);
    return m;
}

view::GridGeometry ChoiceGrid::geometryIn(const QRect& area) const {
    return view::layoutGrid(metrics(), area.x(), area.y(), area.width(), area.height());
}

QSize ChoiceGrid::figureSize() const {
    const view::GridMetrics m = metrics();
    const double w = view::gridWidthFor(m, std::min(m.max_cell_w, std::max(m.min_cell_w, 96.0)));
    const view::GridGeometry g = view::layoutGrid(m, 0, 0, w, 0);
    return {static_cast<int>(std::ceil(w)), static_cast<int>(std::ceil(g.total_h))};
}

QSize ChoiceGrid::sizeHint() const { return figureSize().expandedTo(minimumSizeHint()); }

QRect ChoiceGrid::cellRect(int row, int col) const { return rectOf(geometryIn(rect()).cell(row, col)).toRect(); }

QString ChoiceGrid::cellText(int row, int col) const {
    if (row < 0 || col < 0 || row >= static_cast<int>(data_.rows.size()) || col >= static_cast<int>(data_.columns.size()))
        return {};
    QString text = QStringLiteral("%1 · %2\n").arg(q(data_.columns[col]), q(data_.rows[row]));
    text += data_.allowed(row, col) ? q(withPrefix(data_.at(row, col), data_.unit.c_str())) : tr("not allowed here");
    const size_t i = static_cast<size_t>(row) * data_.columns.size() + col;
    if (i < data_.notes.size() && !data_.notes[i].empty()) text += QStringLiteral("\n") + q(data_.notes[i]);
    if (col < static_cast<int>(data_.best.size()) && data_.best[col] == row) text += "\n" + q(data_.best_label);
    return text;
}

QStringList ChoiceGrid::legendTexts() const {
    return {tr("in effect"), q(data_.best_label), tr("overridden"), tr("not allowed")};
}

void ChoiceGrid::paintFigure(QPainter& painter, const QRect& area) const { paint(painter, area, false); }

void ChoiceGrid::paintEvent(QPaintEvent*) {
    QPainter p(this);
    paint(p, rect(), hasFocus());
}

void ChoiceGrid::paint(QPainter& p, const QRect& area, bool interactive) const {
    p.save();
    p.setRenderHint(QPainter::Antialiasing, true);
    p.fillRect(area, Qt::white);
    const QFont label = sized(font(), 12, false), cell = sized(font(), 12, true), title = sized(font(), 13, true);
    if (data_.rows.empty() || data_.columns.empty()) {
        p.setFont(label);
        p.setPen(kMuted);
        p.drawText(area, Qt::AlignCenter, tr("Nothing to choose"));
        p.restore();
        return;
    }
    const view::GridGeometry g = geometryIn(area);
    p.setFont(title);
    p.setPen(kInk);
    p.drawText(rectOf(g.title), Qt::AlignLeft | Qt::AlignVCenter, q(data_.title));
    p.setFont(label);
    p.setPen(kMuted);  // what a row is, above the row names
    p.drawText(QRectF(g.row_labels.x, g.headers.y, g.row_labels.w - 8, g.headers.h), Qt::AlignRight | Qt::AlignBottom,
               q(data_.row_title));
    p.setPen(kInk);
    for (int c = 0; c < g.layers; ++c) {
        const QRectF h = rectOf(g.header(c));
        if (g.rotated_headers) {
            p.save();
            p.translate(h.center().x(), h.bottom() - 4);
            p.rotate(-90);
            p.drawText(QRectF(0, -h.width() / 2, h.height() - 6, h.width()), Qt::AlignLeft | Qt::AlignVCenter,
                       QFontMetricsF(label).elidedText(q(data_.columns[c]), Qt::ElideRight, h.height() - 6));
            p.restore();
        } else {
            p.drawText(h, Qt::AlignHCenter | Qt::AlignBottom, q(data_.columns[c]));
        }
    }
    const QFontMetricsF cell_fm(cell);
    for (int r = 0; r < g.levels; ++r) {
        p.setPen(kInk);
        p.setFont(label);
        p.drawText(rectOf(g.rowLabel(r)).adjusted(0, 0, -8, 0), Qt::AlignRight | Qt::AlignVCenter, q(data_.rows[r]));
        for (int c = 0; c < g.layers; ++c) {
            const QRectF box = rectOf(g.cell(r, c));
            const bool chosen = c < static_cast<int>(data_.chosen.size()) && data_.chosen[c] == r;
            const bool allowed = data_.allowed(r, c);
            const view::Rgb fill = optionRgb(r);
            p.setPen(QPen(kRule, 1));
            p.setBrush(!allowed ? kNa : chosen ? qcolor(fill) : QColor(Qt::white));
            p.drawRect(box);
            p.setFont(cell);
            p.setPen(chosen ? qcolor(view::textOn(fill)) : allowed ? kInk : kMuted);
            const QString value = allowed ? q(withPrefix(data_.at(r, c), data_.unit.c_str())) : tr("n/a");
            p.drawText(box, Qt::AlignCenter, cell_fm.elidedText(value, Qt::ElideRight, box.width() - 4));
            if (c < static_cast<int>(data_.best.size()) && data_.best[c] == r) {
                p.setPen(Qt::NoPen);
                p.setBrush(kInk);
                p.drawEllipse(QPointF(box.right() - 6, box.top() + 6), 3, 3);
            }
            if (chosen && data_.overridden(c)) {
                QPen dashed(qcolor(view::okabeIto(6)), 3, Qt::DashLine);
                p.setPen(dashed);
                p.setBrush(Qt::NoBrush);
                p.drawRect(box.adjusted(2.5, 2.5, -2.5, -2.5));
            }
            if (interactive && r == current_row_ && c == current_col_) {
                p.setPen(QPen(kInk, 1, Qt::DotLine));
                p.setBrush(Qt::NoBrush);
                p.drawRect(box.adjusted(1, 1, -1, -1));
            }
        }
    }
    // Totals row: the value in effect per layer.
    p.setFont(label);
    p.setPen(kInk);
    for (int c = 0; c < g.layers && c < static_cast<int>(data_.chosen.size()); ++c) {
        const int r = data_.chosen[c];
        if (r < 0 || !data_.allowed(r, c)) continue;
        const QRectF t = rectOf(g.totalCell(c));
        const QString text = q(withPrefix(data_.at(r, c), data_.unit.c_str()));
        p.drawText(t, Qt::AlignHCenter | Qt::AlignTop, QFontMetricsF(label).elidedText(text, Qt::ElideRight, t.width()));
    }
    const QStringList legend = legendTexts();
    for (int i = 0; i < static_cast<int>(g.legend_items.size()) && i < legend.size(); ++i) {
        const QRectF b = rectOf(g.legend_items[static_cast<size_t>(i)]);
        const QRectF swatch(b.x(), b.y() + 3, 16, 14);
        p.setPen(QPen(kRule, 1));
        p.setBrush(i == 0 ? qcolor(optionRgb(0)) : i == 3 ? kNa : QColor(Qt::white));
        p.drawRect(swatch);
        if (i == 1) {
            p.setPen(Qt::NoPen);
            p.setBrush(kInk);
            p.drawEllipse(swatch.center(), 3, 3);
        } else if (i == 2) {
            p.setPen(QPen(qcolor(view::okabeIto(6)), 2, Qt::DashLine));
            p.setBrush(Qt::NoBrush);
            p.drawRect(swatch.adjusted(2, 2, -2, -2));
        }
        p.setPen(kInk);
        p.drawText(QRectF(b.x() + 22, b.y(), b.width() - 22, 20), Qt::AlignLeft | Qt::AlignVCenter, legend[i]);
    }
    p.restore();
}

void ChoiceGrid::mousePressEvent(QMouseEvent* event) {
    const view::GridGeometry g = geometryIn(rect());
    const auto hit = g.cellAt(event->position().x(), event->position().y());
    if (!hit) return;
    current_row_ = hit->first;
    current_col_ = hit->second;
    update();
    if (data_.allowed(current_row_, current_col_)) emit choiceRequested(current_row_, current_col_);
}

void ChoiceGrid::keyPressEvent(QKeyEvent* event) {
    const int rows = static_cast<int>(data_.rows.size()), cols = static_cast<int>(data_.columns.size());
    switch (event->key()) {
    case Qt::Key_Left: current_col_ = std::max(0, current_col_ - 1); break;
    case Qt::Key_Right: current_col_ = std::min(cols - 1, current_col_ + 1); break;
    case Qt::Key_Up: current_row_ = std::max(0, current_row_ - 1); break;
    case Qt::Key_Down: current_row_ = std::min(rows - 1, current_row_ + 1); break;
    case Qt::Key_Space:
    case Qt::Key_Return:
    case Qt::Key_Enter:
        if (rows > 0 && cols > 0 && data_.allowed(current_row_, current_col_))
            emit choiceRequested(current_row_, current_col_);
        break;
    default: QWidget::keyPressEvent(event); return;
    }
    update();
}

bool ChoiceGrid::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const auto hit = geometryIn(rect()).cellAt(help->pos().x(), help->pos().y());
        if (hit) QToolTip::showText(help->globalPos(), cellText(hit->first, hit->second), this);
        else QToolTip::hideText();
        return true;
    }
    return QWidget::event(event);
}

CsvTable ChoiceGrid::csv() const {
    CsvTable t;
    const std::string unit = data_.unit.empty() ? "" : " (" + data_.unit + ")";
    t.header.push_back("layer");
    for (const auto& r : data_.rows) t.header.push_back(r + unit);
    t.header.push_back("in_effect");
    t.header.push_back("optimiser");
    for (size_t c = 0; c < data_.columns.size(); ++c) {
        std::vector<std::string> row{data_.columns[c]};
        for (size_t r = 0; r < data_.rows.size(); ++r)
            row.push_back(data_.allowed(static_cast<int>(r), static_cast<int>(c))
                              ? formatNumber(data_.at(static_cast<int>(r), static_cast<int>(c)))
                              : "");
        const int chosen = c < data_.chosen.size() ? data_.chosen[c] : -1;
        const int best = c < data_.best.size() ? data_.best[c] : -1;
        row.push_back(chosen >= 0 ? data_.rows[static_cast<size_t>(chosen)] : "");
        row.push_back(best >= 0 ? data_.rows[static_cast<size_t>(best)] : "");
        t.rows.push_back(std::move(row));
    }
    return t;
}

}  // namespace partita
