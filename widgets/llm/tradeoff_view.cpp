#include "widgets/llm/tradeoff_view.h"

#include <algorithm>
#include <cmath>

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QHelpEvent>
#include <QLabel>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QScrollBar>
#include <QSplitter>
#include <QTableView>
#include <QToolTip>
#include <QVBoxLayout>

#include "core/llm/numbers.h"
#include "core/util/format.h"

namespace partita {

namespace {

using llm::kGiB;

// Okabe-Ito, then darker variants.
QColor keyColour(int key) {
    static const QColor base[] = {{0, 114, 178}, {230, 159, 0}, {0, 158, 115}, {204, 121, 167},
                                  {86, 180, 233}, {213, 94, 0},  {240, 228, 66}, {0, 0, 0}};
    const int k = std::max(0, key);
    const QColor c = base[k % 8];
    return k / 8 % 2 ? c.darker(150) : c;
}

int log2Key(std::int64_t v) {
    int k = 0;
    while (v > 1) v >>= 1, ++k;
    return k;
}

QString planText(const llm::Plan& p) {
    QString s = QStringLiteral("tp %1 · pp %2 · dp %3").arg(p.tp).arg(p.pp).arg(p.dp);
    if (p.cp > 1) s += QStringLiteral(" · cp %1").arg(p.cp);
    s += QStringLiteral(" · mb %1 · %2").arg(p.micro_batch).arg(QString::fromLatin1(llm::scheduleName(p.schedule)));
    if (p.schedule == llm::Schedule::Interleaved) s += QStringLiteral(" v%1").arg(p.interleave);
    s += QStringLiteral(" · recompute %1").arg(QString::fromLatin1(llm::recomputeName(p.recompute)));
    if (p.sequence_parallel) s += QStringLiteral(" · SP");
    if (p.zero > 0) s += QStringLiteral(" · ZeRO-%1").arg(p.zero);
    if (p.distributed_optimizer) s += QStringLiteral(" · dist. opt.");
    return s;
}

}  // namespace

// ---- RankedPlansModel

void RankedPlansModel::setPlans(std::vector<llm::PlanPoint> plans) {
    beginResetModel();
    plans_ = std::move(plans);
    endResetModel();
}

int RankedPlansModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(plans_.size());
}
int RankedPlansModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : 11; }

QVariant RankedPlansModel::headerData(int section, Qt::Orientation orientation, int role) const {
    static const char* names[] = {"#", "tp", "pp", "dp", "mb", "schedule", "recompute", "ZeRO", "time ms",
                                  "GiB", "MFU %"};
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 || section >= 11) return {};
    return QString::fromLatin1(names[section]);
}

QVariant RankedPlansModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount()) return {};
    const auto& pt = plans_[static_cast<size_t>(index.row())];
    const auto& p = pt.plan;
    if (role == Qt::TextAlignmentRole) return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole) return planText(p);
    if (role != Qt::DisplayRole) return {};
    switch (index.column()) {
    case 0: return index.row() + 1;
    case 1: return static_cast<qlonglong>(p.tp);
    case 2: return static_cast<qlonglong>(p.pp);
    case 3: return static_cast<qlonglong>(p.dp);
    case 4: return static_cast<qlonglong>(p.micro_batch);
    case 5:
        return p.schedule == llm::Schedule::Interleaved ? QStringLiteral("interleaved v%1").arg(p.interleave)
                                                        : QString::fromLatin1(llm::scheduleName(p.schedule));
    case 6: return QString::fromLatin1(llm::recomputeName(p.recompute));
    case 7: return p.distributed_optimizer ? QStringLiteral("dist.") : QString::number(p.zero);
    case 8: return QString::number(pt.iteration_s * 1e3, 'f', 1);
    case 9: return QString::number(pt.peak_bytes / kGiB, 'f', 1);
    case 10: return QString::number(pt.mfu * 100, 'f', 1);
    }
    return {};
}

// ---- TradeoffPlot

TradeoffPlot::TradeoffPlot(TradeoffView* owner) : QWidget(owner), owner_(owner) {
    setMouseTracking(true);
    setMinimumSize(220, 200);  // the LLM tab beside its knobs fits a 1024-pixel window
    setBackgroundRole(QPalette::Base);
    setAutoFillBackground(true);
}

void TradeoffPlot::invalidate() {
    dirty_ = true;
    hover_ = -1;
    update();
}

void TradeoffPlot::resizeEvent(QResizeEvent*) { dirty_ = true; }

void TradeoffPlot::rebuild() {
    dirty_ = false;
    area_ = owner_->plotArea(rect());
    // Bucket the points by pixel cell (counting sort): a hover looks at 3x3 cells.
    const auto& pts = owner_->points_;
    cols_ = width() / cell_ + 1, rows_ = height() / cell_ + 1;
    pos_ = owner_->pixelPositions(area_);
    std::vector<int> cell(pts.size(), -1);
    cell_start_.assign(static_cast<size_t>(cols_ * rows_ + 1), 0);
    for (size_t i = 0; i < pts.size(); ++i) {
        const QPointF q = pos_[i];
        if (!std::isfinite(q.x()) || !std::isfinite(q.y()) || !area_.plot.adjusted(-1, -1, 1, 1).contains(q)) continue;
        const int cx = std::clamp(static_cast<int>(q.x()) / cell_, 0, cols_ - 1);
        const int cy = std::clamp(static_cast<int>(q.y()) / cell_, 0, rows_ - 1);
        cell[i] = cy * cols_ + cx;
        ++cell_start_[static_cast<size_t>(cell[i] + 1)];
    }
    cache_ = owner_->rasterPoints(pos_, size());
    for (size_t c = 1; c < cell_start_.size(); ++c) cell_start_[c] += cell_start_[c - 1];
    cell_points_.assign(static_cast<size_t>(cell_start_.back()), 0);
    std::vector<int> fill(cell_start_.begin(), cell_start_.end() - 1);
    for (size_t i = 0; i < pts.size(); ++i)
        if (cell[i] >= 0) cell_points_[static_cast<size_t>(fill[static_cast<size_t>(cell[i])]++)] = static_cast<int>(i);
}

std::optional<int> TradeoffPlot::hit(const QPointF& pos) const {
    if (dirty_) const_cast<TradeoffPlot*>(this)->rebuild();
    if (cols_ == 0) return std::nullopt;
    const double slack = 6;
    std::optional<int> best;
    double best_d = slack * slack;
    // A point of the front (drawn as a ring over the crowd) wins within the slack: that is what a click
    // on the front's line means.
    if (owner_->axes_ == TradeoffView::Axes::TimeVsMemory)
        for (int i : owner_->front_) {
            const QPointF dlt = pos_[static_cast<size_t>(i)] - pos;
            const double dist = QPointF::dotProduct(dlt, dlt);
            if (dist < best_d) best_d = dist, best = i;
        }
    if (best) return best;
    best_d = slack * slack;
    const int cx = static_cast<int>(pos.x()) / cell_, cy = static_cast<int>(pos.y()) / cell_;
    for (int y = cy - 1; y <= cy + 1; ++y)
        for (int x = cx - 1; x <= cx + 1; ++x) {
            if (x < 0 || y < 0 || x >= cols_ || y >= rows_) continue;
            const int c = y * cols_ + x;
            for (int k = cell_start_[static_cast<size_t>(c)]; k < cell_start_[static_cast<size_t>(c + 1)]; ++k) {
                const int i = cell_points_[static_cast<size_t>(k)];
                const QPointF dlt = pos_[static_cast<size_t>(i)] - pos;
                const double dist = QPointF::dotProduct(dlt, dlt);
                // Ties go to the faster (then fitting) plan: the one a user means on a crowded spot.
                if (dist < best_d || (best && dist == best_d && owner_->points_[static_cast<size_t>(i)].iteration_s <
                                                                    owner_->points_[static_cast<size_t>(*best)].iteration_s))
                    best_d = dist, best = i;
            }
        }
    return best;
}

void TradeoffPlot::paintEvent(QPaintEvent*) {
    if (dirty_) rebuild();
    QPainter p(this);
    owner_->paintPlot(p, rect(), &cache_);
    if (hover_ >= 0 && hover_ < static_cast<int>(pos_.size())) {
        p.setRenderHint(QPainter::Antialiasing);
        p.setPen(QPen(Qt::black, 1.5));
        p.setBrush(Qt::NoBrush);
        p.drawEllipse(pos_[static_cast<size_t>(hover_)], 6, 6);
    }
}

void TradeoffPlot::mouseMoveEvent(QMouseEvent* event) {
    const int h = hit(event->position()).value_or(-1);
    if (h != hover_) {
        hover_ = h;
        setCursor(h >= 0 ? Qt::PointingHandCursor : Qt::ArrowCursor);
        update();
    }
}

void TradeoffPlot::mouseReleaseEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton) return;
    if (const auto h = hit(event->position())) owner_->choosePoint(*h);
}

bool TradeoffPlot::event(QEvent* e) {
    if (e->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(e);
        if (const auto h = hit(help->pos())) QToolTip::showText(help->globalPos(), owner_->pointToolTip(*h), this);
        else QToolTip::hideText();
        return true;
    }
    return QWidget::event(e);
}

// ---- TradeoffView

TradeoffView::TradeoffView(QWidget* parent) : QWidget(parent), ranked_(this) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    auto* bar = new QHBoxLayout;
    axes_box_ = new QComboBox(this);
    axes_box_->addItems({tr("Iteration time vs peak memory"), tr("Tokens/s vs GPUs")});
    colour_box_ = new QComboBox(this);
    colour_box_->addItems({tr("Colour by tp"), tr("Colour by pp"), tr("Colour by recompute")});
    // The boxes shrink (eliding) rather than widen the tab past a 1024-pixel window, and grow to their text.
    for (QComboBox* box : {axes_box_, colour_box_}) {
        box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        box->setMinimumContentsLength(8);
        box->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
        box->setMaximumWidth(box->fontMetrics().horizontalAdvance(box->itemText(0)) + 48);
        bar->addWidget(box, 1);
    }
    bar->addStretch(0);
    layout->addLayout(bar);
    auto* split = new QSplitter(Qt::Horizontal, this);
    plot_ = new TradeoffPlot(this);
    table_ = new QTableView(this);
    table_->setModel(&ranked_);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->verticalHeader()->hide();
    table_->verticalHeader()->setDefaultSectionSize(table_->fontMetrics().height() + 8);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    split->addWidget(plot_);
    split->addWidget(table_);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 0);
    split_ = split;
    layout->addWidget(split, 1);
    connect(axes_box_, &QComboBox::currentIndexChanged, this, [this](int i) { setAxes(static_cast<Axes>(i)); });
    connect(colour_box_, &QComboBox::currentIndexChanged, this, [this](int i) { setColouring(static_cast<Colour>(i)); });
    connect(table_, &QTableView::clicked, this, [this](const QModelIndex& i) { chooseRankedRow(i.row()); });
}

void TradeoffView::setSearch(std::vector<llm::PlanPoint> points, const llm::SearchResult& result, double hbm_bytes,
                             std::int64_t seq) {
    points_ = std::move(points);
    units_.clear();
    result_ = result;
    hbm_ = hbm_bytes;
    seq_ = seq;
    chosen_ = -1;
    // The front's points among all: what a click near the drawn front means.
    front_.clear();
    for (const llm::PlanPoint& f : result_.pareto)
        for (std::size_t i = 0; i < points_.size(); ++i)
            if (points_[i].plan == f.plan) {
                front_.push_back(static_cast<int>(i));
                break;
            }
    ranked_.setPlans(result.ranked);
    fitTable();
    plot_->invalidate();
}

void TradeoffView::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    fitTable();
}

void TradeoffView::fitTable() {
    // The table as wide as its columns, up to half the view; the plot takes the rest.
    const int want = table_->horizontalHeader()->length() + 2 * table_->frameWidth() +
                     table_->verticalScrollBar()->sizeHint().width() + 2;
    const int total = split_->width();
    const int t = std::min(want, total / 2);
    split_->setSizes({total - t - split_->handleWidth(), t});
}

void TradeoffView::clear() { setSearch({}, {}, 0, 0); }

void TradeoffView::setAxes(Axes axes) {
    axes_ = axes;
    units_.clear();
    axes_box_->setCurrentIndex(static_cast<int>(axes));
    plot_->invalidate();
}

void TradeoffView::setColouring(Colour colour) {
    colour_ = colour;
    colour_box_->setCurrentIndex(static_cast<int>(colour));
    plot_->invalidate();
}

double TradeoffView::xOf(const llm::PlanPoint& p) const {
    return axes_ == Axes::TimeVsMemory ? p.iteration_s : static_cast<double>(p.plan.tp * p.plan.pp * p.plan.dp * p.plan.cp);
}

double TradeoffView::yOf(const llm::PlanPoint& p) const {
    if (axes_ == Axes::TimeVsMemory) return p.peak_bytes;
    return p.iteration_s > 0 ? static_cast<double>(p.plan.global_batch * seq_) / p.iteration_s : 0;
}

int TradeoffView::colourKey(const llm::PlanPoint& p) const {
    switch (colour_) {
    case Colour::Tp: return log2Key(p.plan.tp);
    case Colour::Pp: return log2Key(p.plan.pp);
    case Colour::Recompute: return static_cast<int>(p.plan.recompute);
    }
    return 0;
}

llmview::PlotArea TradeoffView::plotArea(const QRect& area) const {
    llmview::PlotArea a;
    const QFontMetrics fm(font());
    a.plot = llmview::plotRect(area, font(), 2.2 * fm.height());
    double x0 = INFINITY, x1 = -INFINITY, y0 = INFINITY, y1 = -INFINITY;
    for (const auto& p : points_) {
        x0 = std::min(x0, xOf(p)), x1 = std::max(x1, xOf(p));
        y0 = std::min(y0, yOf(p)), y1 = std::max(y1, yOf(p));
    }
    if (axes_ == Axes::TimeVsMemory && hbm_ > 0) y1 = std::max(y1, hbm_), y0 = std::min(y0, hbm_);
    if (points_.empty()) x0 = 0, x1 = 1, y0 = 0, y1 = 1;
    const bool xlog = x0 > 0 && x1 / x0 > 10, ylog = y0 > 0 && y1 / y0 > 10;
    a.x = llmview::Axis::covering(x0, x1, xlog);
    a.y = llmview::Axis::covering(y0, y1, ylog);
    if (axes_ == Axes::TimeVsMemory) {
        a.x.title = tr("iteration time");
        a.x.unit = QStringLiteral("s");
        a.y.title = tr("peak memory per GPU");
        a.y.unit = QStringLiteral("GiB");
        a.y.scale = 1 / kGiB;
    } else {
        a.x.title = tr("GPUs");
        a.y.title = tr("tokens/s");
    }
    return a;
}

std::vector<QPointF> TradeoffView::pixelPositions(const llmview::PlotArea& a) const {
    // Positions along the axes (0..1) do not change with the size: kept until the data or axes change,
    // so a resize costs no logarithms.
    const bool same = units_.size() == points_.size() && unit_x_ == std::pair(a.x.lo, a.x.hi) &&
                      unit_y_ == std::pair(a.y.lo, a.y.hi) && unit_log_ == std::pair(a.x.log, a.y.log);
    if (!same) {
        units_.resize(points_.size());
        for (size_t i = 0; i < points_.size(); ++i) units_[i] = QPointF(a.x.toUnit(xOf(points_[i])), a.y.toUnit(yOf(points_[i])));
        unit_x_ = {a.x.lo, a.x.hi}, unit_y_ = {a.y.lo, a.y.hi}, unit_log_ = {a.x.log, a.y.log};
    }
    std::vector<QPointF> pos(points_.size());
    const QRectF& r = a.plot;
    for (size_t i = 0; i < points_.size(); ++i)
        pos[i] = QPointF(r.left() + units_[i].x() * r.width(), r.bottom() - units_[i].y() * r.height());
    return pos;
}

QImage TradeoffView::rasterPoints(const std::vector<QPointF>& pos, QSize size) const {
    QImage img(size, QImage::Format_ARGB32_Premultiplied);
    img.fill(Qt::transparent);
    const QRect clip = plotArea(QRect(QPoint(0, 0), size)).plot.toAlignedRect() & img.rect();
    // Points that do not fit first (faded), fitting ones on top; each a 3x3 square written directly.
    for (int pass = 0; pass < 2; ++pass)
        for (size_t i = 0; i < points_.size(); ++i) {
            const auto& p = points_[i];
            if (p.fits != (pass == 1)) continue;
            const int x = static_cast<int>(std::lround(pos[i].x())), y = static_cast<int>(std::lround(pos[i].y()));
            QColor c = keyColour(colourKey(p));
            if (!p.fits) c = QColor((c.red() + 3 * 255) / 4, (c.green() + 3 * 255) / 4, (c.blue() + 3 * 255) / 4);
            const QRgb rgb = c.rgba();
            for (int yy = std::max(y - 1, clip.top()); yy <= std::min(y + 1, clip.bottom()); ++yy) {
                auto* line = reinterpret_cast<QRgb*>(img.scanLine(yy));
                for (int xx = std::max(x - 1, clip.left()); xx <= std::min(x + 1, clip.right()); ++xx) line[xx] = rgb;
            }
        }
    return img;
}

void TradeoffView::paintPlot(QPainter& p, const QRect& area, const QImage* cached) const {
    const llmview::PlotArea a = cached ? plot_->area() : plotArea(area);
    p.fillRect(area, Qt::white);
    llmview::paintAxes(p, a, font());
    if (cached) p.drawImage(area.topLeft(), *cached);
    else p.drawImage(area.topLeft(), rasterPoints(pixelPositions(plotArea(QRect(QPoint(0, 0), area.size()))), area.size()));
    p.save();
    p.setRenderHint(QPainter::Antialiasing);
    p.setClipRect(a.plot);
    // The Pareto front (fastest first) as a step line, and its points.
    if (axes_ == Axes::TimeVsMemory && !result_.pareto.empty()) {
        QPainterPath path;
        for (size_t i = 0; i < result_.pareto.size(); ++i) {
            const QPointF q(a.px(xOf(result_.pareto[i])), a.py(yOf(result_.pareto[i])));
            if (i == 0) path.moveTo(q);
            else path.lineTo(q);
        }
        p.setPen(QPen(QColor(20, 20, 20), 1.6));
        p.drawPath(path);
        p.setBrush(Qt::white);
        for (const auto& pt : result_.pareto) p.drawEllipse(QPointF(a.px(xOf(pt)), a.py(yOf(pt))), 3, 3);
    }
    if (axes_ == Axes::TimeVsMemory && hbm_ > 0) {
        p.setPen(QPen(QColor(200, 30, 30), 1.4, Qt::DashLine));
        const double y = a.py(hbm_);
        p.drawLine(QPointF(a.plot.left(), y), QPointF(a.plot.right(), y));
        p.drawText(QRectF(a.plot.left() + 4, y - 18, a.plot.width() - 8, 16), Qt::AlignRight | Qt::AlignBottom,
                   tr("HBM %1 GiB").arg(hbm_ / kGiB, 0, 'f', 0));
    }
    if (chosen_ >= 0 && chosen_ < static_cast<int>(points_.size())) {
        const auto& pt = points_[static_cast<size_t>(chosen_)];
        p.setPen(QPen(QColor(200, 30, 30), 2));
        p.setBrush(Qt::NoBrush);
        p.drawEllipse(QPointF(a.px(xOf(pt)), a.py(yOf(pt))), 7, 7);
    }
    p.restore();
    // Title and legend in the reserved strip.
    const QFontMetrics fm(font());
    p.save();
    p.setPen(QColor(40, 40, 40));
    QFont bold = font();
    bold.setBold(true);
    p.setFont(bold);
    const auto fitting = std::count_if(points_.begin(), points_.end(), [](const auto& q) { return q.fits; });
    const double room = area.width() - 12;
    QString title = points_.empty() ? tr("No search yet")
                                    : tr("%1 plans evaluated, %2 fit, %3 on the Pareto front")
                                          .arg(points_.size())
                                          .arg(fitting)
                                          .arg(result_.pareto.size());
    // A narrow chart (1024 px with the table beside it) says it shorter before it elides.
    if (!points_.empty() && QFontMetrics(bold).horizontalAdvance(title) > room)
        title = tr("%1 plans, %2 fit, %3 Pareto").arg(points_.size()).arg(fitting).arg(result_.pareto.size());
    title = QFontMetrics(bold).elidedText(title, Qt::ElideRight, static_cast<int>(room));
    p.drawText(QRectF(area.left() + 6, area.top() + 2, room, fm.height() + 2), Qt::AlignLeft, title);
    p.setFont(font());
    double x = area.left() + 6;
    const double y = area.top() + 4 + fm.height();
    std::vector<int> keys;
    for (const auto& pt : points_)
        if (std::find(keys.begin(), keys.end(), colourKey(pt)) == keys.end()) keys.push_back(colourKey(pt));
    std::sort(keys.begin(), keys.end());
    for (int k : keys) {
        QString label = colour_ == Colour::Recompute ? QString::fromLatin1(llm::recomputeName(static_cast<llm::Recompute>(k)))
                                                     : QStringLiteral("%1 %2").arg(colour_ == Colour::Tp ? "tp" : "pp").arg(1 << k);
        const double w = fm.horizontalAdvance(label) + 22;
        if (x + w > area.right()) break;
        p.fillRect(QRectF(x, y + fm.height() / 2.0 - 4, 8, 8), keyColour(k));
        p.drawText(QRectF(x + 12, y, w, fm.height() + 2), Qt::AlignLeft, label);
        x += w;
    }
    const QString faded = tr("faded: does not fit");
    if (x + fm.horizontalAdvance(faded) + 8 < area.right()) p.setPen(QColor(120, 120, 120)), p.drawText(QPointF(x + 6, y + fm.ascent()), faded);
    p.restore();
}

std::optional<int> TradeoffView::pointAt(const QPointF& pos) const { return plot_->hit(pos); }

std::optional<QPointF> TradeoffView::pointPosition(int index) const {
    if (index < 0 || index >= static_cast<int>(points_.size())) return std::nullopt;
    plot_->hit(QPointF(-100, -100));  // lays out when needed
    const auto& a = plot_->area();
    return QPointF(a.px(xOf(points_[static_cast<size_t>(index)])), a.py(yOf(points_[static_cast<size_t>(index)])));
}

QString TradeoffView::pointToolTip(int index) const {
    if (index < 0 || index >= static_cast<int>(points_.size())) return {};
    const auto& pt = points_[static_cast<size_t>(index)];
    return planText(pt.plan) + QStringLiteral("\n%1 ms per iteration, peak %2 GiB on stage %3, MFU %4 %%5")
                                    .arg(pt.iteration_s * 1e3, 0, 'f', 1)
                                    .arg(pt.peak_bytes / kGiB, 0, 'f', 1)
                                    .arg(pt.peak_stage)
                                    .arg(pt.mfu * 100, 0, 'f', 1)
                                    .arg(pt.fits ? QString() : tr(" — does not fit"));
}

void TradeoffView::choosePoint(int index) {
    if (index < 0 || index >= static_cast<int>(points_.size())) return;
    chosen_ = index;
    plot_->update();
    emit planChosen(points_[static_cast<size_t>(index)].plan);
}

void TradeoffView::chooseRankedRow(int row) {
    if (row < 0 || row >= ranked_.rowCount()) return;
    const llm::Plan& plan = ranked_.plans()[static_cast<size_t>(row)].plan;
    const auto it = std::find_if(points_.begin(), points_.end(), [&](const auto& q) { return q.plan == plan; });
    chosen_ = it == points_.end() ? -1 : static_cast<int>(it - points_.begin());
    plot_->update();
    emit planChosen(plan);
}

void TradeoffView::paintFigure(QPainter& painter, const QRect& area) const { paintPlot(painter, area, nullptr); }

CsvTable TradeoffView::csv() const {
    CsvTable t;
    t.header = {"rank", "tp", "pp", "dp", "cp", "micro_batch", "schedule", "interleave", "recompute", "zero",
                "distributed_optimizer", "iteration_s", "peak_bytes", "mfu"};
    int r = 0;
    for (const auto& pt : ranked_.plans()) {
        const auto& p = pt.plan;
        t.rows.push_back({std::to_string(++r), std::to_string(p.tp), std::to_string(p.pp), std::to_string(p.dp),
                          std::to_string(p.cp), std::to_string(p.micro_batch), llm::scheduleName(p.schedule),
                          std::to_string(p.interleave), llm::recomputeName(p.recompute), std::to_string(p.zero),
                          p.distributed_optimizer ? "true" : "false", formatNumber(pt.iteration_s),
                          formatNumber(pt.peak_bytes), formatNumber(pt.mfu)});
    }
    return t;
}

CsvTable TradeoffView::pointsCsv() const {
    CsvTable t;
    t.header = {"tp", "pp", "dp", "cp", "micro_batch", "schedule", "interleave", "recompute", "iteration_s", "peak_bytes", "fits"};
    for (const auto& pt : points_) {
        const auto& p = pt.plan;
        t.rows.push_back({std::to_string(p.tp), std::to_string(p.pp), std::to_string(p.dp), std::to_string(p.cp),
                          std::to_string(p.micro_batch), llm::scheduleName(p.schedule), std::to_string(p.interleave),
                          llm::recomputeName(p.recompute), formatNumber(pt.iteration_s), formatNumber(pt.peak_bytes),
                          pt.fits ? "true" : "false"});
    }
    return t;
}

}  // namespace partita
