#pragma once
// Per stage, the bytes one GPU holds at its peak as a stacked bar (weights, gradients, optimizer
// state, activations, extras, working set, reserved) against the HBM capacity line. A plan that
// does not fit is drawn red and its title says which term to cut and by how much (Evaluation::cut).
#include <vector>

#include "core/io/csv.h"
#include "widgets/llm/llm_figure.h"

namespace partita {

class LlmMemoryView : public LlmFigure {
    Q_OBJECT
public:
    explicit LlmMemoryView(QWidget* parent = nullptr) : LlmFigure("llm-memory", parent) {}
    // One row per stage: each term and the total in GiB, the capacity, whether it fits.
    CsvTable csv() const;
    QString title() const;  // the headline the view paints (fits, or the cut)
    QSize figureSize() const override { return {900, 480}; }
    void paintFigure(QPainter& painter, const QRect& area) const override;

protected:
    QString toolTipAt(const QPoint& pos) const override;  // the hovered stage's terms

private:
    int stageAt(const QPoint& p) const;
};

}  // namespace partita
