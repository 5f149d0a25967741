#pragma once
// Stacked bars per layer (compute / weight traffic / tile traffic, or compute /
// communication), one stack per configuration side by side, so a method reads
// against its baseline layer by layer. A QCustomPlot chart over plain data.
#include <string>
#include <vector>

#include <QWidget>

#include "core/io/csv.h"
#include "widgets/common/figure_export.h"

class QCustomPlot;

namespace partita {

struct LayerBarsData {
    std::string title;
    std::string unit;                    // "s", "cycles": the axis takes an SI prefix
    std::vector<std::string> layers;     // categories on the x axis
    std::vector<std::string> parts;      // stacked parts, bottom first: "compute", "weights", "tiles"
    struct Stack {
        std::string name;                // "w_mp+*", "w_dp"
        std::vector<std::vector<double>> values;  // [part][layer]
    };
    std::vector<Stack> stacks;           // drawn side by side; the first solid, the others hatched
};

class LayerBars : public QWidget, public FigureSource {
    Q_OBJECT
public:
    explicit LayerBars(QWidget* parent = nullptr);
    // Throws std::invalid_argument when a stack's shape differs from parts x layers.
    void setData(LayerBarsData data);
    const LayerBarsData& data() const { return data_; }
    QCustomPlot* plot() const { return plot_; }
    // One row per (stack, layer) with every part and the total (units in the header).
    CsvTable csv() const;
    QSize figureSize() const override { return {900, 420}; }
    void paintFigure(QPainter& painter, const QRect& area) const override;

private:
    void rebuild();
    LayerBarsData data_;
    QCustomPlot* plot_ = nullptr;
};

}  // namespace partita
