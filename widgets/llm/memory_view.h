#pragma once
// Per stage, the bytes one GPU holds at its peak as a stacked bar (weights, gradients, optimizer
// state, activations, extras, working set, reserved) against the HBM capacity line. A plan that
// does not fit is drawn red and its title says which term to cut and by how much (Evaluation::cut).
#include <optional>

#include <QWidget>

#include "core/io/csv.h"
#include "widgets/common/figure_export.h"
#include "widgets/llm/llm_shown.h"

namespace partita {

class LlmMemoryView : public QWidget, public FigureSource {
    Q_OBJECT
public:
    explicit LlmMemoryView(QWidget* parent = nullptr);
    void setShown(const LlmShown& shown);
    // Stale: the inputs changed into something that cannot be evaluated; the last plan stays, greyed.
    void setStale(bool stale);
    bool stale() const { return stale_; }
    bool hasPlan() const { return shown_.has_value(); }
    const LlmShown& shown() const { return *shown_; }
    // One row per stage: each term and the total in GiB, the capacity, whether it fits.
    CsvTable csv() const;
    QString title() const;  // the headline the view paints (fits, or the cut)
    QSize figureSize() const override { return {900, 480}; }
    void paintFigure(QPainter& painter, const QRect& area) const override;
    QSize minimumSizeHint() const override { return {360, 240}; }

protected:
    void paintEvent(QPaintEvent*) override;
    bool event(QEvent* e) override;  // tool tips: the hovered stage's terms

private:
    int stageAt(const QPoint& p) const;
    std::optional<LlmShown> shown_;
    bool stale_ = false;
};

// The memory terms in stacking order (bottom first) with their names.
struct MemoryTerm {
    const char* name;
    double llm::StageMemory::*bytes;
};
const std::vector<MemoryTerm>& memoryTerms();

}  // namespace partita
