#pragma once
// The GPUs of an LLM plan as users think of them: pipeline stages across, each TP group's GPUs in a
// row inside its cell, data-parallel replicas down, coloured by stage, each stage's layers above its
// column and the cluster's nodes marked. Links that cross the slow tier (InfiniBand) are red and
// dashed. Large plans aggregate: at most 16 stage columns, and beyond 4 replicas the first and the last
// with "× N replicas" between (never thousands of cells). Hover: the group's collectives, sizes and times.
#include <vector>

#include "core/io/csv.h"
#include "widgets/llm/llm_figure.h"

namespace partita {

class LlmPlanView : public LlmFigure {
    Q_OBJECT
public:
    // A cell of the drawing: stages [first, last] of one replica (-1: the aggregated replicas' band).
    struct Cell {
        QRectF rect;
        std::int64_t first = 0, last = 0, replica = 0;
    };

    explicit LlmPlanView(QWidget* parent = nullptr) : LlmFigure("llm-plan", parent) {}
    // The cells as laid out in `area` (tests and hit testing).
    std::vector<Cell> cells(const QRect& area) const;
    QString title() const;       // "tp 8 × pp 8 × dp 1 = 64 GPUs on 8 nodes of 8"
    QString cellToolTip(const Cell& c) const;
    // One row per stage: layers, parameters per GPU, the tier of each dimension and its bytes.
    CsvTable csv() const;
    QSize figureSize() const override { return {1000, 560}; }
    void paintFigure(QPainter& painter, const QRect& area) const override;

protected:
    QString toolTipAt(const QPoint& pos) const override;
};

}  // namespace partita
