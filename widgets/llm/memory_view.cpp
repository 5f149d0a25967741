#include "widgets/llm/memory_view.h"

#include <algorithm>
#include <cmath>

#include <QPainter>

#include "core/llm/numbers.h"
#include "widgets/common/qt_text.h"

namespace partita {

namespace {

using llm::kGiB;

QString gib(double bytes) { return QString::number(bytes / kGiB, 'f', 2) + " GiB"; }

const QColor kTermColors[] = {QColor(66, 114, 196), QColor(112, 160, 224), QColor(237, 125, 49), QColor(112, 173, 71),
                              QColor(165, 165, 165), QColor(255, 192, 0), QColor(120, 120, 120)};

// 1, 2 or 5 times a power of ten, about `span` / 5.
double niceStep(double span) {
    const double raw = span / 5, mag = std::pow(10.0, std::floor(std::log10(raw)));
    for (double m : {1.0, 2.0, 5.0})
        if (m * mag >= raw) return m * mag;
    return 10 * mag;
}

struct MemoryLayout {
    QRect title, plot, legend;
    double top_gib = 1;
};

MemoryLayout layoutIn(const QRect& area, const LlmShown& s, const QFontMetrics& fm, const QString& title) {
    MemoryLayout l;
    const int line = fm.height();
    const QRect title_box = fm.boundingRect(area.adjusted(8, 4, -8, 0), Qt::TextWordWrap, title);
    l.title = QRect(area.left() + 8, area.top() + 4, area.width() - 16, title_box.height());
    l.legend = QRect(area.left() + 8, area.bottom() - 2 * line - 4, area.width() - 16, 2 * line);
    const int axis = fm.horizontalAdvance("0000 GiB") + 8;
    l.plot = QRect(QPoint(area.left() + axis, l.title.bottom() + line), QPoint(area.right() - 12, l.legend.top() - line - 6));
    double top = s.eval.capacity_bytes;
    for (const auto& st : s.eval.stages) top = std::max(top, st.total());
    l.top_gib = std::max(top / kGiB * 1.08, 1.0);
    return l;
}

}  // namespace

QString LlmMemoryView::title() const {
    if (!shown_) return tr("No plan evaluated");
    const llm::Evaluation& e = shown_->eval;
    const QString peak = tr("peak %1 on stage %2 of %3 HBM").arg(gib(e.peak_bytes)).arg(e.peak_stage).arg(gib(e.capacity_bytes));
    if (e.fits) return tr("Fits: %1 per GPU").arg(peak);
    return tr("Does not fit: %1. %2").arg(peak, q(e.cut));
}

CsvTable LlmMemoryView::csv() const {
    CsvTable t;
    t.header = {"stage", "layers"};
    for (const llm::NamedBytes& m : llm::namedMemory({})) t.header.push_back(std::string(m.key) + "_gib");
    for (const char* h : {"total_gib", "capacity_gib", "fits"}) t.header.push_back(h);
    if (!shown_) return t;
    const llm::Evaluation& e = shown_->eval;
    for (const auto& st : e.stages) {
        std::vector<std::string> row{std::to_string(st.stage), std::to_string(st.layers)};
        for (const llm::NamedBytes& m : llm::namedMemory(st)) row.push_back(formatNumber(m.bytes / kGiB));
        row.push_back(formatNumber(st.total() / kGiB));
        row.push_back(formatNumber(e.capacity_bytes / kGiB));
        row.push_back(st.total() <= e.capacity_bytes ? "yes" : "no");
        t.rows.push_back(row);
    }
    return t;
}

void LlmMemoryView::paintFigure(QPainter& p, const QRect& area) const {
    if (!beginFigure(p, area, title())) return;
    const QFontMetrics fm(p.font());
    const llm::Evaluation& e = shown_->eval;
    const QString head = stale_ ? tr("(inputs invalid: showing the last valid plan) ") + title() : title();
    const MemoryLayout l = layoutIn(area, *shown_, fm, head);
    p.setPen(stale_ ? Qt::darkGray : e.fits ? QColor(0, 110, 0) : QColor(200, 0, 0));
    p.drawText(l.title, Qt::TextWordWrap | Qt::AlignLeft, head);

    // Axis and grid.
    const auto yOf = [&](double gib_value) { return l.plot.bottom() - gib_value / l.top_gib * l.plot.height(); };
    const double step = niceStep(l.top_gib);
    p.setPen(QColor(220, 220, 220));
    for (double v = 0; v <= l.top_gib; v += step) {
        const double y = yOf(v);
        p.drawLine(QPointF(l.plot.left(), y), QPointF(l.plot.right(), y));
        p.setPen(Qt::black);
        p.drawText(QRectF(area.left(), y - fm.height() / 2.0, l.plot.left() - area.left() - 4, fm.height()),
                   Qt::AlignRight | Qt::AlignVCenter, QString::number(v) + " GiB");
        p.setPen(QColor(220, 220, 220));
    }

    // Bars.
    const int n = static_cast<int>(e.stages.size());
    const double slot = static_cast<double>(l.plot.width()) / std::max(n, 1);
    const double bar = std::max(1.0, slot * 0.7);
    const int label_every = std::max(1, static_cast<int>(std::ceil(fm.horizontalAdvance("s00") / slot)));
    for (int i = 0; i < n; ++i) {
        const llm::StageMemory& st = e.stages[i];
        const double x = l.plot.left() + slot * i + (slot - bar) / 2;
        double base = 0;
        const std::vector<llm::NamedBytes> terms = llm::namedMemory(st);
        for (size_t t = 0; t < terms.size(); ++t) {
            const double v = terms[t].bytes / kGiB;
            QColor c = kTermColors[t];
            if (stale_) c = QColor(qGray(c.rgb()), qGray(c.rgb()), qGray(c.rgb())).lighter(130);
            p.fillRect(QRectF(x, yOf(base + v), bar, yOf(base) - yOf(base + v)), c);
            base += v;
        }
        if (st.total() > e.capacity_bytes) {
            p.setPen(QPen(QColor(200, 0, 0), 2));
            p.drawRect(QRectF(x, yOf(base), bar, yOf(0) - yOf(base)));
        }
        if (i % label_every == 0) {
            p.setPen(Qt::black);
            p.drawText(QRectF(l.plot.left() + slot * i - slot, l.plot.bottom() + 2, 3 * slot, fm.height()),
                       Qt::AlignHCenter | Qt::AlignTop, QString("s%1").arg(st.stage));
        }
    }
    // The HBM line.
    p.setPen(QPen(e.fits ? QColor(0, 0, 0) : QColor(200, 0, 0), 2, Qt::DashLine));
    const double cap_y = yOf(e.capacity_bytes / kGiB);
    p.drawLine(QPointF(l.plot.left(), cap_y), QPointF(l.plot.right(), cap_y));
    p.drawText(QRectF(l.plot.left() + 4, cap_y - fm.height() - 1, l.plot.width() - 8, fm.height()),
               Qt::AlignRight | Qt::AlignBottom, tr("HBM %1").arg(gib(e.capacity_bytes)));
    p.setPen(Qt::black);
    p.drawLine(l.plot.bottomLeft(), l.plot.bottomRight());
    p.drawLine(l.plot.bottomLeft(), l.plot.topLeft());

    // Legend, wrapping onto a second line when narrow.
    int x = l.legend.left(), y = l.legend.top();
    const std::vector<llm::NamedBytes> terms = llm::namedMemory({});
    for (size_t t = 0; t < terms.size(); ++t) {
        const QString name = terms[t].label;
        const int w = fm.height() + 4 + fm.horizontalAdvance(name) + 14;
        if (x + w > l.legend.right() && x > l.legend.left()) {
            x = l.legend.left();
            y += fm.height() + 2;
        }
        p.fillRect(QRect(x, y + 2, fm.height() - 4, fm.height() - 4), kTermColors[t]);
        p.setPen(Qt::black);
        p.drawText(QPoint(x + fm.height() + 2, y + fm.ascent()), name);
        x += w;
    }
}

int LlmMemoryView::stageAt(const QPoint& pos) const {
    if (!shown_ || shown_->eval.stages.empty()) return -1;
    const QFontMetrics fm(font());
    const MemoryLayout l = layoutIn(rect(), *shown_, fm, title());
    if (!l.plot.contains(pos)) return -1;
    const int n = static_cast<int>(shown_->eval.stages.size());
    return std::clamp(static_cast<int>((pos.x() - l.plot.left()) * n / std::max(l.plot.width(), 1)), 0, n - 1);
}

QString LlmMemoryView::toolTipAt(const QPoint& pos) const {
    const int i = stageAt(pos);
    if (i < 0) return {};
    const llm::StageMemory& st = shown_->eval.stages[i];
    QString text = tr("<b>Stage %1</b> (%2 layers), per GPU<br>").arg(st.stage).arg(st.layers);
    for (const llm::NamedBytes& m : llm::namedMemory(st)) text += QString("%1: %2<br>").arg(m.label, gib(m.bytes));
    text += tr("<b>total %1</b> of %2").arg(gib(st.total()), gib(shown_->eval.capacity_bytes));
    if (st.host > 0) text += tr("<br>offloaded to host: %1").arg(gib(st.host));
    return text;
}

}  // namespace partita
