#pragma once
// The sweep view's scatter: two metrics of a sweep's points, coloured by method, with the Pareto
// front (core/sweep/table.h) drawn as a line through highlighted points. An axis is logarithmic
// when its values are positive and span more than a decade. Hovering a point tells its axes and
// metrics; clicking it emits its run id.
#include <memory>
#include <vector>

#include <QPoint>
#include <QWidget>

#include "core/sweep/table.h"
#include "widgets/common/figure_export.h"

class QCustomPlot;

namespace partita {

class SweepScatter : public QWidget, public FigureSource {
    Q_OBJECT
public:
    explicit SweepScatter(QWidget* parent = nullptr);
    // The points `rows` of `table` (failed ones are not drawn).
    void setPoints(std::shared_ptr<const sweep::Table> table, std::vector<std::size_t> rows);
    void setMetrics(sweep::Metric x, sweep::Metric y);
    void setScope(const QString& scope);  // what the points are of, in the title (a network); "" for none
    sweep::Metric xMetric() const { return x_; }
    sweep::Metric yMetric() const { return y_; }
    const std::vector<std::size_t>& front() const { return front_; }  // rows on the front, by x
    const std::vector<std::size_t>& drawn() const { return drawn_; }  // rows drawn
    QStringList methods() const;  // the legend's methods, in colour order
    bool logX() const;
    bool logY() const;
    // Where a drawn row's point is in plot() (for tests), and the drawn row nearest `pos` there
    // within a few pixels (-1: none).
    QPoint pointPosition(std::size_t row) const;
    long rowAt(const QPoint& pos) const;
    QString pointText(std::size_t row) const;  // the tooltip
    QCustomPlot* plot() const { return plot_; }
    CsvTable csv() const;  // the drawn points: axes, the two metrics, on the front
    QSize figureSize() const override { return {900, 600}; }
    void paintFigure(QPainter& painter, const QRect& area) const override;

signals:
    void runClicked(qint64 run_id);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void redraw();

    QCustomPlot* plot_ = nullptr;
    std::shared_ptr<const sweep::Table> table_;
    std::vector<std::size_t> rows_, drawn_, front_;
    sweep::Metric x_ = sweep::Metric::StepTime, y_ = sweep::Metric::Energy;
    QString scope_;
};

// The colour of a method wherever the sweep view draws it (its index among the sweep's methods).
QColor sweepMethodColour(std::size_t index);

}  // namespace partita
