#include "widgets/sweep/sweep_scatter.h"

#include <algorithm>
#include <cmath>

#include <QHelpEvent>
#include <QMouseEvent>
#include <QToolTip>
#include <qcustomplot.h>

#include "widgets/common/plot_frame.h"
#include "widgets/common/qt_text.h"
#include "widgets/sweep/sweep_model.h"

namespace partita {

namespace {

constexpr double kHitPixels = 8;

// Positive values spanning more than a decade read better on a log scale.
bool wantsLog(const std::vector<double>& values) {
    if (values.empty()) return false;
    const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
    return *lo > 0 && *hi / *lo > 10;
}

void setAxis(QCPAxis* axis, const std::vector<double>& values, const QString& label) {
    axis->setLabel(label);
    const bool log = wantsLog(values);
    axis->setScaleType(log ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
    if (log) {
        // Labelled ticks at 1, 2 and 5 of each decade (only the powers of ten over more than three
        // decades): a log axis labelled only at 1 and 10 is hard to read off.
        const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
        const int first = static_cast<int>(std::floor(std::log10(*lo / 1.5)));
        const int last = static_cast<int>(std::ceil(std::log10(*hi * 1.5)));
        auto ticker = QSharedPointer<QCPAxisTickerText>::create();
        for (int k = first; k <= last; ++k)
            for (double m : last - first > 3 ? std::vector<double>{1} : std::vector<double>{1, 2, 5}) {
                const double v = m * std::pow(10.0, k);
                ticker->addTick(v, q(compactNumber(v)));
            }
        axis->setTicker(ticker);
    } else {
        axis->setTicker(QSharedPointer<QCPAxisTicker>::create());
        axis->setNumberFormat("gb");
        axis->setNumberPrecision(6);
    }
    if (values.empty()) return axis->setRange(0, 1);
    const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
    if (log) return axis->setRange(*lo / 1.5, *hi * 1.5);
    const double pad = *hi > *lo ? (*hi - *lo) * 0.06 : std::max(std::abs(*hi) * 0.1, 1.0);
    axis->setRange(*lo - pad, *hi + pad);
}

}  // namespace

QColor sweepMethodColour(std::size_t index) {
    static const int order[] = {5, 6, 3, 7, 1, 2, 4};  // blue, vermillion, green, purple, orange, sky, yellow
    return qcolor(view::okabeIto(order[index % std::size(order)]));
}

SweepScatter::SweepScatter(QWidget* parent) : QWidget(parent), plot_(makeTitledPlot(this)) {
    // The legend right of the axes: it never hides a point.
    plot_->axisRect()->insetLayout()->take(plot_->legend);
    auto* side = new QCPLayoutGrid;
    plot_->plotLayout()->addElement(1, 1, side);
    side->addElement(0, 0, plot_->legend);
    side->addElement(1, 0, new QCPLayoutElement(plot_));
    side->setRowStretchFactor(0, 0.01);
    side->setMargins(QMargins(4, 8, 8, 0));
    plot_->plotLayout()->setColumnStretchFactor(1, 0.01);
    plot_->installEventFilter(this);
    plot_->setMouseTracking(true);
    connect(plot_, &QCustomPlot::mousePress, this, [this](QMouseEvent* e) {
        const long row = rowAt(e->pos());
        if (row >= 0 && table_->rows[static_cast<std::size_t>(row)].run_id)
            emit runClicked(table_->rows[static_cast<std::size_t>(row)].run_id);
    });
    setPlotTitle(plot_, tr("Pareto front"));
}

void SweepScatter::setPoints(std::shared_ptr<const sweep::Table> table, std::vector<std::size_t> rows) {
    table_ = std::move(table);
    rows_ = std::move(rows);
    redraw();
}

void SweepScatter::setMetrics(sweep::Metric x, sweep::Metric y) {
    x_ = x;
    y_ = y;
    redraw();
}

void SweepScatter::setScope(const QString& scope) { scope_ = scope; }

QStringList SweepScatter::methods() const {
    QStringList out;
    if (!table_) return out;
    const int axis = table_->axisIndex("method");
    if (axis < 0) return out;
    for (const std::string& m : sweep::axisValues(*table_, axis)) out << q(m);
    return out;
}

bool SweepScatter::logX() const { return plot_->xAxis->scaleType() == QCPAxis::stLogarithmic; }
bool SweepScatter::logY() const { return plot_->yAxis->scaleType() == QCPAxis::stLogarithmic; }

void SweepScatter::redraw() {
    plot_->clearGraphs();
    drawn_.clear();
    front_.clear();
    const sweep::MetricColumn xi = table_ ? table_->column(x_) : sweep::metricColumns()[static_cast<std::size_t>(x_)];
    const sweep::MetricColumn yi = table_ ? table_->column(y_) : sweep::metricColumns()[static_cast<std::size_t>(y_)];
    const auto side = [](const sweep::MetricColumn& i) {
        // Mid-sentence: "Step time" reads "step time", but an acronym keeps its case (MFU, DP).
        QString name = q(i.label).section(" (", 0, 0);
        if (name.size() > 1 && !name[1].isUpper()) name[0] = name[0].toLower();
        return (i.maximise ? tr("higher ") : tr("lower ")) + name;
    };
    const QString of = scope_.isEmpty() ? QString() : tr(" of %1").arg(scope_);
    setPlotTitle(plot_, tr("Pareto front%1: %2, %3").arg(of, side(xi), side(yi)));
    std::vector<double> xs, ys;
    if (table_) {
        for (std::size_t r : rows_) {
            const sweep::TableRow& row = table_->rows[r];
            if (!row.ok() || !std::isfinite(row.metric(x_)) || !std::isfinite(row.metric(y_))) continue;
            drawn_.push_back(r);
            xs.push_back(row.metric(x_));
            ys.push_back(row.metric(y_));
        }
        // A plan that does not fit in memory is drawn (hollow, red) but never on the front.
        std::vector<std::size_t> fitting;
        for (std::size_t r : drawn_)
            if (!table_->unfit(table_->rows[r])) fitting.push_back(r);
        front_ = sweep::paretoFront(*table_, fitting, x_, y_);
    }
    setAxis(plot_->xAxis, xs, q(xi.label));
    setAxis(plot_->yAxis, ys, q(yi.label));
    const QStringList names = methods();
    const int method_axis = table_ ? table_->axisIndex("method") : -1;
    for (int m = 0; m < std::max<int>(1, static_cast<int>(names.size())); ++m) {
        QVector<double> gx, gy;
        for (std::size_t k = 0; k < drawn_.size(); ++k)
            if (!table_->unfit(table_->rows[drawn_[k]]) &&
                (method_axis < 0 || q(table_->rows[drawn_[k]].axes[static_cast<std::size_t>(method_axis)]) == names[m])) {
                gx << xs[k];
                gy << ys[k];
            }
        if (gx.isEmpty()) continue;
        QCPGraph* g = plot_->addGraph();
        g->setName(names.isEmpty() ? tr("points") : names[m]);
        g->setLineStyle(QCPGraph::lsNone);
        QColor c = sweepMethodColour(static_cast<std::size_t>(m));
        c.setAlpha(200);
        g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, c, c, 6));
        g->setData(gx, gy, true);
    }
    QVector<double> ux, uy;
    for (std::size_t k = 0; k < drawn_.size(); ++k)
        if (table_->unfit(table_->rows[drawn_[k]])) {
            ux << xs[k];
            uy << ys[k];
        }
    if (!ux.isEmpty()) {
        QCPGraph* g = plot_->addGraph();
        g->setName(tr("unfit"));
        g->setLineStyle(QCPGraph::lsNone);
        g->setScatterStyle(
            QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(QColor(0xb0, 0x1c, 0x1c), 1.5), QBrush(Qt::NoBrush), 7));
        g->setData(ux, uy, true);
    }
    if (!front_.empty()) {
        QVector<double> fx, fy;
        for (std::size_t r : front_) {
            fx << table_->rows[r].metric(x_);
            fy << table_->rows[r].metric(y_);
        }
        QCPGraph* f = plot_->addGraph();
        f->setName(tr("Pareto front"));
        f->setPen(QPen(Qt::black, 1.5, Qt::DashLine));
        f->setLineStyle(QCPGraph::lsLine);
        f->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(Qt::black, 2), Qt::NoBrush, 11));
        f->setData(fx, fy);  // sorted by x: the front is monotone, so the line steps along it
    }
    plot_->legend->setVisible(!drawn_.empty());
    plot_->replot();
}

QPoint SweepScatter::pointPosition(std::size_t row) const {
    const sweep::TableRow& r = table_->rows[row];
    return QPoint(static_cast<int>(std::lround(plot_->xAxis->coordToPixel(r.metric(x_)))),
                  static_cast<int>(std::lround(plot_->yAxis->coordToPixel(r.metric(y_)))));
}

long SweepScatter::rowAt(const QPoint& pos) const {
    long best = -1;
    double best_d = kHitPixels * kHitPixels;
    for (std::size_t r : drawn_) {
        const QPoint p = pointPosition(r);
        const double dx = p.x() - pos.x(), dy = p.y() - pos.y();
        if (dx * dx + dy * dy <= best_d) {
            best_d = dx * dx + dy * dy;
            best = static_cast<long>(r);
        }
    }
    return best;
}

QString SweepScatter::pointText(std::size_t row) const {
    const sweep::TableRow& r = table_->rows[row];
    QStringList lines;
    for (std::size_t a = 0; a < table_->axes.size(); ++a)
        if (!r.axes[a].empty()) lines << QString("%1: %2").arg(q(table_->axes[a]), q(r.axes[a]));
    for (sweep::Metric m : sweep::kMetrics)
        lines << QString("%1: %2").arg(q(table_->column(m).label).section(" (", 0, 0),
                                       sweepMetricText(*table_, m, r.metric(m)));
    if (std::find(front_.begin(), front_.end(), row) != front_.end()) lines << tr("on the Pareto front");
    lines << tr("run %1 (click to open)").arg(r.run_id);
    return lines.join('\n');
}

bool SweepScatter::eventFilter(QObject* watched, QEvent* event) {
    if (watched == plot_ && event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const long row = rowAt(help->pos());
        if (row >= 0) QToolTip::showText(help->globalPos(), pointText(static_cast<std::size_t>(row)), plot_);
        else QToolTip::hideText();
        return true;
    }
    return QWidget::eventFilter(watched, event);
}

CsvTable SweepScatter::csv() const {
    CsvTable t;
    if (!table_) return t;
    t.header = table_->axes;
    t.header.push_back(table_->column(x_).label);
    t.header.push_back(table_->column(y_).label);
    t.header.push_back("pareto_front");
    t.header.push_back("run_id");
    for (std::size_t r : drawn_) {
        const sweep::TableRow& row = table_->rows[r];
        std::vector<std::string> cells = row.axes;
        cells.push_back(formatNumber(row.metric(x_)));
        cells.push_back(formatNumber(row.metric(y_)));
        cells.push_back(std::find(front_.begin(), front_.end(), r) != front_.end() ? "yes" : "no");
        cells.push_back(std::to_string(row.run_id));
        t.rows.push_back(std::move(cells));
    }
    return t;
}

void SweepScatter::paintFigure(QPainter& painter, const QRect& area) const { paintPlotFigure(plot_, painter, area); }

}  // namespace partita
