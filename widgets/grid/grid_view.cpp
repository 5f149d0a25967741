#include "widgets/grid/grid_view.h"

#include <algorithm>
#include <cmath>

#include <QFontMetricsF>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include "core/study/explain.h"
#include "core/util/format.h"
#include "widgets/common/qt_text.h"

namespace partita {

namespace {

// Whole elements: AccPar ratios make fractional counts, exact but unreadable.
QString roundedCommas(double v) { return q(withCommas(std::round(v))); }

}  // namespace

QString GridView::splitDescription(Split s) {
    switch (s) {
    case Split::Batch: return QStringLiteral("Type-I, split the batch");
    case Split::Input: return QStringLiteral("Type-II, split the input dimension");
    case Split::Output: return QStringLiteral("Type-III, split the output dimension");
    }
    return {};
}

QString GridView::sideHeading() { return tr("comm (elements)"); }

QString GridView::shortNumber(double v) { return q(withPrefix(v, "")).trimmed(); }

GridView::GridView(QWidget* parent) : QWidget(parent) {
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(false);
    setAttribute(Qt::WA_OpaquePaintEvent);  // paintGrid fills the whole area
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
}

void GridView::setRun(RunPtr run) {
    run_ = std::move(run);
    if (hasCells()) {
        // Keep the current cell across re-evaluations of the same shape (a toggle round trip).
        current_level_ = std::clamp(current_level_, 0, run_->grid.levels() - 1);
        current_layer_ = std::clamp(current_layer_, 0, run_->grid.layers() - 1);
    }
    updateGeometry();
    update();
}

void GridView::setCompareGrid(const Grid* other) {
    have_compare_ = other != nullptr;
    compare_ = other ? *other : Grid{};
    updateGeometry();  // the legend may gain an entry
    update();
}

void GridView::setEditable(bool editable) {
    editable_ = editable;
    update();  // the current-cell mark depends on it
}

void GridView::setCompact(bool compact) {
    compact_ = compact;
    updateGeometry();
    update();
}

bool GridView::hasCells() const { return run_ && run_->grid.levels() > 0 && run_->grid.layers() > 0; }

void GridView::setCurrentCell(int level, int layer) {
    if (!hasCells()) return;
    level = std::clamp(level, 0, run_->grid.levels() - 1);
    layer = std::clamp(layer, 0, run_->grid.layers() - 1);
    if (level == current_level_ && layer == current_layer_) return;
    current_level_ = level;
    current_layer_ = layer;
    update();
    emit currentCellChanged(level, layer);
}

bool GridView::cellDiffers(int level, int layer) const {
    if (!hasCells()) return false;
    const Grid& g = run_->grid;
    if (level < 0 || layer < 0 || level >= g.levels() || layer >= g.layers()) return false;
    const Grid& ref = run_->reference;
    if (ref.levels() == g.levels() && ref.layers() == g.layers() && !(ref.at(level, layer) == g.at(level, layer)))
        return true;
    return have_compare_ && compare_.levels() == g.levels() && compare_.layers() == g.layers() &&
           !(compare_.at(level, layer) == g.at(level, layer));
}

std::vector<double> GridView::layerTotals() const {
    if (!hasCells()) return {};
    const Evaluation& ev = run_->shown();
    std::vector<double> totals(static_cast<size_t>(ev.layers), 0.0);
    // Same weighting as Evaluation::total_elements: level h has 2^h group pairs.
    for (int h = 0; h < ev.levels; ++h)
        for (int l = 0; l < ev.layers; ++l)
            totals[static_cast<size_t>(l)] += static_cast<double>(1LL << h) * (ev.intra(h, l) + ev.inter(h, l));
    return totals;
}

GridView::Fonts GridView::fonts() const {
    // Pixel sizes, so the layout measured here matches any export device.
    Fonts f;
    auto sized = [this](int px, bool bold) {
        QFont font = this->font();
        font.setPixelSize(px);
        font.setBold(bold);
        return font;
    };
    const int base = compact_ ? 11 : 12;
    f.cell = sized(compact_ ? 11 : 13, true);
    f.cell_small = sized(10, true);
    f.label = sized(base, false);
    f.small = sized(base - 1, false);
    f.header = sized(base, false);
    f.title = sized(13, true);
    return f;
}

std::vector<GridView::LegendEntry> GridView::legendEntries() const {
    std::vector<LegendEntry> out;
    if (!hasCells() || compact_) return out;
    const Grid& g = run_->grid;
    const bool edited = run_->edited();
    const bool comparable = have_compare_ && compare_.levels() == g.levels() && compare_.layers() == g.layers();
    bool type3 = false, compared = false;
    for (int h = 0; h < g.levels(); ++h)
        for (int l = 0; l < g.layers(); ++l) {
            type3 = type3 || g.split(h, l) == Split::Output;
            compared = compared || (comparable && !(compare_.at(h, l) == g.at(h, l)));
        }
    out.push_back({LegendEntry::Swatch, 0, QStringLiteral("dp — ") + splitDescription(Split::Batch)});
    out.push_back({LegendEntry::Swatch, 1, QStringLiteral("mp — ") + splitDescription(Split::Input)});
    if (type3) out.push_back({LegendEntry::Swatch, 2, QStringLiteral("III — ") + splitDescription(Split::Output)});
    if (edited) out.push_back({LegendEntry::Outline, 0, QStringLiteral("edited (differs from the searched optimum)")});
    if (compared) out.push_back({LegendEntry::Outline, 0, QStringLiteral("differs from the first run")});
    return out;
}

view::GridMetrics GridView::metrics() const {
    view::GridMetrics m;
    if (!hasCells()) return m;
    const Fonts f = fonts();
    const QFontMetricsF label(f.label), small(f.small), header(f.header);
    const Evaluation& ev = run_->shown();
    m.levels = run_->grid.levels();
    m.layers = run_->grid.layers();
    m.margin = compact_ ? 4 : 10;
    m.row_label_w = std::max(label.horizontalAdvance(QStringLiteral("H%1").arg(m.levels)),
                             compact_ ? 0.0 : label.horizontalAdvance(QStringLiteral("total"))) + 12;
    m.header_line_h = header.height();
    for (const auto& layer : run_->inputs->layers.layers)
        m.header_text_w = std::max(m.header_text_w, header.horizontalAdvance(q(layer.name)));
    // The side column shows com_h over its time (or both on one line when compact); its
    // heading wraps to two lines rather than widen the column.
    // Compact grids reserve room for up to 10^10 elements and "999.9 ms" so stacked
    // small multiples keep their columns aligned.
    double side = compact_ ? label.horizontalAdvance(QStringLiteral("9,999,999,999")) +
                                 small.horizontalAdvance(QStringLiteral("999.9 ms")) + 14
                           : 0.0;
    for (int h = 0; h < m.levels; ++h) {
        const double a = label.horizontalAdvance(roundedCommas(ev.level_comm[static_cast<size_t>(h)]));
        const double b = small.horizontalAdvance(q(seconds(ev.level_time_s[static_cast<size_t>(h)])));
        side = std::max(side, compact_ ? a + b + 14 : std::max(a, b));
    }
    QFont bold = f.label;
    bold.setBold(true);
    if (!compact_) side = std::max(side, QFontMetricsF(bold).horizontalAdvance(roundedCommas(ev.total_elements)));
    const QString heading = sideHeading();
    if (header.horizontalAdvance(heading) > side) {
        m.side_header_lines = 2;
        for (const QString& part : heading.split(QLatin1Char(' ')))
            side = std::max(side, header.horizontalAdvance(part));
    }
    m.side_w = side + 6;
    m.side_gap = 8;
    // Every split name must stay legible in the narrowest column (in the small cell font).
    const QFontMetricsF narrow(f.cell_small);
    for (const char* name : {"dp", "mp", "III"})
        m.min_cell_w = std::max(m.min_cell_w, narrow.horizontalAdvance(QString::fromLatin1(name)) + 5);
    m.max_cell_w = compact_ ? 84 : 120;
    m.min_cell_h = compact_ ? 20 : 24;
    m.max_cell_h = compact_ ? 24 : 52;
    m.max_rotated_h = compact_ ? 64 : 96;
    if (!compact_) {
        m.title_h = QFontMetricsF(f.title).height() + 10;
        m.totals_h = label.height() + small.height() + 8;
        for (double v : layerTotals())
            m.totals_text_w = std::max(m.totals_text_w, small.horizontalAdvance(shortNumber(v)));
        for (const auto& e : legendEntries()) m.legend_items.push_back(28 + label.horizontalAdvance(e.text));
        m.legend_line_h = label.height() + 8;
    }
    return m;
}

view::GridGeometry GridView::geometryIn(const QRect& area) const {
    return view::layoutGrid(metrics(), area.x(), area.y(), area.width(), area.height());
}

QRect GridView::cellRect(int level, int layer) const {
    if (!hasCells()) return {};
    const view::Box b = geometryIn(rect()).cell(level, layer);
    return QRectF(b.x, b.y, b.w, b.h).toAlignedRect();
}

QString GridView::titleSummary() const {
    const Evaluation& ev = run_->shown();
    return tr("total %1 elements · step %2").arg(roundedCommas(ev.total_elements), q(seconds(ev.time_step_s)));
}

QSize GridView::figureSize() const {
    if (!hasCells()) return {420, 160};
    view::GridMetrics m = metrics();
    double cw = compact_ ? 52 : 76;
    const double ch = compact_ ? 24 : 44;
    if (!compact_) {
        // Wide enough for the title line and a one-line legend, within the widest cells.
        const Fonts f = fonts();
        double need = QFontMetricsF(f.title).horizontalAdvance(q(run_->name)) + 16 +
                      QFontMetricsF(f.label).horizontalAdvance(titleSummary());
        double legend = 0;
        for (double w : m.legend_items) legend += w + m.legend_spacing;
        need = std::max(need, legend - m.legend_spacing);
        const double fixed = view::gridWidthFor(m, 0) - 2 * m.margin;
        cw = std::clamp((need - fixed) / std::max(1, m.layers), cw, m.max_cell_w);
    }
    m.min_cell_w = m.max_cell_w = cw;
    m.min_cell_h = m.max_cell_h = ch;
    const double w = view::gridWidthFor(m, cw);
    return QSizeF(w, view::layoutGrid(m, 0, 0, w, 0).total_h).toSize();
}

// Only compact grids (stacked small multiples) ask for a height; the main grid takes what it
// gets and fits its rows, so a dock is never forced taller than the user made it.
bool GridView::hasHeightForWidth() const { return compact_ && hasCells(); }

int GridView::heightForWidth(int width) const {
    if (!hasCells()) return sizeHint().height();
    view::GridMetrics m = metrics();
    m.min_cell_h = m.max_cell_h = compact_ ? 24 : 44;
    return static_cast<int>(std::ceil(view::layoutGrid(m, 0, 0, width, 0).total_h));
}

QSize GridView::sizeHint() const {
    const QSize s = figureSize();
    return {std::min(s.width(), 1000), s.height()};
}

QSize GridView::minimumSizeHint() const {
    if (!hasCells()) return {200, 80};
    const view::GridMetrics m = metrics();
    const double w = view::gridWidthFor(m, m.min_cell_w);
    return QSizeF(w, view::layoutGrid(m, 0, 0, w, 0).total_h).toSize();
}

void GridView::paintFigure(QPainter& painter, const QRect& area) const { paintGrid(painter, area, false); }

void GridView::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    paintGrid(painter, rect(), true);
}

void GridView::mousePressEvent(QMouseEvent* event) {
    if (!hasCells() || event->button() != Qt::LeftButton) return QWidget::mousePressEvent(event);
    const QPointF p = event->position();
    const auto hit = geometryIn(rect()).cellAt(p.x(), p.y());
    if (!hit) return QWidget::mousePressEvent(event);
    setCurrentCell(hit->first, hit->second);
    if (editable_) emit cellToggled(hit->first, hit->second);
    event->accept();
}

void GridView::keyPressEvent(QKeyEvent* event) {
    if (!hasCells()) return QWidget::keyPressEvent(event);
    const int last_layer = run_->grid.layers() - 1, last_level = run_->grid.levels() - 1;
    const bool ctrl = event->modifiers() & Qt::ControlModifier;
    switch (event->key()) {
    case Qt::Key_Left: setCurrentCell(current_level_, current_layer_ - 1); break;
    case Qt::Key_Right: setCurrentCell(current_level_, current_layer_ + 1); break;
    case Qt::Key_Up: setCurrentCell(current_level_ - 1, current_layer_); break;
    case Qt::Key_Down: setCurrentCell(current_level_ + 1, current_layer_); break;
    case Qt::Key_Home: setCurrentCell(ctrl ? 0 : current_level_, 0); break;
    case Qt::Key_End: setCurrentCell(ctrl ? last_level : current_level_, last_layer); break;
    case Qt::Key_Space:
    case Qt::Key_Return:
    case Qt::Key_Enter:
        if (editable_) emit cellToggled(current_level_, current_layer_);
        break;
    default: return QWidget::keyPressEvent(event);
    }
    event->accept();
}

bool GridView::event(QEvent* event) {
    if (event->type() != QEvent::ToolTip) return QWidget::event(event);
    auto* help = static_cast<QHelpEvent*>(event);
    QRect zone;
    const QString text = toolTipAt(help->pos(), &zone);
    if (text.isEmpty()) {
        QToolTip::hideText();
        event->ignore();
    } else {
        QToolTip::showText(help->globalPos(), text, this, zone);
    }
    return true;
}

}  // namespace partita
