// CommHeatmap: data, layout, interaction and text. Painting is in comm_heatmap_paint.cpp.
#include "widgets/heatmap/comm_heatmap_view.h"

#include <algorithm>
#include <cmath>

#include <QCheckBox>
#include <QMouseEvent>
#include <QToolTip>

#include "core/util/format.h"
#include "widgets/common/qt_text.h"

namespace partita {

namespace {

using comm_heatmap::kLabelPx;
using comm_heatmap::kTitlePx;

}  // namespace

CommHeatmap::CommHeatmap(QWidget* parent) : QWidget(parent) {
    setMouseTracking(true);
    setMinimumSize(360, 280);
    log_box_ = new QCheckBox(tr("Log scale"), this);
    log_box_->setToolTip(tr("Colour by log10 of the bytes, so small exchanges stay visible"));
    connect(log_box_, &QCheckBox::toggled, this, &CommHeatmap::setLogScale);
    log_box_->hide();  // shown with data
}

void CommHeatmap::setMatrix(CommMatrix matrix, const QString& title) {
    matrix_ = std::move(matrix);
    title_ = !title.isEmpty() ? title
             : matrix_.kind == CommMatrix::Kind::Devices ? tr("Traffic between devices")
                                                         : tr("Communication per level and layer");
    hover_.reset();
    selected_.reset();
    changed();
}

void CommHeatmap::setDeviceTraffic(const std::vector<std::vector<double>>& bytes, std::vector<std::string> names,
                                   const QString& title) {
    setMatrix(deviceCommMatrix(bytes, std::move(names)), title);
}

void CommHeatmap::setRun(const RunPtr& run) {
    if (!run) return clear();
    setMatrix(levelLayerCommMatrix(*run), tr("Communication per level and layer · %1").arg(q(run->name)));
}

void CommHeatmap::clear() {
    matrix_ = {};
    title_.clear();
    hover_.reset();
    selected_.reset();
    changed();
}

void CommHeatmap::setLogScale(bool log) {
    if (log == log_) return;
    log_ = log;
    log_box_->setChecked(log);  // re-enters with log == log_ and returns
    changed();
    emit logScaleChanged(log);
}

void CommHeatmap::setSelectedCell(int row, int col) {
    if (row >= 0 && col >= 0 && row < matrix_.rows && col < matrix_.cols) selected_ = std::make_pair(row, col);
    else selected_.reset();
    update();
}

void CommHeatmap::changed() {
    shown_valid_ = false;
    log_box_->setVisible(!matrix_.empty());
    placeLogBox();
    update();
}

QFont CommHeatmap::pxFont(int px, bool bold) const {
    // Pixel sizes, so the layout measured here matches any export device.
    QFont f = QWidget::font();
    f.setPixelSize(px);
    f.setBold(bold);
    return f;
}

view::HeatmapFrame CommHeatmap::frameIn(const QRect& area) const {
    const QFontMetricsF fm(pxFont(kLabelPx)), title(pxFont(kTitlePx, true));
    auto widest = [&fm](const std::vector<std::string>& names) {
        double w = 0;
        for (const auto& n : names) w = std::max(w, fm.horizontalAdvance(q(n)));
        return w;
    };
    view::HeatmapFrameSpec spec;
    spec.x = area.x();
    spec.y = area.y();
    spec.width = area.width();
    spec.height = area.height();
    spec.rows = matrix_.rows;
    spec.cols = matrix_.cols;
    spec.line = fm.height();
    spec.heading = title.height() + 10;
    spec.row_label = widest(matrix_.row_names);
    spec.col_label = widest(matrix_.col_names);
    spec.bar_label = fm.horizontalAdvance(QStringLiteral("888.8 MB"));
    spec.square = matrix_.kind == CommMatrix::Kind::Devices;
    view::HeatmapFrame f = view::layoutHeatmap(spec);
    // Binned axes are labelled "first–last": make room for two names.
    const double dash = fm.horizontalAdvance(QStringLiteral("–"));
    if (f.shown_rows < spec.rows || f.shown_cols < spec.cols) {
        if (f.shown_rows < spec.rows) spec.row_label = 2 * spec.row_label + dash;
        if (f.shown_cols < spec.cols) spec.col_label = 2 * spec.col_label + dash;
        f = view::layoutHeatmap(spec);
    }
    return f;
}

const CommHeatmap::Shown& CommHeatmap::shown(const view::HeatmapFrame& f) const {
    if (shown_valid_ && shown_.rows == f.shown_rows && shown_.cols == f.shown_cols && shown_.log == log_)
        return shown_;
    shown_ = {f.shown_rows, f.shown_cols, log_, {}, {}};
    if (!matrix_.empty())
        shown_.bytes = f.shown_rows == matrix_.rows && f.shown_cols == matrix_.cols
                           ? matrix_.bytes
                           : view::binMatrix(matrix_.bytes, matrix_.rows, matrix_.cols, f.shown_rows, f.shown_cols);
    shown_.scale = view::ColorScale::fit(shown_.bytes, log_);
    if (!log_) shown_.scale.lo = std::min(shown_.scale.lo, 0.0);  // linear: colour proportional to bytes
    shown_valid_ = true;
    return shown_;
}

view::ColorScale CommHeatmap::colorScale() const { return shown(frame()).scale; }

std::optional<std::pair<int, int>> CommHeatmap::sourceAt(const QRect& area, QPointF pos) const {
    if (matrix_.empty()) return std::nullopt;
    const view::HeatmapFrame f = frameIn(area);
    const view::HeatmapLayout layout(f.shown_rows, f.shown_cols, f.plot.x, f.plot.y, f.plot.w, f.plot.h);
    const auto bin = layout.cellAt(pos.x(), pos.y());
    if (!bin) return std::nullopt;
    return std::make_pair(view::binRange(bin->first, matrix_.rows, f.shown_rows).first,
                          view::binRange(bin->second, matrix_.cols, f.shown_cols).first);
}

QRectF CommHeatmap::cellRect(int row, int col) const {
    if (matrix_.empty() || row < 0 || col < 0 || row >= matrix_.rows || col >= matrix_.cols) return {};
    const view::HeatmapFrame f = frame();
    const view::HeatmapLayout layout(f.shown_rows, f.shown_cols, f.plot.x, f.plot.y, f.plot.w, f.plot.h);
    const view::CellRect c = layout.cell(row * f.shown_rows / matrix_.rows, col * f.shown_cols / matrix_.cols);
    return {c.x, c.y, c.w, c.h};
}

QString CommHeatmap::label(bool row, int bin, int shown_count) const {
    const auto& names = row ? matrix_.row_names : matrix_.col_names;
    const int n = row ? matrix_.rows : matrix_.cols;
    const auto [first, last] = view::binRange(bin, n, shown_count);
    if (last - first <= 1) return q(names[static_cast<size_t>(first)]);
    return q(names[static_cast<size_t>(first)]) + QStringLiteral("–") + q(names[static_cast<size_t>(last - 1)]);
}

QString CommHeatmap::barLabel(double bytes) const { return byteText(bytes); }

QString CommHeatmap::cellText(int row, int col) const {
    if (matrix_.empty() || row < 0 || col < 0 || row >= matrix_.rows || col >= matrix_.cols) return {};
    const view::HeatmapFrame f = frame();
    const int br = row * f.shown_rows / matrix_.rows, bc = col * f.shown_cols / matrix_.cols;
    const double value = shown(f).bytes[static_cast<size_t>(br * f.shown_cols + bc)];
    const double total = matrix_.total();
    const QString amount = QStringLiteral("<b>%1</b> (%2 B%3)")
                               .arg(barLabel(value), q(withCommas(value)),
                                    total > 0 ? QStringLiteral(", %1 % of all").arg(100 * value / total, 0, 'f', 1)
                                              : QString());
    const QString rows = label(true, br, f.shown_rows).toHtmlEscaped();
    const QString cols = label(false, bc, f.shown_cols).toHtmlEscaped();
    if (matrix_.kind == CommMatrix::Kind::Devices) {
        const auto [r0, r1] = view::binRange(br, matrix_.rows, f.shown_rows);
        const auto [c0, c1] = view::binRange(bc, matrix_.cols, f.shown_cols);
        const int cells = (r1 - r0) * (c1 - c0);
        return tr("<b>from %1 to %2</b><br>%3%4")
            .arg(rows, cols, amount, cells > 1 ? tr("<br>sum of %1 device pairs").arg(cells) : QString());
    }
    const size_t at = static_cast<size_t>(row * matrix_.cols + col);
    const double intra = matrix_.intra_elements[at], inter = matrix_.inter_elements[at];
    const QString tag = matrix_.cell_tags.size() == matrix_.bytes.size() ? q(matrix_.cell_tags[at]) : QString();
    return tr("<b>%1 at %2</b>%3<br>%4<br>%5 group pair(s) x (intra %6 + inter %7 elements) x %8 B")
        .arg(cols, rows, tag.isEmpty() ? QString() : QStringLiteral(": <b>%1</b>").arg(tag), amount,
             q(withCommas(matrix_.pairs(row))), q(withCommas(intra)), q(withCommas(inter)),
             q(formatNumber(matrix_.bytes_per_element)));
}

QSize CommHeatmap::figureSize() const {
    if (matrix_.empty()) return {480, 240};
    if (matrix_.kind == CommMatrix::Kind::Devices) {
        // Square cells: the width sets the cells, the height follows with no blank band below.
        const int w = matrix_.rows <= 16 ? 900 : 1100;
        const view::HeatmapFrame f = frameIn(QRect(0, 0, w, 100000));  // tall: the width limits the cells
        return {w, static_cast<int>(std::ceil(f.plot.y + f.plot.h + 8 + QFontMetricsF(pxFont(kLabelPx)).height()))};
    }
    return {std::clamp(260 + matrix_.cols * 72, 640, 1800), std::clamp(220 + matrix_.rows * 64, 340, 1200)};
}

void CommHeatmap::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    placeLogBox();
}

void CommHeatmap::placeLogBox() {
    const QSize s = log_box_->sizeHint();  // top right, on the title line
    log_box_->setGeometry(width() - s.width() - 8, 4, s.width(), s.height());
}

void CommHeatmap::mouseMoveEvent(QMouseEvent* event) {
    const auto cell = sourceAt(rect(), event->position());
    if (cell != hover_) {
        hover_ = cell;
        update();
    }
    if (hover_) QToolTip::showText(event->globalPosition().toPoint(), cellText(hover_->first, hover_->second), this);
    else QToolTip::hideText();
}

void CommHeatmap::mousePressEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton) return QWidget::mousePressEvent(event);
    const auto cell = sourceAt(rect(), event->position());
    if (!cell) return QWidget::mousePressEvent(event);
    emit cellClicked(cell->first, cell->second);
    if (isLevelMode()) {
        setSelectedCell(cell->first, cell->second);
        emit levelLayerClicked(cell->first, cell->second);
    }
}

void CommHeatmap::leaveEvent(QEvent*) {
    hover_.reset();
    update();
}

}  // namespace partita
