#include "widgets/charts/layer_bars.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <qcustomplot.h>

#include "core/util/format.h"
#include "widgets/common/plot_frame.h"
#include "widgets/common/qt_text.h"
#include "widgets/geometry/palette.h"

namespace partita {

namespace {

// Parts in sky blue, orange, bluish green, reddish purple (the grid view's order).
QColor partColour(size_t part) {
    static const int order[] = {2, 1, 3, 7};
    return qcolor(view::okabeIto(order[part % 4]));
}

struct Prefix {
    double scale = 1;
    const char* name = "";
};
// The SI prefix that keeps the tallest bar between 1 and 1000.
Prefix prefixFor(double top) {
    static const Prefix prefixes[] = {{1e9, "G"}, {1e6, "M"}, {1e3, "k"}, {1, ""}, {1e-3, "m"}, {1e-6, "µ"}, {1e-9, "n"}};
    for (const Prefix& p : prefixes)
        if (top >= p.scale) return p;
    return prefixes[6];
}

}  // namespace

LayerBars::LayerBars(QWidget* parent) : QWidget(parent), plot_(makeTitledPlot(this)) {
    // The legend sits right of the axes, so no bar hides behind it.
    plot_->axisRect()->insetLayout()->take(plot_->legend);
    auto* side = new QCPLayoutGrid;
    plot_->plotLayout()->addElement(1, 1, side);
    side->addElement(0, 0, plot_->legend);
    side->addElement(1, 0, new QCPLayoutElement(plot_));  // filler: the legend stays at the top
    side->setRowStretchFactor(0, 0.01);
    side->setMargins(QMargins(4, 8, 10, 0));
    plot_->plotLayout()->setColumnStretchFactor(1, 0.01);
}

void LayerBars::setData(LayerBarsData data) {
    for (const auto& s : data.stacks) {
        if (s.values.size() != data.parts.size())
            throw std::invalid_argument("LayerBars: stack '" + s.name + "' has the wrong number of parts");
        for (const auto& v : s.values)
            if (v.size() != data.layers.size())
                throw std::invalid_argument("LayerBars: stack '" + s.name + "' has the wrong number of layers");
    }
    data_ = std::move(data);
    rebuild();
}

void LayerBars::rebuild() {
    plot_->clearPlottables();
    setPlotTitle(plot_, QString::fromStdString(data_.title));
    double top = 0;
    for (const auto& s : data_.stacks)
        for (size_t l = 0; l < data_.layers.size(); ++l) {
            double sum = 0;
            for (const auto& part : s.values) sum += part[l];
            top = std::max(top, sum);
        }
    const Prefix prefix = prefixFor(top);
    const size_t stacks = std::max<size_t>(1, data_.stacks.size());
    const double width = 0.8 / static_cast<double>(stacks);
    for (size_t si = 0; si < data_.stacks.size(); ++si) {
        const auto& s = data_.stacks[si];
        const double offset = (static_cast<double>(si) - (static_cast<double>(stacks) - 1) / 2) * width;
        QCPBars* below = nullptr;
        for (size_t part = 0; part < data_.parts.size(); ++part) {
            QVector<double> keys, values;
            for (size_t l = 0; l < data_.layers.size(); ++l) {
                keys << static_cast<double>(l + 1) + offset;
                values << s.values[part][l] / prefix.scale;
            }
            auto* bars = new QCPBars(plot_->xAxis, plot_->yAxis);
            // Legend: the parts once (first stack, solid), then one hatched entry per other stack.
            bars->setName(QString::fromStdString(si == 0 ? data_.parts[part] : s.name + " (hatched)"));
            bars->setWidth(width * 0.92);
            const QColor colour = partColour(part);
            bars->setPen(QPen(colour.darker(140), 1));
            bars->setBrush(si == 0 ? QBrush(colour) : QBrush(colour, Qt::BDiagPattern));
            bars->setStackingGap(0);
            if (below) bars->moveAbove(below);
            bars->setData(keys, values, true);
            if (si > 0 && part > 0) bars->removeFromLegend();
            below = bars;
        }
    }
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    for (size_t l = 0; l < data_.layers.size(); ++l)
        ticker->addTick(static_cast<double>(l + 1), QString::fromStdString(data_.layers[l]));
    plot_->xAxis->setTicker(ticker);
    plot_->xAxis->setTickLabelRotation(data_.layers.size() > 10 ? 60 : 0);
    plot_->xAxis->setRange(0.4, static_cast<double>(data_.layers.size()) + 0.6);
    plot_->yAxis->setLabel(QStringLiteral("%1%2 per layer").arg(QString::fromUtf8(prefix.name), QString::fromStdString(data_.unit)));
    plot_->yAxis->setRange(0, top > 0 ? top / prefix.scale * 1.08 : 1);
    plot_->legend->setVisible(!data_.stacks.empty());
    plot_->replot();
}

void LayerBars::paintFigure(QPainter& painter, const QRect& area) const { paintPlotFigure(plot_, painter, area); }

CsvTable LayerBars::csv() const {
    CsvTable t;
    t.header = {"configuration", "layer"};
    const std::string unit = data_.unit.empty() ? "" : " (" + data_.unit + ")";
    for (const auto& part : data_.parts) t.header.push_back(part + unit);
    t.header.push_back("total" + unit);
    for (const auto& s : data_.stacks)
        for (size_t l = 0; l < data_.layers.size(); ++l) {
            std::vector<std::string> row{s.name, data_.layers[l]};
            double sum = 0;
            for (const auto& part : s.values) {
                row.push_back(formatNumber(part[l]));
                sum += part[l];
            }
            row.push_back(formatNumber(sum));
            t.rows.push_back(std::move(row));
        }
    return t;
}

}  // namespace partita
