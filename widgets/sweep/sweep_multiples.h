#pragma once
// The sweep view's small multiples: one small chart per method of one metric against one axis of
// the sweep (every point as a dot, the best value at each axis value joined by a line), on shared
// scales so the charts compare at a glance. A text axis (network) is drawn as categories. Clicking
// a dot emits its run id.
#include <memory>
#include <vector>

#include <QPoint>
#include <QWidget>

#include "core/sweep/table.h"
#include "widgets/common/figure_export.h"

class QCPAxisRect;
class QCustomPlot;

namespace partita {

class SweepMultiples : public QWidget, public FigureSource {
    Q_OBJECT
public:
    explicit SweepMultiples(QWidget* parent = nullptr);
    void setPoints(std::shared_ptr<const sweep::Table> table, std::vector<std::size_t> rows);
    void setMetric(sweep::Metric metric);
    void setAxis(int axis);  // an index into Table::axes
    sweep::Metric metric() const { return metric_; }
    int axis() const { return axis_; }
    int charts() const { return charts_; }  // one per method with a point
    QCustomPlot* plot() const { return plot_; }
    CsvTable csv() const;  // method, axis value, best metric
    // Where a row's dot is drawn in plot() (for tests; (-1, -1) when not drawn), and the row at `pos`.
    QPoint pointPosition(std::size_t row) const;
    long rowAt(const QPoint& pos) const;
    QSize figureSize() const override { return {1000, 640}; }
    void paintFigure(QPainter& painter, const QRect& area) const override;

signals:
    void runClicked(qint64 run_id);

private:
    void redraw();
    struct Dot {
        QCPAxisRect* rect;
        double x, y;
        std::size_t row;
    };
    std::vector<Dot> dots_;

    QCustomPlot* plot_ = nullptr;
    std::shared_ptr<const sweep::Table> table_;
    std::vector<std::size_t> rows_;
    sweep::Metric metric_ = sweep::Metric::Speedup;
    int axis_ = -1;
    int charts_ = 0;
    CsvTable csv_;
};

}  // namespace partita
