// CompareView's two QCustomPlot charts: communication per level (grouped bars,
// one series per run) and step time per run (compute + communication stacked).
#include <algorithm>
#include <cmath>

#include <qcustomplot.h>

#include "core/util/format.h"
#include "widgets/common/qt_text.h"
#include "widgets/compare/compare_chart_style.h"
#include "widgets/compare/compare_view.h"
#include "widgets/geometry/palette.h"

namespace partita {

// Runs in blue, vermillion, bluish green, reddish purple (Okabe-Ito; no yellow on white).
QColor compareRunColour(int i) {
    static const int order[] = {5, 6, 3, 7};
    return qcolor(view::okabeIto(order[i % 4]));
}

namespace {

// Element counts read best in plain, thousands or millions on the axis.
AxisUnit elementUnit(double max) {
    if (max >= 1e9) return {1e9, QStringLiteral("G elements")};
    if (max >= 1e6) return {1e6, QStringLiteral("M elements")};
    if (max >= 1e4) return {1e3, QStringLiteral("k elements")};
    return {1, QStringLiteral("elements")};
}

}  // namespace

AxisUnit timeAxisUnit(double max_s) {
    if (max_s >= 1 || !(max_s > 0)) return {1, QStringLiteral("s")};
    if (max_s >= 1e-3) return {1e-3, QStringLiteral("ms")};
    if (max_s >= 1e-6) return {1e-6, QStringLiteral("us")};
    return {1e-9, QStringLiteral("ns")};
}

// The legend in its own layout row above the axes: it stays narrow enough to leave CompareView's two
// charts their halves.
void compareLegendAbove(QCustomPlot* plot, int columns) {
    plot->legend->setFillOrder(QCPLegend::foColumnsFirst);
    plot->legend->setWrap(columns);
    if (plot->legend->layout() == plot->plotLayout()) return;
    plot->plotLayout()->insertRow(0);
    plot->plotLayout()->addElement(0, 0, plot->legend);  // out of the axes' inset layout
    plot->plotLayout()->setRowStretchFactor(0, 0.001);
    plot->legend->setMargins(QMargins(4, 2, 4, 2));
}

void styleCompareBars(QCPBars* bars, const QColor& colour) {
    bars->setPen(QPen(colour.darker(130), 1));
    bars->setBrush(colour);
}

void CompareView::fillLevelChart() {
    QCustomPlot* plot = level_chart_;
    plot->clearPlottables();
    plot->clearItems();
    delete level_group_;
    level_group_ = nullptr;
    int levels = 0;
    double top = 0;
    for (const RunPtr& r : runs_) {
        levels = std::max(levels, r->shown().levels);
        for (double v : r->shown().level_comm) top = std::max(top, v);
    }
    const AxisUnit unit = elementUnit(top);
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    for (int h = 0; h < levels; ++h) ticker->addTick(h + 1, QStringLiteral("H%1").arg(h + 1));
    plot->xAxis->setTicker(ticker);
    plot->xAxis->setLabel(tr("level"));
    plot->yAxis->setLabel(tr("comm. (%1)").arg(unit.name));  // the x axis says per level

    if (runs_.size() > 1) level_group_ = new QCPBarsGroup(plot);
    const double width = 0.8 / std::max<size_t>(1, runs_.size());
    for (int i = 0; i < static_cast<int>(runs_.size()); ++i) {
        const Evaluation& ev = runs_[static_cast<size_t>(i)]->shown();
        QVector<double> keys, values;
        for (int h = 0; h < ev.levels; ++h) {
            keys << h + 1;
            values << ev.level_comm[static_cast<size_t>(h)] / unit.scale;
        }
        auto* bars = new QCPBars(plot->xAxis, plot->yAxis);
        bars->setName(shortLabel(i));
        bars->setWidth(width);
        styleCompareBars(bars, compareRunColour(i));
        bars->setData(keys, values);
        if (level_group_) bars->setBarsGroup(level_group_);
    }
    plot->legend->setVisible(!runs_.empty());
    compareLegendAbove(plot, 2);
    plot->yAxis->setTickLabels(!runs_.empty());  // no made-up 0..1 scale when empty
    plot->xAxis->setRange(0.4, std::max(1, levels) + 0.6);
    plot->yAxis->setRange(0, top > 0 ? top / unit.scale * 1.08 : 1);
    plot->replot();
}

void CompareView::fillTimeChart() {
    QCustomPlot* plot = time_chart_;
    plot->clearPlottables();
    plot->clearItems();
    double top = 0;
    for (const RunPtr& r : runs_) top = std::max(top, r->shown().time_step_s);
    const AxisUnit unit = timeAxisUnit(top);
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    QVector<double> keys, compute, comm;
    for (int i = 0; i < static_cast<int>(runs_.size()); ++i) {
        const Evaluation& ev = runs_[static_cast<size_t>(i)]->shown();
        ticker->addTick(i + 1, shortLabel(i));
        keys << i + 1;
        compute << ev.time_compute_s / unit.scale;
        comm << ev.time_comm_s / unit.scale;
    }
    plot->xAxis->setTicker(ticker);
    plot->xAxis->setLabel(QString());
    plot->yAxis->setLabel(tr("step time (%1)").arg(unit.name));

    if (!runs_.empty()) {
        auto* compute_bars = new QCPBars(plot->xAxis, plot->yAxis);
        compute_bars->setName(tr("compute"));
        styleCompareBars(compute_bars, qcolor(view::okabeIto(2)));
        compute_bars->setWidth(0.55);
        compute_bars->setData(keys, compute);
        auto* comm_bars = new QCPBars(plot->xAxis, plot->yAxis);
        comm_bars->setName(tr("communication"));
        styleCompareBars(comm_bars, qcolor(view::okabeIto(6)));
        comm_bars->setWidth(0.55);
        comm_bars->setData(keys, comm);
        comm_bars->moveAbove(compute_bars);  // stacked: communication on top of compute
        // The step time written over each stack, formatted as everywhere else.
        for (int i = 0; i < keys.size(); ++i) {
            auto* label = new QCPItemText(plot);
            label->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
            label->position->setType(QCPItemPosition::ptPlotCoords);
            label->position->setCoords(keys[i], compute[i] + comm[i]);
            label->setPadding(QMargins(0, 0, 0, 3));
            label->setFont(plot->font());
            label->setText(QString::fromStdString(seconds(runs_[static_cast<size_t>(i)]->shown().time_step_s)));
        }
    }
    plot->legend->setVisible(!runs_.empty());
    compareLegendAbove(plot, 2);
    plot->yAxis->setTickLabels(!runs_.empty());
    plot->xAxis->setRange(0.4, std::max<size_t>(1, runs_.size()) + 0.6);
    plot->yAxis->setRange(0, top > 0 ? top / unit.scale * 1.12 : 1);  // room for the labels on top
    plot->replot();
}

}  // namespace partita
