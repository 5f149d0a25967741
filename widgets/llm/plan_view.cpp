#include "widgets/llm/plan_view.h"

#include <algorithm>
#include <cmath>

#include <QPainter>
#include <QPainterPath>

#include "core/llm/numbers.h"
#include "widgets/common/qt_text.h"
#include "widgets/llm/plan_view_text.h"

namespace partita {

namespace {

constexpr std::int64_t kMaxColumns = 16, kMaxReplicaRows = 4;

QColor stageColor(std::int64_t stage, std::int64_t stages) {
    const int hue = stages <= 1 ? 210 : static_cast<int>(300.0 * static_cast<double>(stage) / static_cast<double>(stages - 1));
    return QColor::fromHsv(hue, 110, 235);
}

struct Geometry {
    QRectF title, legend, grid;
    std::int64_t per_column = 1, columns = 1;
};

Geometry geometryIn(const QRect& area, const LlmShown& s, const QFontMetrics& fm, const QString& legend) {
    Geometry g;
    const int line = fm.height();
    g.title = QRectF(area.left() + 8, area.top() + 4, area.width() - 16, line);
    const QRect lb = fm.boundingRect(QRect(area.left() + 8, 0, area.width() - 16, 1000), Qt::TextWordWrap, legend);
    g.legend = QRectF(area.left() + 8, g.title.bottom() + 2, area.width() - 16, lb.height());
    g.grid = QRectF(QPointF(area.left() + 8, g.legend.bottom() + 6), QPointF(area.right() - 8, area.bottom() - 6));
    const std::int64_t pp = s.settings.plan.pp;
    g.per_column = (pp + kMaxColumns - 1) / kMaxColumns;
    g.columns = (pp + g.per_column - 1) / g.per_column;
    return g;
}

// Megatron's rank order: tp fastest, then cp, dp, pp.
std::int64_t rankOf(const llm::Plan& p, std::int64_t stage, std::int64_t replica, std::int64_t t) {
    return (stage * p.dp + replica) * p.tp * p.cp + t;
}

}  // namespace

QString LlmPlanView::title() const {
    if (!shown_) return tr("No plan evaluated");
    const llm::Plan& p = shown_->settings.plan;
    const std::int64_t gpn = planNodeSize(shown_->settings.profile);
    const std::int64_t gpus = p.gpus();
    QString t = tr("tp %1 × pp %2 × dp %3").arg(p.tp).arg(p.pp).arg(p.dp);
    if (p.cp > 1) t += tr(" × cp %1").arg(p.cp);
    return t + tr(" = %1 GPUs on %2 nodes of %3").arg(gpus).arg((gpus + gpn - 1) / gpn).arg(gpn);
}

std::vector<LlmPlanView::Cell> LlmPlanView::cells(const QRect& area) const {
    std::vector<Cell> out;
    if (!shown_) return out;
    const QFontMetrics fm(font());
    const Geometry g = geometryIn(area, *shown_, fm, planLegend(*shown_));
    const llm::Plan& p = shown_->settings.plan;
    std::vector<std::int64_t> replicas;  // -1: the band standing for the replicas between
    if (p.dp <= kMaxReplicaRows) {
        for (std::int64_t j = 0; j < p.dp; ++j) replicas.push_back(j);
    } else {
        replicas = {0, -1, p.dp - 1};
    }
    const double header = 2.0 * fm.height() + 4, band = 1.6 * fm.height();
    const int full_rows = static_cast<int>(std::count_if(replicas.begin(), replicas.end(), [](auto j) { return j >= 0; }));
    const double left = g.grid.left() + fm.horizontalAdvance("replica 00") + 6;
    const double col_w = (g.grid.right() - left) / static_cast<double>(g.columns);
    const double rows_h = g.grid.height() - header - (full_rows < static_cast<int>(replicas.size()) ? band : 0);
    const double row_h = std::min(rows_h / full_rows, 4.0 * fm.height() + 40);
    double y = g.grid.top() + header;
    for (std::int64_t j : replicas) {
        const double h = j < 0 ? band : row_h;
        for (std::int64_t c = 0; c < g.columns; ++c) {
            const std::int64_t first = c * g.per_column, last = std::min(p.pp, first + g.per_column) - 1;
            const QRectF r(left + c * col_w + 7, y + (j < 0 ? 2 : 6), col_w - 14, h - (j < 0 ? 4 : 12));
            out.push_back({r, first, last, j});
        }
        y += h;
    }
    return out;
}

void LlmPlanView::paintFigure(QPainter& p, const QRect& area) const {
    if (!beginFigure(p, area, title())) return;
    const QFontMetrics fm(p.font());
    const LlmShown& s = *shown_;
    const llm::Plan& plan = s.settings.plan;
    const llm::Placement& place = s.eval.placement;
    const std::int64_t gpn = planNodeSize(s.settings.profile);
    const QString legend = planLegend(s);
    const Geometry g = geometryIn(area, s, fm, legend);
    QFont bold = p.font();
    bold.setBold(true);
    p.setFont(bold);
    p.setPen(stale_ ? Qt::darkGray : Qt::black);
    p.drawText(g.title, Qt::AlignLeft | Qt::AlignVCenter,
               stale_ ? tr("%1 (inputs invalid: the last valid plan)").arg(title()) : title());
    p.setFont(QFont(bold.family(), -1));
    p.setFont(QWidget::font());
    p.setPen(Qt::black);
    p.drawText(g.legend, Qt::TextWordWrap | Qt::AlignLeft, legend);

    const std::vector<Cell> all = cells(area);
    const auto slowPen = [&](int tier) {
        return tier > 0 ? QPen(QColor(200, 0, 0), 2, Qt::DashLine) : QPen(QColor(90, 90, 90), 1.5);
    };
    // Column headers: the stages and their layers.
    for (const Cell& c : all) {
        if (c.replica != 0) continue;
        const QRectF h(c.rect.left() - 6, g.grid.top(), c.rect.width() + 12, 2.0 * fm.height() + 4);
        p.setPen(Qt::black);
        const QString name = (c.first == c.last ? tr("stage %1").arg(c.first) : tr("stages %1–%2").arg(c.first).arg(c.last)) +
                             stageExtras(s, c.first, c.last);
        p.drawText(h, Qt::AlignHCenter | Qt::AlignTop, fm.elidedText(name, Qt::ElideRight, static_cast<int>(h.width())));
        p.setPen(QColor(70, 70, 70));
        p.drawText(h, Qt::AlignHCenter | Qt::AlignBottom,
                   fm.elidedText(stageLayerText(s, c.first, c.last), Qt::ElideRight, static_cast<int>(h.width())));
    }
    for (size_t i = 0; i < all.size(); ++i) {
        const Cell& c = all[i];
        if (c.replica < 0) {
            if (c.first != 0) continue;
            const QRectF band(c.rect.left(), c.rect.top(), g.grid.right() - c.rect.left(), c.rect.height());
            p.setPen(QColor(60, 60, 60));
            p.drawText(band, Qt::AlignCenter,
                       tr("⋮  replicas 1–%1 alike  (× %2 replicas in all)  ⋮").arg(plan.dp - 2).arg(plan.dp));
            continue;
        }
        if (c.first == 0) {
            p.setPen(Qt::black);
            p.drawText(QRectF(g.grid.left(), c.rect.top(), c.rect.left() - g.grid.left() - 6, c.rect.height()),
                       Qt::AlignLeft | Qt::AlignVCenter, tr("replica %1").arg(c.replica));
        }
        QColor fill = stageColor(c.first, plan.pp);
        if (stale_) fill = QColor(qGray(fill.rgb()), qGray(fill.rgb()), qGray(fill.rgb()));
        p.setPen(QPen(fill.darker(160), 1));
        p.setBrush(fill.lighter(125));
        p.drawRoundedRect(c.rect, 4, 4);
        // The TP group's GPUs; a thick bar where the group crosses a node boundary.
        const std::int64_t shown_tp = std::min<std::int64_t>(plan.tp, 16);
        const double side = std::clamp((c.rect.width() - 8) / static_cast<double>(shown_tp) - 2, 3.0,
                                       std::min(26.0, c.rect.height() * 0.45));
        const double gx = c.rect.center().x() - shown_tp * (side + 2) / 2.0, gy = c.rect.top() + 5;
        p.setBrush(fill.darker(115));
        for (std::int64_t t = 0; t < shown_tp; ++t) {
            p.setPen(Qt::NoPen);
            p.drawRect(QRectF(gx + t * (side + 2), gy, side, side));
            if (t > 0 && rankOf(plan, c.first, c.replica, t) % gpn == 0 && plan.tp <= 16) {
                p.setPen(QPen(QColor(200, 0, 0), 2.5));
                p.drawLine(QPointF(gx + t * (side + 2) - 1, gy - 2), QPointF(gx + t * (side + 2) - 1, gy + side + 2));
            }
        }
        p.setBrush(Qt::NoBrush);
        const std::int64_t n0 = rankOf(plan, c.first, c.replica, 0) / gpn;
        const std::int64_t n1 = rankOf(plan, c.last, c.replica, plan.tp - 1) / gpn;
        QString text = plan.tp > 16 ? tr("tp %1").arg(plan.tp) + "  " : QString();
        text += n0 == n1 ? tr("node %1").arg(n0) : tr("nodes %1–%2").arg(n0).arg(n1);
        if (c.rect.height() > side + fm.height() + 6) {
            p.setPen(Qt::black);
            p.drawText(QRectF(c.rect.left() + 2, gy + side + 2, c.rect.width() - 4, c.rect.bottom() - gy - side - 2),
                       Qt::AlignHCenter | Qt::AlignTop, fm.elidedText(text, Qt::ElideRight, static_cast<int>(c.rect.width() - 4)));
        }
        // PP send to the next column; DP link to the replica below.
        if (i + 1 < all.size() && all[i + 1].replica == c.replica) {
            const QRectF& n = all[i + 1].rect;
            p.setPen(slowPen(place.pp));
            const QPointF a(c.rect.right() + 1, c.rect.center().y()), b(n.left() - 1, n.center().y());
            p.drawLine(a, b);
            p.drawLine(b, b + QPointF(-4, -3));
            p.drawLine(b, b + QPointF(-4, 3));
        }
        if (plan.dp > 1 && c.replica + 1 < plan.dp) {
            p.setPen(slowPen(place.dp));
            for (const Cell& below : all)
                if (below.first == c.first && below.rect.top() > c.rect.bottom() && (below.replica != c.replica)) {
                    p.drawLine(QPointF(c.rect.center().x(), c.rect.bottom() + 1), QPointF(c.rect.center().x(), below.rect.top() - 1));
                    break;
                }
        }
    }
}

QString LlmPlanView::toolTipAt(const QPoint& pos) const {
    for (const Cell& c : cells(rect()))
        if (c.rect.contains(pos)) return cellToolTip(c);
    return {};
}

}  // namespace partita
