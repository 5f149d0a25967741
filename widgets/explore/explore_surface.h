#pragma once
// The 2^N exploration surface (HyPar Figs. 9-10): every point of an exploration
// as a heatmap cell, rows and columns the bit patterns of the two cell groups
// (view::surfaceRowDigits), coloured by performance normalised to DP or by total
// communication. DP (all chosen cells dp), HyPar's answer and the best point(s)
// are marked; hovering shows a point's numbers; clicking one emits its code.
#include <memory>
#include <string>
#include <vector>

#include <QWidget>

#include "core/search/explore.h"
#include "widgets/common/figure_export.h"
#include "widgets/geometry/heatmap.h"

namespace partita {

class ExploreSurface : public QWidget, public FigureSource {
    Q_OBJECT
public:
    enum class Metric { PerfVsDp, Communication };

    explicit ExploreSurface(QWidget* parent = nullptr);

    // `layer_names` name the layers the cells refer to; nullptr clears.
    void setResult(std::shared_ptr<const ExploreResult> result, std::vector<std::string> layer_names);
    void setMetric(Metric metric);
    Metric metric() const { return metric_; }
    void setLogScale(bool log);

    const view::SurfaceIndex& index() const { return index_; }
    QString rowTitle() const { return row_title_; }
    QString colTitle() const { return col_title_; }
    // The row or column label of a point: its group's digits, most significant first.
    QString rowLabel(int row) const;
    QString colLabel(int col) const;
    // Where a point's cell is drawn in widget coordinates (tests click there).
    QRectF cellRect(std::uint64_t code) const;
    std::vector<unsigned long long> peakCodes() const { return peaks_; }

    QSize figureSize() const override { return {1000, 760}; }
    void paintFigure(QPainter& painter, const QRect& area) const override;
    QSize sizeHint() const override { return {640, 520}; }

signals:
    void pointClicked(std::uint64_t code);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;

private:
    struct Frame {
        QRectF plot, bar;  // the cells, the colour bar
        int label_every_row = 1, label_every_col = 1;
        bool rotate_cols = false;
    };
    Frame frame(const QRect& area, const QFontMetricsF& fm) const;
    double value(std::uint64_t code) const;
    void recompute();
    QString pointText(std::uint64_t code) const;

    std::shared_ptr<const ExploreResult> result_;
    std::vector<std::string> layer_names_;
    Metric metric_ = Metric::PerfVsDp;
    bool log_ = false;
    view::SurfaceIndex index_;
    view::ColorScale scale_;
    std::vector<int> row_cells_, col_cells_;  // positions in result_->cells of each group's digits
    QString row_title_, col_title_;
    std::vector<unsigned long long> peaks_;
    long long hover_ = -1;
};

}  // namespace partita
