#include "widgets/sweep/sweep_multiples.h"

#include <algorithm>
#include <cmath>
#include <map>

#include <QMouseEvent>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include "widgets/common/plot_frame.h"
#include "widgets/common/qt_text.h"
#include "widgets/sweep/sweep_scatter.h"

namespace partita {

SweepMultiples::SweepMultiples(QWidget* parent) : QWidget(parent), plot_(new QCustomPlot(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(plot_);
    plot_->setMinimumHeight(200);
    connect(plot_, &QCustomPlot::mousePress, this, [this](QMouseEvent* e) {
        const long row = rowAt(e->pos());
        if (row >= 0 && table_->rows[static_cast<std::size_t>(row)].run_id)
            emit runClicked(table_->rows[static_cast<std::size_t>(row)].run_id);
    });
}

QPoint SweepMultiples::pointPosition(std::size_t row) const {
    for (const Dot& d : dots_)
        if (d.row == row)
            return QPoint(static_cast<int>(std::lround(d.rect->axis(QCPAxis::atBottom)->coordToPixel(d.x))),
                          static_cast<int>(std::lround(d.rect->axis(QCPAxis::atLeft)->coordToPixel(d.y))));
    return {-1, -1};
}

long SweepMultiples::rowAt(const QPoint& pos) const {
    long best = -1;
    double best_d = 8 * 8;  // pixels, squared
    for (const Dot& d : dots_) {
        if (!d.rect->rect().contains(pos)) continue;
        const QPoint p = pointPosition(d.row);
        const double dx = p.x() - pos.x(), dy = p.y() - pos.y();
        if (dx * dx + dy * dy <= best_d) {
            best_d = dx * dx + dy * dy;
            best = static_cast<long>(d.row);
        }
    }
    return best;
}

void SweepMultiples::setPoints(std::shared_ptr<const sweep::Table> table, std::vector<std::size_t> rows) {
    table_ = std::move(table);
    rows_ = std::move(rows);
    if (table_ && (axis_ < 0 || axis_ >= static_cast<int>(table_->axes.size()))) {
        // Levels when the sweep varies them, else its first axis after the inputs.
        axis_ = table_->axisIndex("levels");
        if (axis_ < 0) axis_ = std::min<int>(static_cast<int>(table_->axes.size()) - 1, table_->axisIndex("method") + 1);
    }
    redraw();
}

void SweepMultiples::setMetric(sweep::Metric metric) {
    metric_ = metric;
    redraw();
}

void SweepMultiples::setAxis(int axis) {
    axis_ = axis;
    redraw();
}

void SweepMultiples::redraw() {
    plot_->clearPlottables();
    plot_->plotLayout()->clear();
    dots_.clear();
    charts_ = 0;
    csv_ = {};
    const QFont font = this->font();
    const int method_axis = table_ ? table_->axisIndex("method") : -1;
    if (!table_ || axis_ < 0 || method_axis < 0) return plot_->replot();
    const sweep::MetricColumn& info = table_->column(metric_);
    const QString axis_name = q(table_->axes[static_cast<std::size_t>(axis_)]);
    plot_->plotLayout()->addElement(0, 0, new QCPTextElement(plot_, tr("%1 by %2 (line: the best)")
                                                                         .arg(q(info.label), axis_name),
                                                            QFont(font.family(), 11, QFont::Bold)));
    auto* grid = new QCPLayoutGrid;
    plot_->plotLayout()->addElement(1, 0, grid);
    csv_.header = {"method", axis_name.toStdString(), std::string("best ") + info.label};

    std::vector<double> numbers;
    const std::vector<std::string> values = sweep::axisValues(*table_, axis_, &numbers);
    const bool numeric = !numbers.empty();
    std::map<std::string, double> position;  // axis value -> x
    for (std::size_t i = 0; i < values.size(); ++i) position[values[i]] = numeric ? numbers[i] : static_cast<double>(i);
    const bool log_x = numeric && numbers.front() > 0 && numbers.back() / numbers.front() > 10;
    std::vector<double> all;
    for (std::size_t r : rows_)
        if (table_->rows[r].ok() && std::isfinite(table_->rows[r].metric(metric_))) all.push_back(table_->rows[r].metric(metric_));
    const bool log_y = !all.empty() && *std::min_element(all.begin(), all.end()) > 0 &&
                       *std::max_element(all.begin(), all.end()) / *std::min_element(all.begin(), all.end()) > 10;
    const QStringList methods = [&] {
        QStringList out;
        for (const std::string& m : sweep::axisValues(*table_, method_axis)) out << q(m);
        return out;
    }();
    const int columns = methods.size() <= 3 ? std::max<int>(1, methods.size()) : (methods.size() + 1) / 2;
    QCPRange y_range;
    bool have_y = false;
    for (int m = 0; m < methods.size(); ++m) {
        QVector<double> px, py;
        std::map<double, double> best;  // x -> best value there
        for (std::size_t r : rows_) {
            const sweep::TableRow& row = table_->rows[r];
            const double v = row.metric(metric_);
            if (!row.ok() || !std::isfinite(v) || q(row.axes[static_cast<std::size_t>(method_axis)]) != methods[m]) continue;
            const double x = position.at(row.axes[static_cast<std::size_t>(axis_)]);
            px << x;
            py << v;
            dots_.push_back({nullptr, x, v, r});
            auto [it, fresh] = best.emplace(x, v);
            if (!fresh) it->second = info.maximise ? std::max(it->second, v) : std::min(it->second, v);
        }
        if (px.isEmpty()) continue;
        auto* cell = new QCPLayoutGrid;
        grid->addElement(charts_ / columns, charts_ % columns, cell);
        cell->addElement(0, 0, new QCPTextElement(plot_, methods[m], QFont(font.family(), 9, QFont::Bold)));
        auto* rect = new QCPAxisRect(plot_);
        for (Dot& d : dots_)
            if (!d.rect) d.rect = rect;
        cell->addElement(1, 0, rect);
        cell->setRowSpacing(0);
        for (QCPAxis* a : {rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft)}) {
            a->setTickLabelFont(QFont(font.family(), 8));
            a->setLabelFont(QFont(font.family(), 8));
        }
        QCPAxis* xa = rect->axis(QCPAxis::atBottom);
        QCPAxis* ya = rect->axis(QCPAxis::atLeft);
        xa->setLabel(axis_name);
        if (charts_ % columns == 0) ya->setLabel(q(info.label));
        if (!numeric || values.size() <= 12) {
            // Ticks at the values the sweep has (levels 2..6, not 2.5), or its categories.
            auto ticker = QSharedPointer<QCPAxisTickerText>::create();
            for (std::size_t i = 0; i < values.size(); ++i)
                ticker->addTick(numeric ? numbers[i] : static_cast<double>(i), q(values[i]));
            xa->setTicker(ticker);
            xa->setTickLabelRotation(!numeric && values.size() > 4 ? 45 : 0);
        }
        if (!numeric) {
            xa->setRange(-0.5, static_cast<double>(values.size()) - 0.5);
        } else if (log_x) {
            xa->setScaleType(QCPAxis::stLogarithmic);
            if (values.size() > 12) xa->setTicker(QSharedPointer<QCPAxisTickerLog>::create());
            xa->setRange(numbers.front() / 1.3, numbers.back() * 1.3);
        } else {
            const double pad = numbers.back() > numbers.front() ? (numbers.back() - numbers.front()) * 0.08 : 1;
            xa->setRange(numbers.front() - pad, numbers.back() + pad);
        }
        if (log_y) {
            ya->setScaleType(QCPAxis::stLogarithmic);
            auto ticker = QSharedPointer<QCPAxisTickerLog>::create();
            ya->setTicker(ticker);
            ya->setNumberFormat("eb");
            ya->setNumberPrecision(0);
        }
        const QColor c = sweepMethodColour(static_cast<std::size_t>(m));
        QCPGraph* dots = plot_->addGraph(xa, ya);
        dots->setLineStyle(QCPGraph::lsNone);
        QColor light = c;
        light.setAlpha(90);
        dots->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, light, light, 5));
        dots->setData(px, py);
        QCPGraph* line = plot_->addGraph(xa, ya);
        line->setPen(QPen(c, 2));
        line->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(c, 1.5), Qt::white, 6));
        QVector<double> bx, by;
        for (const auto& [x, v] : best) {
            bx << x;
            by << v;
            const auto at = std::find_if(position.begin(), position.end(), [x](const auto& p) { return p.second == x; });
            csv_.rows.push_back({methods[m].toStdString(), at->first, formatNumber(v)});
        }
        line->setData(bx, by, true);
        bool found = false;
        const QCPRange r = dots->getValueRange(found, QCP::sdBoth);
        if (found) {
            y_range = have_y ? QCPRange(std::min(y_range.lower, r.lower), std::max(y_range.upper, r.upper)) : r;
            have_y = true;
        }
        ++charts_;
    }
    // One value scale for every chart: the methods compare by height.
    for (QCPAxisRect* rect : plot_->axisRects()) {
        QCPAxis* ya = rect->axis(QCPAxis::atLeft);
        if (!have_y) continue;
        if (log_y) ya->setRange(y_range.lower / 1.5, y_range.upper * 1.5);
        else {
            const double pad = y_range.size() > 0 ? y_range.size() * 0.08 : 1;
            ya->setRange(std::min(0.0, y_range.lower - pad), y_range.upper + pad);
        }
    }
    plot_->replot();
}

CsvTable SweepMultiples::csv() const { return csv_; }

void SweepMultiples::paintFigure(QPainter& painter, const QRect& area) const { paintPlotFigure(plot_, painter, area); }

}  // namespace partita
