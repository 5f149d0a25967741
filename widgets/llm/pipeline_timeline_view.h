#pragma once
// One iteration of an LLM plan as a Gantt (issue 29, item 4): per stage a compute lane (forward,
// recompute, backward blocks per micro-batch in the schedule's order) and a communication lane
// (exposed TP/SP collectives, PP sends), then the DP reduction and optimizer step; idle gaps are the
// bubble. Drawn by the simulator's Gantt canvas (zoom, pan, legend); hover gives a block's FLOPs,
// bytes and time. Exports: PNG/SVG/PDF (FigureSource), CSV of the blocks, Chrome-trace JSON (Perfetto).
#include <optional>

#include <QWidget>

#include "core/io/csv.h"
#include "core/llm/schedule.h"
#include "widgets/common/figure_export.h"

class QLabel;

namespace partita {

class GanttCanvas;

class PipelineTimelineView : public QWidget, public FigureSource {
    Q_OBJECT
public:
    explicit PipelineTimelineView(QWidget* parent = nullptr);

    // Shows a timeline and fits it.
    void setTimeline(llm::PipelineTimeline timeline);
    // Builds the timeline of a plan from its evaluation (llm::timelineCosts with bytes) and shows it.
    void setPlan(const llm::Transformer& model, const llm::Plan& plan, const llm::Profile& profile,
                 const llm::Evaluation& evaluation);
    void clear();
    const llm::PipelineTimeline& timeline() const { return timeline_; }
    GanttCanvas* canvas() const { return canvas_; }

    // The block (index into timeline().blocks) under a point of the canvas' viewport, and its text.
    std::optional<int> blockAt(const QPointF& viewport_pos) const;
    QString toolTipAt(const QPointF& viewport_pos) const;  // empty off the blocks
    QString blockToolTip(int block) const;                 // kind, stage, micro-batch, time, FLOPs, bytes
    QString summary() const;                               // the header line

    QSize figureSize() const override { return {1280, 800}; }
    void paintFigure(QPainter& painter, const QRect& area) const override;
    // Every block: lane, kind, stage, chunk, micro_batch, start_s, end_s, seconds, flops, bytes.
    CsvTable csv() const;
    std::string chromeTraceJson() const;
    QString exportChromeTrace(const QString& path) const;  // empty on success, else the message

signals:
    // The user clicked a block (index into timeline().blocks).
    void blockClicked(int block);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    llm::PipelineTimeline timeline_;
    QLabel* header_;
    GanttCanvas* canvas_;
};

}  // namespace partita
