// StudyView's three QCustomPlot charts: Fig. 11 (gain and communication on
// two axes against a log-2 accelerator count), Fig. 12 (grouped bars per
// network on a log-2 ratio axis) and bytes per layer stacked by level.
#include <algorithm>
#include <cmath>

#include <qcustomplot.h>

#include "widgets/charts/study_view.h"
#include "widgets/geometry/palette.h"

namespace partita {

namespace {

QColor qcolor(int okabe) {
    const view::Rgb c = view::okabeIto(okabe);
    return QColor(c.r, c.g, c.b);
}

// Methods keep one colour in every plot: DP vermillion, HyPar blue, AccPar bluish green.
const int kDp = 6, kHypar = 5, kAccPar = 3;

struct ByteUnit {
    double scale = 1;
    QString name;
};

ByteUnit byteUnit(double max) {  // decimal units, docs/contributing/architecture.md#units-and-names
    if (max >= 1e9) return {1e9, QStringLiteral("GB")};
    if (max >= 1e6) return {1e6, QStringLiteral("MB")};
    if (max >= 1e3) return {1e3, QStringLiteral("kB")};
    return {1, QStringLiteral("B")};
}

// A title row above the axis rect (replaced on each fill).
void setTitle(QCustomPlot* plot, const QString& text) {
    if (plot->plotLayout()->rowCount() < 2) {
        plot->plotLayout()->insertRow(0);
        QFont f = plot->font();
        f.setPixelSize(15);
        f.setBold(true);
        plot->plotLayout()->addElement(0, 0, new QCPTextElement(plot, QString(), f));
    }
    static_cast<QCPTextElement*>(plot->plotLayout()->element(0, 0))->setText(text);
}

QCPGraph* addLine(QCustomPlot* plot, QCPAxis* value_axis, const QString& name, int colour, bool dashed,
                  QCPScatterStyle::ScatterShape shape) {
    auto* g = plot->addGraph(plot->xAxis, value_axis);
    g->setName(name);
    QPen pen(qcolor(colour), 2.5);
    if (dashed) pen.setStyle(Qt::DashLine);
    g->setPen(pen);
    g->setScatterStyle(QCPScatterStyle(shape, qcolor(colour), dashed ? Qt::white : qcolor(colour), 9));
    return g;
}

void clear(QCustomPlot* plot) {
    plot->clearPlottables();
    plot->clearItems();
}

}  // namespace

void StudyView::stylePlot(QCustomPlot* plot) {
    QFont font = plot->font();
    font.setPixelSize(13);
    plot->setFont(font);
    QFont label = font;
    label.setPixelSize(14);
    for (QCPAxis* axis : {plot->xAxis, plot->yAxis, plot->yAxis2}) {
        axis->setTickLabelFont(font);
        axis->setLabelFont(label);
        axis->grid()->setPen(QPen(QColor(225, 225, 225), 1));
    }
    plot->xAxis->grid()->setVisible(false);
    plot->legend->setFont(font);
    plot->legend->setBorderPen(QPen(QColor(200, 200, 200)));
    plot->legend->setBrush(QColor(255, 255, 255, 230));
    plot->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignLeft);
    plot->setMinimumSize(320, 240);
}

void StudyView::fillScale() {
    QCustomPlot* plot = chart(Plot::Scale);
    clear(plot);
    const bool data = scale_ && !scale_->rows.empty();
    setTitle(plot, data ? tr("%1, batch %2: speed-up and communication against array size")
                              .arg(QString::fromStdString(scale_->network))
                              .arg(scale_->batch)
                        : tr("Scalability: no study computed yet"));
    // Powers of two, evenly spaced: log-2 axis with one labelled tick per array size.
    plot->xAxis->setScaleType(QCPAxis::stLogarithmic);
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    int max_n = 64;
    if (data) max_n = scale_->rows.back().accelerators;
    for (int n = 1; n <= max_n; n *= 2) ticker->addTick(n, QString::number(n));
    plot->xAxis->setTicker(ticker);
    plot->xAxis->setLabel(tr("accelerators (log scale)"));
    plot->xAxis->setRange(0.8, max_n * 1.25);
    plot->yAxis->setLabel(tr("speed-up over one accelerator (x)"));
    plot->yAxis2->setVisible(true);
    plot->yAxis2->setTickLabels(data);
    plot->yAxis->setTickLabels(data);
    double top_gain = 1, top_bytes = 0;
    if (data)
        for (const ScaleRow& r : scale_->rows) {
            top_gain = std::max({top_gain, r.dp_gain, r.hypar_gain, r.accpar_gain});
            top_bytes = std::max({top_bytes, r.dp_total_gb, r.hypar_total_gb, r.accpar_total_gb}) ;
        }
    const ByteUnit unit = byteUnit(top_bytes * 1e9);
    plot->yAxis2->setLabel(tr("total communication per step (%1, dashed)").arg(unit.name));
    plot->legend->setVisible(data);
    if (data) {
        QVector<double> n, g[3], b[3];
        for (const ScaleRow& r : scale_->rows) {
            n << r.accelerators;
            g[0] << r.dp_gain, g[1] << r.hypar_gain, g[2] << r.accpar_gain;
            b[0] << r.dp_total_gb * 1e9 / unit.scale, b[1] << r.hypar_total_gb * 1e9 / unit.scale;
            b[2] << r.accpar_total_gb * 1e9 / unit.scale;
        }
        const QString names[] = {tr("DP"), tr("HyPar"), tr("AccPar (its model)")};
        const int colours[] = {kDp, kHypar, kAccPar};
        const QCPScatterStyle::ScatterShape shapes[] = {QCPScatterStyle::ssSquare, QCPScatterStyle::ssCircle,
                                                        QCPScatterStyle::ssTriangle};
        for (int m = 0; m < 3; ++m)
            addLine(plot, plot->yAxis, tr("%1 speed-up").arg(names[m]), colours[m], false, shapes[m])->setData(n, g[m]);
        for (int m = 0; m < 3; ++m)
            addLine(plot, plot->yAxis2, tr("%1 communication").arg(names[m]), colours[m], true, shapes[m])
                ->setData(n, b[m]);
        // Two columns: speed-ups on the left, communication on the right.
        plot->legend->setFillOrder(QCPLegend::foRowsFirst);
        plot->legend->setWrap(3);
    }
    // Headroom above the highest point for the legend in the top-left corner.
    plot->yAxis->setRange(0, top_gain * 1.45);
    plot->yAxis2->setRange(0, top_bytes > 0 ? top_bytes * 1e9 / unit.scale * 1.45 : 1);
    plot->replot();
}

void StudyView::fillTopology() {
    QCustomPlot* plot = chart(Plot::Topology);
    clear(plot);
    const bool data = topology_ && !topology_->rows.empty();
    setTitle(plot, data ? tr("H-tree versus torus, %1 accelerators: speed-up over DP on the H-tree")
                              .arg(1 << topology_->levels)
                        : tr("H-tree vs torus: no study computed yet"));
    std::vector<TopologyRow> rows;
    if (data) {
        rows = topology_->rows;
        rows.push_back(topology_->geomean);
    }
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    for (size_t i = 0; i < rows.size(); ++i) {
        const bool geo = i + 1 == rows.size();
        ticker->addTick(static_cast<double>(i + 1), geo ? tr("geomean") : QString::fromStdString(rows[i].network));
    }
    plot->xAxis->setTicker(ticker);
    plot->xAxis->setLabel(tr("network"));
    plot->xAxis->setRange(0.4, std::max<size_t>(1, rows.size()) + 0.6);
    // Ratios from 0.5x to 16x: a log-2 axis keeps SFC and the small ones readable.
    plot->yAxis->setScaleType(QCPAxis::stLogarithmic);
    auto log = QSharedPointer<QCPAxisTickerText>::create();
    for (double v : {0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0}) log->addTick(v, QString::number(v));
    plot->yAxis->setTicker(log);
    plot->yAxis->setLabel(tr("speed-up over DP on the H-tree (x, log scale)"));
    plot->yAxis->setTickLabels(data);
    double lo = 1, hi = 1;
    for (const auto& r : rows) {
        lo = std::min({lo, r.hypar_htree, r.hypar_torus, r.dp_torus});
        hi = std::max({hi, r.hypar_htree, r.hypar_torus, r.dp_torus});
    }
    plot->yAxis->setRange(lo / 1.4, hi * 3.0);  // room above for the legend
    plot->legend->setVisible(data);
    plot->legend->setFillOrder(QCPLegend::foColumnsFirst);
    plot->legend->setWrap(4);
    if (data) {
        auto* group = new QCPBarsGroup(plot);
        const QString names[] = {tr("HyPar, H-tree"), tr("HyPar, torus"), tr("DP, torus")};
        const int colours[] = {kHypar, 2, kDp};  // sky blue: the same HyPar partition on the torus
        for (int s = 0; s < 3; ++s) {
            QVector<double> keys, values;
            for (size_t i = 0; i < rows.size(); ++i) {
                keys << static_cast<double>(i + 1);
                values << (s == 0 ? rows[i].hypar_htree : s == 1 ? rows[i].hypar_torus : rows[i].dp_torus);
            }
            auto* bars = new QCPBars(plot->xAxis, plot->yAxis);
            bars->setName(names[s]);
            bars->setWidth(0.26);
            bars->setPen(QPen(qcolor(colours[s]).darker(130), 1));
            bars->setBrush(qcolor(colours[s]));
            // A log axis has no zero: bars grow from the bottom edge, and QCPBars
            // puts a bar's top at base + value.
            const double base = lo / 1.4;
            bars->setBaseValue(base);
            for (double& v : values) v -= base;
            bars->setData(keys, values);
            bars->setBarsGroup(group);
        }
        // The reference every bar is divided by, named in the legend.
        auto* one = plot->addGraph();
        one->setName(tr("DP on the H-tree (= 1)"));
        one->setPen(QPen(QColor(0, 0, 0), 1.5, Qt::DashLine));
        one->setData(QVector<double>{0.4, rows.size() + 0.6}, QVector<double>{1.0, 1.0});
    }
    plot->replot();
}

void StudyView::fillLayers() {
    QCustomPlot* plot = chart(Plot::Layers);
    clear(plot);
    const bool data = layers_ && !layers_->layers.empty();
    setTitle(plot, data ? tr("Communication per layer: %1").arg(QString::fromStdString(layers_->title))
                        : tr("Communication per layer: no run shown"));
    const int L = data ? static_cast<int>(layers_->layers.size()) : 0;
    double top = 0;
    for (int l = 0; l < L; ++l) top = std::max(top, layers_->layerTotal(l));
    const ByteUnit unit = byteUnit(top);
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    for (int l = 0; l < L; ++l) ticker->addTick(l + 1, QString::fromStdString(layers_->layers[size_t(l)]));
    plot->xAxis->setTicker(ticker);
    plot->xAxis->setTickLabelRotation(L > 10 ? 45 : 0);
    plot->xAxis->setLabel(tr("weighted layer"));
    plot->xAxis->setRange(0.4, std::max(1, L) + 0.6);
    plot->yAxis->setLabel(tr("communication per step (%1, all group pairs)").arg(unit.name));
    plot->yAxis->setTickLabels(data);
    plot->yAxis->setRange(0, top > 0 ? top / unit.scale * 1.3 : 1);
    plot->legend->setVisible(data);
    plot->legend->setFillOrder(QCPLegend::foColumnsFirst);
    plot->legend->setWrap(6);
    plot->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);
    // Levels in a fixed order of Okabe-Ito colours, skipping yellow and black (hard on white).
    static const int order[] = {5, 6, 3, 7, 2, 1};
    QCPBars* below = nullptr;
    for (int h = 0; data && h < layers_->levels; ++h) {
        QVector<double> keys, values;
        for (int l = 0; l < L; ++l) {
            keys << l + 1;
            values << layers_->bytes(h, l) / unit.scale;
        }
        auto* bars = new QCPBars(plot->xAxis, plot->yAxis);
        bars->setName(QStringLiteral("H%1").arg(h + 1));
        const QColor c = qcolor(order[h % 6]);
        bars->setPen(QPen(c.darker(130), 1));
        bars->setBrush(c);
        bars->setWidth(0.65);
        bars->setData(keys, values);
        if (below) bars->moveAbove(below);
        below = bars;
    }
    plot->replot();
}

}  // namespace partita
