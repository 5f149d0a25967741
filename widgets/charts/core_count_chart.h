#pragma once
// A scaling curve (MPT's speed-up against 1-256 workers, Learn-to-Scale's
// against 4-32 cores): one line per configuration over a power-of-two axis,
// a QCustomPlot chart over plain data, exported like every figure.
#include <string>
#include <vector>

#include <QWidget>

#include "core/io/csv.h"
#include "widgets/common/figure_export.h"

class QCustomPlot;

namespace partita {

struct CoreCountChartData {
    std::string title, x_label, y_label;  // labels carry their units
    std::vector<double> x;                // ascending, positive (drawn on a log2 axis)
    struct Series {
        std::string name;
        std::vector<double> y;            // one per x
    };
    std::vector<Series> series;
};

class CoreCountChart : public QWidget, public FigureSource {
    Q_OBJECT
public:
    explicit CoreCountChart(QWidget* parent = nullptr);
    // Throws std::invalid_argument when a series' length differs from x or an x is not positive.
    void setData(CoreCountChartData data);
    const CoreCountChartData& data() const { return data_; }
    QCustomPlot* plot() const { return plot_; }
    CsvTable csv() const;  // x, then one column per series
    QSize figureSize() const override { return {760, 420}; }
    void paintFigure(QPainter& painter, const QRect& area) const override;

private:
    CoreCountChartData data_;
    QCustomPlot* plot_ = nullptr;
};

}  // namespace partita
