#pragma once
// Every plan a search evaluated as a point (issue 29, item 5): iteration time against peak memory per
// GPU (or tokens/s against GPUs), the Pareto front as a line, the HBM limit as a line, colour by tp,
// pp or recompute; the ranked plans in a table beside it. Clicking a point or a row emits planChosen.
// Points are rasterised once into a cached image and found under the mouse through a grid of pixel
// cells, so 10^5 points stay interactive.
#include <optional>
#include <vector>

#include <QAbstractTableModel>
#include <QMetaType>
#include <QImage>
#include <QWidget>

#include "core/io/csv.h"
#include "core/llm/search.h"
#include "widgets/common/figure_export.h"
#include "widgets/llm/scatter_axes.h"

Q_DECLARE_METATYPE(partita::llm::Plan)

class QComboBox;
class QLabel;
class QSplitter;
class QTableView;

namespace partita {

// The ranked plans of a search: rank, tp, pp, dp, cp, micro-batch, schedule, recompute, ZeRO, time, memory, MFU.
class RankedPlansModel : public QAbstractTableModel {
    Q_OBJECT
public:
    using QAbstractTableModel::QAbstractTableModel;
    void setPlans(std::vector<llm::PlanPoint> plans);
    const std::vector<llm::PlanPoint>& plans() const { return plans_; }
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<llm::PlanPoint> plans_;
};

class TradeoffPlot;

class TradeoffView : public QWidget, public FigureSource {
    Q_OBJECT
public:
    enum class Axes { TimeVsMemory, TokensVsGpus };
    enum class Colour { Tp, Pp, Recompute };

    explicit TradeoffView(QWidget* parent = nullptr);

    // Every evaluated point (SearchOptions' PointSink), the search's result (Pareto front, ranked plans),
    // the HBM bytes of one GPU and the sequence length (tokens/s = global batch · seq / iteration).
    void setSearch(std::vector<llm::PlanPoint> points, const llm::SearchResult& result, double hbm_bytes,
                   std::int64_t seq);
    void clear();
    const std::vector<llm::PlanPoint>& points() const { return points_; }
    const llm::SearchResult& result() const { return result_; }

    void setAxes(Axes axes);
    Axes axes() const { return axes_; }
    void setColouring(Colour colour);
    Colour colouring() const { return colour_; }

    // The point (index into points()) under a position of plot(), within a few pixels; its centre.
    std::optional<int> pointAt(const QPointF& plot_pos) const;
    std::optional<QPointF> pointPosition(int index) const;
    QString pointToolTip(int index) const;
    // Chooses a point or a ranked row as if clicked (emits planChosen).
    void choosePoint(int index);
    void chooseRankedRow(int row);
    int chosenPoint() const { return chosen_; }

    TradeoffPlot* plot() const { return plot_; }
    QTableView* table() const { return table_; }
    const RankedPlansModel& rankedModel() const { return ranked_; }

    QSize figureSize() const override { return {1280, 800}; }
    void paintFigure(QPainter& painter, const QRect& area) const override;  // the plot only
    CsvTable csv() const;        // the ranked table
    CsvTable pointsCsv() const;  // every point: tp, pp, dp, cp, micro_batch, schedule, recompute, time, memory, fits

signals:
    void planChosen(const llm::Plan& plan);

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void fitTable();
    friend class TradeoffPlot;
    double xOf(const llm::PlanPoint& p) const;
    double yOf(const llm::PlanPoint& p) const;
    int colourKey(const llm::PlanPoint& p) const;
    llmview::PlotArea plotArea(const QRect& area) const;
    void paintPlot(QPainter& painter, const QRect& area, const QImage* cached) const;
    std::vector<QPointF> pixelPositions(const llmview::PlotArea& a) const;
    QImage rasterPoints(const std::vector<QPointF>& pos, QSize size) const;
    void relayout();

    std::vector<llm::PlanPoint> points_;
    std::vector<int> front_;  // indices into points_ of the Pareto front, by time
    mutable std::vector<QPointF> units_;  // each point along the axes, 0..1 (pixelPositions)
    mutable std::pair<double, double> unit_x_, unit_y_;
    mutable std::pair<bool, bool> unit_log_;
    llm::SearchResult result_;
    double hbm_ = 0;
    std::int64_t seq_ = 0;
    Axes axes_ = Axes::TimeVsMemory;
    Colour colour_ = Colour::Tp;
    int chosen_ = -1;
    RankedPlansModel ranked_;
    TradeoffPlot* plot_;
    QTableView* table_;
    QComboBox* axes_box_;
    QComboBox* colour_box_;
    QSplitter* split_;
};

// The plot area: a cached raster of the points, the hover and chosen point drawn on top.
class TradeoffPlot : public QWidget {
    Q_OBJECT
public:
    explicit TradeoffPlot(TradeoffView* owner);
    void invalidate();  // data, axes or colours changed
    const llmview::PlotArea& area() const { return area_; }
    std::optional<int> hit(const QPointF& pos) const;

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    bool event(QEvent* event) override;

private:
    void rebuild();
    TradeoffView* owner_;
    llmview::PlotArea area_;
    QImage cache_;
    bool dirty_ = true;
    int hover_ = -1;
    // Spatial index: points by pixel cell (cell_ px square), as offsets into cell_points_.
    int cell_ = 8, cols_ = 0, rows_ = 0;
    std::vector<int> cell_start_, cell_points_;
    std::vector<QPointF> pos_;
};

}  // namespace partita
