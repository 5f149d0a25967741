#pragma once
// The study plots (issue #6 item 4): HyPar Fig. 11's scalability sweep,
// Fig. 12's H-tree versus torus, and one run's communication per layer. The
// view only draws data computed elsewhere (core/study/plots.h, in a worker).
#include <array>
#include <optional>

#include <QWidget>

#include "core/io/csv.h"
#include "core/study/plots.h"
#include "widgets/common/figure_export.h"

class QComboBox;
class QCustomPlot;
class QStackedWidget;

namespace partita {

class StudyView : public QWidget, public FigureSource {
    Q_OBJECT
public:
    enum class Plot { Scale = 0, Topology = 1, Layers = 2 };
    static constexpr int kPlots = 3;

    explicit StudyView(QWidget* parent = nullptr);

    // Each setter redraws its plot; the others keep their data.
    void setScaleStudy(const ScaleStudy& study);
    void setTopologyStudy(const TopologyStudy& study);
    void setLayerComm(const LayerComm& comm);

    void setPlot(Plot plot);  // the one shown, exported and given by csv()
    Plot plot() const;
    QCustomPlot* chart(Plot plot) const { return charts_[static_cast<size_t>(plot)]; }
    bool hasData(Plot plot) const;

    // The numbers behind a plot, units in the header (empty table without data).
    CsvTable csv() const { return csv(plot()); }
    CsvTable csv(Plot plot) const;

    // FigureSource: the shown plot, vector all the way (SVG/PDF keep text as text).
    QSize figureSize() const override;
    void paintFigure(QPainter& painter, const QRect& area) const override;

signals:
    void plotChanged(partita::StudyView::Plot plot);

private:
    static void stylePlot(QCustomPlot* plot);
    void fillScale();
    void fillTopology();
    void fillLayers();

    QComboBox* selector_ = nullptr;
    QStackedWidget* stack_ = nullptr;
    std::array<QCustomPlot*, kPlots> charts_{};
    std::optional<ScaleStudy> scale_;
    std::optional<TopologyStudy> topology_;
    std::optional<LayerComm> layers_;
};

}  // namespace partita
